"""The old side of `lint --against`: read the old CRDs (files, folders, or `REV:path` from git), and
pair each new CRD with the old CRD of the same metadata.name.

`REV:path` is read the way `git show REV:path` reads it: the path is relative to the repository's
top (`./` and `../` make it relative to the current directory), and a folder is every *.yaml,
*.yml and *.json file under it at that revision. A path that exists on disk is always read from
disk, so a file named `v1:crd.yaml` is not mistaken for a revision.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from crdtool.load import Document, InputError, load_inputs, read_source
from crdtool.load.cached import cached_reader
from crdtool.load.sources import EXTENSIONS, decode_input

if TYPE_CHECKING:
    from crdtool.cache import Cache


def read_against(specs: Sequence[str], store: Cache | None = None) -> list[Document]:
    """Every document of the old inputs, in order; InputError (exit 2) for one that cannot be read.
    Files are read through `store` (the persistent cache) when given, as the new CRDs are."""
    read = read_source if store is None else cached_reader(store)
    docs: list[Document] = []
    for spec in specs:
        rev, sep, path = spec.partition(":")
        if spec == "-" or os.path.exists(spec) or not sep or not rev:
            docs.extend(load_inputs([spec], read=read))
        else:
            docs.extend(read_git(spec, rev, path))
    return docs


def _git(spec: str, args: list[str], stdin: bytes | None = None) -> bytes:
    """Run git; its failure is an input error that names what was asked for, with git's own words."""
    try:
        done = subprocess.run(["git", *args], input=stdin, capture_output=True, check=False)
    except FileNotFoundError:
        raise InputError(spec, "cannot read a REV:path without git (git is not installed)") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} exited {done.returncode}"
        raise InputError(spec, f"git cannot read it: {detail}")
    return done.stdout


def _full_path(spec: str, path: str) -> str:
    """The path from the repository's top, as `git show REV:path` reads it."""
    if path.startswith(("./", "../")) or path in (".", ".."):
        prefix = _git(spec, ["rev-parse", "--show-prefix"]).decode("utf-8").strip()
        path = posixpath.normpath(posixpath.join(prefix, path))
        if path.startswith(".."):
            raise InputError(spec, "the path is outside the repository")
    return "" if path in (".", "/") else path.strip("/")


def _wanted(names: list[str], full: str) -> list[str]:
    """The files to read: the one named, or a folder's YAML and JSON files outside hidden folders."""
    if names == [full]:
        return names
    return sorted(n for n in names if n.endswith(EXTENSIONS)
                  and not any(part.startswith(".") for part in n.split("/")[:-1]))


def read_git(spec: str, rev: str, path: str) -> list[Document]:
    """The documents of `path` (a file or a folder) at revision `rev`, each named `rev:file`."""
    full = _full_path(spec, path)
    listing = _git(spec, ["ls-tree", "-r", "--full-name", "--name-only", "-z", rev, "--", f":(top){full}"])
    names = _wanted([n for n in listing.decode("utf-8", "surrogateescape").split("\0") if n], full)
    if not names:
        raise InputError(spec, f"no CRD files at {path or '.'!r} in {rev!r}")
    blobs = _git(spec, ["cat-file", "--batch"], "".join(f"{rev}:{n}\n" for n in names).encode())
    docs: list[Document] = []
    for name, data in zip(names, _split_batch(spec, blobs), strict=True):
        display = f"{rev}:{name}"
        docs.extend(read_source(display, decode_input(data, display)))
    return docs


def _split_batch(spec: str, out: bytes) -> Iterable[bytes]:
    """The contents from `git cat-file --batch` output: `<oid> <type> <size>\\n<content>\\n` per object."""
    pos = 0
    while pos < len(out):
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        if len(header) != 3:
            raise InputError(spec, f"git cannot read it: {out[pos:end].decode('utf-8', 'replace')}")
        size = int(header[2])
        yield out[end + 1:end + 1 + size]
        pos = end + 1 + size + 1


def index_by_name(old_docs: Iterable[Document]) -> dict[str, Document]:
    """The old CRDs by metadata.name (the first of a name wins); documents that are not CRDs are skipped."""
    from crdtool.engine.lint import is_crd

    out: dict[str, Document] = {}
    for doc in old_docs:
        if is_crd(doc) and isinstance(doc.name, str):
            out.setdefault(doc.name, doc)
    return out
