"""Compiled rules: the generated Python made callable, and its failures made gdef errors.

`Rules` offers each entry point twice: `raw_*` (fast; raises the internal Fail, used inside
loops such as legal-move enumeration and by nested calls) and a checked method that turns any
failure into a GdefRuntimeError with the gdef location and call stack.
"""
from __future__ import annotations

import itertools
import sys

from gdef_core.builtins import Context
from gdef_core.lower.consequences import makes_consequences
from gdef_core.runtime import prelude
from gdef_core.runtime.codegen import Compiler
from gdef_core.runtime.function_compiler import CompileError
from gdef_core.runtime.errors import CALL_SITE, IN_FRAME, Fail, GdefRuntimeError, StackFrame
from gdef_core.lower.values import Obj
from gdef_core.semantics.program import Program
from gdef_core.span import Span

_ids = itertools.count(1)
FILENAME_PREFIX = "<gdef rules #"  # the file name of every compiled program starts so (the debugger looks for it)

# Python frames a gdef call needs at most (its own, plus hoisted expression helpers and the
# nested hasLegalMove() machinery), used to size Python's recursion limit.
_FRAMES_PER_CALL = 3
# Python frames the compiler may use: about three per level of nesting of the rules' syntax.
_COMPILER_RECURSION = 30_000


