"""Shared by tests/test_ide_*.py: sessions over temporary files, cursors marked in text."""
from __future__ import annotations

from pathlib import Path

from gdef_core.ide.session import Session

CURSOR = "‸"
HEADER = "name: g\nplayers: 2\nsize: 3 x 3\nobj X\nobj O\n"
ENTRY = "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n"


def cursor(text: str) -> tuple[str, int, int]:
    """The text without its ‸ marker, and the marker's (line, column)."""
    index = text.index(CURSOR)
    before = text[:index]
    return text.replace(CURSOR, "", 1), before.count("\n"), index - (before.rfind("\n") + 1)


def session(folder: Path, files: dict[str, str], open_: tuple[str, ...] = ()) -> Session:
    """Files written to `folder`; those named in `open_` are also open buffers."""
    result = Session()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        if name in open_:
            result.set_buffer(str(folder / name), text)
    return result
