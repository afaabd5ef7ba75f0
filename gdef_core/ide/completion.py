"""Completion candidates by the context of the cursor.

The context comes from the tokens of the definition being edited, up to the cursor (see
lexing.py), so completion works while that definition is still broken; what the names mean
comes from the last analysis of the game (functions, objects, game variables of every file)
and from the built-in table. Locals and parameters are read from the tokens too: a local is
visible from its declaration to the end of its function (spec section 6).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from lark import Token

from gdef_core.builtins import BUILTINS, ENTRY_POINTS, GAME_PARAMETERS, OPERATION_FIELDS, Context, Kind
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import (builtin_markdown, declared_type, function_signature, game_parameter_markdown,
                                    symbol_markdown)
from gdef_core.ide.lexing import before_cursor
from gdef_core.presentation import KEY_WORDS, PIECE_WORDS, SHOW_KEYS
from gdef_core.semantics.program import Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast


class CandidateKind(str, Enum):
    LOCAL = "local"
    PARAMETER = "parameter"
    GAME_VAR = "game variable"
    OBJECT = "object"
    FUNCTION = "function"
    BUILTIN_FUNCTION = "built-in function"
    BOARD = "built-in board"
    VALUE = "value"  # true, false, empty
    KEYWORD = "keyword"
    TYPE = "type"
    GAME_PARAMETER = "game parameter"
    SHOW_KEY = "presentation key"
    FILE = "file"
    INDEX = "index"


@dataclass(frozen=True, slots=True)
class Candidate:
    label: str
    kind: CandidateKind
    detail: str | None = None  # a signature or a type
    documentation: str | None = None  # markdown
    insert_text: str | None = None  # what to insert (default: the label)
    snippet: str | None = None  # the same with ${1:placeholders}, for clients that take snippets
    replace: Span | None = None  # the text the insertion replaces (default: the word before the cursor)
    sort_group: int = 5  # lower first


TYPE_NAMES = ("int", "float", "bool", "obj")
_STATEMENT_KEYWORDS = {
    "if": "if (${1:condition}) {\n\t$0\n}",
    "while": "while (${1:condition}) {\n\t$0\n}",
    "for": "for (int ${1:i} = 0; $1 < ${2:8}; $1 = $1 + 1) {\n\t$0\n}",
    "return": None,
}
_LOOP_KEYWORDS = {"break": "break;", "continue": "continue;"}  # only inside a `while` or `for`
_COUNTER_SNIPPET = "counter ${1|int,float,bool|} ${2:name} = ${3:0};"
_PARAM_SNIPPET = "param int ${1:name} = ${2:9} in ${3:1} to ${4:19};"
_TOP_LEVEL_KEYWORDS = {
    "define": "define ${1:name}($2) -> ${3:bool} {\n\t$0\n}",
    "obj": None,
    "start": "start {\n\t($1, $2: ${3:empty}),\n}",
    "use": 'use "$1"',
    "show": "show {\n\t$0\n}",
}
_STATEMENT_STARTS = ("LBRACE", "SEMICOLON", "RBRACE")
_OPERAND_ENDS = ("NAME", "INT", "FLOAT", "TRUE", "FALSE", "RPAR", "RSQB", "STRING", "DIMS")
_CLOSERS = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE"}


@dataclass(slots=True)
class _Open:
    """An unclosed bracket before the cursor."""

    index: int  # of the bracket token
    kind: str  # LPAR, LSQB, LBRACE
    owner: str | None = None  # for `{`: "start", "if", "else", "while", "for", "function"


def complete(analyses: list[Analysis], text: str, path: str, line: int, column: int) -> list[Candidate]:
    """The candidates at the cursor, best first (clients filter them by the word typed)."""
    before = before_cursor(text, line, column)
    if before.in_comment:
        return []
    tokens = before.tokens
    if before.open_string is not None:
        inside = _after_quote(path, before.open_string)
        return _files(path, inside) if tokens and tokens[-1].type == "USE" else []
    stack, closed_owner = _brackets(tokens)
    last = tokens[-1] if tokens else None
    last_type = last.type if last else None
    top = stack[-1] if stack else None
    if top and top.kind == "LSQB" and _is_operation_field(tokens, top):
        return _operation_fields()
    if before.word[:1].isdigit() or last_type in ("DEFINE", "TYPE", "OBJ", "IF", "WHILE", "FOR", "BREAK", "CONTINUE"):
        return []
    if last_type == "ARROW":
        return _types()
    if top and top.kind == "LPAR" and _is_parameter_list(tokens, top.index):
        return _types() if last_type in ("LPAR", "COMMA") else []
    if any(o.kind == "LPAR" and _is_parameter_list(tokens, o.index) for o in stack):
        return []  # the brackets of an array parameter (`bool seen[][]`)
    body = next((o for o in reversed(stack) if o.kind == "LBRACE"), None)
    if body is None:
        return _top_level(analyses, path, tokens, last_type)
    if body.owner == "start":
        return _object_values(analyses) if last_type == "COLON" else []
    if body.owner == "show":
        return _show_entry(analyses, tokens[body.index + 1:])
    if last_type == "ELSE":
        return [_keyword("if", _STATEMENT_KEYWORDS["if"])]
    if last_type in _OPERAND_ENDS:
        return []
    size_of = _size_of_argument(tokens, top)
    if size_of is not None:
        return _size_of_candidates(analyses, tokens, stack, size_of)
    candidates = _expression(analyses, tokens, stack)
    if top is body and last_type in _STATEMENT_STARTS:
        candidates += [_keyword(word, snippet) for word, snippet in _STATEMENT_KEYWORDS.items()]
        if any(o.kind == "LBRACE" and o.owner in ("while", "for") for o in stack):
            candidates += [_keyword(word, snippet) for word, snippet in _LOOP_KEYWORDS.items()]
        candidates += _types()
        if last_type == "RBRACE" and closed_owner == "if":
            candidates.append(_keyword("else", "else {\n\t$0\n}"))
    elif top is not None and top.kind == "LPAR" and last_type == "LPAR" and _is_for_header(tokens, top.index):
        candidates += _types()  # INIT may declare the loop's local
    return candidates


# ---------------------------------------------------------------- contexts


def _brackets(tokens: list[Token]) -> tuple[list[_Open], str | None]:
    """The unclosed brackets, and the owner of the `{` the last token closed (if it did)."""
    stack: list[_Open] = []
    closed_owner = None
    for i, token in enumerate(tokens):
        kind = token.type
        closed_owner = None
        if kind in ("LPAR", "LSQB", "LBRACE"):
            stack.append(_Open(i, kind, _block_owner(tokens, i) if kind == "LBRACE" else None))
        elif kind in _CLOSERS:
            while stack:
                top = stack.pop()
                if top.kind == _CLOSERS[kind]:
                    closed_owner = top.owner
                    break
    return stack, closed_owner


def _block_owner(tokens: list[Token], i: int) -> str:
    previous = tokens[i - 1].type if i else None
    if previous == "START":
        return "start"
    if previous == "NAME" and tokens[i - 1].value == "show":
        return "show"
    if previous == "ELSE":
        return "else"
    if previous == "RPAR":
        j = _opening(tokens, i - 1, "LPAR", "RPAR")
        before = tokens[j - 1].type if j > 0 else None
        if before == "IF":
            return "if"
        if before == "WHILE":
            return "while"
        if before == "FOR":
            return "for"
    return "function"


def _opening(tokens: list[Token], close: int, opener: str, closer: str) -> int:
    """The index of the bracket that the closing bracket at `close` matches (-1 if none)."""
    depth, j = 0, close
    while j >= 0:
        kind = tokens[j].type
        depth += kind == closer
        depth -= kind == opener
        if depth == 0:
            break
        j -= 1
    return j


def _is_parameter_list(tokens: list[Token], i: int) -> bool:
    return i >= 2 and tokens[i - 1].type == "NAME" and tokens[i - 2].type == "DEFINE"


def _is_for_header(tokens: list[Token], i: int) -> bool:
    return i >= 1 and tokens[i - 1].type == "FOR"


def _is_operation_field(tokens: list[Token], open_: _Open) -> bool:
    """`OperationList[i][` with the cursor in the second brackets."""
    i = open_.index
    if i < 1 or tokens[i - 1].type != "RSQB":
        return False
    j = _opening(tokens, i - 1, "LSQB", "RSQB")
    return j >= 1 and tokens[j - 1].type == "NAME" and tokens[j - 1].value == "OperationList"


def _after_quote(path: str, string: Token) -> Span:
    """What was typed of an unclosed string, from its quote to the cursor."""
    return Span(path, string.line, string.column + 1, string.end_line, string.end_column)


# ---------------------------------------------------------------- candidate sets


def _top_level(analyses: list[Analysis], path: str, tokens: list[Token], last_type: str | None) -> list[Candidate]:
    if last_type == "USE":
        return [Candidate(f'"{c.label}"', CandidateKind.FILE, detail=c.detail, sort_group=c.sort_group)
                for c in _files(path, None)]
    if last_type == "COLON":
        if len(tokens) >= 2 and tokens[-2].value == "size":  # `size: n x n`: int parameters
            return [_game_var(s) for s in _declarations(analyses) if _is_param(s) and s.type == "int"]
        return []  # the value of a game parameter: a word or a number the author chooses
    if _in_game_var_init(tokens):
        return (_object_values(analyses) + _booleans()
                + [_game_var(s) for s in _declarations(analyses) if _is_param(s)])
    declared = _declared_parameters(analyses)
    candidates = [Candidate(f"{key}:", CandidateKind.GAME_PARAMETER, documentation=game_parameter_markdown(key),
                            insert_text=f"{key}: ", sort_group=1)
                  for key in GAME_PARAMETERS if key not in declared]
    has_start = any(a.program.start is not None for a in analyses)
    candidates += [_keyword(word, snippet) for word, snippet in _TOP_LEVEL_KEYWORDS.items()
                   if not (word == "start" and has_start)]
    candidates += [Candidate(t, CandidateKind.TYPE, detail="game variable type", sort_group=6)
                   for t in ("int", "float", "bool")]
    candidates.append(Candidate("counter", CandidateKind.KEYWORD, detail="game variable modifier",
                                documentation=_COUNTER_DOC, insert_text="counter ", snippet=_COUNTER_SNIPPET,
                                sort_group=6))
    candidates.append(Candidate("param", CandidateKind.KEYWORD, detail="parameter declaration",
                                documentation=_PARAM_DOC, insert_text="param ", snippet=_PARAM_SNIPPET,
                                sort_group=6))
    return candidates


def _is_param(symbol: Symbol) -> bool:
    return symbol.kind is SymbolKind.GAME_VAR and getattr(symbol.decl, "param", False)


def _show_entry(analyses: list[Analysis], inside: list[Token]) -> list[Candidate]:
    """In a `show` block: the keys and objects at the start of an entry, then what the key
    takes (a style, a notation, game variables, `from`; after an object's glyph its words)."""
    start = max((i + 1 for i, token in enumerate(inside) if token.type == "SEMICOLON"), default=0)
    entry = inside[start:]
    declarations = _declarations(analyses)
    if not entry:
        keys = [Candidate(key, CandidateKind.SHOW_KEY, documentation=doc, insert_text=f"{key}: ", sort_group=1)
                for key, doc in SHOW_KEYS.items()]
        return keys + [Candidate(s.name, CandidateKind.OBJECT, detail="obj: its glyph and side",
                                 documentation=symbol_markdown(s), snippet=f'{s.name}: "$1" side ${{2:0}};',
                                 sort_group=2)
                       for s in declarations if s.kind is SymbolKind.OBJECT]
    if len(entry) < 2 or entry[0].type != "NAME" or entry[1].type != "COLON":
        return []
    key, last = entry[0].value, entry[-1].type
    words = KEY_WORDS.get(key)
    if words is not None:
        return [_word(word, doc) for word, doc in words.items()] if last == "COLON" else []
    if key == "visible":
        return [_game_var(s) for s in declarations if s.kind is SymbolKind.GAME_VAR] if last in ("COLON", "COMMA") else []
    if key in ("columns", "rows"):
        return [_word("from", "`from N`: the labels are numbers from N.")] if last == "COLON" else []
    if key not in SHOW_KEYS and last in ("STRING", "INT"):
        used = {token.value for token in entry[2:] if token.type == "NAME"}
        return [_word(word, doc) for word, doc in PIECE_WORDS.items() if word not in used]
    return []


def _word(word: str, doc: str) -> Candidate:
    return Candidate(word, CandidateKind.VALUE, documentation=doc, sort_group=1)


_COUNTER_DOC = ("`counter int halfmoves = 0;` declares a game variable that is game state in every way, "
                "except that `repetitions()` compares positions without it (a clock such as chess's "
                "fifty-move counter).")


_PARAM_DOC = ("`param int board_size = 11 in 1 to 25;` declares a parameter: a constant of the game whose "
              "value is chosen when the game is loaded (`--param board_size=7`), with its default and "
              "its allowed values (`in LOW to HIGH` or `in {9, 13, 19}`; none for a bool).")


def _in_game_var_init(tokens: list[Token]) -> bool:
    for token in reversed(tokens):
        if token.type == "SEMICOLON" or token.type in ("RBRACE", "DEFINE"):
            return False
        if token.type == "EQUAL":
            return True
    return False


def _declared_parameters(analyses: list[Analysis]) -> set[str]:
    return {item.key.text for a in analyses for m in a.program.modules for item in m.items
            if isinstance(item, ast.GameParam)}


def _expression(analyses: list[Analysis], tokens: list[Token], stack: list[_Open]) -> list[Candidate]:
    candidates = _locals(tokens, stack)
    seen = {c.label for c in candidates}
    declarations = _declarations(analyses)
    for symbol in declarations:
        if symbol.name in seen:
            continue
        match symbol.kind:
            case SymbolKind.GAME_VAR:
                candidates.append(_game_var(symbol))
            case SymbolKind.OBJECT:
                candidates.append(_object(symbol))
            case SymbolKind.FUNCTION:
                candidates.append(_function(symbol.decl, symbol_markdown(symbol)))
    allowed = _allowed_builtins(analyses, tokens, declarations)
    for builtin in BUILTINS.values():
        if allowed(builtin):
            candidates.append(_builtin(builtin))
    return candidates + _booleans()


def _game_var(symbol: Symbol) -> Candidate:
    return Candidate(symbol.name, CandidateKind.GAME_VAR, detail=declared_type(symbol.decl),
                     documentation=symbol_markdown(symbol), sort_group=1)


# ---------------------------------------------------------------- built-ins by context


def _allowed_builtins(analyses: list[Analysis], tokens: list[Token], declarations: list[Symbol]):
    """Which built-ins may be called in the function being edited: those whose contexts
    (builtins.Builtin.contexts) include every entry point that reaches the function (all of
    them when nothing reaches it yet); `isGenerated()` only in a game with `moves()`."""
    program = analyses[0].program if analyses else None
    current = _current_function(tokens)
    reaching = _reaching_contexts(program, current) if program is not None and current else set()
    has_moves = any(s.kind is SymbolKind.FUNCTION and s.name == "moves" for s in declarations)

    def allowed(builtin) -> bool:
        if builtin.name == "isGenerated" and not has_moves:
            return False
        return reaching <= builtin.contexts

    return allowed


def _current_function(tokens: list[Token]) -> str | None:
    start = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i].type == "DEFINE"), None)
    if start is None or start + 1 >= len(tokens) or tokens[start + 1].type != "NAME":
        return None
    return tokens[start + 1].value


