"""The human format, after rustc and ruff:

    game.gdef:14:31: error[G301]: cannot compare obj with int
       |
    14 |       || onTurn() == 1 && placedObj != 0) { return false; }
       |                           ^^^^^^^^^^^^^^
       = help: write the object's name, e.g. `O`

The first line is the stable, grep-able part (editors' problem matchers read it); the source
line, the underline, the notes for related places and the `help:` lines follow.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from gdef_core.diagnostics import Diagnostic, Severity
from gdef_core.report.model import Report
from gdef_core.span import Span

TAB_WIDTH = 4
LONG_LINE = 160  # longer source lines are shown as a window around the span
WINDOW_BEFORE = 60


class Style:
    """ANSI colours, or nothing at all when colour is off."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def _wrap(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def severity(self, severity: Severity, text: str) -> str:
        return self._wrap(text, {Severity.ERROR: "1;31", Severity.WARNING: "1;33"}.get(severity, "1;36"))

    def bold(self, text: str) -> str:
        return self._wrap(text, "1")

    def gutter(self, text: str) -> str:
        return self._wrap(text, "1;34")

    def note(self, text: str) -> str:
        return self._wrap(text, "1;34")

    def help(self, text: str) -> str:
        return self._wrap(text, "1;36")


class SourceLines:
    """The lines of each file, split once, as the scanner counts them (on `\\n` only)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = sources
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        """Line `number` (0-based) of the file without its line break; "" just past the end;
        None when the file's text is not at hand."""
        lines = self._lines.get(path)
        if lines is None:
            text = self._sources.get(path)
            if text is None:
                return None
            lines = self._lines[path] = [line.removesuffix("\r") for line in text.split("\n")]
        return lines[number] if number < len(lines) else ""


def render_text(report: Report, *, color: bool = False, quiet: bool = False) -> str:
    """The whole text output: every diagnostic, then the summary (quiet: headlines only)."""
    style = Style(color)
    sources = SourceLines(report.sources)
    parts = []
    for diagnostic in report.diagnostics:
        if quiet:
            parts.append(headline(diagnostic, style) + "\n")
        else:
            parts.append(render_diagnostic(diagnostic, sources, style) + "\n")
    if not quiet:
        parts.append(summary_line(report, style) + "\n")
    return "".join(parts)


def render_statistics(report: Report, *, color: bool = False, quiet: bool = False) -> str:
    """One row per code (count, code, severity, title), then the summary."""
    from gdef_core.codes import CODES

    style = Style(color)
    rows = report.statistics()
    width = max((len(str(n)) for _, _, n in rows), default=1)
    lines = []
    for code, severity, count in rows:
        title = CODES[code].title if code in CODES else ""
        label = style.severity(severity, f"{code}  {str(severity):<7}")
        lines.append(f"{count:>{width}}  {label}  {title}".rstrip())
    if not quiet:
        lines.append(summary_line(report, style))
    return "".join(line + "\n" for line in lines)


def headline(diagnostic: Diagnostic, style: Style) -> str:
    span = diagnostic.span
    label = style.severity(diagnostic.severity, f"{diagnostic.severity}[{diagnostic.code}]")
    location = style.bold(f"{span.file}:{span.line + 1}:{span.column + 1}:")
    return f"{location} {label}: {style.bold(printable(diagnostic.message))}"


def render_diagnostic(diagnostic: Diagnostic, sources: SourceLines, style: Style) -> str:
    spans = [diagnostic.span] + [related.span for related in diagnostic.related]
    width = max(len(str(span.line + 1)) for span in spans)
    lines = [headline(diagnostic, style)]
    main_mark = "^"
    lines += _snippet(diagnostic.span, sources, width, main_mark, diagnostic.severity, style)
    for related in diagnostic.related:
        span = related.span
        lines.append(f"{style.note('note')}: {printable(related.message)}")
        lines.append(f"{' ' * width}{style.gutter('-->')} {span.file}:{span.line + 1}:{span.column + 1}")
        lines += _snippet(span, sources, width, "-", None, style)
    for suggestion in diagnostic.suggestions:
        lines.append(f"{' ' * width} {style.gutter('=')} {style.help('help')}: "
                     f"{printable(suggestion.message)}")
    return "\n".join(lines)


def summary_line(report: Report, style: Style) -> str:
    errors, warnings, files = report.errors, report.warnings, report.file_count
    text = f"{_count(errors, 'error')}, {_count(warnings, 'warning')} in {_count(files, 'file')}"
    if errors:
        return style.severity(Severity.ERROR, text)
    if warnings:
        return style.severity(Severity.WARNING, text)
    return style.bold(text)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _snippet(span: Span, sources: SourceLines, width: int, mark: str, severity: Severity | None,
             style: Style) -> list[str]:
    """The gutter, the span's first source line and the underline below it; nothing when the
    source is not at hand."""
    line = sources.line(span.file, span.line)
    if line is None:
        return []
    end_column = span.end_column if span.end_line == span.line else max(len(line), span.column + 1)
    shown, offset, underline_width = display_line(line, span.column, end_column)
    paint = (lambda t: style.severity(severity, t)) if severity else style.note
    bar = style.gutter("|")
    number = style.gutter(f"{span.line + 1:>{width}}")
    underline = paint(mark * underline_width)
    return [f"{' ' * width} {bar}",
            f"{number} {bar} {shown}".rstrip(),
            f"{' ' * width} {bar} {' ' * offset}{underline}"]


def display_line(line: str, start: int, end: int) -> tuple[str, int, int]:
    """The line as a terminal shows it (tabs expanded, control characters made visible, wide
    characters counted twice, very long lines cut to a window), with the display offset and
    width of columns start..end (at least 1, so an empty span still gets a caret)."""
    prefix = ""
    if len(line) > LONG_LINE:
        first = max(0, min(start, len(line)) - WINDOW_BEFORE)
        last = first + LONG_LINE
        prefix = "..." if first > 0 else ""
        suffix = "..." if last < len(line) else ""
        line = line[first:last]
        start, end = start - first, end - first
        shown, offset, width = display_line(line, start, min(end, len(line) + 1))
        return prefix + shown + suffix, offset + len(prefix), width
    shown: list[str] = []
    column = 0
    offset = width = None
    for index, char in enumerate(line):
        if index == start:
            offset = column
        if index == end and offset is not None:
            width = column - offset
        if char == "\t":
            cells = " " * (TAB_WIDTH - column % TAB_WIDTH)
        elif not char.isprintable() and not unicodedata.combining(char):
            cells = "\N{REPLACEMENT CHARACTER}"
        else:
            cells = char
        shown.append(cells)
        column += _cells(cells)
    if offset is None:  # the span starts at or past the end of the line
        offset = column + max(0, start - len(line))
    if width is None:
        width = column - offset if end > start else 0
    return "".join(shown), offset, max(1, width)


def _cells(text: str) -> int:
    total = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def printable(text: str) -> str:
    """A message with control characters escaped, so a message quoting junk from a binary file
    cannot move the cursor or recolour the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
