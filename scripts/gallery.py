"""The gallery (docs/gallery.md): every example game's board page, photographed in a real browser.

For each game of examples/ (every .gdef file that is a game, not a library) this starts
`gdef-run --web --no-browser` on it, opens the page in Chromium through Playwright (Debian's
`chromium`, or $GDEF_CHROMIUM), plays a few moves chosen from the legal-move list with a fixed
seed, as a person clicking it would, and photographs the board; for chess and einstein also the
whole page (docs/images/web-board.png: a piece selected, its targets marked; web-chance.png: the
Roll button of a chance node; both in docs/web.md). docs/gallery.md is written from the same
list, so the page and its images always match the examples.

    python scripts/gallery.py              write docs/images/gallery/*.png and docs/gallery.md
    python scripts/gallery.py --check      fail when docs/gallery.md or an image is missing or stale
    python scripts/gallery.py --out DIR    write DIR/images/gallery/*.png and DIR/gallery.md
    python scripts/gallery.py --games go9  photograph only these games (gallery.md unchanged)

Needs the dev extras (playwright) and Chromium (scripts/bootstrap.sh installs both).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))  # the web tests' gdef-run --web and Chromium finder

from gdef_core.loader import load_program  # noqa: E402
from web_support import WebRun, chromium_path  # noqa: E402

VIEWPORT = {"width": 1100, "height": 820}
SEED = 29
MOVES = {"go9": 40, "go19": 60, "gomoku": 16, "reversi": 16, "connect4": 12, "backgammon": 13}  # per game name; else:
DEFAULT_MOVES = 8
IMAGES = "images/gallery"
# The games photographed whole page too (docs/web.md shows them): chess with a piece selected,
# einstein waiting for a roll (after 8 moves, a player's move: its die is next)
PAGES = {"chess": "images/web-board.png", "einstein": "images/web-chance.png"}


@dataclass(frozen=True)
class Example:
    name: str  # the game's name (its `name:`), unique among the examples
    path: Path  # the game file, relative to the repository

    @property
    def image(self) -> str:
        return f"{IMAGES}/{self.name}.png"


def examples() -> list[Example]:
    """Every game of examples/, by file path; a game named twice keeps its first file."""
    found: dict[str, Example] = {}
    for path in sorted((ROOT / "examples").rglob("*.gdef")):
        program = load_program([str(path)])
        if program.is_library or not program.ok:
            continue
        found.setdefault(program.name, Example(program.name, path.relative_to(ROOT)))
    return list(found.values())


def markdown(games: list[Example]) -> str:
    lines = ["# Gallery", "",
             "Every example game on the board page of `gdef-run --web` ([web.md](web.md)), a few moves in,",
             "photographed in Chromium by `scripts/gallery.py` (never by hand; `tests/test_gallery.py`",
             "checks that this page and its images follow the examples). The pieces, the board's style,",
             "the coordinates and the players' names are the games' own `show` declarations.", ""]
    for game in games:
        moves = MOVES.get(game.name, DEFAULT_MOVES)
        lines += [f"## {game.name}", "", f"`gdef-run --web {game.path}`, after {moves} moves chosen at random:", "",
                  f"![{game.name} on the board page]({game.image})", ""]
    return "\n".join(lines)


def photograph(browser, game: Example, out: Path, scratch: Path, whole_page: Path | None = None) -> None:
    """The board of `game` a few moves in; with `whole_page`, also the whole page there: at a
    chance node with its Roll button, else a piece of the player on turn selected with its
    targets marked."""
    from playwright.sync_api import expect

    server = WebRun("--record", str(scratch / f"{game.name}.json"), str(game.path))
    page = browser.new_page(viewport=VIEWPORT)
    try:
        page.goto(server.url)
        expect(page.locator("#status")).not_to_have_text("Loading…")
        rng = random.Random(SEED)
        for number in range(MOVES.get(game.name, DEFAULT_MOVES)):
            legal = page.locator("#legal li:not(.muted):not(.failure)")
            if page.locator("#banner").is_visible() or legal.count() == 0:
                break
            legal.nth(rng.randrange(legal.count())).click()
            expect(page.locator("#moves li")).to_have_count(number + 1)
        page.locator("#message").evaluate("box => box.textContent = ''")
        page.locator("h1").hover()  # no move of the list hovered: its squares would be highlighted
        page.locator("#board-wrap").screenshot(path=str(out / game.image), animations="disabled")
        if whole_page is not None and page.locator("#roll").is_visible():
            expect(page.locator("#status")).to_contain_text("to roll")
            page.screenshot(path=str(whole_page), animations="disabled")
        elif whole_page is not None:
            moves = page.locator("#legal li:not(.muted)")
            first = moves.nth(rng.randrange(moves.count())).get_attribute("title")  # its operations
            x, y = re.search(r"clear\((\d+),(\d+)\)", first).groups()
            page.locator(f'.sq[data-x="{x}"][data-y="{y}"]').click()  # the piece that move takes
            expect(page.locator(".sq.target").first).to_be_visible()
            page.locator("h1").hover()
            page.screenshot(path=str(whole_page), animations="disabled")
    finally:
        page.close()
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where gallery.md and images/ go (default: docs)")
    parser.add_argument("--check", action="store_true", help="only check that the gallery follows the examples")
    parser.add_argument("--games", help="photograph only these games (names, comma-separated); "
                                        "gallery.md is then left as it is")
    args = parser.parse_args(argv)
    games = examples()
    page = markdown(games)
    chosen = games
    if args.games:
        wanted = set(args.games.split(","))
        chosen = [game for game in games if game.name in wanted]
        unknown = wanted - {game.name for game in chosen}
        if unknown:
            parser.error(f"no example game is called {', '.join(sorted(unknown))}")
    if args.check:
        problems = []
        written = args.out / "gallery.md"
        if not written.is_file() or written.read_text(encoding="utf-8") != page:
            problems.append(f"{written} does not follow the examples")
        problems += [f"{args.out / game.image} is missing" for game in games if not (args.out / game.image).is_file()]
        problems += [f"{args.out / image} is missing" for image in PAGES.values() if not (args.out / image).is_file()]
        for problem in problems:
            print(f"gallery: {problem}; run python scripts/gallery.py", file=sys.stderr)
        return 1 if problems else 0
    chromium = chromium_path()
    if chromium is None:
        print("gallery: Chromium is missing (apt-get install chromium, or set GDEF_CHROMIUM)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    os.environ["PYTHONPATH"] = str(ROOT)  # the pages photographed are this checkout's

    (args.out / IMAGES).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            for game in chosen:
                whole_page = args.out / PAGES[game.name] if game.name in PAGES else None
                photograph(browser, game, args.out, Path(scratch), whole_page)
                print(f"{game.image}: {game.path}")
                if whole_page is not None:
                    print(f"{PAGES[game.name]}: {game.path}")
        finally:
            browser.close()
    if not args.games:
        (args.out / "gallery.md").write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
