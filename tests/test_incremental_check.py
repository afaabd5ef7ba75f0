"""gdef_core.semantics.incremental: checking successive versions of a game while reusing
per-function results gives exactly what checker.check() gives on each version.

Long seeded random edit sessions (insertions, deletions, renames of one name or of every
occurrence, changed types and signatures, broken syntax, moved lines, undo) run over the
examples, a game split over two files, and a generated game. After every edit both checkers
see the same modules (parsed through the language server's per-definition cache, which is
what hands back unchanged definitions as the same nodes) and must agree on every diagnostic,
every resolved name and every expression type.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from gdef_core.ide.parse_cache import ParseCache
from gdef_core.project import Workspace
from gdef_core.semantics.checker import check
from gdef_core.semantics.incremental import IncrementalChecker
from gdef_core.semantics.program import Program

from generated_game import generated
from support import EXAMPLES, ROOT

_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_SNIPPETS = ["{", "}", "(", ")", ";", "\n", " ", ",", "=", "==", "+", "-", "*", "!", "&&", "[", "]",
             "define ", "int ", "float ", "bool ", "obj ", "return ", "return;", "if (", "else ",
             "while (", "for (", "break;", "continue;", "true", "false", "0", "1", "2.5", "/*", "*/",
             "//", "-> int", "-> bool", "empty", "empt", "O", "X", "CurrentPosition[0][0]",
             "addMove(0, 0, 0)", "operationsNum()", "if (CurrentPosition[0][0] != 0) { }", "define extra(int a) -> int { return a; }\n",
             "int g = 1;\n", "obj Z\n", "start { (0, 0: X) }\n", "players: 2\n"]
_KEYWORDS = {"define", "int", "float", "bool", "obj", "return", "if", "else", "while", "for", "break",
             "continue", "true", "false", "use", "start", "name", "players", "size", "counter"}
_SWAPS = [("int", "float"), ("int", "bool"), ("-> int", ""), ("-> bool", "-> int"), ("obj", "int"),
          ("(int", "(float"), (", int", ""), ("return", "retrun")]


def _edit(rnd: random.Random, text: str) -> str:
    """One random edit of the kinds typing, refactoring and mistakes make."""
    kind = rnd.random()
    words = _WORD.findall(text) or ["x"]
    at = rnd.randrange(len(text) + 1)
    if kind < 0.25:  # insert a token or a line
        snippet = rnd.choice(_SNIPPETS + words[:200] + [_typo(rnd, rnd.choice(words))])
        return text[:at] + snippet + text[at:]
    if kind < 0.30:  # a new top-level name like an existing one ("did you mean" changes)
        name = _typo(rnd, rnd.choice(words))
        return text + rnd.choice([f"define {name}() {{ }}\n", f"obj {name}\n", f"int {name} = 0;\n", "obj O\n"])
    if kind < 0.50:  # delete a few characters, or a line
        if rnd.random() < 0.3:
            lines = text.split("\n")
            del lines[rnd.randrange(len(lines))]
            return "\n".join(lines)
        return text[:at] + text[at + rnd.randint(1, 12):]
    if kind < 0.65:  # rename every occurrence of a name (to a new name or an existing one)
        old = rnd.choice([word for word in words if word not in _KEYWORDS] or ["x"])
        new = rnd.choice([old + "2", rnd.choice(words), "tmp", "helper", "X"])
        return re.sub(rf"\b{re.escape(old)}\b", new, text)
    if kind < 0.75:  # rename one occurrence
        found = list(_WORD.finditer(text))
        if found:
            match = rnd.choice(found)
            return text[:match.start()] + rnd.choice([match.group() + "x", rnd.choice(words)]) + text[match.end():]
        return text
    if kind < 0.85:  # change a type or a signature
        old, new = rnd.choice(_SWAPS)
        places = [m.start() for m in re.finditer(re.escape(old), text)]
        if places:
            place = rnd.choice(places)
            return text[:place] + new + text[place + len(old):]
        return text
    # move a line elsewhere (definitions change order, lines shift)
    lines = text.split("\n")
    line = lines.pop(rnd.randrange(len(lines)))
    lines.insert(rnd.randrange(len(lines) + 1), line)
    return "\n".join(lines)


def _typo(rnd: random.Random, word: str) -> str:
    at = rnd.randrange(len(word))
    return rnd.choice([word[:at] + word[at + 1:], word[:at] + word[at] + word[at:], word.lower()]) or "x"


def _describe(program: Program) -> tuple:
    """Everything the checker hands on, in a form two programs can be compared by."""
    symbols = {id(symbol): name for name, symbol in program.symbols.items()}
    references = [(id(name), symbol.kind, symbol.name, symbol.type, id(symbol.decl), id(symbol.function),
                   symbols.get(id(symbol)))  # a top-level symbol is the one in program.symbols
                  for name, symbol in program.references.items()]
    return (program.diagnostics, sorted(references, key=repr),
            sorted((id(node), kind) for node, kind in program.expr_types.items()),
            program.name, program.players, program.width, program.height, program.is_library,
            {name: id(decl) for name, decl in program.functions.items()},
            {name: id(decl) for name, decl in program.objects.items()},
            {name: id(decl) for name, decl in program.game_vars.items()}, id(program.start))


def _session(rnd: random.Random, files: dict[Path, str], entry: Path, edits: int) -> int:
    """Edit `files` (the game `entry` and what it uses) `edits` times; returns how many
    function results the incremental checker reused."""
    cache, checker = ParseCache(), IncrementalChecker()
    texts = {str(path): text for path, text in files.items()}
    history: list[dict[str, str]] = []
    reused = 0
    for step in range(edits):
        if history and rnd.random() < 0.1:  # undo: the old definitions come back as old nodes
            texts = history.pop(rnd.randrange(max(0, len(history) - 3), len(history)))
        else:
            history.append(dict(texts))
            path = rnd.choice(sorted(texts))
            texts[path] = _edit(rnd, texts[path])
        modules, diagnostics = Workspace(texts, parse=cache.parse).load([str(entry)])
        # the cache moves the nodes of definitions that only moved: as if parsed afresh
        fresh, fresh_diagnostics = Workspace(texts, parse=ParseCache().parse).load([str(entry)])
        assert repr((modules, diagnostics)) == repr((fresh, fresh_diagnostics)), f"step {step}"
        incremental = checker.check(modules, diagnostics)
        full = check(modules, diagnostics)
        assert _describe(incremental) == _describe(full), f"step {step}: {texts}"
        reused += checker.reused
    return reused


GAMES = ["tictactoe.gdef", "connect4.gdef", "checkers.gdef", "reversi.gdef", "breakthrough.gdef",
         "gomoku.gdef", "chess/chess.gdef"]


@pytest.mark.parametrize("name", GAMES)
def test_random_edit_sessions_on_the_examples(name):
    path = EXAMPLES / name
    reused = _session(random.Random(name), {path: path.read_text(encoding="utf-8")}, path, edits=60)
    assert reused > 0  # the point of it: most functions were not checked again


def test_random_edit_session_on_a_game_split_over_two_files():
    folder = EXAMPLES / "tictactoe-split"
    files = {path: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.gdef"))}
    _session(random.Random(12), files, folder / "tictactoe.gdef", edits=200)


def test_random_edit_session_on_a_generated_game():
    text = generated(200)
    path = ROOT / "generated.gdef"  # never written: the text is an editor's buffer
    _session(random.Random(3), {path: text}, path, edits=120)


def test_an_unchanged_game_reuses_every_function_and_an_edit_rechecks_only_what_it_touches():
    path = str(ROOT / "generated.gdef")
    text = generated(200)
    cache, checker = ParseCache(), IncrementalChecker()
    functions = text.count("define ")

    def run(source: str) -> Program:
        return checker.check(*Workspace({path: source}, parse=cache.parse).load([path]))

    run(text)
    assert (checker.checked, checker.reused) == (functions, 0)
    run(text)
    assert (checker.checked, checker.reused) == (0, functions)
    # a body edit: that function only
    run(text.replace("int count = a * 3 + 1;", "int count = a * 4 + 1;", 1))
    assert checker.checked == 1
    # a syntax error in a body: that function only, and back
    run(text.replace("int count = a * 3 + 1;", "int count = a * 3 +", 1))
    assert checker.checked == 1
    run(text)
    assert checker.checked == 0
    # a new line at the top: every function moves, none is checked again, and the
    # diagnostics move with them
    broken = text.replace("return count;", "return count > 1;")  # G305 in every helper
    run(broken)
    moved = run("\n\n" + broken)
    assert checker.checked == 0
    assert moved.diagnostics == check(*Workspace({path: "\n\n" + broken}).load([path])).diagnostics
    assert {d.code for d in moved.diagnostics} == {"G305", "G502"}  # (the last helper is unused)
    run(text)
    # a changed signature: the function and its one caller (helper4 calls helper3)
    edited = text.replace("define helper3(int a, obj o) -> int", "define helper3(int a, obj o) -> bool")
    program = run(edited)
    assert checker.checked == 2
    assert [(d.code, d.span.line) for d in program.diagnostics] == \
        [(d.code, d.span.line) for d in check(*Workspace({path: edited}).load([path])).diagnostics]
    assert {d.code for d in program.diagnostics} >= {"G305", "G301"}


def _checked_twice(first: str, second: str, reused: bool = True) -> tuple[Program, Program]:
    """The second text checked after the first by one incremental checker, and alone (with
    `reused`, some function must have been reused)."""
    path = str(ROOT / "game.gdef")
    cache, checker = ParseCache(), IncrementalChecker()
    checker.check(*Workspace({path: first}, parse=cache.parse).load([path]))
    modules, diagnostics = Workspace({path: second}, parse=cache.parse).load([path])
    incremental = checker.check(modules, diagnostics)
    assert checker.reused >= 1 or not reused
    return incremental, check(modules, diagnostics)


HEADER = "players: 2\nsize: 3 x 3\nobj X\ndefine isMoveLegal() -> bool { return true; }\n" \
         "define end() -> bool { return false; }\n"


def test_a_new_name_elsewhere_changes_the_did_you_mean_of_an_unchanged_function():
    body = "define f() -> bool {\n  return colour == X;\n}\n"
    # on the line of `obj X`, so that f stays where it is (and stays the same node)
    incremental, full = _checked_twice(HEADER + body, HEADER.replace("obj X", "obj X obj color") + body)
    assert incremental.diagnostics == full.diagnostics
    assert any("did you mean 'color'" in d.message for d in full.diagnostics)


def test_declaring_the_object_O_elsewhere_adds_its_suggestion_to_an_unchanged_function():
    body = "define f() -> bool {\n  return CurrentPosition[0][0] != 0;\n}\n"
    incremental, full = _checked_twice(HEADER + body, HEADER.replace("obj X", "obj X obj O") + body, reused=False)
    assert incremental.diagnostics == full.diagnostics
    assert any(s.message == "did you mean the object 'O'?" for d in full.diagnostics for s in d.suggestions)


@pytest.mark.parametrize("name", [*GAMES, "tictactoe-split/tictactoe.gdef"])
def test_definitions_that_only_moved_keep_their_nodes_and_read_as_parsed_afresh(name):
    path = str(EXAMPLES / name)
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    cache = ParseCache()
    before = list(cache.parse(text, path).module.functions())
    for edited in ("\n\n" + text, text, "// a new first line\n" + text.replace("\ndefine ", "\n\ndefine ", 1)):
        found = cache.parse(edited, path)
        fresh = ParseCache().parse(edited, path)
        assert repr(found.module) == repr(fresh.module)
        assert repr(found.diagnostics) == repr(fresh.diagnostics)
        moved = list(found.module.functions())
        assert sum(a is b for a, b in zip(before, moved)) >= len(before) - 2  # the same nodes, moved
