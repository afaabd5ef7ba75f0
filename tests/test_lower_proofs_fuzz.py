"""The proofs of lower/ tried against generated games: many small games from templates of the
shapes the proofs recognise and their near misses (seeded, so each case is the same every run),
each proof checked against what the Python backend does.

- lower/distinct.py: where it says moves() proposes each candidate once, the Python backend's
  raw candidate list (before `dict.fromkeys` drops duplicates, runtime/game.py) has no
  duplicate in any position of random games. Templates: loops over counters (for / while, up,
  down, by two, stepped first or last), steps, rays and slides along tables of directions
  (equal, parallel, zero and random directions), several operations, aliases; near misses:
  counters set again or skipped by `continue`, steps in branches or of nothing, rays stepped
  out of step, operations before, after, conditional or in a helper, passes, counts, distances
  that may be 0.
- lower/unread_fills.py: where it says an array's fill is never read, the game plays the same
  with the fill 0 and 7 (the Python backend, which fills); random functions of pushes, pops,
  writes and reads at counters and constants, copies of the index, loops that write a prefix
  or all of the array, breaks.
- lower/unread_fills.py, lower/stack_arrays.py and lower/replayed.py on the C route (skipped
  without a C compiler): such games, their array in the frame and a function of the board
  called by isMoveLegal() and again by end(), list the same legal moves as the Python backend
  in random positions, and play the same seeded games, at step budgets a few steps apart.

Each family also checks that its cases reach both sides (proven ones, and near misses that do
repeat a candidate or read a fill), so that the fuzzing cannot pass by generating nothing.
"""
from __future__ import annotations

import functools
import random

import pytest

from gdef_core.lower.build import lowered
from gdef_core.lower.distinct import distinct_candidates
from gdef_core.lower.unread_fills import unread_fills
from gdef_core.runtime import load_game

DISTINCT_SEEDS = range(240)
FILL_SEEDS = range(160)
C_CASES = 6
MAX_STEPS = 20000   # a generated endless loop fails fast, on both sides alike


# ---------------------------------------------------------------- moves() that may repeat

DISTINCT_HEADER = """name: fuzz
players: 2
size: 4 x 4
obj X
obj O

define inside(int x, int y) -> bool { return x >= 0 && x < 4 && y >= 0 && y < 4; }

define isMoveLegal() -> bool { return isGenerated(); }

define end() -> bool { return moveNumber() >= 6; }

"""

DIRECTIONS = {
    "orthogonal": [(1, 0), (0, 1), (-1, 0), (0, -1)],
    "diagonal": [(1, 1), (-1, 1), (-1, -1), (1, -1)],
    "queen": [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)],
    "opposite": [(1, 0), (-1, 0)],
    "equal": [(1, 0), (0, 1), (1, 0)],
    "parallel": [(1, 1), (2, 2), (-1, 0)],
    "parallel after": [(0, 1), (-1, 0), (0, 2)],
    "zero": [(0, 0), (1, 0), (0, 1)],
    "zero alone": [(0, 0)],
    "knight": [(1, 2), (2, 1), (-1, 2), (-2, -1)],
    "two zeros": [(1, 0), (0, 0), (0, 0)],
}

# the distance of a slide: at least 1 for the first five, 0 somewhere for the others
DISTANCES = [
    """define far(int x, int y, int dx, int dy) -> int {
  int n = 1;
  int cx = x + dx;
  int cy = y + dy;
  while (inside(cx, cy)) {
    if (CurrentPosition[cx][cy] != empty) { n = n + 1; }
    cx = cx + dx;
    cy = cy + dy;
  }
  return n;
}
""",
    "define far(int x, int y, int dx, int dy) -> int { return 2 - x % 2; }\n",
    "define far(int x, int y, int dx, int dy) -> int { return 1 + (x + y) / 4; }\n",
    "define far(int x, int y, int dx, int dy) -> int { return 1 + dx * dx; }\n",
    "define far(int x, int y, int dx, int dy) -> int { if (x > 2) { return 2; } return 1; }\n",
    """define far(int x, int y, int dx, int dy) -> int {
  int n = 0;
  if (CurrentPosition[x][y] == X) { n = 1; }
  return n;
}
""",
    "define far(int x, int y, int dx, int dy) -> int { return (x + 1) * (y - 1) + 2; }\n",
    """define far(int x, int y, int dx, int dy) -> int {
  int n = 3;
  for (int i = 0; i < x; i = i + 1) { n = n - 1; }
  return n;
}
""",
    "define far(int x, int y, int dx, int dy) -> int { if (x > 2) { return 0; } return 1; }\n",
    "define far(int x, int y, int dx, int dy) -> int { return x * x - 2 * x + 1; }\n",
]


