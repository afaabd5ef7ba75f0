"""JSON from users and clients (records, protocol lines, web requests, debug messages), parsed
without trusting the recursion limit.

Loading rules raises the interpreter's recursion limit to fit `--max-depth` (runtime/rules.py),
and json's C decoder recurses once per level of nesting under that limit: `[[[[...` 100,000
deep would then overflow the C stack and kill the process instead of raising RecursionError.
So the nesting is measured first, without recursion, and input deeper than MAX_NESTING is
refused with the RecursionError every caller already turns into "nested too deeply".
"""
from __future__ import annotations

import json
import re

MAX_NESTING = 500   # a record or a request of gdef's nests a handful of levels

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def loads(text: str, **options):
    """json.loads(text, **options), refusing nesting deeper than MAX_NESTING (RecursionError)."""
    if too_deep(text):
        raise RecursionError(f"nested more than {MAX_NESTING} levels deep")
    return json.loads(text, **options)


def too_deep(text: str, limit: int = MAX_NESTING) -> bool:
    """Whether the brackets of `text` (outside strings) nest deeper than `limit`."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        if bracket.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False
