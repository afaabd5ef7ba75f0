"""The AST of `show { ... }` blocks, built during LALR reductions like the rest (builder.py);
a mixin so the presentation syntax keeps to its own module."""
from __future__ import annotations

from gdef_core.codes import diagnostic
from gdef_core.syntax import ast
from gdef_core.syntax.scanner import Token

SHOW = "show"


class ShowBuilder:
    """Methods named after the `show_*` grammar rules; mixed into AstBuilder."""

    def show_decl(self, children) -> ast.ShowDecl:
        keyword, _lbrace, *entries, rbrace = children
        if keyword.value and keyword.value != SHOW:
            self.diagnostics.append(diagnostic(
                "G101", self.span(keyword),
                f"unexpected name '{keyword.value}' before '{{': the only top-level block with a name "
                f"is `{SHOW} {{ ... }}` (the presentation)"))
        return ast.ShowDecl([entry for entry in entries if isinstance(entry, ast.ShowEntry)],
                            self.span(keyword, rbrace))

    def show_entry(self, children) -> ast.ShowEntry:
        key, _colon, *rest = children
        values = rest[0] if len(rest) == 2 else []
        return ast.ShowEntry(self.name(key), values, self.span(key, rest[-1]))

    def show_values(self, children) -> list[ast.ShowValue]:
        return [child for child in children if isinstance(child, ast.ShowValue)]

    def show_value(self, children) -> ast.ShowValue:
        atoms = [self._show_atom(token) for token in children]
        return ast.ShowValue(atoms, self.span(children[0], children[-1]))

    def _show_atom(self, token: Token):
        if token.type == "STRING":
            return ast.StringLit(token.value[1:-1], self.span(token))
        if token.type == "INT":
            return self.int_lit([token])
        return self.name(token)
