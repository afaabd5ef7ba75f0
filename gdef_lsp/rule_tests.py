"""Rule tests (`*.test.moves`) and move scripts (`*.moves`) in the server: their documents, a "Run rule tests" code lens,
the run itself (gdef-test in a child process, bounded and cancellable), and failures
published as diagnostics at the lines of the test files.

Move scripts are not gdef: `install()` routes every textDocument/* request about one to the
handlers here (completion and hover of `?` assertions, the lens, their own diagnostics) and
answers the others as for a document they know nothing about, so no gdef feature reads a
move script as rules. It also adds the lens to game files that have tests. Call it once
every gdef feature is registered (make_server does). gdef_core.ide.rule_tests (and the
gdef_core.testing modules it reads) is imported when first needed, not when the server starts.
"""
from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from gdef_lsp.convert import LineIndex
from gdef_lsp.documents import Document, apply_change
from gdef_lsp.replies import refresh_code_lenses, refuse

if TYPE_CHECKING:
    from gdef_core.ide.rule_tests import Problem, RunReport

log = logging.getLogger("gdef_lsp")

RUN_COMMAND = "gdef.runRuleTests"
CANCEL_COMMAND = "gdef.cancelRuleTests"
SOURCE = "gdef-test"
DEFAULT_TIMEOUT = 300.0  # seconds a run may take before it is stopped
_NO_TESTS = 5  # gdef-test's exit code when the files hold no test
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
_CHILDREN: set[asyncio.subprocess.Process] = set()  # killed if the server exits mid-run


@dataclass(eq=False)
class Run:
    """One run of gdef-test for a lens (a test file's, or a game's over all its tests)."""

    files: tuple[str, ...]
    texts: dict[str, str | None]  # each test file as saved when the run started
    task: asyncio.Task | None = None
    report: RunReport | None = None
    outcome: str = "running"  # running, done, cancelled, timed out, failed
    detail: str = ""


class RuleTests:
    """The runs and their results, kept per server."""

    def __init__(self) -> None:
        self.runs: dict[str, Run] = {}  # lens owner (a test file or a game file) -> its last run
        self.latest: dict[str, Run] = {}  # test file -> the last finished run that covered it


def install(server) -> None:
    """Route requests about move scripts here, add the game-file lens, register the commands."""
    if getattr(server, "rule_tests", None) is not None:
        return
    server.rule_tests = RuleTests()
    features = server.protocol.fm.features
    own = {types.TEXT_DOCUMENT_DID_OPEN: _opened, types.TEXT_DOCUMENT_DID_CHANGE: _changed,
           types.TEXT_DOCUMENT_DID_CLOSE: _closed, types.TEXT_DOCUMENT_COMPLETION: _complete,
           types.TEXT_DOCUMENT_HOVER: _hover, types.TEXT_DOCUMENT_CODE_LENS: _lenses}
    for method, handler in list(features.items()):
        if method.startswith("textDocument/"):
            features[method] = _routed(server, method, handler, own.get(method))
    server.command(RUN_COMMAND)(run_command)
    server.command(CANCEL_COMMAND)(cancel_command)


def _routed(server, method: str, handler, mine):
    """`handler` for gdef files; for move scripts `mine`, or the answer for an unknown
    document. A game file's code lenses get the rule-test lens added."""

    def for_script(params):
        if mine is not None:
            return mine(server, params)
        if method == types.TEXT_DOCUMENT_DIAGNOSTIC:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        return None

    def is_script(params) -> bool:
        from gdef_core.ide import rule_tests

        document = getattr(params, "text_document", None)
        return document is not None and rule_tests.is_move_script(server.path_of(document.uri))

    if asyncio.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def routed(params):
            if is_script(params):
                return for_script(params)
            found = await handler(params)
            return _with_game_lens(server, params, found) if method == types.TEXT_DOCUMENT_CODE_LENS else found
    else:
        @functools.wraps(handler)
        def routed(params):
            if is_script(params):
                return for_script(params)
            found = handler(params)
            return _with_game_lens(server, params, found) if method == types.TEXT_DOCUMENT_CODE_LENS else found
    return routed


# ---------------------------------------------------------------- documents and diagnostics


