"""The editor features over declared parameters (`param int n = 5 in 2 to 9;`): hover shows the
type, default and allowed values, completion offers `param` and the parameters where they are
valid (`size:`, initial values, expressions), semantic tokens colour `param`, `in`, `to` and
the names in `size: n x n`."""
from __future__ import annotations

from gdef_core.ide.completion import complete
from gdef_core.ide.highlight import semantic_tokens
from gdef_core.ide.hover import hover
from gdef_core.ide.session import Session

from ide_support import ENTRY, cursor, session

GAME = ("name: g\nplayers: 2\nparam int n = 5 in 2 to 9;\nparam float komi = 6.5 in {0.5, 6.5, 7.5};\n"
        "param bool swap = false;\nsize: n x 3\nobj X\n"
        "define f() -> bool { return n > 2 && komi > 1.0 && !swap; }\n" + ENTRY)


def test_hover_shows_type_default_and_allowed_values(tmp_path):
    s = session(tmp_path, {"g.gdef": GAME})
    path = str(tmp_path / "g.gdef")
    lines = GAME.split("\n")
    use = lines.index(next(t for t in lines if t.startswith("define f()")))
    at_n = hover(s.analyses(path), path, use, lines[use].index("n > 2")).markdown
    assert at_n == ("```gdef\nparam int n = 5 in 2 to 9\n```\n\nParameter (int): a constant of the game, chosen "
                    "when it is loaded (`--param n=VALUE`). Default 5; allowed: from 2 to 9. Declared at g.gdef:3.")
    komi = hover(s.analyses(path), path, use, lines[use].index("komi")).markdown
    assert "param float komi = 6.5 in {0.5, 6.5, 7.5}" in komi and "allowed: one of 0.5, 6.5, 7.5" in komi
    assert "allowed: true or false" in hover(s.analyses(path), path, use, lines[use].index("swap")).markdown
    in_size = hover(s.analyses(path), path, 5, 6).markdown  # the `n` of `size: n x 3`
    assert in_size.startswith("```gdef\nparam int n = 5")


def _labels(tmp_path, text):
    text, line, column = cursor(text)
    path = str(tmp_path / "c.gdef")
    editor = Session()
    editor.set_buffer(path, text)
    return {c.label: c for c in complete(editor.recent_analyses(path), text, path, line, column)}


def test_completion_offers_param_and_the_parameters_where_they_are_valid(tmp_path):
    top = _labels(tmp_path, "name: g\nplayers: 2\n‸\n")
    assert top["param"].snippet.startswith("param int ${1:name} = ")
    after_size = _labels(tmp_path, "players: 2\nparam int n = 5 in 2 to 9;\nparam bool b = true;\nsize: ‸\n")
    assert set(after_size) == {"n"} and after_size["n"].detail == "param int"
    init = _labels(tmp_path, "players: 2\nsize: 3 x 3\nparam int n = 5 in 2 to 9;\nint k = ‸\n")
    assert "n" in init
    body = _labels(tmp_path, GAME.replace("return n > 2", "return ‸n > 2"))
    assert {"n", "komi", "swap"} <= set(body)


def test_semantic_tokens_colour_the_declaration_and_the_named_sides(tmp_path):
    s = session(tmp_path, {"g.gdef": GAME})
    path = str(tmp_path / "g.gdef")
    lines = GAME.split("\n")
    found = {(lines[t.line][t.column:t.column + t.length], t.line, t.column): (t.type, set(t.modifiers))
             for t in semantic_tokens(s.analysis(path), GAME, path)}
    assert found[("param", 2, 0)] == ("keyword", set())
    assert found[("in", 2, 16)] == ("keyword", set()) and found[("to", 2, 21)] == ("keyword", set())
    assert found[("n", 2, 10)] == ("variable", {"static", "readonly", "declaration"})
    assert found[("n", 5, 6)] == ("variable", {"static", "readonly"})
    assert found[("3", 5, 10)] == ("number", set())
    assert found[("komi", 7, 37)] == ("variable", {"static", "readonly"})
