"""Syntax error wording in the user's terms, not lark's token names."""
from __future__ import annotations

from gdef_core.syntax import ast
from gdef_core.syntax.scanner import Token

_PUNCTUATION = {
    "ARROW": "->", "OROR": "||", "ANDAND": "&&", "EQEQ": "==", "NEQ": "!=", "LE": "<=", "GE": ">=",
    "LT": "<", "GT": ">", "EQUAL": "=", "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/",
    "PERCENT": "%", "BANG": "!", "LPAR": "(", "RPAR": ")", "LBRACE": "{", "RBRACE": "}",
    "LSQB": "[", "RSQB": "]", "COMMA": ",", "COLON": ":", "SEMICOLON": ";",
}
_KEYWORDS = {"DEFINE": "define", "RETURN": "return", "IF": "if", "ELSE": "else", "WHILE": "while",
             "FOR": "for", "BREAK": "break", "CONTINUE": "continue", "START": "start", "USE": "use",
             "TRUE": "true", "FALSE": "false", "OBJ": "obj", "TYPE": "int"}
_WORDS = {"NAME": "a name", "INT": "a number", "FLOAT": "a number", "DIMS": "a size like 3 x 3",
          "STRING": "a string in quotes", "$END": "end of file"}

_EXPRESSION_STARTS = {"NAME", "INT", "FLOAT", "TRUE", "FALSE", "LPAR", "MINUS", "BANG"}
_STATEMENT_STARTS = {"RETURN", "IF", "WHILE"}
_ITEM_STARTS = {"DEFINE", "START", "USE"}
_BINARY_OPERATORS = {"OROR", "ANDAND", "EQEQ", "NEQ", "LE", "GE", "LT", "GT", "PLUS", "MINUS",
                     "STAR", "SLASH", "PERCENT"}


def describe_token(token_type: str, value: str | None = None) -> str:
    """`';'`, `keyword 'int'`, `name 'xCord'`, `number 07`, `end of file`."""
    if token_type in _PUNCTUATION:
        return f"'{_PUNCTUATION[token_type]}'"
    if token_type in _KEYWORDS:
        return f"keyword '{value or _KEYWORDS[token_type]}'" if value or token_type != "TYPE" else "a type"
    if value:
        if token_type == "NAME":
            return f"name '{value}'"
        if token_type in ("INT", "FLOAT", "DIMS"):
            return f"number {value}"
        if token_type == "STRING":
            return f"string {value}"
    return _WORDS.get(token_type, token_type.lower())


def describe_expected(expected: set[str]) -> str:
    """Summarise what would fit: 'a statement', 'an expression', or a short list of tokens."""
    parts: list[str] = []
    rest = set(expected)
    if _ITEM_STARTS <= rest:
        parts.append("a definition (define, obj, start, use, or a game parameter such as 'players:')")
        rest -= _ITEM_STARTS | {"OBJ", "TYPE", "NAME", "$END"}
    if _STATEMENT_STARTS <= rest:
        parts.append("a statement")
        rest -= _STATEMENT_STARTS | _EXPRESSION_STARTS | {"TYPE", "OBJ"}
    elif {"NAME", "INT", "LPAR"} <= rest:
        parts.append("an expression")
        rest -= _EXPRESSION_STARTS
    if _BINARY_OPERATORS <= rest:
        parts.append("an operator")
        rest -= _BINARY_OPERATORS
    if {"TYPE", "OBJ"} <= rest:
        parts.append("a type (int, float, bool or obj)")
        rest -= {"TYPE", "OBJ"}
    parts.extend(sorted(describe_token(t) for t in rest if t != "$END"))
    if "$END" in rest and not parts:
        parts.append("end of file")
    if not parts:
        return "something else"
    if len(parts) > 5:
        parts = parts[:5] + ["..."]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


_BOUNDARY_NODES = (ast.VarDecl, ast.Assign, ast.ExprStmt, ast.Return, ast.If, ast.While, ast.Block,
                   ast.GameParam, ast.UseDecl, ast.ObjDecl, ast.StartDecl, ast.GameVar, ast.FunctionDef)


def _inside_show(before: list) -> bool:
    """Whether the values before a statement end with `show {` and its finished entries."""
    index = len(before) - 1
    while index >= 0 and not (isinstance(before[index], Token) and before[index].type == "LBRACE"):
        index -= 1
    opener = before[index - 1] if index >= 1 else None
    return isinstance(opener, Token) and opener.type == "NAME" and opener.value == "show"