def _reaching_contexts(program, name: str) -> set[Context]:
    """The entry points from which `name` is called (directly, or through user functions)."""
    if name in ENTRY_POINTS and (name != Context.CHANCE.value or Context.CHANCE in program.reach):
        return {Context(name)}   # chance() is one only in a game that calls chanceNext()
    return {context for context, reached in program.reach.items() if name in reached}


# ---------------------------------------------------------------- sizeOf(


def _size_of_argument(tokens: list[Token], top: _Open | None) -> int | None:
    """0 or 1 when the cursor is at that argument of `sizeOf(`, else None."""
    if top is None or top.kind != "LPAR" or top.index < 1:
        return None
    callee = tokens[top.index - 1]
    if callee.type != "NAME" or callee.value != "sizeOf":
        return None
    commas = sum(1 for token in tokens[top.index + 1:] if token.type == "COMMA")
    if tokens[-1].type not in ("LPAR", "COMMA") or commas > 1:
        return None
    return commas


def _size_of_candidates(analyses: list[Analysis], tokens: list[Token], stack: list[_Open], argument: int
                        ) -> list[Candidate]:
    """`sizeOf(` takes an array first (only arrays are offered), then a dimension: 0, or 1
    for a two-dimensional array."""
    arrays = [c for c in _locals(tokens, stack) if "[" in (c.detail or "")]
    names = {c.label for c in arrays}
    arrays += [_game_var(s) for s in _declarations(analyses)
               if s.kind is SymbolKind.GAME_VAR and s.decl.sizes and s.name not in names]
    if argument == 0:
        return arrays
    array = tokens[-2].value if len(tokens) >= 2 and tokens[-2].type == "NAME" else None
    rank = next((c.detail.count("[") for c in arrays if c.label == array), 2)
    meanings = ("the first size (rows of a two-dimensional array)", "the second size")
    return [Candidate(str(d), CandidateKind.INDEX, detail="int", documentation=f"Dimension {d}: {meanings[d]}.",
                      sort_group=0) for d in range(rank)]


