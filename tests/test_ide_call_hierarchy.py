"""gdef_core.ide.call_hierarchy: callers and callees across a library shared by two games."""
from __future__ import annotations

from gdef_core.ide.call_hierarchy import incoming, outgoing, prepare

from ide_support import HEADER, session

LIBRARY = """define onBoard(int x, int y) -> bool { return x >= 0 && y >= 0; }
define lineFrom(int x, int y) -> bool { return onBoard(x, y) && onBoard(x + 1, y) && mark(x); }
"""
GAME_A = HEADER + 'use "lib.gdef"\n' + """define mark(int x) -> bool { return x > 0; }
define isMoveLegal() -> bool { return lineFrom(0, 0); }
define end() -> bool { return lineFrom(1, 1) || onBoard(2, 2); }
"""
GAME_B = HEADER.replace("name: g", "name: h") + 'use "lib.gdef"\n' + """define mark(int x) -> bool { return x < 0; }
define isMoveLegal() -> bool { return true; }
define end() -> bool { return lineFrom(2, 2); }
"""


def files(tmp_path):
    s = session(tmp_path, {"lib.gdef": LIBRARY, "a.gdef": GAME_A, "b.gdef": GAME_B})
    return s, str(tmp_path / "lib.gdef"), str(tmp_path / "a.gdef"), str(tmp_path / "b.gdef")


def test_prepare_on_a_call_or_a_definition_names_the_function(tmp_path):
    s, lib, a, _ = files(tmp_path)
    (item,) = prepare(s.analyses(a), a, 8, 32)  # lineFrom in end() of a.gdef
    assert (item.name, item.detail, item.selection.file, item.selection.start, item.span.start) == \
        ("lineFrom", "lineFrom(int x, int y) -> bool", lib, (1, 7), (1, 0))
    assert prepare(s.analyses(lib), lib, 0, 8)[0].name == "onBoard"
    assert prepare(s.analyses(a), a, 8, 25) == []  # `return`: no function
    assert prepare(s.analyses(lib), lib, 0, 16) == []  # a parameter


def test_incoming_calls_come_from_every_game_using_the_library(tmp_path):
    s, lib, a, b = files(tmp_path)
    found = incoming(s.analyses, lib, 1, 7)  # lineFrom
    assert [(e.item.name, e.item.selection.file, [sp.start for sp in e.spans]) for e in found] == [
        ("isMoveLegal", a, [(7, 38)]), ("end", a, [(8, 30)]), ("end", b, [(8, 30)])]
    on_board = incoming(s.analyses, lib, 0, 7)
    assert [(e.item.name, len(e.spans)) for e in on_board] == [("end", 1), ("lineFrom", 2)]


def test_outgoing_calls_leave_out_builtins_and_follow_each_game(tmp_path):
    s, lib, a, b = files(tmp_path)
    found = outgoing(s.analyses, lib, 1, 7)  # lineFrom calls onBoard twice and each game's mark
    assert [(e.item.name, e.item.selection.file, len(e.spans)) for e in found] == [
        ("mark", a, 1), ("mark", b, 1), ("onBoard", lib, 2)]
    assert [e.item.name for e in outgoing(s.analyses, a, 8, 7)] == ["onBoard", "lineFrom"]  # end() of a, in definition order
    assert outgoing(s.analyses, lib, 0, 7) == []
