"""Inputs as users name them: files, folders (recursively), `-` for stdin."""

from __future__ import annotations

import gc
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, BinaryIO, NamedTuple, Protocol

from yaml.nodes import Node

from crdtool.errors import InputError
from crdtool.load.document import Document, DuplicateKey, Locator
from crdtool.load.yamlreader import YAMLInputError, compose_documents, node_locator, read_json, read_yaml_stream
from crdtool.model.gounquote import replace_lone_surrogate_escapes
from crdtool.model.path import Segment

EXTENSIONS = (".yaml", ".yml", ".json")
MAX_INPUT_BYTES = 256 * 1024 * 1024


#: Told about each entry a folder walk passes over: (path, why).
Skipped = Callable[[str, str], None]

_SPECIAL_FILES = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"))


def warn_skipped(path: str, why: str) -> None:
    """The default report of a skipped entry: a warning on stderr (a walk never passes over anything silently)."""
    sys.stderr.write(f"{path}: warning: skipped: {why}\n")


def expand_paths(paths: Iterable[str], skipped: Skipped = warn_skipped) -> Iterator[str]:
    """Files as given, folders walked recursively for *.yaml, *.yml and *.json in name order.

    A file named on the command line is read whatever it is (a FIFO like stdin); in a folder,
    only regular files are read (a FIFO would block the walk forever) and anything else, like
    a subfolder that cannot be listed, is reported to `skipped`.
    """
    for path in paths:
        if path == "-":
            yield path
        elif os.path.isdir(path):
            yield from _walk(path, skipped)
        elif os.path.exists(path):
            yield path
        else:
            raise InputError(path, "no such file or directory")


def _walk(top: str, skipped: Skipped) -> list[str]:
    def unreadable(err: OSError) -> None:
        where = err.filename if isinstance(err.filename, str) else top
        if where == top:
            raise InputError(top, f"cannot read the folder: {err.strerror or err}")
        skipped(where, f"the folder cannot be read ({err.strerror or err})")

    found = []
    for folder, dirs, files in os.walk(top, onerror=unreadable):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if not name.endswith(EXTENSIONS):
                continue
            path = os.path.join(folder, name)
            special = _special_file(path)
            if special is None:
                found.append(path)
            else:
                skipped(path, f"not a regular file ({special})")
    return sorted(found)


def _special_file(path: str) -> str | None:
    """What a path is when it is not a regular file (None for a regular file, or one that cannot be
    stat'ed: reading it reports why)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _SPECIAL_FILES if test(mode)), "not a file")


def read_text(path: str) -> str:
    """The text of a file (or stdin for `-`), within the size limit, as UTF-8."""
    try:
        if path == "-":
            raw = _read_at_most(sys.stdin.buffer, MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = _read_at_most(f, MAX_INPUT_BYTES + 1)
    except OSError as err:
        raise InputError(path, err.strerror or str(err)) from None
    return decode_input(raw, path)


#: How much a read of a stream whose size is unknown (a pipe, stdin) asks for at a time.
_CHUNK = 1024 * 1024


def _read_at_most(f: BinaryIO, limit: int) -> bytes:
    """`f` to its end, or its first `limit` bytes. One read of `limit` bytes would allocate that much
    (256 MiB) for every file, whatever its size, some 50 µs each: a regular file is asked for its size
    and a byte more (to see whether it grew meanwhile), a pipe for a chunk at a time."""
    try:
        size = os.fstat(f.fileno()).st_size
    except (OSError, ValueError):  # no file descriptor (a test's stdin)
        size = 0
    want = min(size + 1, limit) if size else min(_CHUNK, limit)
    parts: list[bytes] = []
    total = 0
    while True:
        part = f.read(want)
        parts.append(part)
        total += len(part)
        if len(part) < want or total >= limit:  # a short read is the end of the stream
            return b"".join(parts) if len(parts) > 1 else part
        want = min(_CHUNK, limit - total)


def decode_input(raw: bytes, name: str) -> str:
    """An input's bytes as text: within the size limit, UTF-8, a byte order mark dropped."""
    if len(raw) > MAX_INPUT_BYTES:
        raise InputError(name, f"input larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(name, f"not valid UTF-8 (byte 0x{raw[err.start]:02x}); YAML and JSON inputs must be UTF-8",
                         line, column) from None