def _declarations(analyses: list[Analysis]) -> list[Symbol]:
    """The game's objects, functions and game variables, read from its files' syntax trees
    (the checker leaves out declarations near syntax errors, but completion should offer
    them while the error is being fixed). The first declaration of a name wins."""
    found: dict[str, Symbol] = {}
    program = analyses[0].program if analyses else None
    for module in program.modules if program else ():
        for item in module.items:
            name = getattr(item, "name", None)
            if name is None or not name.text or name.text in found:
                continue
            match item:
                case ast.ObjDecl():
                    found[name.text] = Symbol(SymbolKind.OBJECT, name.text, "obj", item)
                case ast.FunctionDef(return_type=result):
                    found[name.text] = Symbol(SymbolKind.FUNCTION, name.text, result.name if result else None, item)
                case ast.GameVar(type=type_):
                    found[name.text] = Symbol(SymbolKind.GAME_VAR, name.text, type_.name + "[]" * len(item.sizes), item)
    return list(found.values())


def _object(symbol: Symbol) -> Candidate:
    return Candidate(symbol.name, CandidateKind.OBJECT, detail="obj", documentation=symbol_markdown(symbol),
                     sort_group=1)


def _locals(tokens: list[Token], stack: list[_Open]) -> list[Candidate]:
    """Parameters and locals declared before the cursor in the function being edited. A
    local is visible to the end of its function, except one declared in a `for`'s INIT:
    only inside that loop (spec 15.2)."""
    start = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i].type == "DEFINE"), None)
    if start is None:
        return []
    found: dict[str, Candidate] = {}
    i = start + 3  # define NAME ( ...
    while i + 1 < len(tokens) and tokens[i].type != "RPAR":
        if tokens[i].type in ("TYPE", "OBJ") and tokens[i + 1].type == "NAME":
            name, rank = tokens[i + 1].value, _empty_brackets(tokens, i + 2)
            detail = tokens[i].value + "[]" * rank
            what = "Array parameter, passed by reference" if rank else "Parameter"
            found.setdefault(name, Candidate(name, CandidateKind.PARAMETER, detail=detail,
                                             documentation=f"{what} (`{detail}`).", sort_group=0))
        i += 1
    open_loops = _open_for_headers(tokens, stack)
    for j in range(max(i, 1), len(tokens) - 2):
        typ, name = tokens[j], tokens[j + 1]
        if typ.type not in ("TYPE", "OBJ") or name.type != "NAME":
            continue
        sizes, after = _sizes(tokens, j + 2)
        if after >= len(tokens) or tokens[after].type != "EQUAL" or not _finished(tokens, after + 1):
            continue
        in_for = tokens[j - 1].type == "LPAR" and j >= 2 and tokens[j - 2].type == "FOR"
        if in_for and j - 1 not in open_loops:
            continue  # the loop ended: its local is gone
        if not in_for and tokens[j - 1].type not in _STATEMENT_STARTS:
            continue
        detail = typ.value + "".join(f"[{size}]" for size in sizes)
        where = "Loop variable" if in_for else ("Local array" if sizes else "Local")
        found.setdefault(name.value, Candidate(name.value, CandidateKind.LOCAL, detail=detail,
                                               documentation=f"{where} (`{detail}`).", sort_group=0))
    return list(found.values())


