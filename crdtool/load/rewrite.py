"""`--write`: a file's new text (see load.edit) put in place of the old one, atomically, in the
file's own encoding (UTF-8, with its byte order mark if it had one), and only when it changed."""

from __future__ import annotations

import codecs
import os
import tempfile

from crdtool.errors import InputError


def write_text(path: str, old: str, new: str) -> bool:
    """Replace a file whose text (as crdtool read it: decoded, without a byte order mark) is `old` by
    `new`; False when they are the same. The file is left as it was if it changed since it was read,
    or if anything fails: the new text goes to a temporary file beside it, which then takes its
    place (with the file's mode). A symbolic link stays one: the file it points to is rewritten."""
    if path in ("-", "<stdin>"):
        raise InputError(path, "--write cannot rewrite standard input")
    if new == old:
        return False
    target = os.path.realpath(path)
    with open(target, "rb") as f:
        raw = f.read()
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        unchanged = raw[len(bom):].decode("utf-8") == old
    except UnicodeDecodeError:
        unchanged = False
    if not unchanged:
        raise InputError(path, "the file changed while crdtool ran: not rewritten")
    try:
        data = bom + new.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(path, f"the new text cannot be written as UTF-8 ({err.reason}): not rewritten") from None
    fd, tmp = tempfile.mkstemp(prefix=".crdtool-", suffix=".tmp", dir=os.path.dirname(target))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True
