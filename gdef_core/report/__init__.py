"""Output formats of gdef-check: text (people), json (scripts), sarif (code scanning), github
(Actions annotations). All render the same Report.

The formats are imported when first named (`from gdef_core.report import render_text`): the
language server reads only report.limit, and needs none of them."""
from __future__ import annotations

FORMATS = ("text", "json", "sarif", "github")

__all__ = ["FORMATS", "InputProblem", "Report", "one_based", "render_github", "render_json",
           "render_sarif", "render_statistics", "render_statistics_json", "render_text"]


def __getattr__(name: str):
    if name in ("InputProblem", "Report", "one_based"):
        from gdef_core.report import model as module
    elif name == "render_github":
        from gdef_core.report import github as module
    elif name in ("render_json", "render_statistics_json"):
        from gdef_core.report import json_report as module
    elif name == "render_sarif":
        from gdef_core.report import sarif as module
    elif name in ("render_statistics", "render_text"):
        from gdef_core.report import text as module
    else:
        raise AttributeError(f"module 'gdef_core.report' has no attribute {name!r}")
    return getattr(module, name)
