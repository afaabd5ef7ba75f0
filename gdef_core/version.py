"""gdef's version, in a module of its own: the language server and the native cache read it
without importing the public API of gdef_core/__init__.py, which reaches the compiler."""
__version__ = "0.1.0"