class _Moves:
    """The text of a moves() from `seed`: an even seed a clean shape, an odd one with one near
    miss drawn in at one site (a loop, the operations, the ray, the coordinates), so that no
    other near miss makes the proof refuse it anyway."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.site = None if seed % 2 == 0 else self.r.choice(["x", "y", "stretch", "stretch", "ray", "coordinates"])
        self.before: list[str] = []    # moves()' statements before its loops
        self.helpers: list[str] = []   # functions before moves()

    def near_miss(self, site: str, choices: list):
        found = self.r.choice(choices)
        return found if site == self.site else None

    def counted(self, var: str, body: list[str]) -> list[str]:
        """A loop of `var` over 0 .. 3 in one of several spellings around `body`."""
        r = self.r
        style = r.choice(["for", "for down", "for two", "while end", "while start", "while down"])
        miss = self.near_miss(var, ["set again", "continue", "step in if", "step of a local"])
        flag = f"again_{var}"
        extra = []
        if miss in ("set again", "continue"):
            self.before.append(f"int {flag} = 0;")
        if miss == "set again":
            back = "+" if style == "while down" or style == "for down" else "-"
            extra = [f"if ({var} == 1 && {flag} == 0) {{ {flag} = 1; {var} = {var} {back} 1; }}"]
        if miss == "continue":
            extra = [f"if ({var} == 2 && {flag} == 0) {{ {flag} = 1; continue; }}"]
        up, down = f"{var} = {var} + 1;", f"{var} = {var} - 1;"
        if miss == "step in if":
            up, down = f"if ({var} >= 0) {{ {up} }}", f"if ({var} < 9) {{ {down} }}"
        if miss == "step of a local":
            self.before.append(f"int stay_{var} = 0;")
            up, down = f"{var} = {var} + stay_{var};\n{up}", f"{var} = {var} + stay_{var};\n{down}"
        if miss in ("continue", "step in if", "step of a local"):   # in a loop whose step it can skip
            style = "while end"
        if style == "for":
            return [f"for (int {var} = 0; {var} < 4; {var} = {var} + 1) {{", *body, *extra, "}"]
        if style == "for down":
            return [f"for (int {var} = 3; {var} >= 0; {var} = {var} - 1) {{", *body, *extra, "}"]
        if style == "for two":
            return [f"for (int {var} = {r.choice([0, 1])}; {var} < 4; {var} = {var} + 2) {{", *body, *extra, "}"]
        if style == "while end":
            return [f"int {var} = 0;", f"while ({var} < 4) {{", *body, *extra, up, "}"]
        if style == "while start":
            return [f"int {var} = -1;", f"while ({var} < 3) {{", up, *body, *extra, "}"]
        return [f"int {var} = 4;", f"while ({var} > 0) {{", down, *body, *extra, "}"]

    def coordinate(self, names: list[str]) -> str:
        forms = ["v", "v", "v + 1", "3 - v", "v - 1", "-v + 3"]
        if self.site == "coordinates":
            forms += ["0", "1", "v + v", "v * 1", "onTurn()"]
        form = self.r.choice(forms)
        return form.replace("v", self.r.choice(names))

    def stretch(self, ops: list, names: list[str]) -> tuple[list[str], str | None]:
        """The operations and the addMove(), and the near miss drawn around them."""
        r = self.r
        lines = [f"addClear({x}, {y});" if kind == "clear" else f"addPlace({x}, {y}, {kind});" for x, y, kind in ops]
        miss = self.near_miss("stretch", ["extra if", "extra continue", "extra break", "op in helper", "op before",
                                            "pass before", "pass after", "pass in loop", "op after", "count",
                                            "second move", "conditional first", "counter back"])
        if miss == "extra if":
            lines.append(f"if ({r.choice(names)} > 1) {{ addPlace(0, 0, O); }}")
        elif miss == "extra continue":
            self.before.append("int once = 0;")
            lines.append(f"if ({r.choice(names)} > 1 && once == 0) {{ once = 1; addPlace(1, 1, O); continue; }}")
        elif miss == "extra break":
            lines.insert(1, f"if ({r.choice(names)} > 2) {{ break; }}")
        elif miss == "op in helper":
            self.helpers.append("define put(int x, int y) { addPlace(x, y, O); }\n")
            lines.append("put(0, 0);")
        elif miss == "conditional first":
            lines.insert(0, f"if ({r.choice(names)} == 0) {{ addPlace(2, 2, O); }}")
        elif miss == "second move":
            lines += ["addMove();", lines[0]]
        elif miss == "count":
            lines.append("addCount(0, 0, 1);")
        lines.append("addMove();")
        if miss == "op after":
            lines.append("addPlace(3, 3, O);")
        if miss == "counter back":
            self.before.append("int back = 0;")
            lines.append(f"if ({names[0]} == 2 && back == 0) {{ back = 1; {names[0]} = 1; }}")
        return lines, miss

    def text(self) -> str:
        r = self.r
        shape = r.choice(["grid", "grid", "step", "ray", "ray", "slide"])
        names = r.choice([["x", "y"], ["x", "y"], ["x"], ["y", "x"]])
        directions = DIRECTIONS[r.choice(list(DIRECTIONS))]
        if r.random() < 0.2:
            directions = [(r.randint(-2, 2), r.randint(-2, 2)) for _ in range(r.randint(1, 4))]
        if shape != "grid":
            self.before.append(f"int dx[{len(directions)}] = {{{', '.join(str(a) for a, _ in directions)}}};")
            self.before.append(f"int dy[{len(directions)}] = {{{', '.join(str(b) for _, b in directions)}}};")
        ox = "x" if "x" in names else r.choice(["0", "1"])
        oy = "y" if "y" in names else r.choice(["0", "2"])
        on = names + (["tx", "ty"] if shape in ("step", "ray") else [])
        ops, inner = [], []
        for k in range(r.choice([1, 1, 2, 3])):
            kind = r.choice(["X", "O", "clear"])
            if shape in ("step", "ray") and k == 0 and r.random() < 0.7:
                ops.append(("tx", "ty", kind))
            elif shape == "slide" and k == 0:
                scale = "s" if r.random() < 0.7 else r.choice(["d", "1"])
                ops.append((f"{ox} + s * dx[d]", f"{oy} + dy[d] * {scale}", kind))
            else:
                ops.append((self.coordinate(on), self.coordinate(on), kind))
        if shape != "grid" and r.random() < 0.8:   # the square moved from (amazons, clobber)
            ops.insert(r.randint(0, len(ops)), (ox, oy, r.choice(["X", "O", "clear"])))
        if shape == "grid" and r.random() < 0.2:
            self.before.append("int a0 = 2;")
            inner.append(f"int al = {r.choice(names)} + {r.choice(['0', '1', 'a0'])};")
            ops[0] = ("al", *ops[0][1:])
        guard = " && ".join(f"inside({x}, {y})" for x, y, _ in ops)
        board = r.choice(["true", f"CurrentPosition[{ox}][{oy}] == empty", f"CurrentPosition[{ox}][{oy}] != X",
                          "moveNumber() < 5"])
        stretch, miss = self.stretch(ops, names)
        body = [*inner, f"if ({guard} && {board}) {{", *stretch, "}"]
        if shape != "grid":
            body = self.directions(shape, len(directions), ox, oy, body)
        for var in reversed(names):
            body = self.counted(var, body)
        top = {"pass before": ["addMove();"], "op before": ["addPlace(1, 1, O);"],
               "pass in loop": ["for (int k = 0; k < 2; k = k + 1) { addMove(); }"]}.get(miss, [])
        bottom = ["if (moveNumber() > 2) { addMove(); }"] if miss == "pass after" else []
        return "".join(self.helpers) + "define moves() {\n" + _indented([*self.before, *top, *body, *bottom]) + "}\n"

    def directions(self, shape: str, count: int, ox: str, oy: str, body: list[str]) -> list[str]:
        """`body` in a loop over the table of directions: a step, a ray or a slide from (ox, oy)."""
        r = self.r
        declared = [f"int tx = {ox} + dx[d];", f"int ty = {oy} + dy[d];"]
        if shape == "slide":
            self.helpers.append(r.choice(DISTANCES))
            declared = [f"int s = far({ox}, {oy}, dx[d], dy[d]);"]
        if shape == "ray":
            steps = ["tx = tx + dx[d];", "ty = ty + dy[d];"]
            miss = self.near_miss("ray", ["step in if", "break between", "one step", "step before",
                                                "other table", "split"])
            if miss == "step in if":
                steps[0] = f"if (onTurn() == 0) {{ {steps[0]} }}"
            elif miss == "break between":
                steps.insert(1, "if (moveNumber() == 3) { break; }")
            elif miss == "one step":
                steps[1] = "ty = ty + 0;"
            elif miss == "other table":
                steps[1] = "ty = ty + dx[d];"
            body = ([*steps, *body] if miss == "step before" else [steps[0], *body, steps[1]] if miss == "split"
                    else [*body, *steps])
            limit = r.choice(["inside(tx, ty)", "inside(tx, ty) && CurrentPosition[tx][ty] == empty"])
            body = ["int k = 0;", f"while ({limit} && k < 4) {{", *body, "k = k + 1;", "}"]
        step = r.choice(["d = d + 1", "d = d + 1", "d = d + 2"])
        if r.random() < 0.7:
            return [f"for (int d = 0; d < {count}; {step}) {{", *declared, *body, "}"]
        return ["int d = 0;", f"while (d < {count}) {{", *declared, *body, f"{step};", "}"]


def _indented(lines: list[str]) -> str:
    out, depth = [], 1
    for line in (part for chunk in lines for part in chunk.split("\n")):
        depth -= line.startswith("}")
        out.append("  " * depth + line)
        depth += line.endswith("{")
    return "\n".join(out) + "\n"


def _load(directory, name: str, text: str, **limits):
    path = directory / f"{name}.gdef"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path), **limits)


def _random_states(game, seed: int, games: int):
    """The positions of `games` random games of the Python backend, from the start; a game
    stops where its rules fail (an endless generated loop)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while not state.is_over:
            yield state
            try:
                move = state.random_move(rng)
            except Exception:   # the rules failed: nothing more to see in this game
                break
            if move is None:
                break
            state.apply(move)


@functools.cache
def _distinct_case(seed: int, directory) -> tuple[bool, int, int, list]:
    """(the proof's answer, candidates proposed, positions with a duplicate, the first
    duplicated candidates) of the generated game `seed`."""
    game = _load(directory, f"distinct{seed}", DISTINCT_HEADER + _Moves(seed).text(), max_steps=MAX_STEPS)
    proven = distinct_candidates(lowered(game.program))
    proposed, repeated, first = 0, 0, []
    for state in _random_states(game, seed, 3):
        try:
            candidates = game.rules.raw_moves(state._board, state.player, state.move_number, state._vars)
        except Exception:
            continue
        proposed += len(candidates)
        if len(set(candidates)) < len(candidates):
            repeated += 1
            first = first or [c for c in dict.fromkeys(candidates) if candidates.count(c) > 1]
    return proven, proposed, repeated, first


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return tmp_path_factory.mktemp("generated")


@pytest.mark.parametrize("seed", DISTINCT_SEEDS)
def test_a_proof_of_distinct_candidates_holds_in_random_positions(generated, seed):
    proven, _, repeated, first = _distinct_case(seed, generated)
    if proven:
        assert repeated == 0, (DISTINCT_HEADER + _Moves(seed).text(), first)


def test_the_generated_moves_reach_proofs_and_repeats(generated):
    """Enough proven games proposing enough candidates, and enough near misses that do repeat
    a candidate, for the test above to mean something."""
    cases = [_distinct_case(seed, generated) for seed in DISTINCT_SEEDS]
    proven = [case for case in cases if case[0]]
    assert len(proven) >= 40 and sum(case[1] for case in proven) >= 40 * 20
    assert sum(1 for case in cases if not case[0] and case[2]) >= 60


# ---------------------------------------------------------------- arrays whose fill may be read

FILLS_HEADER = """name: fills
players: 2
size: 4 x 4
obj X
obj O

define isMoveLegal() -> bool { return isGenerated(); }

define end() -> bool { return moveNumber() >= 5; }

define moves() {
  for (int x = 0; x < 4; x = x + 1) {
    int v = f(x + moveNumber());
    v = (v % 4 + 4) % 4;
    if (CurrentPosition[x][v] == empty) {
      addPlace(x, v, X);
      addMove();
    }
  }
  addMove();
}

"""

# for the C route: a loop over the board after the move, called by isMoveLegal() and by end()
# (lower/replayed.py), which calls f() too; reading the board before the move instead
# (CurrentPosition), it is a near miss that must not be replayed
REPLAYED = """define row(int y) -> int {
  int n = f(y);
  for (int i = 0; i < 4; i = i + 1) {
    if (ResultPosition[i][y] != empty) { n = n + 1; }
  }
  return n;
}

"""


class _Fills:
    """A function f(int x) -> int over a local array `a` of a few elements (or 40: beyond
    lower/stack_arrays.py's frame) filled with FILL, made of random pushes, pops, writes and
    reads at an index `t` and at constants, copies of the index, loops, branches."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.n = self.r.choice([3, 4, 5, 6, 40])
        self.structured = seed % 2 == 0
        self.loops = 0

    def value(self) -> str:
        return self.r.choice(["x", "s + 1", "t", "x + t", "2", "s % 3", "u"])

    def stmt(self, depth: int, kind: str | None = None) -> list[str]:
        r, n = self.r, self.n
        kinds = ["write t", "write t", "push", "pop", "read t", "read t", "read c", "write c", "set t", "copy",
                 "sub", "push bare", "read bare", "pop bare", "sum loop", "fill loop", "push loop", "pop loop", "if"]
        kind = kind or r.choice(kinds if depth < 2 else kinds[:-4])
        c = r.randint(0, min(n, 6) - 1)
        if kind == "write t":
            return [f"if (t >= 0 && t < {n}) {{ a[t] = {self.value()}; }}"]
        if kind == "push":
            return [f"if (t >= 0 && t < {n}) {{", f"a[t] = {self.value()};", "t = t + 1;", "}"]
        if kind == "pop":
            return ["if (t > 0) {", "t = t - 1;", "s = s + a[t];", "}"]
        if kind == "read t":
            return [f"if (t >= 0 && t < {n}) {{ s = s + a[t]; }}"]
        if kind == "push bare":   # out of bounds fails alike with any fill
            return [f"a[t] = {self.value()};", "t = t + 1;"]
        if kind == "read bare":
            return ["s = s + a[t];"]
        if kind == "pop bare":
            return ["t = t - 1;", "s = s + a[t];"]
        if kind == "sum loop":
            self.loops += 1
            return [f"for (int j{self.loops} = 0; j{self.loops} < {n}; j{self.loops} = j{self.loops} + 1) {{",
                    f"s = s + a[j{self.loops}];", "}"]
        if kind == "read c":
            return [f"s = s + a[{c}];"]
        if kind == "write c":
            return [f"a[{c}] = {self.value()};"]
        if kind == "set t":
            return [f"t = {r.choice([0, 1, c, 'x % 2'])};"]
        if kind == "copy":
            return [r.choice(["u = t;", "t = u;", "u = t + 1;"])]
        if kind == "sub":
            return [f"t = t - {r.choice([1, 2])};"]
        if kind == "fill loop":
            self.loops += 1
            i = f"i{self.loops}"
            body = [f"a[{i}] = {self.value().replace('t', i)};"]
            if r.random() < 0.5:
                body.insert(r.choice([0, 1]), f"if (x == {r.randint(0, 3)}) {{ break; }}")
            return [f"for (int {i} = 0; {i} < {r.choice([n, n, n - 1, 't'])}; {i} = {i} + 1) {{", *body, "}"]
        if kind == "push loop":
            leave = [f"if (x == {r.randint(0, 3)}) {{ break; }}"] if r.random() < 0.5 else []
            return [f"while (t < {r.choice([n, n, n - 1])}) {{", "if (t < 0) { t = 0; }", f"a[t] = {self.value()};",
                    *leave, "t = t + 1;", "}"]
        if kind == "pop loop":
            return ["while (t > 0) {", "t = t - 1;", "s = s + a[t];", *self.block(depth + 1, 2), "}"]
        return [f"if ({r.choice(['x > 1', 's > 2', 't == 1', 'x == 0'])}) {{", *self.block(depth + 1, 3), "} else {",
                *self.block(depth + 1, 2), "}"]

    def block(self, depth: int, most: int) -> list[str]:
        return [line for _ in range(self.r.randint(1, most)) for line in self.stmt(depth)]

    def text(self, fill: int) -> str:
        if self.structured:   # the array written (a prefix, all of it, up to a break), then read
            writes = self.r.choice([["fill loop"], ["push loop"], ["write c", "write c"], ["push", "push loop"]])
            reads = self.r.choice([["sum loop"], ["read c"], ["pop loop"], ["read t"], ["pop bare"]])
            statements = [line for kind in (*writes, *reads) for line in self.stmt(2, kind)]
        else:
            statements = self.block(0, 7)
        body = [f"int a[{self.n}] = {fill};", "int t = 0;", "int u = 0;", "int s = 0;", *statements, "return s;"]
        return "define f(int x) -> int {\n" + "\n".join("  " + line for line in body) + "\n}\n"


def _fills_game(seed: int, fill: int, judged: str | None = None) -> str:
    """The game of f() `seed` filled with `fill`; with row() reading the board `judged`."""
    text = FILLS_HEADER + _Fills(seed).text(fill)
    if judged:
        text = (text.replace("return isGenerated();", "return isGenerated() && row(1) >= 0;")
                    .replace("return moveNumber() >= 5;",
                             "return moveNumber() >= 5 || moveNumber() >= 2 && row(1) % 3 == 1;")
                + REPLAYED.replace("ResultPosition", judged))
    return text


def _seen(game, seed: int) -> list:
    """What the Python backend does in two random games: in each position the candidates (or
    the failure), then the move drawn."""
    seen = []
    for state in _random_states(game, seed, 2):
        try:
            seen.append([str(ops) for ops in game.rules.raw_moves(state._board, state.player, state.move_number,
                                                                   state._vars)])
        except Exception as error:
            seen.append(type(error).__name__)
    return seen


@functools.cache
def _fills_case(seed: int, directory) -> tuple[bool, bool]:
    """(whether the proof leaves f()'s array unfilled, whether the game plays otherwise with
    another fill)."""
    games = [_load(directory, f"fills{seed}_{fill}", _fills_game(seed, fill), max_steps=3000) for fill in (0, 7)]
    unfilled = bool(unread_fills(lowered(games[0].program).functions["f"]))
    return unfilled, _seen(games[0], seed) != _seen(games[1], seed)


@pytest.mark.parametrize("seed", FILL_SEEDS)
def test_an_unread_fill_is_never_seen(generated, seed):
    unfilled, differs = _fills_case(seed, generated)
    if unfilled:
        assert not differs, _fills_game(seed, 7)


def test_the_generated_arrays_reach_proofs_and_reads_of_the_fill(generated):
    cases = [_fills_case(seed, generated) for seed in FILL_SEEDS]
    assert sum(1 for unfilled, _ in cases if unfilled) >= 40
    assert sum(1 for unfilled, differs in cases if not unfilled and differs) >= 40


# ---------------------------------------------------------------- the C route

@functools.cache
def _c_seeds(directory) -> tuple[int, ...]:
    """The first seeds whose f() the C route makes without its fill, one in the arena (an
    array beyond the frame's size) and the others in the frame, with row() replayed."""
    from gdef_core.lower.replayed import replayed
    from gdef_core.lower.stack_arrays import stack_arrays

    framed, arena, seed = [], [], 0
    while len(framed) < C_CASES - 1 or not arena:
        module = lowered(_load(directory, f"judged{seed}", _fills_game(seed, 7, "ResultPosition")).program)
        assert replayed(module, set()) == {"row"}
        if unread_fills(module.functions["f"]):
            (framed if stack_arrays(module.functions["f"]) else arena).append(seed)
        seed += 1
    return (*framed[:C_CASES - 1], arena[0])


def _legal(state) -> list[str] | str:
    try:
        return [str(move) for move in state.legal_moves()]
    except Exception as error:
        return type(error).__name__


def _native_legal(native, state) -> list[str] | str:
    try:
        return [str(move) for move in native.legal_moves(state)]
    except Exception as error:
        return type(error).__name__


@pytest.mark.parametrize("case", range(C_CASES))
def test_the_c_route_plays_a_game_of_proven_arrays_as_the_python_backend(generated, tmp_path, monkeypatch, case):
    """Legal moves in random positions (the kernel's own count where the Python backend lists
    them) and seeded random games replayed through the Python backend, at three step budgets
    a few steps apart and a large one; row() read in end() as judged (replayed) or reading
    the board before the move (a near miss, not replayed)."""
    from support import need_module

    need_module("numpy", "pip install -e '.[fast]'")
    import numpy as np
    from native_support import kernel_perft, use_route

    from gdef_core.native import NativeRules
    from gdef_core.native.backend import ENDED, FAILED
    from gdef_core.play.games import kernel_seed

    from gdef_core.lower.replayed import replayed

    seed = _c_seeds(generated)[case]
    text = _fills_game(seed, 7, ("ResultPosition", "CurrentPosition")[case % 2])
    budget = random.Random(seed).randint(40, 160)
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("c"):
        for max_steps in (budget, budget + 1, budget + 3, 3000):
            game = _load(tmp_path, f"c{max_steps}", text, max_steps=max_steps)
            said: list[str] = []
            native = NativeRules.load(game, said.append)
            assert native is not None and native.route == "c", said
            assert replayed(lowered(game.program), set()) == ({"row"} if case % 2 == 0 else set())
            where = (max_steps, text)
            for state in _random_states(game, seed, 2):
                legal = _legal(state)
                assert _native_legal(native, state) == legal, where
                if isinstance(legal, list):
                    assert kernel_perft(native, state, 1) == [len(legal)], where
            start = game.new_state()
            seeds = [kernel_seed(seed, index, 0) for index in range(8)]
            winners, _, status, scores = native.playouts(np.array(seeds, dtype=np.uint64), start, None)
            for k, moves_seed in enumerate(seeds):
                assert status[k] in (ENDED, FAILED), where
                state = start.clone()
                for move in native.recorded_moves(moves_seed, start, None):
                    assert str(move) in _legal(state), where
                    state.apply(move)
                if status[k] == ENDED:
                    assert state.is_over, where
                    assert (state.winner, tuple(state.scores)) == (
                        None if winners[k] < 0 else int(winners[k]), native.scores(scores[k])), where
                else:
                    assert not state.is_over and isinstance(_legal(state), str), where