def _empty_brackets(tokens: list[Token], i: int) -> int:
    """How many `[]` pairs start at tokens[i] (an array parameter's dimensions)."""
    rank = 0
    while i + 1 < len(tokens) and tokens[i].type == "LSQB" and tokens[i + 1].type == "RSQB":
        rank, i = rank + 1, i + 2
    return rank


def _sizes(tokens: list[Token], i: int) -> tuple[list[str], int]:
    """The sizes written in `[...]` from tokens[i] (each as its tokens' text), and the index
    after them."""
    sizes = []
    while i < len(tokens) and tokens[i].type == "LSQB":
        close = _closing(tokens, i)
        if close is None:
            return sizes, len(tokens)
        sizes.append("".join(t.value for t in tokens[i + 1:close]))
        i = close + 1
    return sizes, i


def _closing(tokens: list[Token], i: int) -> int | None:
    depth = 0
    for j in range(i, len(tokens)):
        kind = tokens[j].type
        depth += kind in ("LPAR", "LSQB", "LBRACE")
        depth -= kind in ("RPAR", "RSQB", "RBRACE")
        if depth == 0:
            return j
    return None


def _open_for_headers(tokens: list[Token], stack: list[_Open]) -> set[int]:
    """The `(` of every `for` the cursor is inside (its header or its body)."""
    found = set()
    for open_ in stack:
        if open_.kind == "LPAR" and _is_for_header(tokens, open_.index):
            found.add(open_.index)
        elif open_.kind == "LBRACE" and open_.owner == "for":
            found.add(_opening(tokens, open_.index - 1, "LPAR", "RPAR"))
    return found


