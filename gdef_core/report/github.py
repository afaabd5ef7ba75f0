"""GitHub Actions workflow commands: one `::error ...::message` line per diagnostic, which the
runner turns into annotations on the pull request's diff."""
from __future__ import annotations

from gdef_core.diagnostics import Diagnostic, Severity
from gdef_core.report.model import Report, one_based
from gdef_core.report.text import printable


def render_github(report: Report) -> str:
    return "".join(command(d) + "\n" for d in report.diagnostics)


def command(diagnostic: Diagnostic) -> str:
    where = one_based(diagnostic.span)
    properties = ",".join([
        f"file={_property(diagnostic.span.file)}",
        f"line={where['line']}", f"col={where['column']}",
        f"endLine={where['endLine']}", f"endColumn={where['endColumn']}",
        f"title={_property(diagnostic.code)}",
    ])
    command = "notice" if diagnostic.severity is Severity.INFO else diagnostic.severity
    return f"::{command} {properties}::{printable(_data(diagnostic.message))}"


def _data(text: str) -> str:
    """Escape a command's message as the Actions runner expects (toolkit's escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escape a property value (toolkit's escapeProperty)."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