def read_source(path: str, text: str | None = None, keep_nodes: bool = False) -> list[Document]:
    """The documents of one input; `kind: List` items become documents of their own.

    Empty documents are skipped, as kubectl skips them. `keep_nodes`: a YAML input's node trees are
    kept with its documents rather than composed again when needed (for a file --write or a diff
    edits: composing 10 MB again takes a second; kept otherwise, they would take ten times the
    memory of the values for the whole run).
    """
    return documents_of(read_parts(path, text, keep_nodes))


class SourceParts(NamedTuple):
    """What reading one input gives, in a form that crosses a process boundary (a worker reads, the
    parent keeps the documents): the name shown, the text, whether it is read as JSON, and each
    document's (index in the stream, value, duplicate keys). Positions are not carried: they are
    composed again from the text, only if a finding needs one (or kept, `nodes`, when the reader was
    asked to keep them: never by a worker)."""

    display: str
    text: str
    json: bool
    documents: list[tuple[int, Any, list[DuplicateKey]]]
    nodes: list[Node | None] | None = None


def read_parts(path: str, text: str | None = None, keep_nodes: bool = False) -> SourceParts:
    """One input read (see `read_source`); InputError if it cannot be, also where it is too large for
    the memory the process may use (named, and its nodes freed before the run goes on)."""
    try:
        return _read_parts(path, text, keep_nodes)
    except MemoryError:
        pass
    raise InputError("<stdin>" if path == "-" else path, "input too large to process")


def _read_parts(path: str, text: str | None, keep_nodes: bool) -> SourceParts:
    if text is None:
        text = read_text(path)
    display = "<stdin>" if path == "-" else path
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data, duplicates = read_json(text)
        except ValueError:
            pass
        except YAMLInputError as err:
            raise InputError(display, err.message, err.line, err.column) from None
        else:
            if not isinstance(data, dict):
                raise InputError(display, f"a Kubernetes object must be a mapping, but the document is "
                                 f"{_json_kind(data)}", 1, 1)
            return SourceParts(display, text, True, [(0, data, duplicates)])
    try:
        stream = read_yaml_stream(text)
    except YAMLInputError as err:
        raise InputError(display, err.message, err.line, err.column) from None
    docs: list[tuple[int, Any, list[DuplicateKey]]] = []
    for index, (data, node, duplicates) in enumerate(stream):
        if data is None:
            continue
        if not isinstance(data, dict):
            mark = node.start_mark if node is not None else None
            raise InputError(display, f"a Kubernetes object must be a mapping, but document {index} is "
                             f"{_json_kind(data)}", mark.line + 1 if mark else None,
                             mark.column + 1 if mark else None)
        docs.append((index, data, duplicates))
    return SourceParts(display, text, False, docs, [node for _, node, _ in stream] if keep_nodes else None)


def documents_of(parts: SourceParts) -> list[Document]:
    """The Documents of an input read, each locating its nodes (composed again when first asked)."""
    text = parts.text
    if parts.json:
        # positions come from the structure alone: escaped surrogates (lone or paired) read as one character
        structure = replace_lone_surrogate_escapes(text, keep_pairs=False)
        return [d for index, data, duplicates in parts.documents
                for d in _expand(Document(parts.display, index, data, text, _lazy_locator(structure),
                                          duplicate_keys=duplicates))]
    nodes = StreamNodes(text, parts.nodes)
    return [d for index, data, duplicates in parts.documents
            for d in _expand(Document(parts.display, index, data, text, nodes.locator(index),
                                      duplicate_keys=duplicates, stream_nodes=nodes.all))]


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string"


class StreamNodes:
    """The node trees of a YAML stream, composed again only if a finding needs a position or an edit
    its layout (unless kept from the reading): the trees of a large input take ten times the memory
    of its values, and most documents have no finding."""

    def __init__(self, text: str, nodes: list[Node | None] | None = None) -> None:
        self.text = text
        self.nodes = nodes

    def all(self) -> list[Node | None]:
        """The root node of every document of the stream (None for an empty one)."""
        if self.nodes is None:
            with without_cyclic_gc():
                self.nodes = compose_documents(self.text)
        return self.nodes

    def locator(self, index: int) -> Locator:
        found: list[Locator] = []  # the document's node_locator, made once: it indexes each mapping it searches

        def locate(segments: tuple[Segment, ...]) -> tuple[int, int] | None:
            if not found:
                nodes = self.all()
                found.append(node_locator(nodes[index] if index < len(nodes) else None))
            return found[0](segments)

        return locate


