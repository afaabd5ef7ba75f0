"""The fixed start of every compiled rules factory is a real module (runtime/prelude.py): its
cell list, and its built-ins called without compiling a game."""
from __future__ import annotations

import inspect
import re

import pytest

from gdef_core.runtime import prelude
from gdef_core.runtime.errors import Fail


def test_the_cell_list_is_the_one_the_factory_spells_out():
    source = inspect.getsource(prelude.factory)
    spelled = re.findall(r"nonlocal (B, .*)", source)
    assert spelled and set(spelled) == {prelude.CELLS}
    assert "    " + prelude.GENERATED in source.split("\n")


def _builtins(width=3, height=2, players=2):
    return prelude.factory(("empty", "X"), width, height, players, 10, 100)


def test_array_sizes_are_checked_with_the_spec_error():
    array_size = _builtins()["_array_size"]
    assert array_size([2, 3], 7) == 6
    with pytest.raises(Fail) as caught:
        array_size([2, 0], 7)
    assert caught.value.code == "G613"
    with pytest.raises(Fail) as caught:
        array_size([prelude.MAX_ARRAY_ELEMENTS, 2], 7)
    assert caught.value.code == "G613"


def test_messages_name_the_game_sizes():
    built = _builtins(width=3, height=2, players=2)
    with pytest.raises(Fail) as caught:
        built["_off_board"](3, 0, 5)
    assert "x from 0 to 2, y from 0 to 1" in caught.value.message
    with pytest.raises(Fail) as caught:
        built["_player"]("setWinner", 2, 5)
    assert caught.value.code == "G605" and "players are 0 to 1" in caught.value.message


def test_the_namespace_holds_every_global_the_generated_code_names():
    names = prelude.namespace()
    assert names["Fail"] is Fail
    assert {"_U", "_overflow", "_loop_limit_in", "OPERATION_STEPS"} <= set(names)
