"""A valid game of any length, generated: small functions that call each other, read the board
and use locals, arrays and game variables (what completion and the checker work on). The
incremental checker's tests edit it and benchmarks/lsp_latency.py types into it."""
from __future__ import annotations


def generated(lines: int) -> str:
    """About `lines` lines: a header, then helper0, helper1, ... (nine lines each, helperN
    calling helperN-1; `int count = a * (N % 7) + 1;` is each one's first line)."""
    out = ["name: generated", "players: 2", "size: 8 x 8", "obj X", "obj O", "int turns = 0;",
           "int marks[4] = {0, 0, 0, 0};",
           "define isMoveLegal() -> bool { return operationsNum() == 1 && helper0(1, X) >= 0; }",
           "define end() -> bool { turns = turns + 1; return turns > 60; }"]
    index = 0
    while len(out) < lines:
        previous = f"helper{index - 1}(a, o)" if index else "a"
        out += [f"// helper {index}",
                f"define helper{index}(int a, obj o) -> int {{",
                f"  int count = a * {index % 7} + 1;",
                "  if (CurrentPosition[a % 8][0] == o && count > 3) {",
                f"    count = count + {previous};",
                "  }",
                "  while (count > 100) { count = count / 2; }",
                "  return count;",
                "}"]
        index += 1
    return "\n".join(out) + "\n"