def _lazy_locator(text: str) -> Locator:
    """Positions for a JSON document, computed only if a finding needs one."""
    cache: dict[str, Locator] = {}

    def locate(segments: tuple[Segment, ...]) -> tuple[int, int] | None:
        if "f" not in cache:
            try:
                nodes = read_yaml_stream(text)
                cache["f"] = node_locator(nodes[0][1] if nodes else None)
            except YAMLInputError:
                cache["f"] = lambda _segments: None
        return cache["f"](segments)

    return locate


def _expand(doc: Document) -> list[Document]:
    data = doc.data
    if isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list):
        return [Document(doc.source, doc.index, item, doc.text, doc.locator, i, doc.duplicate_keys, doc.stream_nodes)
                for i, item in enumerate(data["items"])]
    return [doc]


def list_items_error(data: Any) -> str | None:
    """kubectl's decoding error for a `kind: List` whose `items` is not a list (nor null): its
    unstructured decoder reads `items` into []json.RawMessage (apimachinery unstructured helpers.go
    decodeToList), so such a document never becomes objects. None for any other document."""
    from crdtool.model.gofmt import go_json_kind

    if not isinstance(data, dict) or data.get("kind") != "List" or data.get("items") is None:
        return None
    items = data["items"]
    if isinstance(items, list):
        return None
    return (f"json: cannot unmarshal {go_json_kind(items)} into Go struct field decodeList.items of type "
            "[]json.RawMessage")


def refuse_unsupported_values(doc: Document) -> None:
    """kubectl's reading of an object that holds `.nan` or `.inf`: sigs.k8s.io/yaml cannot write it as
    JSON, so the file is not read (an InputError at the value). A CRD's lint decides its own (engine.lint)."""
    from crdtool.model.gofmt import json_unsupported_value

    unsupported = json_unsupported_value(doc.data)
    if unsupported is not None:
        path, text = unsupported
        raise InputError(doc.source, f"error converting YAML to JSON: json: unsupported value: {text}",
                         *(doc.locate(path) or (None, None)))


@contextmanager
def without_cyclic_gc() -> Iterator[None]:
    """Build document trees with the cyclic garbage collector paused, then freeze them.

    Millions of freshly made nodes and values make every collection rescan all of them
    (measured: 10.5 s instead of 1.7 s to read the 39 MB corpus); the trees hold no
    cycles, so they are moved out of the collector's sight once built.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


#: An InputError as it crosses a process boundary (a worker's reading), raised again in input order
#: (`InputError(*fields)`).
ErrorFields = tuple[str, str, int | None, int | None]

#: Runs `work` on every item, in worker processes, and gives the outputs in the items' order.
MapInWorkers = Callable[[list[Any], Callable[[Any], Any]], list[Any]]

#: The bytes of the files a worker is handed at a time (a larger file alone).
BATCH_BYTES = 128 * 1024


class KnownFiles(Protocol):
    """Files whose documents may be known without reading them (load.cached: the persistent cache)."""

    def documents(self, path: str) -> list[Document] | None:
        """The file's documents, or None: it must be read."""

    def learn(self, parts: SourceParts, docs: list[Document]) -> None:
        """A file read by a worker, with its documents: known next time."""


def load_inputs(paths: Iterable[str], skipped: Skipped = warn_skipped,
                read: Callable[[str], list[Document]] = read_source,
                in_workers: MapInWorkers | None = None) -> list[Document]:
    """Every document of every input, in order; InputError on the first unreadable one.

    A file named on the command line that holds no object is an error (as `kubectl
    apply -f` says "no objects passed"); empty files met while walking a folder are skipped.
    What a folder walk passes over (not a regular file, a subfolder that cannot be read)
    is told to `skipped`. `read` reads one file (load.cached reads through the cache). With
    `in_workers` (`--jobs`), the files are read in worker processes (load_in_workers).
    """
    if in_workers is not None:
        return load_in_workers([(paths, None)], in_workers, skipped)[0]
    docs: list[Document] = []
    with without_cyclic_gc():
        for given in paths:
            for path in expand_paths([given], skipped):
                found = read(path)
                if not found and path == given:
                    raise InputError("<stdin>" if path == "-" else path, "no objects found (the input is empty)")
                docs.extend(found)
    return docs


#: One file of a list, as load_in_workers has it: its documents (known), its parts (read), or its error.
_Found = SourceParts | list[Document] | ErrorFields


class _Listed(NamedTuple):
    """One list of inputs, walked: its files (given, path), what the walk passed over, and the
    error that stopped the walk."""

    files: list[tuple[str, str]]
    passed_over: list[tuple[str, str]]
    stop: InputError | None


