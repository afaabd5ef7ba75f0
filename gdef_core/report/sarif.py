"""SARIF 2.1.0, the format code-scanning services (GitHub's among them) read.

Every known code becomes a rule whose help is its entry of docs/diagnostics.md (both come from
gdef_core.codes), so the service can explain a result without our docs at hand. Columns are
counted in code points, as the checker counts them (`columnKind`).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path, PurePath
from urllib.parse import quote

from gdef_core.codes import CODES, Code, render_entry
from gdef_core.diagnostics import Diagnostic, Severity, Suggestion
from gdef_core.report.model import Report, one_based
from gdef_core.span import Span

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
ROOT = "SRCROOT"


def render_sarif(report: Report, *, codes: list[Code] | None = None, tool_version: str = "") -> str:
    """`codes`: the rules to describe (default: every code); any code a diagnostic carries
    is described in any case."""
    chosen = {rule.code: rule for rule in (codes if codes is not None else CODES.values())}
    for diagnostic in report.diagnostics:
        if diagnostic.code in CODES:
            chosen.setdefault(diagnostic.code, CODES[diagnostic.code])
    rules = sorted(chosen.values(), key=lambda rule: rule.code)
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    driver = {
        "name": "gdef-check",
        "rules": [rule_json(rule) for rule in rules],
    }
    if tool_version:
        driver["version"] = tool_version
    run = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {ROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
        "artifacts": [{"location": artifact_location(path)} for path in report.files],
        "invocations": [invocation_json(report)],
        "results": [result_json(d, rule_index) for d in report.diagnostics],
    }
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def rule_json(rule: Code) -> dict:
    return {
        "id": rule.code,
        "name": _pascal_case(rule.title),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.explanation},
        "help": {"text": f"{rule.explanation}\n\nExample:\n{rule.example}\n\nFix: {rule.fix}",
                 "markdown": render_entry(rule)},
        "defaultConfiguration": {"level": _level(rule.severity)},
    }


def result_json(diagnostic: Diagnostic, rule_index: dict[str, int]) -> dict:
    result = {
        "ruleId": diagnostic.code,
        "level": _level(diagnostic.severity),
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": physical_location(diagnostic.span)}],
    }
    if diagnostic.code in rule_index:
        result["ruleIndex"] = rule_index[diagnostic.code]
    if diagnostic.related:
        result["relatedLocations"] = [
            {"id": number, "physicalLocation": physical_location(related.span),
             "message": {"text": related.message}}
            for number, related in enumerate(diagnostic.related, start=1)]
    fixes = [fix_json(s) for s in diagnostic.suggestions if s.edits]
    if fixes:
        result["fixes"] = fixes
    return result


def fix_json(suggestion: Suggestion) -> dict:
    by_file: dict[str, list] = {}
    for edit in suggestion.edits:
        by_file.setdefault(edit.span.file, []).append(
            {"deletedRegion": region(edit.span), "insertedContent": {"text": edit.new_text}})
    return {"description": {"text": suggestion.message},
            "artifactChanges": [{"artifactLocation": artifact_location(path), "replacements": changes}
                                for path, changes in by_file.items()]}


def invocation_json(report: Report) -> dict:
    invocation: dict = {"executionSuccessful": not report.problems}
    if report.problems:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": problem.message},
             "locations": [{"physicalLocation": {"artifactLocation": artifact_location(problem.path)}}]}
            for problem in report.problems]
    return invocation


def physical_location(span: Span) -> dict:
    return {"artifactLocation": artifact_location(span.file), "region": region(span)}


def region(span: Span) -> dict:
    where = one_based(span)
    return {"startLine": where["line"], "startColumn": where["column"],
            "endLine": where["endLine"], "endColumn": where["endColumn"]}


def artifact_location(path: str) -> dict:
    """A relative path stays relative to the directory gdef-check ran in (SRCROOT), which is
    what code scanning expects when it runs at the repository's root."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    posix = PurePath(path).as_posix()
    return {"uri": quote(os.fsencode(posix), safe="/"), "uriBaseId": ROOT}


def _level(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(severity, "note")


def _pascal_case(title: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in re.findall(r"[A-Za-z0-9]+", title))
