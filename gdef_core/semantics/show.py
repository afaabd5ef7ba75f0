"""The `show` blocks of a game -> its Presentation (gdef_core/presentation.py), with a located
diagnostic (G801-G807) for every entry that cannot be used; what is not declared gets the
default. The presentation never changes what the rules mean, so nothing here touches them.

    show {
      style: checkered;                 // checkered | plain | intersections | hex
      columns: "abcdefgh";              // one label per column: a string of one character each,
      rows: from 1;                     //   a list ("A", "B", ... or 1, 2, ...), or `from N`
      sides: "White", "Black";          // the players' names, player 0 first
      visible: halfmoves, castle;       // the game variables players see (default: all but tables)
      notation: auto;                   // auto | square | column | fromto
      counts: shown;                    // shown | hidden: the squares' counts drawn or not
      WK: "♔" side 0 letter "k";        // an object: glyph or `image "file"`, side, letter
    }
"""
from __future__ import annotations

import os

from gdef_core.diagnostics import Related
from gdef_core.presentation import (COUNT_DISPLAYS, DEFAULT_NOTATION, DEFAULT_STYLE, IMAGE_TYPES, MAX_IMAGE_BYTES, NOTATIONS,
                                    PIECE_WORDS, SHOW_KEYS, STYLES, Piece, Presentation, default_player_names,
                                    number_labels)
from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.semantics.report import Report, where
from gdef_core.semantics.suggest import did_you_mean, hint
from gdef_core.semantics.tables import changed_game_vars
from gdef_core.syntax import ast

KEYS = tuple(SHOW_KEYS)
NOT_IN_LABELS = "(),;#@"  # they would not read back as a move name (`#` starts a comment)
EMPTY = "empty"


def check_show(program: Program, report: Report) -> None:
    """Fill program.presentation (None for a library without size or players)."""
    entries = _entries(program, report)
    if program.width is None or program.height is None or program.players is None:
        program.presentation = None
        return
    reader = _Reader(program, report)
    style = reader.word(entries.get("style"), STYLES) or DEFAULT_STYLE
    notation = reader.word(entries.get("notation"), NOTATIONS) or DEFAULT_NOTATION
    counts = reader.word(entries.get("counts"), COUNT_DISPLAYS) or COUNT_DISPLAYS[0]
    columns = reader.labels(entries.get("columns"), program.width, "column",
                            "width" in program.param_sides) or number_labels(program.width)
    rows = reader.labels(entries.get("rows"), program.height, "row",
                         "height" in program.param_sides) or number_labels(program.height)
    players = reader.labels(entries.get("sides"), program.players, "player") or \
        default_player_names(program.players)
    visible = reader.visible(entries.get("visible"))
    if visible is None:
        changed = changed_game_vars(program)
        visible = tuple(name for name in program.game_vars if name in changed)
    pieces = {name: reader.piece(entries.get(name)) for name in program.objects}
    program.presentation = Presentation(style, columns, rows, players, visible, notation, pieces, counts)


def _entries(program: Program, report: Report) -> dict[str, ast.ShowEntry]:
    """Every entry by key, the first of each; unknown keys and second ones reported."""
    found: dict[str, ast.ShowEntry] = {}
    for module in program.modules:
        for item in module.items:
            if type(item) is not ast.ShowDecl:
                continue
            for entry in item.entries:
                key = entry.key
                if key.recovered or not key.text:
                    continue
                if key.text == EMPTY:
                    report.add("G805", key.span, "'empty' gets no glyph: an empty square is drawn by the "
                               "board itself; remove this entry")
                    continue
                if key.text not in KEYS:
                    symbol = program.symbols.get(key.text)
                    if symbol is None or symbol.kind is not SymbolKind.OBJECT:
                        suggestions = did_you_mean(key, [*KEYS, *program.objects])
                        report.add("G801", key.span, f"'{key.text}' is neither a declared object nor a "
                                   f"presentation key ({', '.join(KEYS)}){hint(suggestions)}",
                                   suggestions=suggestions)
                        continue
                    program.references[key] = symbol
                if key.text in found:
                    other = found[key.text].key.span
                    report.add("G802", key.span, f"'{key.text}' is already shown ({where(other, key.span)})",
                               related=(Related(other, f"the other entry for '{key.text}'"),))
                    continue
                found[key.text] = entry
    return found


