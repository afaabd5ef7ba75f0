"""gdef_core.ide.inlay: parameter names before literal arguments."""
from __future__ import annotations

from gdef_core.ide.inlay import InlayHint, inlay_hints

from ide_support import ENTRY, HEADER, session

GAME = HEADER + 'use "lib.gdef"\nstart { (0, 0: X), (1, 1: O) }\n' + """define f(int a, bool b, float c) -> int { return a; }
define moves() {
  int n = f(3, true, -1.5);
  addPlace(0, n, X);
  n = f(n, false, 2.0) + f(-n, b(), 1);
  setWinner(helper(7));
}
define b() -> bool { return true; }
""" + ENTRY
LIBRARY = "define helper(int count) -> int { return count; }\n"


def hints(tmp_path, first=0, last=None):
    s = session(tmp_path, {"g.gdef": GAME, "lib.gdef": LIBRARY})
    path = str(tmp_path / "g.gdef")
    return [(h.line, h.column, h.label) for h in inlay_hints(s.analyses(path), path, first, last)]


def test_literal_arguments_of_user_functions_builtins_and_library_functions_are_named(tmp_path):
    assert hints(tmp_path) == [
        (9, 12, "a:"), (9, 15, "b:"), (9, 21, "c:"),  # f(3, true, -1.5): the minus belongs to the literal
        (10, 11, "x:"),  # addPlace(0, n, X): from builtins.py; names and objects get none
        (11, 11, "b:"), (11, 18, "c:"), (11, 36, "c:"),
        (12, 19, "count:"),  # helper() from the used library; setWinner(helper(7)) is not a literal
    ]


def test_start_squares_get_no_hints(tmp_path):
    assert hints(tmp_path, 5, 6) == []  # the `start` line and the line of f's definition


def test_only_the_asked_lines(tmp_path):
    assert hints(tmp_path, 10, 10) == [(10, 11, "x:")]


def test_unresolved_and_surplus_arguments_get_none(tmp_path):
    text = HEADER + "define g(int a) {}\ndefine moves() { g(1, 2); nope(3); }\n" + ENTRY
    s = session(tmp_path, {"h.gdef": text})
    path = str(tmp_path / "h.gdef")
    assert inlay_hints(s.analyses(path), path) == [InlayHint(6, 19, "a:")]
