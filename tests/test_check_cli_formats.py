"""Every output format of gdef-check on the broken fixture tree: golden files for text, json and
github; SARIF validated against the official SARIF 2.1.0 schema (vendored, nothing downloaded);
and all four formats telling the same diagnostics.

After an intended change of messages, regenerate the golden files and review the diff:
    GDEF_UPDATE_GOLDEN=1 pytest tests/test_check_cli_formats.py
"""
from __future__ import annotations

import json
import os
import re

import jsonschema
import pytest

from gdef_core.cli.check import main

from support import ROOT

LINT = ROOT / "tests" / "data" / "lint"
GOLDEN = LINT / "golden"
SCHEMA = json.loads((LINT / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
GOLDEN_RUNS = {
    "broken.txt": ["broken", "--color", "never"],
    "broken.json": ["broken", "--format", "json"],
    "broken.github": ["broken", "--format", "github"],
    "broken-quiet.txt": ["broken", "-q"],
    "broken-statistics.txt": ["broken", "--statistics", "--color", "never"],
}


def run(capsys, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(LINT)
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(GOLDEN_RUNS))
def test_golden_output(capsys, monkeypatch, name):
    code, out = run(capsys, monkeypatch, *GOLDEN_RUNS[name])
    assert code == 1
    golden = GOLDEN / name
    if os.environ.get("GDEF_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def sarif_log(capsys, monkeypatch, *args: str) -> dict:
    _, out = run(capsys, monkeypatch, *args, "--format", "sarif")
    return json.loads(out)


def test_sarif_is_valid_against_the_official_schema(capsys, monkeypatch):
    log = sarif_log(capsys, monkeypatch, "broken")
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["version"] == "2.1.0"
    [run_] = log["runs"]
    assert run_["tool"]["driver"]["name"] == "gdef-check"
    assert len(run_["results"]) == 8


def test_sarif_has_a_rule_per_code_with_its_documentation(capsys, monkeypatch):
    from gdef_core.codes import CODES, render_entry

    rules = sarif_log(capsys, monkeypatch, "broken")["runs"][0]["tool"]["driver"]["rules"]
    by_id = {rule["id"]: rule for rule in rules}
    assert {"G100", "G201", "G305", "G501"} <= set(by_id)
    rule = by_id["G201"]
    assert rule["shortDescription"]["text"] == CODES["G201"].title
    assert rule["help"]["markdown"] == render_entry(CODES["G201"])
    assert CODES["G201"].fix in rule["help"]["text"]
    assert by_id["G501"]["defaultConfiguration"]["level"] == "warning"


def test_sarif_results_point_at_rules_related_places_and_fixes(capsys, monkeypatch):
    [run_] = sarif_log(capsys, monkeypatch, "broken")["runs"]
    rules = run_["tool"]["driver"]["rules"]
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    duplicate = next(r for r in run_["results"] if r["ruleId"] == "G203"
                     and "helpers" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
    [related] = duplicate["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"] == {"uri": "broken/split/game.gdef",
                                                               "uriBaseId": "SRCROOT"}
    assert related["physicalLocation"]["region"]["startLine"] == 15
    typo = next(r for r in run_["results"] if r["ruleId"] == "G201")
    [replacement] = typo["fixes"][0]["artifactChanges"][0]["replacements"]
    assert replacement["insertedContent"]["text"] == "xCord"
    assert replacement["deletedRegion"] == {"startLine": 11, "startColumn": 26, "endLine": 11,
                                            "endColumn": 31}


def test_sarif_of_a_clean_run_and_of_an_unreadable_input_is_valid(capsys, monkeypatch):
    clean = sarif_log(capsys, monkeypatch, "warnings", "--ignore", "G5")
    jsonschema.Draft4Validator(SCHEMA).validate(clean)
    assert clean["runs"][0]["results"] == []
    assert all(not rule["id"].startswith("G5") for rule in clean["runs"][0]["tool"]["driver"]["rules"])
    failed = sarif_log(capsys, monkeypatch, "warnings", "missing.gdef")
    jsonschema.Draft4Validator(SCHEMA).validate(failed)
    [invocation] = failed["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert "missing.gdef" in json.dumps(invocation["toolExecutionNotifications"])


# ------------------------------------------------------------------ the same story everywhere


def from_text(out: str) -> list[tuple]:
    pattern = re.compile(r"^(.+?):(\d+):(\d+): (error|warning)\[(G\d+)\]: ", re.M)
    return [(m[1], int(m[2]), int(m[3]), m[4], m[5]) for m in pattern.finditer(out)]


def from_json(out: str) -> list[tuple]:
    return [(d["file"], d["line"], d["column"], d["severity"], d["code"])
            for d in json.loads(out)["diagnostics"]]


def from_sarif(out: str) -> list[tuple]:
    found = []
    for result in json.loads(out)["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        found.append((location["artifactLocation"]["uri"], location["region"]["startLine"],
                      location["region"]["startColumn"], result["level"], result["ruleId"]))
    return found


def from_github(out: str) -> list[tuple]:
    pattern = re.compile(r"^::(error|warning) file=([^,]+),line=(\d+),col=(\d+),endLine=\d+,"
                         r"endColumn=\d+,title=(G\d+)::", re.M)
    return [(m[2], int(m[3]), int(m[4]), m[1], m[5]) for m in pattern.finditer(out)]


@pytest.mark.parametrize("paths", [["broken"], ["seed"], ["broken/split/helpers.gdef"]])
def test_every_format_reports_the_same_diagnostics(capsys, monkeypatch, paths):
    readers = {"text": from_text, "json": from_json, "sarif": from_sarif, "github": from_github}
    seen = {}
    for fmt, read in readers.items():
        code, out = run(capsys, monkeypatch, *paths, "--format", fmt)
        seen[fmt] = (code, read(out))
    assert seen["text"][1], "the fixture must produce diagnostics"
    assert all(result == seen["text"] for result in seen.values()), seen


# ------------------------------------------------------------------ editors read the text format


def _documented_problem_pattern() -> re.Pattern:
    docs = (ROOT / "docs" / "gdef-check.md").read_text(encoding="utf-8")
    matcher = docs[docs.index("## VS Code problem matcher"):]
    block = matcher[matcher.index("```json") + len("```json"):]
    return re.compile(json.loads(block[:block.index("```")])["pattern"]["regexp"], re.M)


def _extension_problem_patterns() -> list[re.Pattern]:
    manifest = ROOT / "vscode-extension" / "package.json"
    if not manifest.exists():
        return []
    patterns = json.loads(manifest.read_text(encoding="utf-8")).get("contributes", {}).get(
        "problemPatterns", [])
    return [re.compile(p["regexp"], re.M) for p in patterns if p.get("name") == "gdef"]


def test_problem_matchers_read_every_headline_of_the_text_format():
    golden = (GOLDEN / "broken.txt").read_text(encoding="utf-8")
    expected = from_text(golden)
    for pattern in [_documented_problem_pattern(), *_extension_problem_patterns()]:
        found = [(m[1], int(m[2]), int(m[3]), m[4], m[5]) for m in pattern.finditer(golden)]
        assert found == expected, pattern.pattern
