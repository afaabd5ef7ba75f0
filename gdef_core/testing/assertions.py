"""Assertion lines of move scripts: `? legal place(1,1,X)`, `? over winner 0`, `? moves 7` ...

An assertion checks the position reached by the moves above it and changes nothing. The same
lines work in `gdef-run --moves` and in `gdef-test` files (docs/runtime.md). KEYWORDS is the
one description of the syntax: the parser, error messages, completion and hover read it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# keyword -> (arguments as written, what it checks)
KEYWORDS: dict[str, tuple[str, str]] = {
    "legal": ("MOVE", "the move is legal in this position (isMoveLegal() accepts it)"),
    "illegal": ("MOVE", "the move is not legal in this position (for any reason: rules, board, object)"),
    "over": ("[winner P | draw]", "the game has ended (with player P winning, or in a draw)"),
    "not": ("over", "the game goes on"),
    "turn": ("P", "player P is on turn"),
    "square": ("X,Y OBJ", "square (X, Y) holds OBJ (`empty` for an empty square)"),
    "count": ("X,Y N", "square (X, Y) holds the count N (`CurrentCount`; 0 unless a move set it)"),
    "var": ("NAME VALUE", "game variable NAME has VALUE (a number, true/false, an object, or an "
                          "array's elements as {a, b} / {{a, b}, {c, d}})"),
    "score": ("P VALUE", "player P's score (setScore) is VALUE"),
    "moves": ("N", "the player on turn has exactly N legal moves (at a chance node: N outcomes)"),
    "chance": ("", "chance moves next: the next move is one of chance()'s outcomes (name it, as a move)"),
}

_INT = re.compile(r"-?\d{1,19}")
_NUMBER = re.compile(r"-?\d{1,19}(\.\d{1,30})?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,199}")


class AssertionSyntaxError(ValueError):
    """An assertion line that cannot be read; `column` (0-based) points into the line."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True, slots=True)
class Assertion:
    keyword: str
    args: tuple
    text: str  # the line as written, without the comment
    line: int | None = None  # 1-based line in its file


@dataclass(frozen=True, slots=True)
class Outcome:
    passed: bool
    expected: str
    actual: str


def is_assertion(text: str) -> bool:
    return text.lstrip().startswith("?")


def usage(keyword: str) -> str:
    arguments, _ = KEYWORDS[keyword]
    return f"? {keyword} {arguments}"


def parse_assertion(text: str, line: int | None = None) -> Assertion:
    """`text` is one line without its comment, starting with `?`."""
    stripped = text.strip()
    offset = len(text) - len(text.lstrip())
    body = stripped[1:]
    words = body.split()
    if not words:
        raise AssertionSyntaxError("an assertion needs a keyword after '?': "
                                   + ", ".join(KEYWORDS), offset + 1)
    keyword = words[0]
    column = offset + 1 + body.index(keyword)
    if keyword not in KEYWORDS:
        raise AssertionSyntaxError(f"unknown assertion '{keyword}': use one of {', '.join(KEYWORDS)}", column)
    rest = body[body.index(keyword) + len(keyword):].strip()
    args = _ARGUMENTS[keyword](rest)
    if args is None:
        raise AssertionSyntaxError(f"write it as `{usage(keyword)}`", column)
    return Assertion(keyword, args, stripped, line)


def _move(rest: str):
    """A move as operations, or a move name (`e2e4`) read in the position it is checked in."""
    from gdef_core.moves import Move, MoveSyntaxError, looks_like_name

    if not rest:
        return None
    try:
        return (Move.parse(rest),)
    except MoveSyntaxError:
        return (rest.strip(),) if looks_like_name(rest) and " " not in rest.strip() else None


def _over(rest: str):
    words = rest.split()
    if not words:
        return (None,)
    if words == ["draw"]:
        return ("draw",)
    if len(words) == 2 and words[0] == "winner" and _INT.fullmatch(words[1]):
        return (int(words[1]),)
    return None


def _nothing(rest: str):
    return () if not rest.split() else None


def _not(rest: str):
    return () if rest.split() == ["over"] else None


