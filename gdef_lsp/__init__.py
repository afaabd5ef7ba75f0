"""gdef_lsp: the language server for .gdef files (pygls). It only adapts gdef_core.ide results
to LSP types; the language knowledge lives in gdef_core."""
from gdef_core.version import __version__

__all__ = ["__version__"]