def describe_context(value_stack: list) -> str | None:
    """What construct the parser was reading, from the values it holds: "the declaration of
    'xCord'", "the return statement", ... None when it cannot tell."""
    start = len(value_stack)
    for index in range(len(value_stack) - 1, -1, -1):
        value = value_stack[index]
        if isinstance(value, Token) and value.type in ("SEMICOLON", "LBRACE", "RBRACE"):
            break
        if isinstance(value, _BOUNDARY_NODES) or _is_statement_list(value):
            break
        start = index
    parts = value_stack[start:]
    if not parts:
        return None
    first = parts[0]
    second = parts[1] if len(parts) > 1 else None
    if isinstance(first, Token):
        if first.type in ("TYPE", "OBJ") and isinstance(second, Token) and second.type == "NAME":
            return f"the declaration of '{second.value}'"
        if first.type == "OBJ":
            return "the object declaration"
        if first.type == "RETURN":
            return "the return statement"
        if first.type == "NAME" and isinstance(second, Token) and second.type == "COLON":
            if _inside_show(value_stack[:start]):
                return f"the show entry '{first.value}'"
            return f"the game parameter '{first.value}'"
        if first.type == "USE":
            return "the 'use' line"
        return None
    if isinstance(second, Token) and second.type == "EQUAL":
        if isinstance(first, ast.NameRef):
            return f"the assignment to '{first.name.text}'"
        return "the assignment"
    if isinstance(first, ast.Call) and len(parts) == 1:
        return f"the call of '{first.callee.text}'"
    if len(parts) == 1 and not isinstance(first, list):
        return "this expression"
    return None


def _is_statement_list(value) -> bool:
    """The statements (or items) read so far are kept as one list on the stack."""
    return isinstance(value, list) and bool(value) and isinstance(value[0], _BOUNDARY_NODES)


def unclosed(value_stack: list, opener: str) -> Token | None:
    """The innermost opening bracket of type `opener` (e.g. "LPAR") still waiting for its
    closer, to say where it was opened."""
    for value in reversed(value_stack):
        if isinstance(value, Token) and value.type == opener:
            return value
    return None


_HEADER_KEYWORDS = frozenset({"IF", "WHILE", "FOR"})


def in_header(value_stack: list) -> bool:
    """Whether the parser is reading the header of an `if`, `while` or `for` (from its keyword
    to its `{`): the innermost construct on the stack starts with one of those keywords and
    has no block yet."""
    for value in reversed(value_stack):
        if isinstance(value, Token):
            if value.type in _HEADER_KEYWORDS:
                return True
            if value.type == "LBRACE":
                return False
        elif isinstance(value, ast.Block):
            return False
    return False



_BODY_OWNERS = {"IF": "the body of an 'if'", "WHILE": "a loop's body", "FOR": "a loop's body",
                "ELSE": "the body of an 'else'", "DEFINE": "a function's body"}


def body_owner(value_stack: list) -> str | None:
    """Whose body the parser is about to read ("IF", "WHILE", "FOR", "ELSE" or "DEFINE"),
    when the values end with the header of one of those; else None."""
    def kind(index: int) -> str | None:
        value = value_stack[index] if -len(value_stack) <= index < len(value_stack) else None
        return value.type if isinstance(value, Token) else None

    if kind(-1) == "ELSE":
        return "ELSE"
    if kind(-2) == "ARROW":
        return "DEFINE"
    if kind(-1) != "RPAR":
        return None
    # the header's `(`: what stood inside the parentheses is reduced to nodes and `;`s by now
    opener = next((i for i in range(len(value_stack) - 2, -1, -1) if kind(i) in ("LPAR", "LBRACE")), None)
    if opener is None or kind(opener) != "LPAR":
        return None
    if kind(opener - 1) == "NAME" and kind(opener - 2) == "DEFINE":
        return "DEFINE"
    keyword = kind(opener - 1)
    return keyword if keyword in _BODY_OWNERS else None


def describe_body(owner: str) -> str:
    """"a loop's body", "the body of an 'if'", ... (owner: what body_owner returned)."""
    return _BODY_OWNERS[owner]


def function_header(value_stack: list) -> Token | None:
    """The `define` token of the function whose header (`define name(...) -> TYPE`) the
    parser is reading, or None outside a header."""
    for value in reversed(value_stack):
        if isinstance(value, Token):
            if value.type == "DEFINE":
                return value
            if value.type in ("LBRACE", "RBRACE", "SEMICOLON"):
                return None
        elif isinstance(value, ast.Block):
            return None
    return None