def _opened(ls, params: types.DidOpenTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    ls.uris[path] = params.text_document.uri
    ls.documents[path] = Document(params.text_document.text, params.text_document.version)
    publish(ls, path)


def _changed(ls, params: types.DidChangeTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    document = ls.documents.get(path)
    if document is None:
        return
    for change in params.content_changes:
        document.text = apply_change(document.text, change, ls.workspace.position_codec)
    document.version = params.text_document.version
    publish(ls, path)


def _closed(ls, params: types.DidCloseTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    ls.documents.pop(path, None)
    publish(ls, path)  # the failures of the last run stay; problems of unsaved text go


def _text(ls, path: str) -> str | None:
    document = ls.documents.get(path)
    return document.text if document is not None else _read(path)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as handle:
            return handle.read()
    except OSError:
        return None


def publish(ls, path: str) -> None:
    """A test file's diagnostics: lines that cannot be read (open files), and the failures
    of the last run that covered it while its text is still the text that ran."""
    from gdef_core.ide import rule_tests

    document = ls.documents.get(path)
    text = _text(ls, path) or ""
    problems: list[Problem] = rule_tests.syntax_problems(path, text) if document is not None else []
    run = ls.rule_tests.latest.get(path)
    if run is not None and run.report is not None and run.texts.get(path) == text:
        problems += run.report.problems(path)
    index = LineIndex(text, ls.workspace.position_codec)
    found = [_diagnostic(problem, index) for problem in problems]
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        ls.uri_of(path), found, version=document.version if document is not None else None))


def _diagnostic(problem: Problem, index: LineIndex) -> types.Diagnostic:
    line = min(problem.line, len(index.lines) - 1)
    content = index.lines[line]
    end = len(content.rstrip()) if problem.end_column < 0 else problem.end_column
    start = min(problem.column, end)
    return types.Diagnostic(range=types.Range(index.position(line, start), index.position(line, max(end, start))),
                            message=problem.message, severity=_SEVERITY[problem.severity], source=SOURCE)


# ---------------------------------------------------------------- completion and hover


def _complete(ls, params: types.CompletionParams) -> types.CompletionList:
    from gdef_core.ide import rule_tests

    path = ls.path_of(params.text_document.uri)
    text = _text(ls, path) or ""
    line, column = LineIndex(text, ls.workspace.position_codec).core_position(params.position)
    variables, objects = _names_of_game(ls, path, text)
    kinds = {"keyword": types.CompletionItemKind.Keyword, "game variable": types.CompletionItemKind.Variable,
             "object": types.CompletionItemKind.EnumMember}
    items = [types.CompletionItem(
        label=c.label, kind=kinds.get(c.kind.value, types.CompletionItemKind.Text), detail=c.detail,
        documentation=types.MarkupContent(types.MarkupKind.Markdown, c.documentation) if c.documentation else None,
        insert_text=c.insert_text or c.label, sort_text=f"{c.sort_group}{c.label}")
        for c in rule_tests.complete(text, line, column, variables, objects)]
    return types.CompletionList(is_incomplete=False, items=items)


def _names_of_game(ls, path: str, text: str) -> tuple[list[str], list[str]]:
    """The game variables and objects of the game a test file tests (for `? var`, `? square`)."""
    from gdef_core.ide import rule_tests

    games = rule_tests.game_of(path, text)
    if isinstance(games, rule_tests.Problem) or not games:
        return [], []
    program = ls.session.recent_analyses(games[0])[0].program
    return list(program.game_vars), list(program.objects)


def _hover(ls, params: types.HoverParams) -> types.Hover | None:
    from gdef_core.ide import rule_tests

    path = ls.path_of(params.text_document.uri)
    text = _text(ls, path) or ""
    index = LineIndex(text, ls.workspace.position_codec)
    found = rule_tests.hover(text, *index.core_position(params.position))
    if found is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, found.markdown),
                       types.Range(index.position(found.line, found.column), index.position(found.line, found.end_column)))


# ---------------------------------------------------------------- lenses


def _lenses(ls, params: types.CodeLensParams) -> list[types.CodeLens]:
    from gdef_core.ide import rule_tests

    uri = params.text_document.uri
    path = ls.path_of(uri)
    if not rule_tests.is_test_file(path):
        return []  # a --moves script: played by gdef-run, not a test
    return [_lens(ls, path, uri, types.Range(types.Position(0, 0), types.Position(0, 0)))]


def _with_game_lens(ls, params: types.CodeLensParams, found):
    """A game file's lenses, and "Run rule tests" beside "Run game" when tests test it."""
    from gdef_core.ide import rule_tests

    found = list(found or [])
    path = ls.path_of(params.text_document.uri)
    if not found or not rule_tests.tests_of_game(path):
        return found
    return found + [_lens(ls, path, params.text_document.uri, found[0].range)]