def _finished(tokens: list[Token], i: int) -> bool:
    """Whether the statement going on at tokens[i] ended before the cursor (a local is not
    visible in its own initialiser, braces of an initialiser list included)."""
    depth = 0
    for j in range(i, len(tokens)):
        kind = tokens[j].type
        if kind in ("SEMICOLON", "RBRACE", "RPAR") and depth == 0:
            return True  # `;`, or the end of the block or `for` header around it
        if kind == "LBRACE" and depth == 0 and tokens[j - 1].type == "RPAR":
            return True  # a block (`if (...) {`) began: the declaration was left unfinished
        depth += kind in ("LPAR", "LSQB", "LBRACE")
        depth -= kind in ("RPAR", "RSQB", "RBRACE")
    return False


def _function(function: ast.FunctionDef, documentation: str) -> Candidate:
    names = [p.name.text for p in function.params]
    return Candidate(function.name.text, CandidateKind.FUNCTION, detail=function_signature(function),
                     documentation=documentation, insert_text=_call_text(function.name.text, names),
                     snippet=_call_snippet(function.name.text, names), sort_group=2)


def _builtin(builtin) -> Candidate:
    names = [p.name for p in builtin.params]
    if builtin.kind is Kind.BOARD:
        snippet = builtin.name + "".join(f"[${{{k + 1}:{n}}}]" for k, n in enumerate(names))
        return Candidate(builtin.name, CandidateKind.BOARD, detail=builtin.signature,
                         documentation=builtin_markdown(builtin), snippet=snippet, sort_group=3)
    if builtin.kind is Kind.VALUE:
        return Candidate(builtin.name, CandidateKind.VALUE, detail=builtin.signature,
                         documentation=builtin_markdown(builtin), sort_group=1)
    return Candidate(builtin.name, CandidateKind.BUILTIN_FUNCTION, detail=builtin.signature,
                     documentation=builtin_markdown(builtin), insert_text=_call_text(builtin.name, names),
                     snippet=_call_snippet(builtin.name, names), sort_group=3)


