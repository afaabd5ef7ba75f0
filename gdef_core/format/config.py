"""The formatter's options from the project: `[format]` in gdef.toml, or `[tool.gdef.format]`
in pyproject.toml, in the file's folder or the nearest one above it (gdef.toml first in each
folder; a pyproject.toml without `[tool.gdef]` is passed over). One option, on purpose:

    [format]
    indent-width = 4     # spaces per level (default 2)
"""
from __future__ import annotations

import os
import tomllib

from gdef_core.format import DEFAULT_INDENT, FormatOptions

MAX_INDENT = 8


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the fix."""


def find_config(directory: str) -> tuple[str, dict] | None:
    """(path, the gdef settings table) of the configuration that applies in `directory`."""
    directory = os.path.abspath(directory)
    while True:
        for name in ("gdef.toml", "pyproject.toml"):
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                data = _read(path)
                table = data if name == "gdef.toml" else data.get("tool", {}).get("gdef")
                if isinstance(table, dict):
                    return path, table
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def options_for(directory: str) -> FormatOptions:
    """The options for files in `directory` (the defaults when no configuration applies)."""
    found = find_config(directory)
    if found is None:
        return FormatOptions()
    path, table = found
    where = "[format]" if path.endswith("gdef.toml") else "[tool.gdef.format]"
    section = table.get("format", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: {where} must be a table (`{where}` on a line of its own)")
    unknown = sorted(set(section) - {"indent-width"})
    if unknown:
        raise ConfigError(f"{path}: {where} has no option {unknown[0]!r}: the one option is indent-width")
    width = section.get("indent-width", DEFAULT_INDENT)
    if type(width) is not int or not 1 <= width <= MAX_INDENT:
        raise ConfigError(f"{path}: {where} indent-width must be a whole number from 1 to {MAX_INDENT}, "
                          f"not {width!r}")
    return FormatOptions(indent_width=width)


def _read(path: str) -> dict:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
