"""The formats of gdef_core.report on hand-made diagnostics: the awkward cases a fixture tree
does not reach (tabs, wide characters, long lines, spans at the end of a file, escaping)."""
from __future__ import annotations

import json

import jsonschema

from gdef_core.diagnostics import Diagnostic, Edit, Related, Severity, Suggestion
from gdef_core.project import InputProblem
from gdef_core.report import Report, render_github, render_json, render_sarif, render_text
from gdef_core.report.text import display_line
from gdef_core.span import Span

from support import ROOT

SCHEMA = json.loads((ROOT / "tests" / "data" / "lint" / "sarif-schema-2.1.0.json")
                    .read_text(encoding="utf-8"))


def diag(code="G201", line=0, column=0, end_line=None, end_column=None, file="a.gdef", **extra):
    span = Span(file, line, column, line if end_line is None else end_line,
                column + 1 if end_column is None else end_column)
    severity = extra.pop("severity", Severity.ERROR)
    return Diagnostic(code, severity, extra.pop("message", "something is wrong"), span, **extra)


def text_of(diagnostics, source, **options):
    report = Report(diagnostics, ["a.gdef"], {"a.gdef": source})
    return render_text(report, **options)


def test_caret_under_a_one_line_span():
    out = text_of([diag(line=1, column=4, end_column=9)], "obj X\nint xCrod = 1;\n")
    assert out.splitlines()[:4] == [
        "a.gdef:2:5: error[G201]: something is wrong",
        "  |",
        "2 | int xCrod = 1;",
        "  |     ^^^^^",
    ]
    assert out.splitlines()[-1] == "1 error, 0 warnings in 1 file"


def test_tabs_and_wide_characters_keep_the_caret_aligned():
    shown, offset, width = display_line("\t/* 漢字 */ x", 10, 11)
    assert shown == "    /* 漢字 */ x"
    assert (offset, width) == (15, 1)  # the tab takes 4 cells, each wide character 2


def test_empty_span_and_span_past_the_end_of_line_get_one_caret():
    assert display_line("abc", 1, 1) == ("abc", 1, 1)
    assert display_line("abc", 3, 3) == ("abc", 3, 1)
    out = text_of([diag(line=2, column=0, end_column=0)], "a\nb\n")  # the line after the last
    assert out.splitlines()[2:4] == ["3 |", "  | ^"]


def test_control_characters_in_source_and_message_are_made_harmless():
    out = text_of([diag(message="bad \x1b[31m char", column=1)], "a\x1b[2Jb\x00\n")
    assert "\x1b" not in out and "\x00" not in out
    assert "bad \\x1b[31m char" in out


def test_long_lines_are_cut_to_a_window_around_the_span():
    line = "x" * 5000 + "HERE" + "y" * 5000
    shown, offset, width = display_line(line, 5000, 5004)
    assert len(shown) < 200 and shown.startswith("...") and shown.endswith("...")
    assert shown[offset:offset + width] == "HERE"


def test_multi_line_span_is_underlined_to_the_end_of_its_first_line():
    out = text_of([diag(line=0, column=7, end_line=2, end_column=1)], "define f() {\n  x;\n}\n")
    assert "  |        ^^^^^\n" in out


def test_related_notes_and_help_lines():
    related = Related(Span("a.gdef", 0, 4, 0, 5), "the first X is here")
    fix = Suggestion("rename it", (Edit(Span("a.gdef", 1, 4, 1, 5), "Y"),))
    out = text_of([diag(code="G203", line=1, column=4, related=(related,), suggestions=(fix,))],
                  "obj X\nobj X\n")
    assert out.splitlines()[4:9] == [
        "note: the first X is here",
        " --> a.gdef:1:5",
        "  |",
        "1 | obj X",
        "  |     -",
    ]
    assert "  = help: rename it" in out.splitlines()


def test_quiet_text_is_headlines_only_and_missing_source_is_not_an_error():
    report = Report([diag(file="gone.gdef")], ["gone.gdef"], {})
    assert render_text(report) == ("gone.gdef:1:1: error[G201]: something is wrong\n"
                                   "1 error, 0 warnings in 1 file\n")
    assert render_text(report, quiet=True) == "gone.gdef:1:1: error[G201]: something is wrong\n"


def test_summary_counts_and_plurals():
    report = Report([diag(), diag(severity=Severity.WARNING), diag(severity=Severity.WARNING)],
                    ["a.gdef", "b.gdef"], {})
    assert render_text(report, quiet=False).splitlines()[-1] == "1 error, 2 warnings in 2 files"


def test_json_positions_are_one_based_with_exclusive_end():
    fix = Suggestion("use O", (Edit(Span("a.gdef", 3, 8, 3, 9), "O"),))
    related = Related(Span("b.gdef", 0, 0, 0, 3), "declared here")
    document = json.loads(render_json(Report(
        [diag(line=3, column=8, end_column=9, related=(related,), suggestions=(fix,))], ["a.gdef"])))
    assert document["version"] == 1
    [entry] = document["diagnostics"]
    assert list(entry) == ["file", "line", "column", "endLine", "endColumn", "severity", "code",
                           "message", "related", "suggestions"]
    assert (entry["line"], entry["column"], entry["endLine"], entry["endColumn"]) == (4, 9, 4, 10)
    assert entry["related"] == [{"file": "b.gdef", "line": 1, "column": 1, "endLine": 1,
                                 "endColumn": 4, "message": "declared here"}]
    assert entry["suggestions"] == [{"message": "use O", "edits": [
        {"file": "a.gdef", "line": 4, "column": 9, "endLine": 4, "endColumn": 10, "newText": "O"}]}]
    assert document["summary"] == {"errors": 1, "warnings": 0, "files": 1}


def test_github_commands_escape_data_and_properties():
    out = render_github(Report([diag(file="dir,x/a:b%.gdef", message="50% done\nnext line",
                                     severity=Severity.WARNING)], []))
    assert out == ("::warning file=dir%2Cx/a%3Ab%25.gdef,line=1,col=1,endLine=1,endColumn=2,"
                   "title=G201::50%25 done%0Anext line\n")


def test_sarif_with_odd_paths_fixes_and_problems_is_valid():
    fix = Suggestion("use O", (Edit(Span("dir with space/a#1.gdef", 0, 0, 0, 1), "O"),
                               Edit(Span("/abs/other.gdef", 2, 0, 2, 0), "use \"x\"\n")))
    diagnostics = [diag(file="dir with space/a#1.gdef", suggestions=(fix,)),
                   diag(file="/abs/other.gdef", severity=Severity.WARNING, code="G501"),
                   diag(file="../up/é.gdef", code="NOPE")]
    report = Report(diagnostics, ["dir with space/a#1.gdef"],
                    problems=[InputProblem("missing.gdef", "no such file or directory")])
    log = json.loads(render_sarif(report, tool_version="9.9"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == ["dir%20with%20space/a%231.gdef", "file:///abs/other.gdef", "../up/%C3%A9.gdef"]
    assert "ruleIndex" not in results[2]  # an unknown code has no rule, and still validates
    changes = results[0]["fixes"][0]["artifactChanges"]
    assert [c["artifactLocation"]["uri"] for c in changes] == ["dir%20with%20space/a%231.gdef",
                                                              "file:///abs/other.gdef"]


def test_lines_are_counted_as_the_scanner_counts_them():
    # A form feed is no line break for gdef, and a CRLF file shows no stray '\r'.
    out = text_of([diag(line=1, column=4, end_column=5)], "obj A\x0c obj B\r\nobj X\r\n")
    assert out.splitlines()[2] == "2 | obj X"