def _call_text(name: str, params: list[str]) -> str:
    return f"{name}()" if not params else name


def _call_snippet(name: str, params: list[str]) -> str:
    inside = ", ".join(f"${{{k + 1}:{p}}}" for k, p in enumerate(params))
    return f"{name}({inside})"


def _object_values(analyses: list[Analysis]) -> list[Candidate]:
    objects = [_object(s) for s in _declarations(analyses) if s.kind is SymbolKind.OBJECT]
    return objects + [_builtin(BUILTINS["empty"])]


def _booleans() -> list[Candidate]:
    return [Candidate(word, CandidateKind.VALUE, detail="bool", sort_group=4) for word in ("true", "false")]


def _types() -> list[Candidate]:
    return [Candidate(t, CandidateKind.TYPE, sort_group=4) for t in TYPE_NAMES]


def _keyword(word: str, snippet: str | None) -> Candidate:
    return Candidate(word, CandidateKind.KEYWORD, insert_text=word, snippet=snippet, sort_group=5)


def _operation_fields() -> list[Candidate]:
    return [Candidate(str(j), CandidateKind.INDEX, detail=type_, documentation=f"`OperationList[i][{j}]`: {meaning}",
                      sort_group=0)
            for j, (type_, meaning) in enumerate(OPERATION_FIELDS)]


def _files(path: str, replace: Span | None) -> list[Candidate]:
    """The .gdef files a `use` in `path` can name (relative to its folder, two levels deep)."""
    folder = os.path.dirname(os.path.abspath(path))
    me = os.path.abspath(path)
    found = []
    for root, dirs, names in os.walk(folder):
        depth = os.path.relpath(root, folder).count(os.sep) + (root != folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < 2)
        for name in sorted(names):
            full = os.path.join(root, name)
            if name.endswith(".gdef") and full != me:
                relative = os.path.relpath(full, folder).replace(os.sep, "/")
                found.append(Candidate(relative, CandidateKind.FILE, detail="gdef file",
                                       replace=replace, sort_group=0 if root == folder else 1))
    return found

