"""Shared fixtures of the test suite. What test files import (the repository root, the optional
parts a test needs, the console scripts) is in tests/support.py: a conftest is not meant to be
imported."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# What may stay in the temporary folder: lark's parse-table cache (one file per grammar and
# Python version, reused by every later run), Dask's scratch folder (shared by every Dask run:
# gdef-sim --cluster, its tests' workers), and multiprocessing's folder of this very process
# (removed when the process exits, after this check).
KEPT = (".lark_cache_", "dask-scratch-space", "pymp-")


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind(tmp_path_factory):
    """The suite writes nothing into the user's folders and leaves nothing in the temporary one.

    Records of games without --record and the prompt's history go to the user's state folder
    (gdef_core.user_state): XDG_STATE_HOME points it at a folder of this run; XDG_CACHE_HOME
    likewise keeps the native compiles that computer players and hints start in the background
    (gdef_core/play/background_compile.py) out of the user's cache. The temporary
    folder (TMPDIR, inherited by every gdef process a test starts) is a fresh one inside pytest's
    own, checked empty at the end: a test or a tool that leaves a file there fails the run,
    naming the file.
    """
    base = tmp_path_factory.getbasetemp()  # pytest's own folder (it keeps the last three runs)
    state = base / "xdg-state"
    private = base / "tmp"
    private.mkdir()
    saved = {name: os.environ.get(name) for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "TMPDIR")}
    os.environ["XDG_STATE_HOME"] = str(state)
    os.environ["XDG_CACHE_HOME"] = str(base / "xdg-cache")
    os.environ["TMPDIR"] = str(private)
    tempfile.tempdir = None
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        tempfile.tempdir = None
        left = sorted(name for name in os.listdir(private) if not name.startswith(KEPT))
        assert not left, f"the suite left these in the temporary folder {private}: {', '.join(left)}"


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    """The native backend's module cache for this session (GDEF_CACHE_DIR): empty at first, as
    on a fresh machine, and shared by every native test so that each game compiles once.
    `scripts/test.sh --quick` keeps one between runs instead (GDEF_TEST_NATIVE_CACHE)."""
    kept = os.environ.get("GDEF_TEST_NATIVE_CACHE")
    path = Path(kept) if kept else tmp_path_factory.mktemp("gdef-native-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path))
        yield path


@pytest.fixture
def web():
    """Starts `gdef-run --web` processes (web_support.WebRun) for a test; closes them after it."""
    from web_support import WebRun

    runs = []

    def start(*args: str, **options) -> WebRun:
        run = WebRun(*args, **options)
        runs.append(run)
        return run

    yield start
    for run in runs:
        run.close()


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright, launched once per module of browser tests (skipped, or failed
    in CI, where either is missing: web_support.playwright_or_skip)."""
    from web_support import playwright_or_skip

    playwright_api, chromium = playwright_or_skip()
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def open_board(browser, web):
    """open_board(*gdef-run arguments, **WebRun options) -> (the board page, the running
    `gdef-run --web`), the page loaded; no page may raise a JavaScript error."""
    from web_support import playwright_or_skip

    expect = playwright_or_skip()[0].expect
    opened = []

    def open_(*args: str, **options):
        run = web(*args, **options)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        opened.append((page, errors))
        page.goto(run.url)
        expect(page.locator("#status")).not_to_have_text("Loading…")
        return page, run

    yield open_
    for page, errors in opened:
        page.close()
        assert errors == [], f"the page raised: {errors}"