def load_in_workers(inputs: Sequence[tuple[Iterable[str], KnownFiles | None]], in_workers: MapInWorkers,
                    skipped: Skipped = warn_skipped) -> list[list[Document]]:
    """load_inputs of several lists of inputs (the objects, the CRDs), their files read by one set
    of workers: each list's documents, the same and in the same order as one process reads them.

    Files that a list's `known` holds are not read (they are learned from the workers' reading);
    stdin is read here. The lists are answered in order: each one's walk warnings, then its first
    error in input order (a file that cannot be read, else the path that cannot be walked), before
    anything of the next list."""
    with without_cyclic_gc():
        listed = [_walk_list(paths) for paths, _ in inputs]
        ready: dict[tuple[int, int], _Found] = {}
        unread: list[tuple[int, int]] = []
        for n, ((_, known), walked) in enumerate(zip(inputs, listed, strict=True)):
            for f, (_, path) in enumerate(walked.files):
                found: _Found | None
                try:
                    found = read_parts(path) if path == "-" else known.documents(path) if known else None
                except InputError as err:
                    found = _error_fields(err)
                if found is None:
                    unread.append((n, f))
                else:
                    ready[n, f] = found
        outputs = _read_files([listed[n].files[f][1] for n, f in unread], in_workers)
        ready.update(zip(unread, outputs, strict=True))
        return [_documents_of_list(n, walked, ready, inputs[n][1], skipped) for n, walked in enumerate(listed)]


def _walk_list(paths: Iterable[str]) -> _Listed:
    """The list's paths walked, what the walk passes over kept to be told in the list's turn."""
    passed_over: list[tuple[str, str]] = []
    files: list[tuple[str, str]] = []
    try:
        for given in paths:
            files.extend((given, path) for path in expand_paths([given], lambda *told: passed_over.append(told)))
    except InputError as err:
        return _Listed(files, passed_over, err)
    return _Listed(files, passed_over, None)


def _documents_of_list(n: int, walked: _Listed, ready: dict[tuple[int, int], _Found], known: KnownFiles | None,
                       skipped: Skipped) -> list[Document]:
    """List `n`'s documents, in input order: its files' documents known or read (those read are
    learned), after its walk's warnings; its first error raised."""
    for path, why in walked.passed_over:
        skipped(path, why)
    docs: list[Document] = []
    for f, (given, path) in enumerate(walked.files):
        found = ready[n, f]
        if isinstance(found, tuple) and not isinstance(found, SourceParts):
            raise InputError(*found)
        if isinstance(found, SourceParts):
            parts, found = found, documents_of(found)
            if known is not None:
                known.learn(parts, found)
        if not found and path == given:
            raise InputError("<stdin>" if path == "-" else path, "no objects found (the input is empty)")
        docs.extend(found)
    if walked.stop is not None:
        raise walked.stop
    return docs


def _read_files(paths: list[str], in_workers: MapInWorkers) -> list[Any]:
    """Each file's `_read_in_worker` output, in order. The workers are handed the largest files
    first, so that they finish together, and small files together (batches of about BATCH_BYTES), so
    that a worker does not spend more time on the exchange with this process than on the reading."""
    if len(paths) < 2:
        return [_read_in_worker(path) for path in paths]
    sizes = [_size(path) for path in paths]
    batches: list[list[int]] = []
    batch_bytes = BATCH_BYTES
    for i in sorted(range(len(paths)), key=lambda i: -sizes[i]):
        if batch_bytes >= BATCH_BYTES:
            batches.append([])
            batch_bytes = 0
        batches[-1].append(i)
        batch_bytes += sizes[i]
    outputs: list[Any] = [None] * len(paths)
    read = in_workers([tuple(paths[i] for i in batch) for batch in batches], _read_batch_in_worker)
    for batch, batch_outputs in zip(batches, read, strict=True):
        for i, output in zip(batch, batch_outputs, strict=True):
            outputs[i] = output
    return outputs


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _read_batch_in_worker(paths: tuple[str, ...]) -> list[SourceParts | ErrorFields]:
    return [_read_in_worker(path) for path in paths]


def _read_in_worker(path: str) -> SourceParts | ErrorFields:
    """A worker's reading of one file: its parts, or the InputError's fields (raised by the parent in
    input order)."""
    try:
        with without_cyclic_gc():
            return read_parts(path)
    except InputError as err:
        return _error_fields(err)


def _error_fields(err: InputError) -> ErrorFields:
    return err.source, err.message, err.line, err.column
