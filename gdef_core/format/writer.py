"""The output side of the formatter: lines, indentation, blank lines, and the comments.

Comments are not in the AST, so the printer never places them: it writes tokens (each with
its source position) and asks for line breaks; before each token the writer puts down every
comment that came before that token in the source. A comment on the same source line as the
token before it stays at the end of that line, as far from the code as it was (so comments
aligned in a formatted file stay aligned), and a `//` line right below it that continues it
stays under it; any other comment gets a line of its own, at the indentation of what follows.
Line breaks are lazy: a comment that trails a line is written on that line before the
requested break takes effect. Comments are written as they are, but for the spaces at the
ends of their lines.
"""
from __future__ import annotations

from gdef_core.syntax.ast import Comment

KEEP, NEVER, NEED = "keep", "never", "need"  # what a new line does about a blank line before it
_GLUED = (")", "]", ",", ";")  # never a space before these, even after an inline comment


class Writer:
    def __init__(self, comments: list[Comment]) -> None:
        self.lines: list[str] = []  # finished lines
        self.line: str | None = None  # the line being written (None before the first one)
        self.comments = sorted(comments, key=lambda c: (c.span.line, c.span.column))
        self.next_comment = 0
        self.last_line = -1  # the source line of the last token or comment written
        self.last_end = 0  # and the source column where it ends
        self.trailing: tuple[int, int, int] | None = None  # last trailing comment: source line, column, column now
        self.break_pending = False
        self.next_indent = 0  # the indentation of the next line started
        self.blank = NEVER  # the blank-line rule of the next line started
        self.cont_indent = 0  # where a line a comment breaks inside a construct goes on
        self.after_inline_comment = False

    # ------------------------------------------------------------ what the printer calls

    def newline(self, indent: int, blank: str = KEEP) -> None:
        """End the current line before the next token, which starts a line at `indent`."""
        self.break_pending = True
        self.next_indent = indent
        self.blank = blank

    def token(self, text: str, line: int, column: int, space: bool, end_column: int) -> None:
        """Write one token that stood at (line, column)..end_column in the source, after the
        comments before it; `space`: one space before it when it goes on the current line."""
        self.comments_before(line, column)
        if self.break_pending or self.line is None:
            self._start_line(line)
        elif (space or self.after_inline_comment and text not in _GLUED) and not self.line.endswith(" "):
            self.line += " "
        self.after_inline_comment = False
        self.line += text
        self.last_line = line
        self.last_end = end_column

    def comments_before(self, line: int, column: int) -> None:
        """Write every comment that starts before (line, column) in the source."""
        comments = self.comments
        while self.next_comment < len(comments) and comments[self.next_comment].span.start < (line, column):
            comment = comments[self.next_comment]
            self.next_comment += 1
            following = comments[self.next_comment].span.start if self.next_comment < len(comments) else (line, column)
            self._comment(comment, min(following, (line, column))[0])

    def column(self) -> int:
        return len(self.line or "")

    def indent_of_line(self) -> int:
        line = self.line or ""
        return len(line) - len(line.lstrip(" "))

    def finish(self, line: int, column: int) -> str:
        """Write the comments left at the end of the file; the text, one newline at the end."""
        self.newline(0)
        self.comments_before(line, column)
        if self.line is not None:
            self.lines.append(self.line.rstrip())
        return "".join(line + "\n" for line in self.lines)

    # ------------------------------------------------------------ inside

    def _start_line(self, source_line: int) -> None:
        if self.line is not None:
            self.lines.append(self.line.rstrip())
            if self.blank == NEED or (self.blank == KEEP and source_line - self.last_line >= 2):
                self.lines.append("")
        self.line = " " * self.next_indent
        self.break_pending = False
        self.blank = KEEP

    def _comment(self, comment: Comment, next_line: int) -> None:
        span = comment.span
        ends_line = comment.text.startswith("//") or next_line > span.end_line
        trails = self.line is not None and span.line == self.last_line and bool(self.line.strip())
        if trails and ends_line:  # at the end of its line, as far from the code as it was
            self.line = self.line.rstrip()
            self.line += " " * max(1, span.column - self.last_end)
            self.trailing = (span.line, span.column, len(self.line))
            self.line += _first_line(comment.text)
        elif trails:  # `f(a /* here */, b)`: inside a line
            if not self.line.endswith((" ", "(", "[")):
                self.line += " "
            self.line += _first_line(comment.text)
        elif self.trailing and self.trailing[:2] == (span.line - 1, span.column) and comment.text.startswith("//"):
            # goes on with the comment at the end of the line above, under it
            self.lines.append(self.line.rstrip())
            self.line = " " * self.trailing[2] + comment.text
            self.trailing = (span.line, span.column, self.trailing[2])
            self.last_line = span.end_line
            return
        else:  # a line of its own, indented as what follows
            indent = self.next_indent if self.break_pending or self.line is None else self.cont_indent
            self.next_indent = indent
            self._start_line(span.line)
            self.line += _first_line(comment.text)
        self._rest_of(comment)
        self.last_line = span.end_line
        self.last_end = span.end_column
        self.after_inline_comment = not ends_line
        if ends_line and not self.break_pending:
            self.newline(self.cont_indent if trails else self.next_indent)

    def _rest_of(self, comment: Comment) -> None:
        """The lines after the first of a block comment, exactly as written."""
        lines = comment.text.split("\n")
        for line in lines[1:]:
            self.lines.append(self.line.rstrip())
            self.line = line


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]
