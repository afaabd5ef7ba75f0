"""Every diagnostic code, documented once.

This table is the single source: the checker takes each code's severity from it,
`gdef-check --explain` and SARIF rules read it, and docs/diagnostics.md is generated from it
(`python -m gdef_core.codes > docs/diagnostics.md`; a test keeps the two in step).
Codes are stable: never reuse or renumber one.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from gdef_core.diagnostics import Diagnostic, Related, Severity, Suggestion, Tag
from gdef_core.span import Span

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    title: str  # short, for SARIF shortDescription and listings
    explanation: str  # what it means and why it matters
    example: str  # a snippet that triggers it
    fix: str  # what to do


CODES: dict[str, Code] = {}


def _code(code: str, severity: Severity, title: str, explanation: str, example: str, fix: str) -> None:
    assert code not in CODES, code
    CODES[code] = Code(code, severity, title, explanation.strip(), example.strip("\n"), fix.strip())


# ------------------------------------------------------------------ G1xx: syntax
_code("G100", E, "file is not valid UTF-8",
      "gdef files are read as UTF-8. The file contains a byte sequence that is not UTF-8; "
      "the rest of the file is still read, with the bad bytes replaced.",
      "(a file saved in Latin-1 containing `/* é */`)",
      "Save the file as UTF-8.")
_code("G101", E, "syntax error",
      "The parser met a token that cannot continue the construct it was reading. The message "
      "says what was expected; the parser skips to the next statement or definition and goes on, "
      "so every syntax error of the file is reported at once. Where the repair is plain it is made "
      "instead: a missing `;` or `)` is assumed, a body written without its braces is read as one "
      "statement in braces (offered as a fix), a broken function header is completed and its body "
      "still checked.",
      "define end() -> bool {\n  int moves = 0\n  return moves == 9;\n}",
      "Add or remove what the message names (here the `;` after `int moves = 0`).")
_code("G102", E, "unterminated comment",
      "A `/*` comment has no closing `*/`; everything to the end of the file became part of it. "
      "Comments do not nest.",
      "/* the rules of tic-tac-toe\nobj X",
      "Close the comment with `*/`.")
_code("G103", E, "invalid character",
      "The text contains a character that is not part of the language (outside a comment).",
      "int score = 3 @ 4;",
      "Remove the character; gdef has no `@`, `$`, `#`, `'` ... operators.")
_code("G104", E, "invalid number",
      "An integer written with leading zeros (`07`), or larger than a signed 64-bit integer "
      "can hold (the only exception is `-9223372036854775808`).",
      "int n = 07;",
      "Write the number without leading zeros, or use a smaller value.")
_code("G105", E, "unterminated string",
      "The file name after `use` has no closing `\"` on the same line.",
      'use "helpers.gdef',
      "Close the string with `\"`.")
_code("G106", E, "not a statement",
      "Only a call can stand alone as a statement; any other expression followed by `;` would "
      "compute a value and throw it away, which is almost always a mistake (`x == 1;` for "
      "`x = 1;`).",
      "define end() -> bool {\n  moveNumber() == 9;\n  return false;\n}",
      "Assign the value (`x = ...;`), return it, or use it in a condition.")

_code("G108", E, "not a text file",
      "The file holds bytes that no text holds (a NUL byte, or another control character than "
      "tab, line break, form feed and escape): it is binary data, such as a program or an "
      "image, not gdef rules. It is not parsed, so this is its only error. The message gives "
      "the offset (counted from 1) of the first such byte.",
      "gdef-check /bin/ls",
      "Name the .gdef file you meant; if the file is gdef rules, remove the control "
      "characters (an editor that shows invisible characters finds them).")
DEFAULT_MAX_ERRORS = 20  # syntax errors shown per file (gdef_core.report.limit)
_code("G109", E, "too many syntax errors",
      f"A file had more syntax errors than the limit ({DEFAULT_MAX_ERRORS} by default, as compilers do): the rest "
      "are not shown, one at a time would bury the first ones, which usually cause the others. "
      "The message says how many more there are; the summary counts them.",
      "(a file of prose given as rules)",
      "Fix the first errors and check again, or raise the limit with `--max-errors N` "
      "(gdef-check, gdef-run; 0 shows every error).")
_code("G110", E, "nested too deeply",
      "Blocks may nest 64 deep (the bodies of `if`, `else`, `while` and `for`; an `else if` "
      "does not add a level), loops 16 deep, expressions 1000 deep (`-x` is two deep, "
      "`a + b + c` three), and one `if` may have 1000 `else if` arms. "
      "gdef-run compiles the rules to Python, which has limits of its own, and every tool "
      "gives the same answer: gdef-check, the language server and gdef-run refuse the file "
      "with this error, at the first construct too deep.",
      "define end() -> bool {\n  if (a) { if (b) { if (c) { ... 65 levels ... } } }\n}",
      "Move the inner blocks or loops into a function of their own; split a long expression "
      "into locals.")

# ------------------------------------------------------------------ G2xx: names
_code("G201", E, "undefined name",
      "The name is not a local declared earlier in the function, a parameter, a game variable, "
      "an object or `empty`. A local is visible only from its declaration on. When a declared "
      "name is close, the message suggests it.",
      "obj X\ndefine end() -> bool {\n  return CurrentPosition[0][0] == Y;\n}",
      "Declare the name (`obj Y`, `int count = 0;`), move its declaration before the use, or fix "
      "the spelling.")
_code("G202", E, "undefined function",
      "No function of the game (in any of its files) and no built-in function has this name.",
      "define end() -> bool {\n  return isWiner(X);\n}",
      "Define the function, add the file that defines it (`use \"helpers.gdef\"`), or fix the "
      "spelling.")
_code("G203", E, "duplicate definition",
      "Objects, functions and game variables share one namespace across all files of a game; "
      "each name may be defined once. The related location shows the other definition.",
      "obj X\nobj X",
      "Remove one of the definitions or rename one of them.")
_code("G204", E, "built-in name redefined",
      "Built-in names (`empty`, `CurrentPosition`, `onTurn`, ...) are not keywords but cannot "
      "be defined again as an object, function or game variable.",
      "define onTurn() -> int { return 0; }",
      "Choose another name.")
_code("G205", E, "duplicate local",
      "A function declares the same local or parameter name twice. Locals have function scope: "
      "a declaration inside a branch or a loop still counts for the whole function.",
      "define end() -> bool {\n  int n = 0;\n  int n = 1;\n  return n == 1;\n}",
      "Assign the existing local (`n = 1;`) or use a different name.")
_code("G206", E, "local hides a global name",
      "A local or parameter may not take the name of an object, a function, a game variable or a "
      "built-in: the same name would mean two things.",
      "obj X\ndefine end() -> bool {\n  int X = 1;\n  return X == 1;\n}",
      "Rename the local or parameter.")
_code("G207", E, "local used in its own initialiser",
      "The value of a local declaration cannot use the local itself: it has no value yet.",
      "define end() -> bool {\n  int n = n + 1;\n  return n > 0;\n}",
      "Initialise the local from other values.")
_code("G208", E, "not a function",
      "Only functions can be called. The name is a variable, an object or a board.",
      "define end() -> bool {\n  int n = 0;\n  return n() == 0;\n}",
      "Remove the parentheses, or index a board with `[x][y]` instead of calling it.")
_code("G209", E, "not a board",
      "Only the boards (`CurrentPosition`, `NextPosition`, `PreviousPosition`, their counts "
      "`CurrentCount`, `NextCount`, `PreviousCount`, and `OperationList`) can be indexed with `[i][j]`.",
      "define end() -> bool {\n  int n = 0;\n  return n[0][0] == 0;\n}",
      "Index one of the boards, or use the name without brackets.")
_code("G210", E, "not a value",
      "A function or a board was used as a value without calling or indexing it.",
      "define end() -> bool {\n  return onTurn == 0;\n}",
      "Call the function (`onTurn()`) or index the board (`CurrentPosition[x][y]`).")
_code("G211", E, "cannot assign",
      "Only locals, parameters and game variables can be assigned. Objects, functions, `empty`, "
      "the boards (`CurrentPosition[x][y] = X;`) and other expressions cannot; a move changes "
      "the board through its operations, `setup()` and `end()` (a consequence of the move) "
      "through `addPlace`/`addClear`/`addCount`.",
      "define end() -> bool {\n  CurrentPosition[0][0] = X;\n  return false;\n}",
      "Assign a variable, or change the board with `addPlace`/`addClear`/`addCount` in `setup()` or `end()`.")

# ------------------------------------------------------------------ G3xx: types
_code("G301", E, "operand types do not match",
      "An operator got values it does not accept: `==` and `!=` compare values of the same type "
      "(int and float compare numerically; an obj or a bool never equals a number), `<` `<=` "
      "`>` `>=` and `+ - * / %` take numbers, `&&` `||` `!` take bools.",
      "obj placedObj = OperationList[0][2];\nif (placedObj != 0) { return false; }",
      "Compare with a value of the same type (here the object `O`, not the number `0`).")
_code("G302", E, "condition is not bool",
      "The condition of `if` and `while` must be a bool; numbers and objects are not true or "
      "false by themselves.",
      "int n = operationsNum();\nif (n) { return true; }",
      "Write the comparison you mean (`if (n != 0)`).")
_code("G303", E, "argument type does not match",
      "An argument's type cannot be passed to the parameter's type. An int may be passed to a "
      "float parameter, nothing else converts.",
      "define isWinner(obj o) -> bool { return o == X; }\ndefine end() -> bool { return isWinner(1); }",
      "Pass a value of the parameter's type.")
_code("G304", E, "value type does not match the variable",
      "The value of an assignment or declaration cannot be stored in the variable's type. An int "
      "may be stored in a float variable, never the reverse.",
      "define end() -> bool {\n  int n = 1.5;\n  return n > 0;\n}",
      "Store it in a variable of the right type, or compute a value of the variable's type.")
_code("G305", E, "returned type does not match",
      "`return expr;` gives a value that the function's declared result type cannot hold.",
      "define end() -> bool {\n  return 1;\n}",
      "Return a value of the declared type (`return moveNumber() == 9;`) or change the type.")
_code("G306", E, "value returned from a function without result",
      "The function has no `-> TYPE`, so `return` must not give a value.",
      "define moves() {\n  return 1;\n}",
      "Write `return;`, or declare a result type if the function is not an entry point.")
_code("G307", E, "return without a value",
      "The function declares `-> TYPE`, so every `return` must give a value of that type.",
      "define end() -> bool {\n  return;\n}",
      "Return a value (`return false;`).")
_code("G308", E, "wrong number of arguments",
      "A call passes more or fewer arguments than the function (or built-in) declares.",
      "define end() -> bool {\n  setWinner();\n  return true;\n}",
      "Pass exactly the declared parameters (`setWinner(0)`).")
_code("G309", E, "wrong number of indexes",
      "A board takes exactly two indexes: `CurrentPosition[x][y]`, `OperationList[i][j]`.",
      "obj o = CurrentPosition[0];",
      "Give both indexes.")
_code("G310", E, "function has no result",
      "The value of a call is used, but the function returns nothing (it has no `-> TYPE`).",
      "define end() -> bool {\n  return setWinner(0);\n}",
      "Call it as a statement (`setWinner(0);`) and use another value, or give the function a "
      "result type.")
_code("G311", E, "index is not an int",
      "Board indexes are square coordinates or operation numbers: ints.",
      "obj o = CurrentPosition[1.5][0];",
      "Index with an int.")

_code("G312", E, "array used as a value",
      "An array (section 15.1) stands for all its elements: it cannot be added, compared, tested, "
      "returned, stored in a plain variable or assigned as a whole. Only its elements are values; "
      "the array itself may be passed to a function that takes an array parameter, or to `sizeOf`.",
      "define f() -> int {\n  int a[3] = 0;\n  return a + 1;\n}",
      "Use an element (`a[0] + 1`), or pass the array to a function declared `define g(int a[])`.")
_code("G313", E, "array declaration does not fit",
      "An array has one or two dimensions, int sizes, and an initialiser that is one value for "
      "every element or the list of every element: as many as the sizes say, one inner list per "
      "row for two dimensions.",
      "int steps[2][3] = {1, 0, -1, 0, 1, 0};",
      "Match the list to the sizes: `int steps[2][3] = {{1, 0, -1}, {0, 1, 0}};`.")
_code("G314", E, "break or continue outside a loop",
      "`break` leaves the innermost `while` or `for`; `continue` starts its next pass. Outside a "
      "loop there is nothing to leave.",
      "define end() -> bool {\n  break;\n  return false;\n}",
      "Remove it, or use `return`.")

# ------------------------------------------------------------------ G4xx: game structure
_code("G401", E, "missing game parameter",
      "A game (a set of files of which at least one declares game parameters) needs `players` "
      "and `size`, each in one of its files.",
      "name: tictactoe\nsize: 3 x 3",
      "Add the missing parameter (`players: 2`).")
_code("G402", E, "duplicate game parameter",
      "Each game parameter may be given once across all files of the game. The related location "
      "shows the other one.",
      "players: 2\nplayers: 3",
      "Remove one of them.")
_code("G403", E, "unknown game parameter",
      "Only `name`, `players` and `size` are game parameters.",
      "player: 2",
      "Use one of `name`, `players`, `size` (here `players: 2`).")
_code("G404", E, "invalid game parameter value",
      "`name` takes a word, `players` an int from 1 to 64, `size` `W x H` with each side from 1 "
      "to 1000 and at most 1,000,000 squares (a larger board is refused rather than exhausting "
      "memory).",
      "players: 0\nsize: 2000 x 2000",
      "Give a value in range.")
_code("G405", E, "missing required function",
      "A game must define `isMoveLegal()` (judges a proposed move) and `end()` (says whether the "
      "game is over). Library files (no game parameters) checked alone need neither.",
      "name: tictactoe\nplayers: 2\nsize: 3 x 3\ndefine end() -> bool { return false; }",
      "Define the missing function: `define isMoveLegal() -> bool { ... }`.")
_code("G406", E, "entry point has the wrong shape",
      "`isMoveLegal()` and `end()` take no parameters and return bool; `moves()` and `setup()` "
      "take no parameters and return nothing, and so does `chance()` in a game that calls "
      "`chanceNext()`. The runtime calls them that way.",
      "define end(int p) -> int { return p; }",
      "Declare it exactly as `define end() -> bool { ... }` (`define moves() { ... }`).")
_code("G407", E, "second start",
      "A game has at most one `start` block across all its files. The related location shows the "
      "first one.",
      "start { (0,0: X) }\nstart { (1,1: O) }",
      "Merge the two blocks into one.")
_code("G408", E, "start square off the board",
      "A square of `start` lies outside the board: x must be in 0..W-1 and y in 0..H-1 for a "
      "board of `size: W x H`.",
      "size: 3 x 3\nstart { (3,0: X) }",
      "Use coordinates on the board, or make the board larger.")
_code("G409", E, "start names something that is not an object",
      "A `start` square must hold a declared object or `empty`; the name is a function or a game "
      "variable.",
      "int count = 0;\nstart { (0,0: count) }",
      "Name an object (`obj X` ... `(0,0: X)`).")
_code("G410", E, "game variable initialiser is not constant",
      "A game variable's initial value is computed before anything runs, so it may use only "
      "literals, objects, `empty`, unary `-` and `+ - * / %`; no calls, boards, comparisons or "
      "other variables.",
      "int limit = boardWidth() * 2;",
      "Write the value as a constant, or assign it in `setup()`.")
_code("G411", E, "built-in not allowed here",
      "Some built-ins work only in some entry points (and the functions they call): "
      "`addPlace`/`addClear`/`addCount` in `moves()`, `setup()`, `chance()`, `end()` and "
      "`isMoveLegal()`, `addMove` in "
      "`moves()`, `hasLegalMove` "
      "in `end()`, `setNextPlayer` in `end()` and `setup()`. The message names the call path "
      "from the entry point that reaches the call.",
      "define isMoveLegal() -> bool {\n  addMove();\n  return true;\n}",
      "Move the call into a function reached only from an entry point that allows it.")
_code("G412", E, "game variable assigned while judging or proposing a move",
      "Game variables may be assigned only in `end()`, `setup()` and the functions reached only "
      "from them: `isMoveLegal()` and `moves()` judge and propose moves and must not change the "
      "game. The message names the call path that reaches the assignment.",
      "int captures = 0;\ndefine isMoveLegal() -> bool {\n  captures = captures + 1;\n  return true;\n}",
      "Do the assignment in `end()`, which runs once the move is applied.")
_code("G413", E, "isGenerated() in a game without moves()",
      "`isGenerated()` asks whether `moves()` proposes the move being judged (section 15.3); it is "
      "valid only in a game that defines `moves()`. Without a generator nothing is ever proposed, "
      "so every move would be judged illegal. (A library checked alone is not reported: the game "
      "that uses it may define `moves()`.)",
      "define isMoveLegal() -> bool {\n  return isGenerated();   // and no define moves() anywhere\n}",
      "Define `moves()`, proposing each legal move with `addPlace`/`addClear` and `addMove()` (the "
      "editor's quick fix adds one to fill in), or judge the move in `isMoveLegal()` itself.")
_code("G414", E, "invalid parameter declaration",
      "A parameter (`param TYPE name = DEFAULT in ...;`) is a single int, float or bool. An int "
      "or float parameter lists its allowed values after the default, as a range `in LOW to "
      "HIGH` (both ends allowed, LOW <= HIGH) or a list `in {V, ...}` (no value twice), written "
      "with number literals of its type (an int literal may bound a float); a bool parameter has "
      "none. Only a parameter has allowed values.",
      "param int board_size = 11;\nparam obj first = X;\nint limit = 3 in 1 to 5;",
      "Write `param int board_size = 11 in 1 to 25;` (or `in {9, 13, 19}`); use a game variable "
      "for anything else.")
_code("G415", E, "parameter default not allowed",
      "A parameter's default (the value after `=`) must be a literal of its type, optionally with "
      "'-', and one of its allowed values: the game is checked and played with it unless a tool "
      "chooses another value.",
      "param int board_size = 30 in 1 to 25;",
      "Give a default inside the allowed values, or widen them.")
_code("G416", E, "parameter assigned",
      "A parameter is a constant for the whole game: its value is chosen when the game is loaded "
      "(`--param NAME=VALUE`, the OpenSpiel and PettingZoo parameters, the web board's form) and "
      "never changes while it is played.",
      "param float komi = 7.5 in 0 to 10;\ndefine end() -> bool {\n  komi = 0.5;\n  return false;\n}",
      "Declare a game variable for a value that changes (`float bonus = 0.0;`) and initialise or "
      "set it from the parameter in `setup()`.")

_code("G418", E, "chanceNext() in a game without chance()",
      "`chanceNext()` makes the next move chance's: the engine calls the game's `chance()` for the "
      "outcomes (a die's faces, the cards of a draw). A game that calls it must define "
      "`define chance() { ... }`. (A library checked alone is not reported: the game that uses it "
      "may define `chance()`.)",
      "define setup() { chanceNext(); }   // and no define chance() anywhere",
      "Define `chance()`, building each outcome with `addPlace`/`addClear` and finishing it with "
      "`addOutcome(weight)`.")
_code("G419", E, "built-in on the wrong side of chance()",
      "`addOutcome` finishes an outcome of a chance event and works only in `chance()` (and the "
      "functions it calls); `chance()` proposes outcomes and may not use the built-ins of "
      "players' moves and of `end()` (`addMove`, `hasLegalMove`, `setScore`, `isChanceMove`, ...). "
      "The message names the call path from the entry point that reaches the call.",
      "define moves() {\n  addPlace(0, 0, X);\n  addOutcome(1);\n}",
      "Build a player's candidates with `addMove()` in `moves()`, and chance's outcomes with "
      "`addOutcome(w)` in `chance()`.")

_code("G420", E, "consequence reached from moves() and isMoveLegal()",
      "`addPlace`/`addClear`/`addCount` mean two different things in `moves()` and in "
      "`isMoveLegal()`: in `moves()` they build a candidate move, in `isMoveLegal()` they change "
      "the scratch copy `ResultPosition` and its counts `ResultCount` (a consequence of the move "
      "being judged, such as a capture). A function "
      "that calls them and is reached from both entry points would do one thing or the other "
      "depending on who called it. The message names both call paths.",
      "define capture(int x, int y) { addClear(x, y); }\n"
      "define moves() { capture(0, 0); addMove(); }\n"
      "define isMoveLegal() -> bool { capture(0, 0); return true; }",
      "Write two functions: one that builds candidates for `moves()`, one that makes the "
      "consequences for `isMoveLegal()` and `end()`.")
_code("G421", W, "a definition hides a built-in",
      "The built-ins gdef adds to the original language (`repetitions`, `setScore`, "
      "`NextPosition`, ...: those marked as extensions) are soft: a game that defines a function, "
      "object or game variable with the same name keeps its own definition, so no valid game "
      "changes meaning. The built-in is then unavailable in that game. A local or parameter may "
      "also take such a name; it hides the built-in in its function, without a warning.",
      "define repetitions() -> int { return 0; }",
      "Rename your definition (the rename action changes every use) to use the built-in; keep it "
      "if the game does not need the built-in.")

# ------------------------------------------------------------------ G5xx: warnings
_code("G501", W, "unused local",
      "A local is declared but its value is never read.",
      "define end() -> bool {\n  int n = 0;\n  return false;\n}",
      "Remove the declaration, or use the value.")
_code("G502", W, "unused function",
      "No function of the game calls this function and it is not an entry point. (Library files "
      "checked alone do not get this warning: their functions are for other files.)",
      "define helper() -> bool { return true; }",
      "Call it, or remove it.")
_code("G503", W, "unreachable code",
      "The statements follow a `return` (or an `if` whose every branch returns, or a "
      "`while (true)`) and can never run.",
      "define end() -> bool {\n  return false;\n  setWinner(0);\n}",
      "Remove the statements or move them before the `return`.")
_code("G504", W, "missing return",
      "The function declares a result type, but some path reaches the end of its body without "
      "`return`; that is a run-time error when it happens.",
      "define end() -> bool {\n  if (moveNumber() == 9) { return true; }\n}",
      "Add a `return` at the end of the function (`return false;`).")
_code("G505", W, "square listed twice in start",
      "The same square appears twice in `start`; the later entry wins. The related location "
      "shows the first one.",
      "start { (0,0: X), (0,0: O) }",
      "Remove one of the entries.")
_code("G506", W, "`empt` is an old spelling of `empty`",
      "The original language text once writes `empt`; it is accepted as `empty`, but new files "
      "should write `empty`.",
      "start { (0,0: empt) }",
      "Write `empty` (the editor's quick fix does it).")
_code("G107", E, "cannot read a used file",
      "A `use \"file\"` line names a file that does not exist or cannot be read. The path is "
      "relative to the file that contains the `use` line.",
      'use "helpres.gdef"',
      "Correct the path, or create the file.")


_code("G507", W, "continue skips the loop's update",
      "In a `while`, a `continue` jumps straight back to the condition. When the variable the "
      "condition waits for is updated only after the `continue`, a pass that takes the "
      "`continue` changes nothing, and the loop may never end (until the step limit, G607).",
      "int i = 0;\nwhile (i < 8) {\n  if (CurrentPosition[i][0] == empty) { continue; }\n  i = i + 1;\n}",
      "Update the variable before the `continue`, or write a `for`, whose step runs on `continue`: "
      "`for (int i = 0; i < 8; i = i + 1) { ... }`.")

# ------------------------------------------------------------------ G6xx: run time
# Reported by the runtime (gdef-run, the game API) when a rule fails while it runs; the
# move being judged or applied is rejected and the game stays as it was.
_code("G601", E, "division by zero",
      "An integer or float `/` or `%` had zero on its right. (Integer division truncates toward "
      "zero as in C; `%` has the sign of the dividend.)",
      "define end() -> bool {\n  int n = 0;\n  return 10 / n == 1;\n}",
      "Check the divisor before dividing (`if (n != 0) { ... }`).")
_code("G602", E, "integer overflow",
      "An int result fell outside the signed 64-bit range (-9223372036854775808 to "
      "9223372036854775807). gdef never wraps around silently and never grows numbers without "
      "bound.",
      "define end() -> bool {\n  int n = 2;\n  while (true) { n = n * n; }\n  return false;\n}",
      "Keep the numbers small, or use a float where large magnitudes are expected.")
_code("G603", E, "square off the board",
      "`CurrentPosition[x][y]`, `NextPosition[x][y]` or another board (`CurrentCount` ...) read a "
      "square outside the board, or `addPlace`/`addClear`/`addCount` in `setup()`, `end()` or "
      "`isMoveLegal()` named one. (In `moves()` a candidate naming a square "
      "off the board is silently dropped instead.)",
      "define end() -> bool {\n  return CurrentPosition[boardWidth()][0] == empty;\n}",
      "Check `0 <= x && x < boardWidth() && 0 <= y && y < boardHeight()` first.")
_code("G604", E, "operation index out of range",
      "`OperationList[i][j]` or `isPlaceOperation(i)` used an operation number i outside "
      "0 .. operationsNum()-1, or a j other than 0 (x), 1 (y) or 2 (object).",
      "define isMoveLegal() -> bool {\n  return OperationList[0][0] == 1;\n}",
      "Check `operationsNum()` before reading operations (a pass has none).")
_code("G605", E, "player out of range",
      "`setWinner(p)` or `setNextPlayer(p)` named a player outside 0 .. players-1. Players "
      "are numbered from 0.",
      "players: 2\n...\nsetWinner(2);",
      "Use `onTurn()` or a number from 0 to `playersNum() - 1`.")
_code("G606", E, "function ended without return",
      "A function that declares a result type reached the end of its body without `return` "
      "(the checker warns about such paths with G504).",
      "define end() -> bool {\n  if (moveNumber() == 9) { return true; }\n}",
      "Add a `return` on every path (`return false;` at the end).")
_code("G607", E, "step limit exceeded",
      "One call of `isMoveLegal()`, `end()`, `moves()` or `setup()` ran more loop iterations "
      "plus function calls than the step limit allows (5,000,000 by default; `gdef-run "
      "--max-steps N`). Usually a loop whose condition never becomes false. In `moves()` each "
      "operation held by `addPlace`/`addClear` counts 4 steps, so that memory is bounded like "
      "time (at most 1,250,000 operations by default); in `end()` and `isMoveLegal()` each "
      "consequence (`addPlace`/`addClear`/`addCount`) counts one step.",
      "define end() -> bool {\n  int i = 0;\n  while (i < 3) { }\n  return false;\n}",
      "Make the loop progress (`i = i + 1;`), or raise the limit if the work is real.")
_code("G608", E, "recursion too deep",
      "Function calls nested deeper than the depth limit (500 by default; `gdef-run "
      "--max-depth N`). Usually a recursive function without a base case.",
      "define f(int n) -> int { return f(n + 1); }",
      "Give the recursion a case that returns without calling itself.")
_code("G609", E, "local read before its declaration ran",
      "A local declared inside a branch (or a loop) that did not run was read afterwards. "
      "Locals are visible to the end of the function, but only hold a value once their "
      "declaration has run.",
      "define end() -> bool {\n  if (moveNumber() > 1) { int n = 1; }\n  return n == 1;\n}",
      "Declare the local before the branch, with a default value.")
_code("G610", E, "value of the wrong type",
      "A value whose type could only be known when the rules ran had the wrong type, for "
      "example `OperationList[i][j]` with a computed j gave an obj where an int was needed.",
      "int j = 2;\nint x = OperationList[0][j];",
      "Use a literal j (0 and 1 give ints, 2 an obj), or compare with a value of the right "
      "type.")
_code("G611", E, "not allowed while running here",
      "A built-in or an assignment ran in an entry point that does not allow it: a game "
      "variable assigned, or `setNextPlayer` called, while `isMoveLegal()` or `moves()` ran; "
      "`addMove` outside `moves()`; "
      "`hasLegalMove` outside `end()`. (The checker reports these with G411/G412 when it can "
      "see the call path.)",
      "define isMoveLegal() -> bool {\n  helper();\n  return true;\n}",
      "Call the built-in only from the entry points that allow it.")
_code("G612", E, "rules too deeply nested to run",
      "The rules compile to Python, which limits how deeply blocks can nest (about 20 nested "
      "`while` loops, about 100 nested blocks). The language's own limits (G110) keep every "
      "file the checker accepts within them, so this is a bug of gdef if it appears.",
      "define end() -> bool {\n  while (a) { while (b) { while (c) { ... 21 levels ... } } }\n}",
      "Move inner loops into functions of their own.")
_code("G613", E, "array size out of range",
      "A local array's sizes, known only when its declaration ran, were below 1 or made more "
      "than 1,000,000 elements, or its initialiser list did not have as many elements as the "
      "sizes say (the checker reports these when the sizes are constants, G313).",
      "define end() -> bool {\n  int n = 0;\n  int a[n] = 0;\n  return false;\n}",
      "Make sure the sizes are at least 1 (and their product at most 1,000,000) before "
      "declaring the array.")
_code("G614", E, "array index out of range",
      "An element read or write `a[i]` / `a[i][j]` used an index outside 0 .. size-1 of its "
      "dimension. The message names the index and the size.",
      "define end() -> bool {\n  int a[8] = 0;\n  return a[8] == 0;\n}",
      "Check the index first (`i >= 0 && i < sizeOf(a, 0)`), or loop with `i < sizeOf(a, 0)`.")

_code("G615", E, "chance event without outcomes",
      "The game called `chanceNext()`, but `chance()` finished no outcome (no `addOutcome` ran): "
      "chance has nothing to play. The game stops with this error, as when `setup()` fails.",
      "define chance() {\n  if (moveNumber() > 100) { addPlace(0, 0, D1); addOutcome(1); }\n}",
      "Make `chance()` finish at least one outcome in every position where `chanceNext()` is "
      "called, or call `chanceNext()` only where it does.")
_code("G616", E, "outcome weight out of range",
      "`addOutcome(w)` takes a weight from 1 to 2^31 (2147483648): an outcome's probability is "
      "its weight divided by the sum of the weights, so a weight must be positive; an outcome "
      "that cannot happen is left out.",
      "define chance() {\n  addPlace(0, 0, D1);\n  addOutcome(0);\n}",
      "Give a weight of at least 1, or do not propose the outcome.")


# ------------------------------------------------------------------ G7xx: found in play (gdef-check --play)
_code("G701", W, "a game may never end",
      "`gdef-check --play N` played seeded random games; one reached the move cap without `end()` "
      "ending it. Rules that let play go on forever (passing back and forth, pieces shuffling) make "
      "simulations and agents hang until a cap cuts them off.",
      "define end() -> bool {\n  return false;   // nothing ever ends the game\n}",
      "Add an ending rule (a move limit, a repetition draw with `repetitions()`, no legal move), or "
      "raise the cap (`--play-moves`) if games are just long. The message gives the moves to replay.")
_code("G702", E, "stuck: no legal move and the game goes on",
      "In a position reached in play, the player on turn had no legal move, yet `end()` had said "
      "the game goes on. gdef-run cannot continue such a game. (When the candidates were refused "
      "because `isMoveLegal()` fails on them, that failure is reported instead, at its line.)",
      "define end() -> bool {\n  return false;   // a full board with no move left\n}",
      "End the game when the next player cannot move: "
      "`if (!hasLegalMove()) { return true; }` (or let them pass). The message gives the moves.")
_code("G703", I, "the generator proposes illegal moves",
      "`moves()` proposed candidates that `isMoveLegal()` rejects. That is allowed (the judge has "
      "the last word) but each one costs a call of `isMoveLegal()` in every search for legal moves.",
      "define moves() {\n  addPlace(0, 0, X); addMove();   // also when (0,0) is taken\n}",
      "Propose only moves the rules allow, or judge with `return isGenerated();`.")
_code("G704", W, "a legal move the generator never proposes",
      "A move that `isMoveLegal()` accepts was found by changing a generated move (an operation "
      "added, dropped or changed), but `moves()` does not propose it: agents, perft and the "
      "move list never see it, while a person may play it. The generator and the judge disagree.",
      "define moves() {\n  addPlace(0, 0, X); addMove();\n}\n"
      "define isMoveLegal() -> bool { return operationsNum() == 1; }",
      "Make `moves()` propose it, or make `isMoveLegal()` reject it (`return isGenerated();` makes "
      "them agree by construction). The message gives the moves and the move.")
_code("G705", E, "undo or serialisation does not restore a state",
      "In a position reached in play, taking back a move, or writing the state with `to_json()` "
      "and reading it back, did not give the same state (board, player, variables, scores, "
      "history). Records, --resume and agents rely on both.",
      "(a bug in gdef, or rules whose results depend on something outside the state)",
      "Report it with the moves the message gives.")

# ------------------------------------------------------------------ G8xx: presentation (`show`)
_code("G801", E, "show names no object and no presentation key",
      "Each entry of a `show` block starts with a presentation key (`style`, `columns`, `rows`, "
      "`sides`, `visible`, `notation`) or the name of a declared object, whose glyph or image "
      "follows. This one is neither: a misspelt key, or an object that is not declared.",
      "obj WK\nshow {\n  Wk: \"♔\" side 0;\n}",
      "Correct the name, or declare the object with `obj`.")
_code("G802", E, "declared twice in show",
      "A presentation key or an object appears in more than one `show` entry of the game (its "
      "files together). Only one declaration can be meant.",
      "show {\n  style: plain;\n  style: checkered;\n}",
      "Remove one of the two entries.")
_code("G803", E, "wrong number of labels",
      "`columns` needs one label per column of the board and `rows` one per row (and `sides` "
      "one name per player): the list has another length. A single string of exactly as many "
      "characters as columns gives one label per character (`\"abcdefgh\"`); `from N` numbers "
      "them from N. When a parameter gives the side (`size: n x n`), more labels are allowed "
      "and the first ones are used.",
      "size: 8 x 8\nshow {\n  columns: \"abcdefg\";\n}",
      "Give exactly one label per column (row, player).")
_code("G804", E, "invalid presentation value",
      "The value of a `show` entry is not one the key takes: an unknown board style or notation, "
      "a side that is not a player, two equal labels or a label with a space or one of "
      "`( ) , ; # @` (a square's name must read back as one square), a word where a string belongs, or an unknown word after an object's glyph.",
      "show {\n  style: chequered;\n}",
      "Use one of the values the message lists.")
_code("G805", E, "glyph for nothing",
      "A glyph or image is declared for `empty` (an empty square is drawn by the board, never "
      "by a glyph), or the glyph is an empty or blank string that would draw nothing.",
      "show {\n  empty: \".\";\n}",
      "Remove the entry, or give the object a visible glyph.")
_code("G806", E, "image cannot be used",
      "The image of an object is missing, unreadable, larger than 64 KB, or not a PNG, SVG, GIF, "
      "JPEG or WebP file. The path is relative to the file that declares it.",
      "show {\n  WK: image \"pieces/wk.svg\" side 0;\n}",
      "Fix the path, or use a smaller image of one of those types.")
_code("G807", E, "visible names no game variable",
      "`visible` lists the game variables players are shown; this name is not a game variable "
      "of the game.",
      "int halfmoves = 0;\nshow {\n  visible: halfmove;\n}",
      "Correct the name, or leave it out.")


def diagnostic(code: str, span: Span, message: str, *, related: tuple[Related, ...] = (),
               suggestions: tuple[Suggestion, ...] = (), tags: frozenset[Tag] = frozenset()) -> Diagnostic:
    """Build a diagnostic whose severity comes from the table."""
    return Diagnostic(code, CODES[code].severity, message, span, tuple(related), tuple(suggestions),
                      frozenset(tags))


def render_markdown() -> str:
    """docs/diagnostics.md, generated from CODES."""
    groups = {"G1": "Syntax", "G2": "Names", "G3": "Types", "G4": "Game structure",
              "G5": "Warnings", "G6": "Run time", "G7": "Found in play (gdef-check --play)",
              "G8": "Presentation (show)"}
    out = ["# Diagnostics", "",
           "Every code that `gdef-check`, `gdef-run` and the language server report. Codes are "
           "stable. This page is generated from `gdef_core/codes.py` "
           "(`python -m gdef_core.codes > docs/diagnostics.md`); edit that table, not this page.",
           "", "`gdef-check --explain CODE` prints one entry.", ""]
    current = None
    for entry in sorted(CODES.values(), key=lambda c: c.code):
        group = groups.get(entry.code[:2], "Other")
        if group != current:
            out += [f"## {group}", ""]
            current = group
        out += [render_entry(entry), ""]
    return "\n".join(out).rstrip() + "\n"


def render_entry(entry: Code) -> str:
    return "\n".join([
        f"### {entry.code}: {entry.title}",
        "",
        f"Severity: {entry.severity}.",
        "",
        entry.explanation,
        "",
        "Example:",
        "",
        "```gdef",
        entry.example,
        "```",
        "",
        f"Fix: {entry.fix}",
    ])


if __name__ == "__main__":
    sys.stdout.write(render_markdown())