def _lens(ls, owner: str, uri: str, where: types.Range) -> types.CodeLens:
    run = ls.rule_tests.runs.get(owner)
    if run is not None and run.outcome == "running":
        return types.CodeLens(where, types.Command("■ Running rule tests… (click to cancel)", CANCEL_COMMAND,
                                                   tooltip="Stop gdef-test", arguments=[uri]))
    title = "▶ Run rule tests"
    if run is not None:
        title += " · " + _summary(ls, run)
    return types.CodeLens(where, types.Command(title, RUN_COMMAND, tooltip=_TOOLTIP, arguments=[uri]))


_TOOLTIP = "Run gdef-test on the saved files; failures are shown at their lines"


def _summary(ls, run: Run) -> str:
    if run.outcome != "done":
        return run.outcome + (f" ({run.detail})" if run.detail else "")
    mark = "✓" if run.report.ok else "✗"
    edited = any(_text(ls, path) != run.texts.get(path) for path in run.files)
    return f"{mark} {run.report.summary()}" + (" (edited since)" if edited else "")


# ---------------------------------------------------------------- running


def run_command(ls, uri: str) -> str:
    """Start the rule tests of `uri` (a test file, or a game file: all its tests) in the
    background; a run already going for it is cancelled first. Returns what started."""
    from gdef_core.ide import rule_tests

    if not isinstance(uri, str):
        raise refuse(f"{RUN_COMMAND} takes one argument: the URI of a {rule_tests.SUFFIX} or .gdef file")
    owner = ls.path_of(uri)
    files = [owner] if rule_tests.is_test_file(owner) else rule_tests.tests_of_game(owner)
    if not files:
        raise refuse(f"no {rule_tests.SUFFIX} file tests {os.path.basename(owner)}: write one beside it "
                      f"(NAME{rule_tests.SUFFIX}) or name the game in its first line (`# game: PATH`)")
    _cancel(ls, owner)
    run = Run(tuple(files), {path: _read(path) for path in files})
    ls.rule_tests.runs[owner] = run
    run.task = asyncio.get_running_loop().create_task(_run(ls, owner, run))
    refresh_code_lenses(ls)
    return f"running {len(files)} test file{'s' if len(files) > 1 else ''}"


def cancel_command(ls, uri: str) -> bool:
    """Stop the run of `uri`'s lens, if one is going (true if one was)."""
    if not isinstance(uri, str):
        raise refuse(f"{CANCEL_COMMAND} takes one argument: the URI the run was started for")
    stopped = _cancel(ls, ls.path_of(uri))
    refresh_code_lenses(ls)
    return stopped


def _cancel(ls, owner: str) -> bool:
    run = ls.rule_tests.runs.get(owner)
    if run is None or run.outcome != "running" or run.task is None:
        return False
    run.task.cancel()
    run.outcome = "cancelled"
    return True


async def _run(ls, owner: str, run: Run) -> None:
    from gdef_core.ide import rule_tests

    folder = tempfile.mkdtemp(prefix="gdef-test-")
    junit = os.path.join(folder, "report.xml")
    process = None
    try:
        process = await asyncio.create_subprocess_exec(
            *rule_tests.command(list(run.files), junit), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, cwd=os.path.dirname(owner))
        _CHILDREN.add(process)
        timeout = getattr(ls.settings, "rule_test_timeout", DEFAULT_TIMEOUT)
        try:
            _, stderr = await asyncio.wait_for(process.communicate(), timeout)
        except asyncio.TimeoutError:
            run.outcome, run.detail = "timed out", f"stopped after {timeout:g} s"
            return
        report_text = _read(junit) or ""
        try:
            run.report = rule_tests.read_report(report_text, stderr.decode("utf-8", "replace"))
        except Exception as error:  # a report gdef-test did not finish writing
            run.outcome, run.detail = "failed", f"unreadable report: {error}"
            return
        if not run.report.cases and not run.report.file_problems and process.returncode != _NO_TESTS:
            run.outcome, run.detail = "failed", _last_line(stderr) or f"gdef-test exited with {process.returncode}"
            return
        run.outcome = "done"
        for path in run.files:
            ls.rule_tests.latest[path] = run
            publish(ls, path)
    except asyncio.CancelledError:
        run.outcome = "cancelled"
    except OSError as error:
        run.outcome, run.detail = "failed", f"gdef-test did not start: {error.strerror or error}"
    finally:
        if process is not None:
            _CHILDREN.discard(process)
            if process.returncode is None:
                process.kill()
                await asyncio.shield(process.wait())
        shutil.rmtree(folder, ignore_errors=True)
        if run.outcome != "done":
            log.info("rule tests of %s: %s %s", owner, run.outcome, run.detail)
        refresh_code_lenses(ls)


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else ""


@atexit.register
def _kill_children() -> None:
    for process in list(_CHILDREN):
        if process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass
