"""Random whole gdef games for the native backend's differential test
(tests/test_native_random_games.py): a seed makes one valid game text, from templates with
random parts, so that a failure names its seed and `python tests/random_games.py SEED` prints
the game.

The parts are the shapes the C route's proofs and shortcuts were made for, put together in
ways no example does: a board of 3 to 6 columns and rows, two or three players (one piece
each, a neutral blocker), a start listed or built by setup(); moves() made of single drops,
steps and captures along direction tables (game-variable or local constant tables), rays in
while loops behind onBoard() guards, jumps over an enemy with 3 operations, helper functions
that add operations only (the lazy draw's skippable calls) or whole moves, candidates off the
board (dropped) and proposed twice (merged), a pass; isMoveLegal() that accepts all, judges by
isGenerated(), adds a random condition, re-checks by hand, or refuses a board seen before
after consequences of its own (superko); end() with captures as consequences, game variables
(counter or not, arrays) changed there and read by moves(), setWinner/setScore,
setNextPlayer, hasLegalMove(), repetitions(), PreviousPosition, a move cap.

Every game ends: end() stops at the move cap; a game whose moves() may propose nothing either
always proposes a pass or asks hasLegalMove() in end().
"""
from __future__ import annotations

import random
import re
import sys

ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
FORWARD = [(0, 1), (1, 1), (-1, 1)]   # player 0's forward (y up); others mirror it by fwd[p]


