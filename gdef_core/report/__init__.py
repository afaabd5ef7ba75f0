"""Output formats of gdef-check: text (people), json (scripts), sarif (code scanning), github
(Actions annotations). All render the same Report."""
from gdef_core.report.github import render_github
from gdef_core.report.json_report import render_json, render_statistics_json
from gdef_core.report.model import InputProblem, Report, one_based
from gdef_core.report.sarif import render_sarif
from gdef_core.report.text import render_statistics, render_text

FORMATS = ("text", "json", "sarif", "github")

__all__ = ["FORMATS", "InputProblem", "Report", "one_based", "render_github", "render_json",
           "render_sarif", "render_statistics", "render_statistics_json", "render_text"]