def _player(rest: str):
    return (int(rest),) if _INT.fullmatch(rest) else None


def _square(rest: str):
    match = re.fullmatch(r"(-?\d{1,9})\s*[, ]\s*(-?\d{1,9})\s+(\S+)", rest)
    if not match or not _NAME.fullmatch(match[3]):
        return None
    return int(match[1]), int(match[2]), match[3]


def _square_count(rest: str):
    match = re.fullmatch(r"(-?\d{1,9})\s*[, ]\s*(-?\d{1,9})\s+(-?\d{1,19})", rest)
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def _var(rest: str):
    name, _, text = rest.partition(" ")
    text = text.strip()
    if not _NAME.fullmatch(name) or not text:
        return None
    value = parse_value(text)
    return None if value is None else (name, value)


def parse_value(text: str):
    """A value as `? var` writes it: a number, true/false, an object's name, or an array's
    elements as {a, b} / {{a, b}, {c, d}} (nested lists); None when it cannot be read."""
    return _array_value(text) if text.startswith("{") else _value(text)


def _array_value(text: str):
    """`{a, b}` or `{{a, b}, {c, d}}`: an array's elements, as (nested) lists; None if unreadable."""
    tokens = re.findall(r"[{},]|[^{},\s]+", text)
    position = 0

    def parse():
        nonlocal position
        if position >= len(tokens):
            return None
        token = tokens[position]
        position += 1
        if token != "{":
            return _value(token)
        items = []
        while position < len(tokens) and tokens[position] != "}":
            item = parse()
            if item is None:
                return None
            items.append(item)
            if position < len(tokens) and tokens[position] == ",":
                position += 1
        if position >= len(tokens):
            return None
        position += 1
        return items

    value = parse()
    return value if position == len(tokens) and isinstance(value, list) else None


def _score(rest: str):
    words = rest.split()
    if len(words) != 2 or not _INT.fullmatch(words[0]) or not _NUMBER.fullmatch(words[1]):
        return None
    return int(words[0]), _value(words[1])


def _count(rest: str):
    return (int(rest),) if _INT.fullmatch(rest) and not rest.startswith("-") else None


def _value(word: str):
    """A written value: int, float, true/false, or an object's name (kept as a string)."""
    if word in ("true", "false"):
        return word == "true"
    if _INT.fullmatch(word):
        return int(word)
    if _NUMBER.fullmatch(word):
        return float(word)
    if _NAME.fullmatch(word):
        return _ObjName(word)
    return None


class _ObjName(str):
    """An object named in an assertion (compared with the object's name)."""


_ARGUMENTS = {"legal": _move, "illegal": _move, "over": _over, "not": _not, "turn": _player,
              "square": _square, "count": _square_count, "var": _var, "score": _score, "moves": _count,
              "chance": _nothing}


# ------------------------------------------------------------------ checking

def evaluate(assertion: Assertion, state) -> Outcome:
    """Check `assertion` against `state` (never changed). A run-time error of the rules while
    checking (isMoveLegal() or moves() failing) propagates as GdefRuntimeError."""
    return _CHECKS[assertion.keyword](state, *assertion.args)


def _legal(state, move) -> Outcome:
    verdict = state.clone().check(move)
    if verdict.error is not None:
        raise verdict.error
    return Outcome(bool(verdict), f"{move} is legal", "legal" if verdict else f"illegal: {verdict.reason}")


def _illegal(state, move) -> Outcome:
    verdict = state.clone().check(move)
    if verdict.error is not None:
        raise verdict.error
    return Outcome(not verdict, f"{move} is illegal", f"illegal: {verdict.reason}" if not verdict else "legal")


def describe_result(state) -> str:
    if not state.is_over:
        waiting = "chance moves, then " if state.is_chance_node else ""
        return f"not over ({waiting}player {state.current_player} on turn)"
    return "over, a draw" if state.winner is None else f"over, player {state.winner} wins"