class Game:
    """The text of one random game, built part by part from `rng`."""

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = rng = random.Random(seed)
        self.w, self.h = rng.randint(3, 6), rng.randint(3, 6)
        self.players = rng.choice([2, 2, 2, 3])
        self.blocker = rng.random() < 0.3
        self.history = rng.random() < 0.35
        self.tables: list[str] = []       # top-level declarations
        self.helpers: list[str] = []      # functions besides the entry points
        self.count = 0                    # unique local suffixes
        self.has_pass = False
        self.turning = False              # isMoveLegal() and end() call turnRight()

    # ------------------------------------------------------------ names

    def fresh(self) -> int:
        self.count += 1
        return self.count

    def piece(self, p: int) -> str:
        return f"P{p}"

    def table(self, dirs: list[tuple[int, int]], local: bool = False) -> tuple[str, str, int, str]:
        """A direction table: (x name, y name, length, local declaration or '')."""
        k = self.fresh()
        xs = ", ".join(str(d[0]) for d in dirs)
        ys = ", ".join(str(d[1]) for d in dirs)
        if local:
            return (f"lx{k}", f"ly{k}", len(dirs),
                    f"int lx{k}[{len(dirs)}] = {{{xs}}}; int ly{k}[{len(dirs)}] = {{{ys}}};")
        self.tables.append(f"int tx{k}[{len(dirs)}] = {{{xs}}};\nint ty{k}[{len(dirs)}] = {{{ys}}};")
        return f"tx{k}", f"ty{k}", len(dirs), ""

    def directions(self, rays: bool = False) -> list[tuple[int, int]]:
        choices = [ORTHOGONAL, DIAGONAL, ORTHOGONAL + DIAGONAL]
        if not rays:
            choices += [KNIGHT, FORWARD]
        dirs = list(self.rng.choice(choices))
        self.rng.shuffle(dirs)
        if self.rng.random() < 0.3 and len(dirs) > 2:
            dirs = dirs[:self.rng.randint(2, len(dirs) - 1)]
        if not rays and self.rng.random() < 0.3:
            dirs.append(dirs[0])   # the same direction twice: candidates proposed twice
        return dirs

    def pure(self) -> str:
        """A function of its int arguments alone with a loop (the C route's table of earlier
        calls, lower/pure.py)."""
        if "spread" not in "".join(self.helpers):
            self.helpers.append("define spread(int a, int b) -> int {\n  int n = 0;\n"
                                "  for (int i = 0; i < a + 2; i = i + 1) { n = n + (b + i) % 3; }\n"
                                "  return n;\n}\n")
        return "spread"

    def group(self) -> str:
        """The size of the group of like pieces at (x, y): a flood fill with a stack of squares
        (lower/unread_fills.py; in the frame for boards up to 32 squares: stack_arrays.py)."""
        if "define group(" not in "".join(self.helpers):
            n = self.w * self.h
            self.helpers.append(
                "define group(int x, int y) -> int {\n  obj o = CurrentPosition[x][y];\n"
                f"  bool seen[{self.w}][{self.h}] = false;\n  int sx[{n}] = 0;\n  int sy[{n}] = 0;\n"
                "  sx[0] = x;\n  sy[0] = y;\n  seen[x][y] = true;\n  int top = 1;\n  int size = 0;\n"
                "  while (top > 0) {\n    top = top - 1;\n    int cx = sx[top];\n    int cy = sy[top];\n"
                "    size = size + 1;\n    for (int d = 0; d < 4; d = d + 1) {\n"
                "      int nx = cx;\n      int ny = cy;\n"
                "      if (d == 0) { nx = cx + 1; } else if (d == 1) { nx = cx - 1; } else if (d == "
                "2) { ny = cy + 1; } else { ny = cy - 1; }\n"
                "      if (onBoard(nx, ny) && !seen[nx][ny] && CurrentPosition[nx][ny] == o) {\n"
                "        seen[nx][ny] = true;\n        sx[top] = nx;\n        sy[top] = ny;\n       "
                " top = top + 1;\n"
                "      }\n    }\n  }\n  return size;\n}\n")
        return "group"

    def turn(self) -> str:
        """Turns the enemies right of (x, y) on ResultPosition, as consequences: called by
        isMoveLegal() and by end() with the same arguments (lower/replayed.py)."""
        if "define turnRight(" not in "".join(self.helpers):
            self.helpers.append(
                "define turnRight(int x, int y, obj mine) -> int {\n  int at = x + 1;\n  int n = 0;\n"
                f"  while (at < {self.w} && ResultPosition[at][y] != empty && ResultPosition[at][y] != mine"
                f"{' && ResultPosition[at][y] != K' if self.blocker else ''}) {{\n"
                "    addPlace(at, y, mine);\n    at = at + 1;\n    n = n + 1;\n  }\n  return n;\n}\n")
        return "turnRight"

    # ------------------------------------------------------------ start

    def start(self) -> str:
        rng = self.rng
        squares = [(x, y) for x in range(self.w) for y in range(self.h)]
        rng.shuffle(squares)
        per = rng.randint(0, max(1, self.w * self.h // (2 * self.players + 1)))
        placed = []
        for p in range(self.players):
            for _ in range(per):
                placed.append((*squares.pop(), self.piece(p)))
        if self.blocker:
            for _ in range(rng.randint(1, 2)):
                placed.append((*squares.pop(), "K"))
        if not placed:
            return ""
        if rng.random() < 0.3:   # built by setup() instead
            body = "\n".join(f"  addPlace({x}, {y}, {o});" for x, y, o in placed)
            first = rng.randrange(self.players) if rng.random() < 0.3 else 0
            turn = f"\n  setNextPlayer({first});" if first else ""
            return f"define setup() {{\n{body}{turn}\n}}\n"
        return "start { " + ", ".join(f"({x},{y}: {o})" for x, y, o in placed) + " }\n"

    # ------------------------------------------------------------ moves()

    def board_loop(self, k: int, inner: str, rows: tuple[int, int] | None = None) -> str:
        low, high = rows or (0, self.h)
        if self.rng.random() < 0.3:   # a while loop instead of for
            return (f"int x{k} = 0;\n  while (x{k} < {self.w}) {{\n    int y{k} = {low};\n"
                    f"    while (y{k} < {high}) {{\n{inner}\n      y{k} = y{k} + 1;\n    }}\n"
                    f"    x{k} = x{k} + 1;\n  }}")
        return (f"for (int x{k} = 0; x{k} < {self.w}; x{k} = x{k} + 1) {{\n"
                f"    for (int y{k} = {low}; y{k} < {high}; y{k} = y{k} + 1) {{\n{inner}\n    }}\n  }}")

    def decoration(self, x: str, y: str) -> str:
        """A call adding operations only (a skippable call for the lazy draw), or ''."""
        rng = self.rng
        if rng.random() < 0.4:
            return ""
        k = self.fresh()
        form = rng.randint(0, 3)
        if form == 0:   # flip the enemies around, guarded: cannot fail
            tx, ty, n, local = self.table(self.directions(), local=rng.random() < 0.4)
            self.helpers.append(
                f"define flip{k}(int x, int y, obj me) {{\n  {local}\n"
                f"  for (int d = 0; d < {n}; d = d + 1) {{\n"
                f"    int nx = x + {tx}[d];\n    int ny = y + {ty}[d];\n"
                f"    if (onBoard(nx, ny) && isEnemy(CurrentPosition[nx][ny])) {{ addPlace(nx, ny, me); }}\n"
                f"  }}\n}}\n")
        elif form == 1:   # a mark next to the square, off the board for some: candidate dropped
            dx, dy = rng.choice(ORTHOGONAL)
            obj = "K" if self.blocker else "me"
            self.helpers.append(
                f"define mark{k}(int x, int y, obj me) {{\n  addPlace(x + {dx}, y + {dy}, {obj});\n}}\n")
        elif form == 2:   # clears in a loop that may leave early
            self.helpers.append(
                f"define sweep{k}(int x, int y, obj me) {{\n"
                f"  for (int i = 0; i < {self.w}; i = i + 1) {{\n"
                f"    if (i == x) {{ return; }}\n"
                f"    if (CurrentPosition[i][y] != empty && CurrentPosition[i][y] != me) {{ addClear(i, y); }}\n"
                f"  }}\n}}\n")
        else:   # the piece changes into the next player's on the far row (a promotion-like twin)
            self.helpers.append(
                f"define promote{k}(int x, int y, obj me) {{\n"
                f"  if (y == {self.h - 1} || y == 0) {{ addPlace(x, y, me); }}\n}}\n")
        name = self.helpers[-1].split("(")[0][len("define "):]
        return f"{name}({x}, {y}, me);"

    def target(self, x: str, y: str) -> str:
        return self.rng.choice([
            f"CurrentPosition[{x}][{y}] == empty",
            f"CurrentPosition[{x}][{y}] != me && CurrentPosition[{x}][{y}] != K" if self.blocker
            else f"CurrentPosition[{x}][{y}] != me",
            f"(CurrentPosition[{x}][{y}] == empty || isEnemy(CurrentPosition[{x}][{y}]))",
        ])

    def step_ops(self, fx: str, fy: str, tx: str, ty: str, extra: str = "") -> str:
        order = self.rng.random() < 0.75
        ops = f"addClear({fx}, {fy}); {extra}addPlace({tx}, {ty}, me);" if order else \
              f"addPlace({tx}, {ty}, me); {extra}addClear({fx}, {fy});"
        decorate = self.decoration(tx, ty)
        return f"{ops} {decorate} addMove();"

    def drop(self) -> str:
        k = self.fresh()
        rng = self.rng
        rows = None
        if rng.random() < 0.3:
            low = rng.randint(0, self.h - 1)
            rows = (low, rng.randint(low + 1, self.h))
        condition = f"CurrentPosition[x{k}][y{k}] == empty"
        if rng.random() < 0.3:
            extra = rng.choice([f" && (x{k} + y{k}) % 2 == onTurn() % 2", f" && x{k} != lastX",
                                f" && moveNumber() >= y{k}", f" && spread(x{k}, y{k} + moveNumber()) % 3 != 1"])
            if "spread(" in extra:
                self.pure()
            condition += extra
        candidate = f"addPlace(x{k}, y{k}, me); {self.decoration(f'x{k}', f'y{k}')} addMove();"
        if rng.random() < 0.35:   # a third of the candidates proposed twice: drawn no more often
            candidate += f"\n        if ((x{k} + 2 * y{k}) % 3 == 0) {{ {candidate} }}"
        inner = f"      if ({condition}) {{\n        {candidate}\n      }}"
        return self.board_loop(k, inner, rows)

    def step(self) -> str:
        k = self.fresh()
        tx, ty, n, local = self.table(self.directions(), local=self.rng.random() < 0.3)
        forward = self.rng.random() < 0.3
        dy = f"{ty}[d{k}] * fwd[onTurn()]" if forward else f"{ty}[d{k}]"
        guard = f"onBoard(nx{k}, ny{k}) && " if self.rng.random() < 0.85 else ""
        body = (f"      if (CurrentPosition[x{k}][y{k}] == me) {{\n"
                f"        for (int d{k} = 0; d{k} < {n}; d{k} = d{k} + 1) {{\n"
                f"          int nx{k} = x{k} + {tx}[d{k}];\n          int ny{k} = y{k} + {dy};\n")
        if guard:
            body += (f"          if ({guard}{self.target(f'nx{k}', f'ny{k}')}) {{\n"
                     f"            {self.step_ops(f'x{k}', f'y{k}', f'nx{k}', f'ny{k}')}\n          }}\n")
        else:   # no guard: candidates off the board are dropped (no square read there)
            body += f"          {self.step_ops(f'x{k}', f'y{k}', f'nx{k}', f'ny{k}')}\n"
        body += "        }\n      }"
        prefix = f"{local}\n  " if local else ""
        if self.rng.random() < 0.3:   # the piece's moves in a helper of their own
            self.helpers.append(f"define steps{k}(int x{k}, int y{k}, obj me) {{\n  {local}\n{body}\n}}\n")
            return self.board_loop(k, f"      steps{k}(x{k}, y{k}, me);")
        return prefix + self.board_loop(k, body)

    def ray(self) -> str:
        k = self.fresh()
        tx, ty, n, local = self.table(self.directions(rays=True), local=self.rng.random() < 0.3)
        limit = self.rng.random() < 0.4
        steps = f" && r{k} < reach" if limit else ""
        capture = ""
        if self.rng.random() < 0.6:
            capture = (f"          if (onBoard(cx{k}, cy{k}) && isEnemy(CurrentPosition[cx{k}][cy{k}])) {{\n"
                       f"            {self.step_ops(f'x{k}', f'y{k}', f'cx{k}', f'cy{k}')}\n          }}\n")
        body = (f"      if (CurrentPosition[x{k}][y{k}] == me) {{\n"
                f"        for (int d{k} = 0; d{k} < {n}; d{k} = d{k} + 1) {{\n"
                f"          int cx{k} = x{k} + {tx}[d{k}];\n          int cy{k} = y{k} + {ty}[d{k}];\n"
                f"          int r{k} = 0;\n"
                f"          while (onBoard(cx{k}, cy{k}) && CurrentPosition[cx{k}][cy{k}] == empty{steps}) {{\n"
                f"            {self.step_ops(f'x{k}', f'y{k}', f'cx{k}', f'cy{k}')}\n"
                f"            cx{k} = cx{k} + {tx}[d{k}];\n            cy{k} = cy{k} + {ty}[d{k}];\n"
                f"            r{k} = r{k} + 1;\n          }}\n{capture}        }}\n      }}")
        return (f"{local}\n  " if local else "") + self.board_loop(k, body)

    def jump(self) -> str:
        k = self.fresh()
        tx, ty, n, local = self.table(self.directions(rays=True), local=self.rng.random() < 0.3)
        body = (f"      if (CurrentPosition[x{k}][y{k}] == me) {{\n"
                f"        for (int d{k} = 0; d{k} < {n}; d{k} = d{k} + 1) {{\n"
                f"          int mx{k} = x{k} + {tx}[d{k}];\n          int my{k} = y{k} + {ty}[d{k}];\n"
                f"          int jx{k} = mx{k} + {tx}[d{k}];\n          int jy{k} = my{k} + {ty}[d{k}];\n"
                f"          if (onBoard(jx{k}, jy{k}) && isEnemy(CurrentPosition[mx{k}][my{k}])"
                f" && CurrentPosition[jx{k}][jy{k}] == empty) {{\n"
                f"            {self.step_ops(f'x{k}', f'y{k}', f'jx{k}', f'jy{k}', f'addClear(mx{k}, my{k}); ')}\n"
                f"          }}\n        }}\n      }}")
        return (f"{local}\n  " if local else "") + self.board_loop(k, body)

    def moves(self) -> str:
        rng = self.rng
        kinds = [self.drop, self.step, self.ray, self.jump]
        shapes = [rng.choice(kinds)() for _ in range(rng.choice([1, 1, 2, 2, 3]))]
        if rng.random() < 0.3:
            self.has_pass = True
            shapes.insert(rng.randrange(len(shapes) + 1), "addMove();   // a pass")
        return "define moves() {\n  obj me = pieceOf(onTurn());\n  " + "\n  ".join(shapes) + "\n}\n"

    # ------------------------------------------------------------ isMoveLegal()

    def legal(self) -> str:
        rng = self.rng
        form = rng.randint(0, 4)
        lines = []
        self.turning = rng.random() < 0.25
        if self.turning:
            lines.append("int last = operationsNum() - 1;\n"
                         "  if (last >= 0 && isPlaceOperation(last)"
                         f" && {self.turn()}(OperationList[last][0], OperationList[last][1], "
                         f"pieceOf(onTurn())) > {rng.randint(0, 2)}) "
                         "{ return false; }")
        if self.history and rng.random() < 0.7:   # superko after a consequence of its own
            if rng.random() < 0.5:
                lines.append("if (operationsNum() > 0 && isPlaceOperation(operationsNum() - 1)) {\n"
                             "    int lx = OperationList[operationsNum() - 1][0];\n"
                             "    int ly = OperationList[operationsNum() - 1][1];\n"
                             "    if (lx + 1 < boardWidth() && isEnemy(CurrentPosition[lx + "
                             "1][ly])) { addClear(lx + 1, ly); }\n"
                             "  }")
            lines.append("if (operationsNum() > 0 && nextBoardSeen()) { return false; }")
        conditions = [
            "operationsNum() <= 2",
            "operationsNum() != 3 || moveNumber() % 3 != 1",
            "operationsNum() == 0 || OperationList[0][0] != lastX",
            "pieces(onTurn()) >= pieces((onTurn() + 1) % playersNum()) - 2 || operationsNum() >= 2",
            "moveNumber() % 5 != 4 || operationsNum() == 0 || "
            "NextPosition[OperationList[0][0]][OperationList[0][1]] != empty",
            "operationsNum() == 0 || OperationList[operationsNum() - 1][1] != moveNumber() % boardHeight()",
            "operationsNum() == 0 || spread(OperationList[0][0], moveNumber()) % 4 != 2",
        ]
        condition = rng.choice(conditions)
        if "spread(" in condition and form in (2, 3):
            self.pure()
        if form == 0:
            lines.append("return true;")
        elif form == 1:
            lines.append("return isGenerated();")
        elif form == 2:
            lines.append(f"return isGenerated() && ({condition});")
        elif form == 3:
            lines.append(f"return {condition};")
        else:   # re-checks by hand: every placed piece the mover's, on a square it did not hold
            lines.append("for (int i = 0; i < operationsNum(); i = i + 1) {\n"
                         "    int ox = OperationList[i][0];\n    int oy = OperationList[i][1];\n"
                         "    if (isPlaceOperation(i) && NextPosition[ox][oy] != pieceOf(onTurn())"
                         " && NextPosition[ox][oy] != K && CurrentPosition[ox][oy] == "
                         "NextPosition[ox][oy]) { return false; }\n"
                         "  }\n  return true;" if self.blocker else
                         "for (int i = 0; i < operationsNum(); i = i + 1) {\n"
                         "    int ox = OperationList[i][0];\n    int oy = OperationList[i][1];\n"
                         "    if (isPlaceOperation(i) && CurrentPosition[ox][oy] == NextPosition[ox][oy]"
                         " && NextPosition[ox][oy] == pieceOf(onTurn())) { return false; }\n"
                         "  }\n  return true;")
        return "define isMoveLegal() -> bool {\n  " + "\n  ".join(lines) + "\n}\n"

    # ------------------------------------------------------------ end()

    def end(self) -> str:
        rng = self.rng
        lines = ["int me = onTurn();"]
        if self.turning:   # the judgement's call again, first: answered from it
            lines.append("if (operationsNum() > 0 && isPlaceOperation(operationsNum() - 1)) {\n"
                         "    int turned = turnRight(OperationList[operationsNum() - 1][0], "
                         "OperationList[operationsNum() - 1][1], pieceOf(me));\n"
                         "    taken[me] = taken[me] + turned;\n  }")
        if rng.random() < 0.5:   # custodian captures as consequences, around the last place
            tx, ty, n, _ = self.table(ORTHOGONAL)
            lines.append(
                "int lastPlace = -1;\n"
                "  for (int i = 0; i < operationsNum(); i = i + 1) { if (isPlaceOperation(i)) { "
                "lastPlace = i; } }\n"
                "  if (lastPlace >= 0) {\n"
                "    int px = OperationList[lastPlace][0];\n    int py = OperationList[lastPlace][1];\n"
                f"    for (int d = 0; d < {n}; d = d + 1) {{\n"
                f"      int ex = px + {tx}[d];\n      int ey = py + {ty}[d];\n"
                f"      int fx = ex + {tx}[d];\n      int fy = ey + {ty}[d];\n"
                "      if (onBoard(fx, fy) && isEnemy(CurrentPosition[ex][ey]) && "
                "CurrentPosition[fx][fy] == pieceOf(me)) {\n"
                "        addClear(ex, ey);\n      }\n    }\n  }")
        if rng.random() < 0.6:   # what the move took, from PreviousPosition
            lines.append(
                "int took = 0;\n"
                f"  for (int x = 0; x < {self.w}; x = x + 1) {{\n"
                f"    for (int y = 0; y < {self.h}; y = y + 1) {{\n"
                "      if (isEnemy(PreviousPosition[x][y]) && CurrentPosition[x][y] != "
                "PreviousPosition[x][y]) { took = took + 1; }\n"
                "    }\n  }\n"
                "  taken[me] = taken[me] + took;\n"
                "  if (took > 0) { quiet = 0; } else { quiet = quiet + 1; }")
            if rng.random() < 0.3:
                lines.append("if (took > 0) { setNextPlayer(me); }   // a capture moves again")
            if rng.random() < 0.5:
                lines.append(f"if (quiet >= {rng.randint(4, 12)}) {{ return true; }}")
            if rng.random() < 0.5:
                lines.append(f"if (taken[me] >= {rng.randint(2, 5)}) {{ setWinner(me); return true; }}")
        lines.append("if (operationsNum() > 0) { lastX = OperationList[0][0]; }")
        lines.append(f"reach = 1 + moveNumber() % {rng.randint(2, 4)};")
        score = rng.randint(0, 2)
        if score == 1:
            lines.append("for (int p = 0; p < playersNum(); p = p + 1) { setScore(p, pieces(p)); }")
        elif score == 2:
            lines.append("setScore(me, taken[me] * 2 + 0.5);")
        if rng.random() < 0.5:   # reaching the far row
            row = rng.choice([0, self.h - 1])
            lines.append(f"for (int x = 0; x < {self.w}; x = x + 1) {{\n"
                         f"    if (CurrentPosition[x][{row}] == pieceOf(me) && "
                         f"PreviousPosition[x][{row}] != pieceOf(me)) "
                         "{ setWinner(me); return true; }\n  }")
        if rng.random() < 0.5:
            lines.append("if (pieces((me + 1) % playersNum()) == 0 && moveNumber() > 2) { "
                         "setWinner(me); return true; }")
        if rng.random() < 0.35:   # a local array of a constant size: in the C frame
            lines.append(f"int owned[{self.players}] = 0;\n"
                         f"  for (int x = 0; x < {self.w}; x = x + 1) {{\n"
                         f"    for (int y = 0; y < {self.h}; y = y + 1) {{\n"
                         + "".join(f"      if (CurrentPosition[x][y] == {self.piece(p)}) "
                                   f"{{ owned[{p}] = owned[{p}] + 1; }}\n" for p in range(self.players))
                         + "    }\n  }\n"
                         f"  if (owned[me] > {rng.randint(3, 8)} && owned[me] > owned[(me + 1) % playersNum()] * 2) "
                         "{ setWinner(me); return true; }")
        if rng.random() < 0.35:   # a group of the last piece placed
            lines.append("for (int i = 0; i < operationsNum(); i = i + 1) {\n"
                         "    if (isPlaceOperation(i)"
                         " && CurrentPosition[OperationList[i][0]][OperationList[i][1]] == pieceOf(me)"
                         f" && {self.group()}(OperationList[i][0], OperationList[i][1]) >= {rng.randint(3, 6)}) "
                         "{ setWinner(me); return true; }\n  }")
        if self.history and rng.random() < 0.8:
            lines.append(f"if (repetitions() >= {rng.randint(1, 2)}) {{ return true; }}")
        cap = rng.randint(6, 40)
        lines.append(f"if (moveNumber() >= {cap}) {{\n"
                     "    if (pieces(0) > pieces(1)) { setWinner(0); } else if (pieces(1) > "
                     "pieces(0)) { setWinner(1); }\n"
                     "    return true;\n  }")
        if not self.has_pass or rng.random() < 0.5:
            lines.append("if (!hasLegalMove()) { setWinner(me); return true; }")
            if rng.random() < 0.5:   # asked first: the board and variables change after it
                lines[-1] = "if (!canMove) { setWinner(me); return true; }"
                lines.insert(2 if self.turning else 1, "bool canMove = hasLegalMove();")
        if not any(re.search(r"\bme\b", line) for line in lines[1:]):
            lines.pop(0)
        return "define end() -> bool {\n  " + "\n  ".join(lines) + "\n  return false;\n}\n"

    # ------------------------------------------------------------ the whole

    def text(self) -> str:
        start = self.start()
        moves = self.moves()   # before the tables and helpers are listed
        legal = self.legal()
        end = self.end()
        pieces = "\n".join(f"obj {self.piece(p)}" for p in range(self.players))
        owners = "\n".join(f"  if (o == {self.piece(p)}) {{ return {p}; }}" for p in range(self.players))
        of = "\n".join(f"  if (p == {p}) {{ return {self.piece(p)}; }}" for p in range(self.players - 1))
        rules = "\n".join(self.helpers) + "\n" + moves + "\n" + legal + "\n" + end
        used = {name: re.search(rf"\b{name}\(", rules) is not None for name in ("isEnemy", "onBoard")}
        used["onBoard"] = used["onBoard"] or "define group(" in rules
        fwd = ", ".join("1" if p % 2 == 0 else "-1" for p in range(self.players))
        return (f"// random game {self.seed} (tests/random_games.py)\n"
                f"name: fuzz{self.seed}\nplayers: {self.players}\nsize: {self.w} x {self.h}\n\n"
                f"{pieces}\nobj K   // a blocker, nobody's\n\n"
                f"int fwd[{self.players}] = {{{fwd}}};\nint taken[{self.players}] = 0;\n"
                "counter int quiet = 0;\nint lastX = -1;\nint reach = 2;\n"
                + "\n".join(self.tables) + "\n\n" + start + "\n"
                f"define pieceOf(int p) -> obj {{\n{of}\n  return {self.piece(self.players - 1)};\n}}\n\n"
                + (f"define ownerOf(obj o) -> int {{\n{owners}\n  return -1;\n}}\n\n"
                   "define isEnemy(obj o) -> bool {\n  int owner = ownerOf(o);\n"
                   "  return owner >= 0 && owner != onTurn();\n}\n\n" if used["isEnemy"] else "")
                + (f"define onBoard(int x, int y) -> bool {{\n  return x >= 0 && x < {self.w} && y "
                   f">= 0 && y < {self.h};\n}}\n\n"
                   if used["onBoard"] else "")
                + "define pieces(int p) -> int {\n  int n = 0;\n"
                f"  for (int x = 0; x < {self.w}; x = x + 1) {{\n"
                f"    for (int y = 0; y < {self.h}; y = y + 1) {{\n"
                "      if (CurrentPosition[x][y] == pieceOf(p)) { n = n + 1; }\n    }\n  }\n  return n;\n}\n\n"
                + rules)


def game_text(seed: int) -> str:
    """The random game of `seed`."""
    return Game(seed).text()


if __name__ == "__main__":
    for argument in sys.argv[1:]:
        print(game_text(int(argument)))
