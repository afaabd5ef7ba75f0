"""Reading the user's files safely: regular files only, and at most MAX_FILE_BYTES.

Every reader of a user-named path goes through here (`use`, named rule files, `--moves`,
`--resume`, a record's `files`, test files, project discovery, the language server), so that
/dev/zero, /dev/urandom, a FIFO or /dev/stdin give a clear error at once instead of eating
memory or hanging, and a path holding a NUL byte or an unencodable character is an ordinary
"cannot read" error rather than a crash.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat

MAX_FILE_BYTES = 16 * 1024 * 1024

# Bytes no text holds: control characters other than tab, line feed, vertical tab, form feed,
# carriage return and escape (colour codes). A NUL byte, an executable's 0x7f "ELF", random
# bytes: binary data. (Bytes that are not UTF-8 may still be text in another encoding.)
_BINARY = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_BINARY_TEXT = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")


def read_bytes(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The content of the regular file `path`; OSError (with a `strerror` fit for users) when
    it is not one, is larger than `limit`, or cannot be read."""
    info = stat_regular(path)
    if info.st_size > limit:
        raise _too_large(path, limit)
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew while we read
        raise _too_large(path, limit)
    return data


def read_text(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """As read_bytes, decoded as UTF-8 (undecodable bytes replaced)."""
    return read_bytes(path, limit).decode("utf-8", errors="replace")


def stat_regular(path: str) -> os.stat_result:
    """os.stat of a regular file (symbolic links followed); OSError otherwise."""
    try:
        info = os.stat(path)
    except (ValueError, UnicodeError):  # a NUL byte, or a lone surrogate the file system cannot take
        raise OSError(errno.EINVAL, "the path holds a character no file name can have", path) from None
    if not stat.S_ISREG(info.st_mode):
        kind = ("a directory" if stat.S_ISDIR(info.st_mode) else
                "a FIFO" if stat.S_ISFIFO(info.st_mode) else
                "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else
                "a socket" if stat.S_ISSOCK(info.st_mode) else "not a regular file")
        raise OSError(errno.EINVAL, f"not a regular file ({kind}): only regular files are read", path)
    return info


def _too_large(path: str, limit: int) -> OSError:
    return OSError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MB, the most gdef reads", path)


def binary_data_at(data: bytes | str) -> int | None:
    """The offset (from 0; in bytes of UTF-8 for a str) of the first byte that makes `data`
    binary rather than text, or None when it is text."""
    if isinstance(data, str):
        found = _BINARY_TEXT.search(data)
        return None if found is None else len(data[: found.start()].encode("utf-8", "surrogatepass"))
    found = _BINARY.search(data)
    return None if found is None else found.start()


def not_text_message(offset: int) -> str:
    """What every tool says about binary data (`offset` from 0; shown from 1, as `cmp` does)."""
    return (f"not a text file: binary data at byte {offset + 1} (gdef rules are UTF-8 text; "
            "is this the file you meant?)")


def replace_file(path: str, data: str | bytes, *, through_link: bool = False) -> None:
    """Write `data` (a str is written as UTF-8) to `path` atomically.

    The data goes to a new file beside `path` (created with O_EXCL | O_NOFOLLOW), is flushed
    to disk, and is then renamed over `path`: a crash leaves the old or the new file, never
    half of one. An existing `path` must be a regular file of this user (its mode is kept);
    a device or someone else's file is refused with an OSError, and nothing is written.
    A symbolic link is refused too (records: their paths come from users and shared files),
    unless `through_link`, where the file it points to is rewritten and the link stays
    (the formatter: a user formatting a linked rules file means the file).
    """
    if through_link:
        path = os.path.realpath(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except (ValueError, UnicodeError):
        raise OSError(errno.EINVAL, "the path holds a character no file name can have", path) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise OSError(errno.ELOOP, "a symbolic link: records are never written through one "
                                       "(name the file itself)", path)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file: only regular files are written", path)
        if not is_own(info):
            raise OSError(errno.EPERM, "owned by another user: it is not replaced", path)
    folder = os.path.dirname(path) or "."
    handle, temporary = _new_beside(folder, os.path.basename(path))
    try:
        if info is not None and hasattr(os, "fchmod"):
            os.fchmod(handle, stat.S_IMODE(info.st_mode))
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def is_own(info: os.stat_result) -> bool:
    """Whether a file belongs to the user running gdef (always, where there are no user ids)."""
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


def create_new(path: str) -> bool:
    """Create the empty regular file `path` (umask applies), never through a link and never
    over an existing name; False when the name is taken."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666))
    except FileExistsError:
        return False
    return True


def _new_beside(folder: str, name: str) -> tuple[int, str]:
    """A new file in `folder` for writing (mode 0666 minus the umask): its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        temporary = os.path.join(folder, f".{name[:60]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