def _check_over(state, wanted) -> Outcome:
    actual = describe_result(state)
    if wanted is None:
        return Outcome(state.is_over, "over", actual)
    if wanted == "draw":
        return Outcome(state.is_over and state.winner is None, "over, a draw", actual)
    return Outcome(state.is_over and state.winner == wanted, f"over, player {wanted} wins", actual)


def _not_over(state) -> Outcome:
    return Outcome(not state.is_over, "not over", describe_result(state))


def _turn(state, player) -> Outcome:
    actual = f"player {state.current_player}" + (" (the game is over)" if state.is_over else "")
    return Outcome(not state.is_over and state.current_player == player, f"player {player}", actual)


def _check_square(state, x, y, obj) -> Outcome:
    game = state.game
    if not (0 <= x < game.width and 0 <= y < game.height):
        return Outcome(False, f"{obj} at ({x},{y})",
                       f"({x},{y}) is off the {game.width}x{game.height} board")
    if obj != "empty" and obj not in game.objects:
        return Outcome(False, f"{obj} at ({x},{y})",
                       f"'{obj}' is not an object of this game (objects: {', '.join(game.objects)})")
    actual = str(state.board[x, y]) or "empty"
    return Outcome(actual == obj, f"{obj} at ({x},{y})", f"{actual} at ({x},{y})")


def _check_count(state, x, y, count) -> Outcome:
    game = state.game
    if not (0 <= x < game.width and 0 <= y < game.height):
        return Outcome(False, f"count {count} at ({x},{y})",
                       f"({x},{y}) is off the {game.width}x{game.height} board")
    actual = state.board.count(x, y)
    return Outcome(actual == count, f"count {count} at ({x},{y})", f"count {actual} at ({x},{y})")


def _check_var(state, name, value) -> Outcome:
    variables = state.variables
    if name not in variables:
        known = ", ".join(variables) or "none"
        return Outcome(False, f"{name} = {_show(value)}", f"no game variable '{name}' (game variables: {known})")
    actual = variables[name]
    return Outcome(_same(actual, value), f"{name} = {_show(value)}", f"{name} = {_show(actual)}")


def _check_score(state, player, value) -> Outcome:
    scores = list(getattr(state, "scores", None) or [0] * state.game.players)
    if not 0 <= player < len(scores):
        return Outcome(False, f"player {player}'s score {_show(value)}",
                       f"no player {player} (players 0 to {len(scores) - 1})")
    actual = scores[player]
    return Outcome(_same(actual, value), f"player {player}'s score {_show(value)}",
                   f"player {player}'s score {_show(actual)}")


def _moves(state, count) -> Outcome:
    state = state.clone()
    found = state.legal_ops()   # counted, and only the 12 shown made Moves (a big board has millions)
    listed = ", ".join(str(move) for move in state.moves_of(found[:12])) + (", ..." if len(found) > 12 else "")
    return Outcome(len(found) == count, f"{count} legal moves",
                   f"{len(found)} legal moves" + (f": {listed}" if found else ""))


def _chance(state) -> Outcome:
    actual = "chance moves next" if state.is_chance_node else describe_result(state)
    return Outcome(state.is_chance_node, "chance moves next", actual)


def _same(actual, wanted) -> bool:
    if isinstance(wanted, list) or isinstance(actual, list):
        return (isinstance(wanted, list) and isinstance(actual, list) and len(wanted) == len(actual)
                and all(_same(a, w) for a, w in zip(actual, wanted)))
    if isinstance(wanted, _ObjName):
        return (str(actual) or "empty") == wanted if not isinstance(actual, (bool, int, float)) else False
    if isinstance(wanted, bool) or isinstance(actual, bool):
        return isinstance(actual, bool) and isinstance(wanted, bool) and actual == wanted
    return actual == wanted


def _show(value) -> str:
    if isinstance(value, list):
        return "{" + ", ".join(_show(item) for item in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return str(value) or "empty"


_CHECKS = {"legal": _legal, "illegal": _illegal, "over": _check_over, "not": _not_over,
           "turn": _turn, "square": _check_square, "count": _check_count, "var": _check_var, "score": _check_score,
           "moves": _moves, "chance": _chance}
