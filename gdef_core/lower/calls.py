"""The call graph of a checked program: who calls whom, its cycles, what each entry point
reaches. The edges and the entry points' reach are the checker's (semantics/contexts.py keeps
them on the Program): nothing here walks a function body again.
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import Context
from gdef_core.semantics.program import Program


@dataclass(frozen=True, eq=False)
class CallGraph:
    """`calls`: function -> the functions it calls, once per call; `reach`: entry point ->
    every function it reaches, itself included (empty when the game does not define it);
    `cycles`: the strongly connected components that hold a cycle; `recursive`: the functions
    on one (only they can nest without bound, so only they check the depth)."""

    calls: dict[str, list[str]]
    reach: dict[Context, frozenset[str]]
    cycles: list[list[str]]
    recursive: frozenset[str]

    def contexts_of(self, name: str) -> frozenset[Context]:
        """The entry points that reach function `name`."""
        return frozenset(context for context, names in self.reach.items() if name in names)

    def reached_by(self, entries) -> set[str]:
        """The functions any of `entries` reaches."""
        return set().union(*(self.reach[context] for context in entries))

    def reachable(self, root: str) -> set[str]:
        """The functions `root` can call, directly or not (itself included)."""
        found: set[str] = set()
        pending = [root] if root in self.calls else []
        while pending:
            name = pending.pop()
            if name not in found:
                found.add(name)
                pending.extend(self.calls[name])
        return found

    def calls_not_inlined(self, name: str, inlined) -> bool:
        """Whether function `name` calls a function not in `inlined` (an inlined one is a
        bounded amount of code, see inlining.MAX_EXPANDED_NODES): such a function checks the
        step budget on entry, in both backends (a call tree can grow exponentially without
        loops)."""
        return any(callee not in inlined for callee in self.calls.get(name, ()))

    def restricted(self, names) -> dict[str, list[str]]:
        """The edges between the functions `names` (a closed set: what some roots reach)."""
        return {name: self.calls[name] for name in self.calls if name in names}


def call_graph(program: Program) -> CallGraph:
    found = cycles(program.calls)
    reach = {context: program.reach.get(context, frozenset()) for context in Context}
    return CallGraph(program.calls, reach, found, frozenset(name for component in found for name in component))


def cycles(calls: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of a call graph that hold a cycle (several
    functions, or one that calls itself); callees outside `calls` are ignored."""
    calls = {name: [callee for callee in callees if callee in calls] for name, callees in calls.items()}
    # Tarjan's strongly connected components, iteratively (no Python recursion on deep graphs).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for root in calls:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            name, position = work.pop()
            if position == 0:
                index[name] = low[name] = counter
                counter += 1
                stack.append(name)
                on_stack.add(name)
            callees = calls[name]
            if position < len(callees):
                work.append((name, position + 1))
                callee = callees[position]
                if callee not in index:
                    work.append((callee, 0))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            if low[name] == index[name]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                if len(component) > 1 or name in calls[name]:
                    result.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
    return result
