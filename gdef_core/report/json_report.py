"""The JSON format: one document, 1-based positions, keys fixed by issue 4 (version 1).

A change of shape is a new "version", never a silent edit: scripts in CI parse this.
"""
from __future__ import annotations

import json

from gdef_core.diagnostics import Diagnostic, Suggestion
from gdef_core.report.model import Report, one_based

VERSION = 1


def render_json(report: Report) -> str:
    document = {
        "version": VERSION,
        "files": list(report.files),
        "diagnostics": [diagnostic_json(d) for d in report.diagnostics],
        "summary": summary_json(report),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_statistics_json(report: Report) -> str:
    """`--statistics --format json`: counts per code instead of the diagnostics."""
    from gdef_core.codes import CODES

    document = {
        "version": VERSION,
        "files": list(report.files),
        "statistics": [{"code": code, "severity": str(severity), "count": count,
                        "title": CODES[code].title if code in CODES else ""}
                       for code, severity, count in report.statistics()],
        "summary": summary_json(report),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def summary_json(report: Report) -> dict[str, int]:
    return {"errors": report.errors, "warnings": report.warnings, "files": report.file_count}


def diagnostic_json(diagnostic: Diagnostic) -> dict:
    return {
        "file": diagnostic.span.file,
        **one_based(diagnostic.span),
        "severity": str(diagnostic.severity),
        "code": diagnostic.code,
        "message": diagnostic.message,
        "related": [{"file": r.span.file, **one_based(r.span), "message": r.message}
                    for r in diagnostic.related],
        "suggestions": [suggestion_json(s) for s in diagnostic.suggestions],
    }


def suggestion_json(suggestion: Suggestion) -> dict:
    return {"message": suggestion.message,
            "edits": [{"file": e.span.file, **one_based(e.span), "newText": e.new_text}
                      for e in suggestion.edits]}
