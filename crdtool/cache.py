"""A persistent store of pure, expensive results (a CRD's lint verdict, its decoded form), so that the
run a CRD author makes on every commit does not redo what the last run did.

Safety comes before speed, since a wrong cached answer would be a wrong verdict:
- Entries are content-addressed: the key is a hash of everything the value depends on, and every key
  is hashed together with this build's identity (crdtool's version and a fingerprint of its installed
  files, Python's version, the CEL library's version). Another build never reads an entry it did not
  write.
- An entry is written to a temporary file in the same folder and renamed into place, so a reader sees
  the whole entry or none (two processes writing the same key write the same bytes). Each entry carries
  a checksum of its payload: a truncated or corrupted entry is ignored (and rebuilt), never read.
- Any error of the file system (a read-only home, a full disk, a folder removed meanwhile) turns the
  cache off for the rest of the run: it can make a run slower, never fail it.

Its size is bounded, as ccache bounds its own: a run that writes first measures the cache folder and,
when it holds more than MAX_BYTES, removes the least recently used entries until it holds less than
three quarters of that. An entry's modification time is its last use: a read refreshes it (once a day
at most, so that warm runs do not write). Other builds' folders stay while they are in use: two
installs of crdtool on one machine (a pre-commit environment and a pipx install, say) take turns, and
each removing the other's entries would make every run of both cold. A new build, on its first write,
removes the folders of builds unused for a week, and of all but the most recently used when more than
BUILDS_KEPT builds have one. `crdtool cache clean` removes everything.

The folder follows the platforms' convention for caches (XDG_CACHE_HOME on Linux, ~/Library/Caches
on macOS, LOCALAPPDATA on Windows); CRDTOOL_CACHE_DIR overrides it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pickle
import re
import sys
import time
from functools import cache, lru_cache
from typing import Any, Protocol

__all__ = ["BUILDS_KEPT", "MAX_BYTES", "Cache", "cache_directory", "clean", "digest", "disabled", "text_digest"]

try:
    # CPython's own BLAKE2: importing hashlib loads OpenSSL first, some 5 ms of every run, which a one-file
    # run feels (CPython's random module takes its sha512 the same way); hashlib's blake2b is the same function
    from _blake2 import blake2b as _blake2b
except ImportError:
    from hashlib import blake2b as _blake2b

#: Each entry starts with this, then the digest of the payload, then the payload (a pickle).
_MAGIC = b"crdtool-cache 2\n"
_DIGEST = 32


class Hash(Protocol):
    """A running hash (hashlib's interface)."""

    def update(self, data: bytes, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...


def digest(data: bytes = b"") -> Hash:
    """The cache's hash, BLAKE2b of 32 bytes, of `data` (more can be added with `update`)."""
    return _blake2b(data, digest_size=_DIGEST)

#: A build's folder is named by its identity (build_identity).
_IDENTITY = re.compile(r"[0-9a-f]{16}")
#: The size past which entries are pruned, least recently used first (see the module's docstring).
MAX_BYTES = 256 * 1024 * 1024
#: How many builds' folders a new build leaves (its own among them), the most recently used.
BUILDS_KEPT = 4
#: How long a build's folder stays unused before a new build removes it.
_UNUSED_BUILD_SECONDS = 7 * 24 * 3600
#: How old an entry's last-use time may get before a read refreshes it.
_REFRESH_SECONDS = 24 * 3600
#: A temporary file older than this was left by a writer that died: pruning removes it.
_STALE_TMP_SECONDS = 3600
#: The file that tells backup and archiving tools the folder is a cache (bford.info/cachedir).
_CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# crdtool's cache: `crdtool cache clean` empties it.\n"


def cache_directory() -> str:
    """Where the cache lives on this machine (it may not exist yet). The module works with `os.path`:
    every run asks this, and pathlib (with urllib.parse and ipaddress, which it imports) took some 8 ms
    of a one-object run to import."""
    override = os.environ.get("CRDTOOL_CACHE_DIR")
    if override:
        return override
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "crdtool")
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return os.path.join(os.environ["LOCALAPPDATA"], "crdtool", "Cache")
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(home, ".cache")
    return os.path.join(base, "crdtool")


@cache
def build_identity() -> str:
    """A short hash naming this build: crdtool's version, its installed files (so that a changed
    checkout never reads its predecessor's entries), the Python version and the CEL library's installed
    files (a pickle and compiled rules depend on them). This runs on every start: no file is hashed."""
    from crdtool import KUBE_VERSION, __version__

    identity = digest(f"{__version__}\0{KUBE_VERSION}\0{sys.version}".encode())
    _digest_package(identity, os.path.dirname(os.path.realpath(__file__)), "crdtool", (".py", ".json", ".gz"))
    cel = importlib.util.find_spec("cel_expr_python")
    if cel is not None and cel.submodule_search_locations:
        for location in cel.submodule_search_locations:
            _digest_package(identity, location, "cel_expr_python", (".py", ".so", ".pyd"))
    return identity.hexdigest()[:16]


def _digest_package(identity: Hash, top: str, distribution: str, suffixes: tuple[str, ...]) -> None:
    """Add what identifies the installed files of the package at `top` to `identity`: the RECORD its
    installer wrote beside it (pip, uv and their peers list every file with its hash there, and write it
    again at every install), or, for a package without one (a checkout installed as editable), the
    relative path, size and modification time of each file under `top` with one of `suffixes`."""
    records: list[str] = []
    with contextlib.suppress(OSError), os.scandir(os.path.dirname(top)) as listing:
        records = sorted(entry.path for entry in listing
                         if entry.name.startswith(f"{distribution}-") and entry.name.endswith(".dist-info"))
    found = False
    for record in records:
        with contextlib.suppress(OSError), open(os.path.join(record, "RECORD"), "rb") as f:
            identity.update(f.read())
            found = True
    if not found:
        _digest_files(identity, top, suffixes)


def _digest_files(identity: Hash, top: str, suffixes: tuple[str, ...]) -> None:
    """Add the relative path, size and modification time of each file under `top` with one of
    `suffixes` to `identity`, in name order."""
    entries = []
    stack = [top]
    while stack:
        folder = stack.pop()
        with contextlib.suppress(OSError), os.scandir(folder) as listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith(suffixes):
                    stat = entry.stat()
                    entries.append(f"\0{os.path.relpath(entry.path, top)}\0{stat.st_size}\0{stat.st_mtime_ns}")
    identity.update("".join(sorted(entries)).encode())


@lru_cache(maxsize=256)
def text_digest(text: str) -> bytes:
    """The digest of a file's text, what its entries are keyed by (memoized: a file's documents
    and its verdicts share it)."""
    return digest(text.encode("utf-8", "surrogatepass")).digest()


class Cache:
    """Entries of one build in one folder; `None` as the folder is a cache that stores nothing."""

    def __init__(self, root: str | os.PathLike[str] | None, identity: str | None = None,
                 max_bytes: int = MAX_BYTES) -> None:
        self._root = None if root is None else os.fspath(root)
        self._max_bytes = max_bytes
        self._identity = identity or (build_identity() if root is not None else "")
        self._prepared = False
        #: (namespace, key) of the entries this run read or wrote: the store holds them.
        self._held: set[tuple[str, bytes]] = set()
        #: The entries' folders this run has made (or found).
        self._shards: set[str] = set()

    @property
    def enabled(self) -> bool:
        return self._root is not None

    def _path(self, namespace: str, key: bytes) -> str:
        assert self._root is not None
        name = digest(namespace.encode() + b"\0" + key).hexdigest()
        return os.path.join(self._root, self._identity, name[:2], name[2:])

    def get(self, namespace: str, key: bytes) -> Any | None:
        """The value stored for the key, or None (absent, unreadable, truncated or corrupted)."""
        if self._root is None:
            return None
        path = self._path(namespace, key)
        try:
            with open(path, "rb") as f:
                used = os.fstat(f.fileno()).st_mtime
                raw = f.read()
        except OSError:
            return None
        payload = raw[len(_MAGIC) + _DIGEST:]
        if not raw.startswith(_MAGIC) or raw[len(_MAGIC):len(_MAGIC) + _DIGEST] != digest(payload).digest():
            return None
        try:
            value = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - an entry this build cannot read is a miss, whatever the reason
            return None
        self._held.add((namespace, key))
        if time.time() - used > _REFRESH_SECONDS:
            with contextlib.suppress(OSError):  # a read-only cache is still read
                os.utime(path)
        return value

    def holds(self, namespace: str, key: bytes) -> bool:
        """Whether this run has read or written the entry (then a `put` of it would change nothing)."""
        return (namespace, key) in self._held

    def put(self, namespace: str, key: bytes, value: Any) -> None:
        """Store the value (best effort: a failure turns the cache off for this run)."""
        if self._root is None:
            return
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a value that cannot be stored is simply not cached
            return
        path = self._path(namespace, key)
        try:
            self._prepare()
            fd, tmp = self._temporary(os.path.dirname(path))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(_MAGIC + digest(payload).digest() + payload)
                os.replace(tmp, path)
                self._held.add((namespace, key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            self._root = None

    def _temporary(self, shard: str) -> tuple[int, str]:
        """A new temporary file in the folder of an entry (made first, once a run: a cold run writes
        hundreds of entries into a few hundred folders)."""
        import tempfile  # here: a warm run writes nothing

        if shard not in self._shards:
            os.makedirs(shard, exist_ok=True)
            self._shards.add(shard)
        try:
            return tempfile.mkstemp(prefix=".tmp-", dir=shard)
        except FileNotFoundError:  # removed meanwhile (`crdtool cache clean`, another build's first write)
            os.makedirs(shard, exist_ok=True)
            return tempfile.mkstemp(prefix=".tmp-", dir=shard)

    def _prepare(self) -> None:
        """On the first write: the folder, its CACHEDIR.TAG, other builds' unused folders removed (when
        this build's is new) and the entries pruned to the size cap."""
        if self._prepared:
            return
        assert self._root is not None
        os.makedirs(self._root, exist_ok=True)
        tag = os.path.join(self._root, "CACHEDIR.TAG")
        if not os.path.exists(tag):
            with open(tag, "w", encoding="utf-8") as f:
                f.write(_CACHEDIR_TAG)
        entries = _entries(self._root)
        if not os.path.exists(os.path.join(self._root, self._identity)):
            entries = _remove_unused_builds(self._root, entries, self._identity)
        _prune(entries, self._max_bytes)
        self._prepared = True


#: An entry as pruning sees it: (last use, size, its build's folder name, path).
_Entry = tuple[float, int, str, str]


def _entries(root: str) -> list[_Entry]:
    """Every entry of every build in the cache folder (temporary files being written left out)."""
    now = time.time()
    entries: list[_Entry] = []
    for build in _build_folders(root):
        with contextlib.suppress(OSError), os.scandir(build.path) as shards:
            for shard in shards:
                if not shard.is_dir(follow_symlinks=False):
                    continue
                with contextlib.suppress(OSError), os.scandir(shard.path) as listing:
                    for entry in listing:
                        with contextlib.suppress(OSError):
                            stat = entry.stat(follow_symlinks=False)
                            if entry.name.startswith(".tmp-") and now - stat.st_mtime < _STALE_TMP_SECONDS:
                                continue  # being written
                            entries.append((stat.st_mtime, stat.st_size, build.name, entry.path))
    return entries


def _remove_unused_builds(root: str, entries: list[_Entry], identity: str) -> list[_Entry]:
    """Remove the folders of other builds unused for a week, and of the least recently used when more
    than BUILDS_KEPT would be left (`identity`'s among them); the entries left. A folder's last use is
    its most recently used entry's (its own modification time when it holds none)."""
    import shutil

    last_use: dict[str, float] = {}
    for folder in _build_folders(root):
        if folder.name != identity:  # another run of this build may have made it meanwhile: never removed
            with contextlib.suppress(OSError):
                last_use[folder.name] = folder.stat(follow_symlinks=False).st_mtime
    for used, _, build, _ in entries:
        if build in last_use:
            last_use[build] = max(used, last_use[build])
    now = time.time()
    by_recency = sorted(last_use, key=last_use.__getitem__, reverse=True)
    gone = {build for rank, build in enumerate(by_recency)
            if rank >= BUILDS_KEPT - 1 or now - last_use[build] > _UNUSED_BUILD_SECONDS}
    for build in gone:
        shutil.rmtree(os.path.join(root, build), ignore_errors=True)
    return [e for e in entries if e[2] not in gone]


def _prune(entries: list[_Entry], max_bytes: int) -> int:
    """Remove the least recently used entries until they hold less than three quarters of `max_bytes`,
    if they hold more than `max_bytes`; the bytes freed. Entries another run is reading may go: that run
    misses them and computes them again."""
    total = sum(size for _, size, _, _ in entries)
    if total <= max_bytes:
        return 0
    freed = 0
    for _, size, _, path in sorted(entries):
        if total - freed < max_bytes * 3 // 4:
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
            freed += size
    return freed


def _build_folders(root: str) -> list[os.DirEntry[str]]:
    """The folders of builds' entries in the cache folder: only names crdtool makes (a cache folder set
    to a folder holding other things loses none of them)."""
    with os.scandir(root) as listing:
        return [entry for entry in listing
                if entry.is_dir(follow_symlinks=False) and _IDENTITY.fullmatch(entry.name)]


def disabled() -> Cache:
    """A cache that stores nothing (--no-cache, the settings' `cache: false`)."""
    return Cache(None)


def clean(root: str | os.PathLike[str] | None = None) -> tuple[str, int]:
    """Remove every entry and the folder itself when nothing else is left in it; its path and the
    bytes freed."""
    import shutil

    root = os.fspath(root) if root is not None else cache_directory()
    freed = 0
    if not os.path.isdir(root):
        return root, freed
    for folder in _build_folders(root):
        for top, _, files in os.walk(folder.path):
            for name in files:
                path = os.path.join(top, name)
                if not os.path.islink(path):
                    freed += os.stat(path).st_size
        shutil.rmtree(folder.path)
    tag = os.path.join(root, "CACHEDIR.TAG")
    if os.path.isfile(tag):
        freed += os.stat(tag).st_size
        os.unlink(tag)
    with contextlib.suppress(OSError):
        os.rmdir(root)
    return root, freed
