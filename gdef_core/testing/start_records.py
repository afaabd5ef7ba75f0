"""The records a rule-test file starts from (`# from: RECORD.json`): read once per file, and the
parameters they were played with, which the game is loaded with (docs/runtime.md, "Starting
from a position"); the position itself is gdef_core.runtime.start_position's."""
from __future__ import annotations

from gdef_core.runtime.session import RecordError, load_record
from gdef_core.testing.scripts import TestFile, TestFileError


def read_records(test_file: TestFile) -> dict[str, dict]:
    """The records the `# from:` lines name (the header's and the tests'), by path; a
    TestFileError at the line of one that cannot be read or is not a record."""
    records: dict[str, dict] = {}
    for start in (test_file.start, *(case.start for case in test_file.cases)):
        if start is None or not start.is_record:
            continue
        path = start.record_path(test_file.path)
        if path not in records:
            at = start.source_at
            try:
                records[path] = load_record(path)
            except RecordError as error:
                raise TestFileError(test_file.path, f"# from: {error}", at.line, at.column, at.end) from None
    return records


def record_params(test_file: TestFile, record: dict | None, given: dict[str, str]) -> dict:
    """The parameters a record was played with, which the game is loaded with; TestFileError
    at the `# from:` line when `given` (the file's `# param:` lines and --param) sets another value."""
    recorded = (record or {}).get("params", {})
    clash = [name for name in recorded if name in given and str(given[name]).lower() != _shown(recorded[name])]
    if clash:
        at = test_file.start.source_at
        played = ", ".join(f"{name}={_shown(recorded[name])}" for name in clash)
        raise TestFileError(test_file.path, f"the record was played with {played}, not with "
                            + ", ".join(f"{name}={given[name]}" for name in clash)
                            + ": a test from a record keeps its parameters (drop the other setting)",
                            at.line, at.column, at.end)
    return recorded


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