class _Reader:
    """Reads the values of entries, reporting what does not fit."""

    def __init__(self, program: Program, report: Report) -> None:
        self.program = program
        self.report = report

    def word(self, entry: ast.ShowEntry | None, allowed: tuple[str, ...]) -> str | None:
        if entry is None:
            return None
        atom = self._single(entry, "a word", one_atom=True)
        if atom is None:
            return None
        if type(atom) is not ast.Name or atom.text not in allowed:
            shown = atom.text if type(atom) is ast.Name else _text(atom)
            suggestions = did_you_mean(atom, allowed) if type(atom) is ast.Name else ()
            self.report.add("G804", atom.span, f"'{entry.key.text}' is one of {', '.join(allowed)}, "
                            f"not '{shown}'{hint(suggestions)}", suggestions=suggestions)
            return None
        return atom.text

    def labels(self, entry: ast.ShowEntry | None, count: int, what: str,
               longer: bool = False) -> tuple[str, ...] | None:
        """`"abc"` (one label per character when that gives `count`), `"A", "B"`, `1, 2`, `from N`.
        `longer`: a parameter gives the count, so more labels are allowed (the first ones are used)."""
        if entry is None:
            return None
        values = entry.values
        if not values:
            self.report.add("G803", entry.key.span, f"'{entry.key.text}' lists no {what} name; "
                            f"the game has {_count(count, what)}")
            return None
        first = values[0].atoms
        if len(values) == 1 and len(first) == 2 and type(first[0]) is ast.Name and first[0].text == "from" \
                and type(first[1]) is ast.IntLit and what != "player":
            return number_labels(count, first[1].value)
        labels: list[str] = []
        for value in values:
            if len(value.atoms) != 1 or type(value.atoms[0]) not in (ast.StringLit, ast.IntLit):
                self.report.add("G804", value.span, f"a {what} name is a string or a number"
                                + ("" if what == "player" else ", or the whole list is `from N`"))
                return None
            labels.append(_text(value.atoms[0]))
        if len(labels) == 1 and (count > 1 or longer):
            if len(labels[0]) != count and not (longer and len(labels[0]) > count):
                self.report.add("G803", values[0].span, f"'{entry.key.text}' gives {len(labels[0])} "
                                f"characters, one per {what}, for a game of {_count(count, what)}")
                return None
            labels = list(labels[0])
        if longer and len(labels) > count:
            labels = labels[:count]
        if len(labels) != count:
            self.report.add("G803", values[0].span.to(values[-1].span),
                            f"'{entry.key.text}' gives {_count(len(labels), what)} for a game of "
                            f"{_count(count, what)}")
            return None
        for index, label in enumerate(labels):
            if what != "player" and (not label or any(c in NOT_IN_LABELS or c.isspace() for c in label)):
                self.report.add("G804", values[min(index, len(values) - 1)].span,
                                f"{what} name {index + 1} ('{label}') is empty or holds a space or one of "
                                f"{' '.join(NOT_IN_LABELS)}: square names are typed as moves")
                return None
            if not label.strip() or label != label.strip():
                self.report.add("G804", values[min(index, len(values) - 1)].span,
                                f"{what} name {index + 1} is blank or has spaces around it")
                return None
            if labels.index(label) != index:
                self.report.add("G804", values[min(index, len(values) - 1)].span,
                                f"the {what} name '{label}' is given twice: each must be different")
                return None
        return tuple(labels)

    def visible(self, entry: ast.ShowEntry | None) -> tuple[str, ...] | None:
        if entry is None:
            return None
        shown: list[str] = []
        for value in entry.values:
            atom = value.atoms[0]
            symbol = self.program.symbols.get(atom.text) if type(atom) is ast.Name else None
            if len(value.atoms) != 1 or symbol is None or symbol.kind is not SymbolKind.GAME_VAR:
                suggestions = did_you_mean(atom, self.program.game_vars) if type(atom) is ast.Name else ()
                self.report.add("G807", value.span, f"'{_text(atom)}' is not a game variable of this game"
                                f"{hint(suggestions)}", suggestions=suggestions)
                continue
            self.program.references[atom] = symbol
            if atom.text not in shown:
                shown.append(atom.text)
        order = list(self.program.game_vars)
        return tuple(sorted(shown, key=order.index))

    def piece(self, entry: ast.ShowEntry | None) -> Piece:
        """`"♔" side 0 letter "k"`, `image "wk.svg" side 0`: any of the parts, in any order."""
        if entry is None:
            return Piece()
        atom = self._single(entry, "a glyph", one_atom=False)
        if atom is None:
            return Piece()
        atoms = entry.values[0].atoms
        parts: dict[str, object] = {}
        i = 0
        while i < len(atoms):
            atom = atoms[i]
            if type(atom) is ast.StringLit and "glyph" not in parts:
                if not atom.value.strip():
                    self.report.add("G805", atom.span, "an empty glyph draws nothing: give the object a "
                                    "visible character, such as \"♔\" or \"●\"")
                    return Piece()
                parts["glyph"] = atom.value
                i += 1
                continue
            word = atom.text if type(atom) is ast.Name else None
            argument = atoms[i + 1] if i + 1 < len(atoms) else None
            if word not in PIECE_WORDS or word in parts:
                self.report.add("G804", atom.span, f"after an object come its glyph (a string) and "
                                f"{', '.join(w + ' ...' for w in PIECE_WORDS)}, each once; not '{_text(atom)}'")
                return Piece()
            value = self._piece_part(word, atom, argument)
            if value is None:
                return Piece()
            parts[word] = value
            i += 2
        if "glyph" in parts and "image" in parts:
            self.report.add("G804", entry.values[0].span, "an object has a glyph or an image, not both")
            return Piece()
        return Piece(parts.get("glyph"), parts.get("image"), parts.get("side"), parts.get("letter"))

    def _piece_part(self, word: str, atom: ast.Name, argument):
        report = self.report
        if word == "side":
            if type(argument) is not ast.IntLit or argument.value >= self.program.players:
                report.add("G804", (argument or atom).span, f"'side' is followed by the number of a player, "
                           f"0 to {self.program.players - 1}")
                return None
            return argument.value
        if type(argument) is not ast.StringLit:
            report.add("G804", (argument or atom).span, f"'{word}' is followed by a string")
            return None
        if word == "letter":
            if not argument.value.strip() or any(c in argument.value for c in NOT_IN_LABELS + " "):
                report.add("G804", argument.span, "a letter is a short word without spaces or ( ) , ; # @")
                return None
            return argument.value
        return self._image(argument)

    def _image(self, path: ast.StringLit) -> str | None:
        folder = os.path.dirname(os.path.abspath(path.span.file))
        full = os.path.normpath(os.path.join(folder, path.value))
        suffix = os.path.splitext(full)[1].lower()
        problem = None
        if suffix not in IMAGE_TYPES:
            problem = f"'{path.value}' is not a PNG, SVG, GIF, JPEG or WebP file (by its name)"
        elif not os.path.isfile(full):
            problem = f"no image file '{path.value}' (looked for {full})"
        elif os.path.getsize(full) > MAX_IMAGE_BYTES:
            problem = f"'{path.value}' is larger than {MAX_IMAGE_BYTES // 1024} KB"
        if problem:
            self.report.add("G806", path.span, problem)
            return None
        return full

    def _single(self, entry: ast.ShowEntry, what: str, one_atom: bool):
        """The first atom of an entry that takes one value (more values reported), and with
        `one_atom` one word (more words reported)."""
        if not entry.values:
            self.report.add("G804", entry.key.span, f"'{entry.key.text}' needs {what}")
            return None
        if len(entry.values) > 1:
            self.report.add("G804", entry.values[1].span, f"'{entry.key.text}' takes one value")
            return None
        atoms = entry.values[0].atoms
        if one_atom and len(atoms) > 1:
            self.report.add("G804", atoms[1].span, f"'{entry.key.text}' takes one word")
            return None
        return atoms[0]


def _text(atom) -> str:
    if type(atom) is ast.StringLit:
        return atom.value
    if type(atom) is ast.IntLit:
        return str(atom.value)
    return atom.text


def _count(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"