class Rules:
    def __init__(self, program: Program, objects: tuple[Obj, ...], max_steps: int, max_depth: int,
                 optimize: bool = True) -> None:
        self.filename = f"{FILENAME_PREFIX}{next(_ids)}: {program.name}>"
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, _COMPILER_RECURSION))  # the compiler walks the tree recursively
        compiler = Compiler(program, max_steps, max_depth, self.filename, optimize)
        compiled = None
        try:
            compiled = compiler.compile()
            code = compile(compiled.source, self.filename, "exec")
        except RecursionError:
            raise CompileError("this function is nested too deeply to run (expressions or blocks "
                               "thousands of levels deep)", compiler.current_span) from None
        except (SyntaxError, MemoryError) as error:  # Python's own limits on the generated code
            lines = compiled.line_spans if compiled is not None else {}
            span = lines.get(getattr(error, "lineno", None) or 0, compiler.current_span)
            raise CompileError(f"this code is nested too deeply to run ({getattr(error, 'msg', error)}); "
                               "move inner blocks into functions of their own", span) from None
        finally:
            sys.setrecursionlimit(limit)
        self.compiled = compiled
        self.module = compiler.module  # the IR the rules were compiled from
        namespace = prelude.namespace()
        exec(code, namespace)
        entries = namespace["_factory"](objects)
        self.raw_init_vars = entries["_init_vars"]
        self.set_has_legal_move_hook = entries["_set_hook"]
        self.raw_legal = entries.get("_e_isMoveLegal")
        self.raw_end = entries.get("_e_end")
        self.raw_moves = entries.get("_e_moves")
        self.raw_setup = entries.get("_e_setup")
        self.raw_chance = entries.get("_e_chance")  # None unless the game calls chanceNext()
        self.raw_filter = entries.get("_e_filter")
        self.raw_default_filter = entries.get("_e_default")
        self.position_key = entries["_position_key"]
        used = compiler.module.builtins_used
        # State the runtime keeps only for games that read it (spec 15.4, 15.5).
        self.uses_history = bool(used & {"repetitions", "nextBoardSeen"})
        self.uses_scores = "setScore" in used
        self.uses_previous = bool(used & {"PreviousPosition", "PreviousCount"})
        # end() changes squares the move did not name (docs/language.md, "Consequences of a
        # move"): undoing a move or a failed end() restores the whole board.
        self.end_consequences = makes_consequences(compiler.module, Context.END)
        # Squares hold counts beside objects (docs/language.md, "Squares that count"): the
        # board list holds the W*H counts after the W*H objects.
        self.counting = compiler.module.counting
        needed = _FRAMES_PER_CALL * 2 * max_depth + 1000
        if sys.getrecursionlimit() < needed:
            sys.setrecursionlimit(needed)

    # ------------------------------------------------------------ checked entry points

    def is_move_legal(self, board, ops, player, move_number, variables, history=None) -> bool:
        try:
            return self.raw_legal(board, ops, player, move_number, variables, history)
        except (Fail, RecursionError) as error:
            raise self.error(error) from None

    def end(self, board, ops, player, move_number, variables, scores=None, history=None, previous=None,
            chance_move=False):
        """-> (over, winner or None, next player or None, whether chanceNext() was called).
        `scores` is changed in place; `history`: the positions before this move; `previous`:
        the board before it; `chance_move`: the move is a chance outcome (isChanceMove())."""
        try:
            return self.raw_end(board, ops, player, move_number, variables, scores, history, previous,
                                chance_move)
        except (Fail, RecursionError) as error:
            raise self.error(error) from None

    def setup(self, board, variables, scores=None):
        """Runs setup() on the board (changed in place); -> (the first player or None, whether
        chanceNext() was called)."""
        try:
            return self.raw_setup(board, variables, scores)
        except (Fail, RecursionError) as error:
            raise self.error(error) from None

    def chance(self, board, player, move_number, variables) -> list:
        """The outcomes chance() proposes, [(operations, weight)] in the order proposed (not
        merged); GdefRuntimeError when it fails or proposes none (G615)."""
        try:
            return self.raw_chance(board, player, move_number, variables)
        except (Fail, RecursionError) as error:
            raise self.error(error) from None

    def init_vars(self) -> list:
        try:
            return self.raw_init_vars()
        except Fail as error:
            raise self.error(error) from None

    # ------------------------------------------------------------ errors

    def error(self, error: BaseException) -> GdefRuntimeError:
        """The gdef error for a failure of compiled code, located, with its call stack."""
        compiled = self.compiled
        frames: list[tuple[str, int]] = []
        tb = error.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.filename and code.co_name.startswith(("u_", "u1_")):
                frames.append((code.co_name.split("_", 1)[1], tb.tb_lineno))
            tb = tb.tb_next

        def where(frame: tuple[str, int]) -> Span:
            span = compiled.line_spans.get(frame[1])
            return span if span is not None else compiled.function_spans[frame[0]]

        if isinstance(error, Fail):
            code, message = error.code, error.message
            if error.loc == CALL_SITE:
                callee = frames.pop() if frames else None
                if frames:
                    span = where(frames[-1])
                elif callee is not None:
                    span = compiled.function_spans[callee[0]]
                else:
                    span = _first_span_of(compiled)
            elif error.loc == IN_FRAME:
                span = where(frames[-1]) if frames else compiled.function_spans["isMoveLegal"]
            else:
                span = compiled.spans[error.loc]
        else:
            code = "G608"
            message = "recursion too deep for Python's stack; lower the depth of the recursion"
            span = where(frames[-1]) if frames else _first_span_of(compiled)
        stack = [StackFrame(name, where((name, line))) for name, line in reversed(frames)]
        chain = compiled.inline_chains.get(error.loc) if isinstance(error, Fail) else None
        if chain:  # the error is inside inlined calls: give them their frames back
            inner = [StackFrame(chain[-1][0], span)]
            inner += [StackFrame(chain[i - 1][0], chain[i][1]) for i in range(len(chain) - 1, 0, -1)]
            if stack:
                stack[0] = StackFrame(stack[0].function, chain[0][1])
            stack = inner + stack
        elif stack:
            stack[0] = StackFrame(stack[0].function, span)
        return GdefRuntimeError(code, message, span, tuple(stack))


def _first_span_of(compiled) -> Span:
    for span in compiled.function_spans.values():
        return span
    return Span("<rules>", 0, 0, 0, 0)
