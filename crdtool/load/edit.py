"""The new text of a YAML or JSON file whose documents change value: what `--write` writes and the
diff shows.

Only what changes is rewritten: a removed field's lines are cut out, a new field's lines are put
after its mapping's last entry, a changed value is written over the old one. Everything else (comments,
quoting, key order, indentation, blank lines, each line's own line ending, `---` and `%YAML` lines)
stays byte for byte, and the work is proportional to the change, not to the file. New lines end
like the file's first line (as Black and Prettier's `endOfLine: auto` do), with LF for a file of one
line; a file without a final line break keeps going without one.

The edits are placed with the node trees the file's reading kept (composed again otherwise). The
result is read back and compared with the values asked for: only the changed documents where the
`---` lines tell the documents apart (load.stretches), the whole text otherwise (values of unchanged
documents are made only then); a document whose every edit appends entries to block mappings reads
as asked without it (load.appends: what `default` does to most files). A document whose change cannot be
made in place (it goes through a YAML alias or merge key, or a block scalar that keeps its trailing
blank lines) is written whole instead, which loses the comments inside it; a text that still does
not read back as asked is an EditError, never a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode

from crdtool.load import fragments
from crdtool.load.appends import AppendReader, begins_entry, deepest_first, ends_cleanly
from crdtool.load.gotyping import key_string
from crdtool.load.sources import without_cyclic_gc
from crdtool.load.stretches import Stretches, runs
from crdtool.load.yamlreader import YAMLInputError, compose_documents, construct, read_json, scalar_value
from crdtool.model.gounquote import replace_lone_surrogate_escapes
from crdtool.model.jsonvalue import deep_equal, same_reading
from crdtool.model.path import Segment

Key = int | tuple[int, int]
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_KEY_ONLY_LINE = re.compile(r"[^#\s-][^#]*:\s*(#.*)?\Z")


class EditError(Exception):
    """A change crdtool cannot write into the file faithfully (the caller names the file in an InputError)."""


class _Whole(Exception):
    """This document's change cannot be made in place: write the document whole."""


@dataclass(frozen=True, slots=True)
class _Edit:
    start: int
    end: int
    text: str


#: A stretch of the old text, [start, end), that became [new_start, new_end) of the new text; the diff
#: of a large file looks only at these (comparing all of its lines would take minutes).
Change = tuple[int, int, int, int]


def json_value(text: str) -> tuple[bool, Any]:
    """(True, value) for a file crdtool reads as one JSON document, else (False, None)."""
    if not text.lstrip().startswith("{"):
        return False, None
    try:
        return True, read_json(text)[0]
    except ValueError:
        return False, None


def edit_text(text: str, targets: dict[Key, tuple[Any, Any]]) -> str:
    """`text` with documents changed from their value as read to a new one: `targets` maps a document's
    index, or (index, item) for an item of a `kind: List`, to (as read, new value)."""
    return edit_file(text, targets)[0]


def edit_file(text: str, targets: dict[Key, tuple[Any, Any]],
              nodes: list[Node | None] | None = None) -> tuple[str, list[Change]]:
    """The new text as `edit_text` makes it, and the stretches of the old text it replaced, in order.
    `nodes`: the root nodes of the YAML text's documents, when its reading kept them."""
    source = _Source(text, nodes)
    expected: dict[int, Any] = {}  # each changed document's new value
    plans: dict[int, list[tuple[tuple[Segment, ...], Any, Any]]] = {}
    for key, (before, after) in targets.items():
        index, path = (key, ()) if isinstance(key, int) else (key[0], ("items", key[1]))
        if not 0 <= index < len(source.nodes):
            raise EditError(f"the file no longer has document {index}")
        if path:
            listed = expected[index] if index in expected else source.value(index)
            expected[index] = {**listed, "items": list(listed["items"])}
            expected[index]["items"][path[1]] = after
        else:
            expected[index] = after
        plans.setdefault(index, []).append((path, before, after))
    whole: set[int] = set()
    while True:
        edits: list[_Edit] = []
        appended: set[int] = set()  # documents that read as asked without a read-back (load.appends)
        for index, planned in plans.items():
            document, appends_only = source.document_edits(index, planned, expected[index], index in whole)
            edits.extend(document)
            if appends_only:
                appended.add(index)
        try:
            new, changes = _apply(text, edits)
        except _Whole:
            new, changes = None, []
        got = source.read_back(new, changes, set(plans) - appended, appended) if new is not None else None
        if got is not None:
            wrong = {i for i, value in got.items()
                     if not same_reading(value, expected[i] if i in expected else source.value(i))}
        else:
            wrong = set(plans)
        if not wrong:
            return new, changes  # type: ignore[return-value]
        if wrong <= whole or not wrong <= set(plans):
            raise EditError("the change cannot be written into the file as it is written")
        whole |= wrong


def _apply(text: str, edits: list[_Edit]) -> tuple[str, list[Change]]:
    """The text with the edits made, and the stretches they replaced; edits at one place keep the order
    they were made in."""
    out: list[str] = []
    changes: list[Change] = []
    done = 0
    shift = 0  # how much longer the new text is than the old, before `done`
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < done:
            raise _Whole
        out.append(text[done:edit.start])
        out.append(edit.text)
        changes.append((edit.start, edit.end, edit.start + shift, edit.start + shift + len(edit.text)))
        shift += len(edit.text) - (edit.end - edit.start)
        done = edit.end
    out.append(text[done:])
    return "".join(out), changes


def _style(text: str) -> fragments.Style:
    """The file's indentation: the first nested mapping's step and the first block sequence's dash."""
    step = dash = None
    key_indent = None
    for line in text.splitlines():
        body = line.lstrip(" ")
        if not body.strip() or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if key_indent is not None and indent >= key_indent:
            if body.startswith("- ") or body.rstrip() == "-":
                dash = indent - key_indent if dash is None else dash
            elif indent > key_indent and step is None:
                step = indent - key_indent
        if step is not None and dash is not None:
            break
        key_indent = indent if _KEY_ONLY_LINE.match(body.rstrip()) else None
    return fragments.Style(step=step or 2, dash=dash or 0)


class _Source:
    """The file as read: its documents' nodes and values, and how it writes lines."""

    def __init__(self, text: str, nodes: list[Node | None] | None = None) -> None:
        self.text = text
        self.is_json, value = json_value(text)
        self._read: dict[int, Any] = {0: value} if self.is_json else {}
        if nodes is None or self.is_json:
            # a JSON file's layout from its structure alone: escaped surrogates (lone or paired) keep their offsets
            structure = replace_lone_surrogate_escapes(text, keep_pairs=False) if self.is_json else text
            try:
                with without_cyclic_gc():  # a large file's millions of nodes, as when it was read
                    nodes = compose_documents(structure)
            except YAMLInputError as err:
                raise EditError(f"cannot read the file's layout: {err.message}") from None
        self.nodes: list[Node | None] = nodes
        self.merge_keys = "<<" in text  # whether a mapping may hold a merge key, as when the text was read
        self.stretches = None if self.is_json else Stretches.of(text, nodes)  # what a read-back may read alone
        self.appends = AppendReader() if self.stretches is not None and not self.merge_keys else None
        if self.is_json and len(nodes) != 1:
            raise EditError("cannot read the file's layout as YAML")
        m = _LINE_BREAK.search(text)
        self.eol = m.group() if m else "\n"
        self.style = _style(text)

    def value(self, index: int) -> Any:
        """Document `index`'s value as read (made when first asked: a changed document's is not needed)."""
        if index not in self._read:
            node = self.nodes[index]
            with without_cyclic_gc():
                self._read[index] = None if node is None else construct(node, [], merge_keys=self.merge_keys)
        return self._read[index]

    def read_back(self, text: str, changes: list[Change], wanted: set[int],
                  appended: set[int]) -> dict[int, Any] | None:
        """The values in a new text, made by `changes`, of the documents `wanted`, and of any other
        that may read differently but those `appended` (known to read as asked, load.appends); None
        when the text does not read as as many documents as the old one. Only the changed documents
        are read where the `---` lines tell the documents apart (load.stretches)."""
        if self.is_json:
            is_json, value = json_value(text)
            return {0: value} if is_json else None
        with without_cyclic_gc():
            if self.stretches is not None:
                values = self.stretches.read_back(text, changes, wanted, appended)
                if values is not None:
                    return values
            try:
                read = _values(compose_documents(text), text)
            except YAMLInputError:
                return None
        return dict(enumerate(read)) if len(read) == len(self.nodes) else None

    def document_edits(self, index: int, changes: list[tuple[tuple[Segment, ...], Any, Any]], expected: Any,
                       whole: bool) -> tuple[list[_Edit], bool]:
        """The document's edits, and whether they need no read-back: all append entries as
        load.appends allows (the changes' old values being the document as read)."""
        root = self.nodes[index]
        if root is None:
            raise EditError(f"document {index} is empty")
        if not whole:
            editor = _Editor(self, root)
            try:
                for path, before, after in changes:
                    editor.change(editor.descend(root, path), before, after)
                return editor.edits, len(editor.appended) == len(editor.edits) and deepest_first(editor.appended)
            except _Whole:
                pass
        return [_Editor(self, root, checked=False).whole(root, expected)], False


class _Editor:
    """The edits that turn one document's nodes into a new value."""

    def __init__(self, source: _Source, root: Node, checked: bool = True) -> None:
        self.source = source
        self.text = source.text
        self.edits: list[_Edit] = []
        #: (place, column) of each edit that appends entries to a block mapping as load.appends allows
        self.appended: list[tuple[int, int]] = []
        self.shared = _shared_nodes(root) if checked and _may_share_nodes(self.text, root) else set()

    # ------------------------------------------------------------------ walking

    def descend(self, node: Node, path: tuple[Segment, ...]) -> Node:
        for step in path:
            if isinstance(step, int) and isinstance(node, SequenceNode) and step < len(node.value):
                node = node.value[step]
            elif isinstance(step, str) and isinstance(node, MappingNode) and self._own(node).get(step):
                node = node.value[self._own(node)[step][-1]][1]
            else:
                raise _Whole
            if id(node) in self.shared:
                raise _Whole
        return node

    def change(self, node: Node, before: Any, after: Any, key: Node | None = None) -> None:
        """Edit `node`, read as `before`, into `after`; `key` is its key in a block mapping. What is
        unchanged is left at once: most of a document is, and reading its keys again is not cheap."""
        if before == after and same_reading(before, after):  # `==` first, at C's speed: it is never stricter
            return
        if id(node) in self.shared:
            raise _Whole
        if isinstance(node, MappingNode) and isinstance(before, dict) and isinstance(after, dict):
            self._mapping(node, before, after)
        elif (isinstance(node, SequenceNode) and isinstance(before, list) and isinstance(after, list)
              and len(before) == len(after) == len(node.value)):
            for item, b, a in zip(node.value, before, after, strict=True):
                self.change(item, b, a)
        else:
            self._replace(node, after, key)

    @staticmethod
    def _own(node: MappingNode) -> dict[str, list[int]]:
        """Each key written in the mapping itself, with the indexes of its entries (more than one
        for a duplicated key: the last is the one read)."""
        own: dict[str, list[int]] = {}
        for i, (k, _) in enumerate(node.value):
            key = key_string(scalar_value(k)) if isinstance(k, ScalarNode) else None
            if key is not None:
                own.setdefault(key, []).append(i)
        return own

    def _mapping(self, node: MappingNode, before: dict[str, Any], after: dict[str, Any]) -> None:
        own = self._own(node)
        removed: set[int] = set()
        for key in before:
            if key not in after:
                if key not in own:
                    raise _Whole  # it comes from a merge key
                removed.update(own[key])
        added = {k: v for k, v in after.items() if k not in before}
        if len(removed) == len(node.value):
            if removed or added:
                self._replace(node, after)
            return
        for key, value in after.items():
            if key in before:
                if key in own:
                    pair = node.value[own[key][-1]]
                    self.change(pair[1], before[key], value, None if node.flow_style else pair[0])
                elif not deep_equal(before[key], value):
                    raise _Whole
        for run in runs(sorted(removed)):
            self._delete(node, run)
        if added:
            self._insert(node, added)

    # ------------------------------------------------------------------ positions

    def _end(self, node: Node) -> int:
        """Where a node's text ends: after its last character, not after the blank lines, comments
        and indentation that follow it."""
        while True:
            if id(node) in self.shared:
                raise _Whole
            if isinstance(node, ScalarNode):
                start, end = node.start_mark.index, node.end_mark.index
                while end > start and self.text[end - 1] in " \t\r\n":
                    end -= 1
                if node.style in ("|", ">") and self.text[end:node.end_mark.index].count("\n") > 1 and "+" in (
                        self.text[start:self._line_end(start)]):
                    raise _Whole  # `|+` keeps its trailing blank lines: nothing goes between them
                return end
            assert isinstance(node, CollectionNode)  # a sequence or a mapping
            if node.flow_style or not node.value:
                return node.end_mark.index
            node = node.value[-1][1] if isinstance(node, MappingNode) else node.value[-1]

    def _line_start(self, index: int) -> int:
        newline = self.text.rfind("\n", 0, index)
        return max(newline, self.text.rfind("\r", newline + 1, index)) + 1  # a lone CR's, after the last LF

    def _line_end(self, index: int) -> int:
        """Just after the line break that ends the line holding `index` (the text's end if none)."""
        m = _LINE_BREAK.search(self.text, index)
        return m.end() if m else len(self.text)

    def _block_start(self, node: Node) -> int:
        """Where a block collection's own text starts: its first key, or its first dash (after any
        anchor or tag written before it)."""
        if isinstance(node, MappingNode):
            first_key: Node = node.value[0][0]
            return first_key.start_mark.index
        first: int = node.value[0].start_mark.index
        dash = self.text.rfind("-", node.start_mark.index, first)
        return dash if dash >= 0 else first

    def _column(self, index: int) -> int:
        return index - self._line_start(index)

    def _indent(self, index: int) -> int:
        """The spaces that begin the line holding `index`."""
        line = self._line_start(index)
        return len(self.text[line:index]) - len(self.text[line:index].lstrip(" "))

    # ------------------------------------------------------------------ edits

    def _lines(self, lines: list[str], column: int) -> str:
        """Lines joined with the file's line break, each after the first indented to `column`."""
        return (self.source.eol + " " * column).join(lines)

    def _delete(self, node: MappingNode, run: tuple[int, int]) -> None:
        """Cut out the entries first..last of a mapping (not all of its entries)."""
        first, last = run
        pairs = node.value
        start = pairs[first][0].start_mark.index
        end = self._end(pairs[last][1])
        if node.flow_style:
            if last + 1 < len(pairs):
                self.edits.append(_Edit(start, pairs[last + 1][0].start_mark.index, ""))
            else:
                self.edits.append(_Edit(self._end(pairs[first - 1][1]), end, ""))
            return
        line = self._line_start(start)
        if self.text[line:start].strip():  # `- key: ...`: the next entry moves up
            if last + 1 == len(pairs):
                raise _Whole
            self.edits.append(_Edit(start, pairs[last + 1][0].start_mark.index, ""))
            return
        stop = self._line_end(end)
        if stop == len(self.text) and not self.text.endswith(("\n", "\r")) and line > 0:
            line -= 2 if self.text.startswith("\r\n", line - 2) else 1  # the file keeps ending without one
        self.edits.append(_Edit(line, stop, ""))

    def _insert(self, node: MappingNode, added: dict[str, Any]) -> None:
        """Put new entries after the mapping's last one."""
        pairs = node.value
        end = self._end(pairs[-1][1])
        eol = self.source.eol
        if node.flow_style:
            last_key = pairs[-1][0].start_mark.index
            multiline = "\n" in self.text[node.start_mark.index:last_key] or "\r" in self.text[
                node.start_mark.index:last_key]
            column = self._column(last_key)
            if self.source.is_json:
                step = max(1, column - self._indent(node.start_mark.index))
                items = [f"{fragments.json_text(k, None)}: {fragments.json_text(v, step if multiline else None)}"
                         for k, v in added.items()]
            else:
                items = [f"{fragments.scalar(k, True)}: {fragments.flow(v)}" for k, v in added.items()]
            if multiline:
                text = "".join("," + eol + " " * column + self._lines(item.split("\n"), column) for item in items)
            else:
                text = "".join(", " + item for item in items)
            self.edits.append(_Edit(end, end, text))
            return
        lines = [line for k, v in added.items() for line in fragments.entry_lines(k, v, self.source.style)]
        column = pairs[0][0].start_mark.column
        body = self._add_lines(end, lines, column)
        first_key = pairs[0][0].start_mark.index
        appends = self.source.appends
        if (appends is not None and begins_entry(self.text, self._line_start(first_key), first_key)
                and ends_cleanly(self.text, node) and appends.reads_as(body, column, added)):
            self.appended.append((self.edits[-1].start, column))

    def _add_lines(self, index: int, lines: list[str], column: int) -> str:
        """New lines, indented to `column`, after the line holding `index`; their text, without the
        line break that separates them from the file's."""
        at = self._line_end(index)
        body = " " * column + self._lines(lines, column)
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            self.edits.append(_Edit(at, at, self.source.eol + body))
        else:
            self.edits.append(_Edit(at, at, body + self.source.eol))
        return body

    def _replace(self, node: Node, value: Any, key: Node | None = None) -> None:
        """Write `value` in place of a node (the value of `key` in a block mapping, if given)."""
        text = self.text
        block = isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and bool(node.value)
        start = self._block_start(node) if block else node.start_mark.index
        end = self._end(node)
        colon = start
        while colon > 0 and text[colon - 1] in " \t":
            colon -= 1
        empty = isinstance(node, ScalarNode) or not node.value
        if (key is not None and empty and not self.source.is_json and isinstance(value, (dict, list)) and value
                and text[colon - 1:colon] == ":"):  # `key: {}` or `key: null` becomes `key:` and lines below
            self.edits.append(_Edit(colon, end, ""))
            self._add_lines(end, fragments.nested_lines(value, self.source.style), key.start_mark.column)
            return
        if self.source.is_json:
            multiline = "\n" in text[start:end] or "\r" in text[start:end]
            rendered = self._lines(fragments.json_text(value, 2 if multiline else None).split("\n"),
                                   self._indent(start))
        elif block and isinstance(value, (dict, list)) and value:
            rendered = self._lines(fragments.block_lines(value, self.source.style), self._column(start))
        else:
            rendered = fragments.flow(value)
            if block:  # `key:\n  a: 1` becomes `key: {}`, `-\n  - a` becomes `- 5`
                before = start
                while before > 0 and text[before - 1] in " \t\r\n":
                    before -= 1
                if before > 0 and text[before - 1] in ":-?":
                    start, rendered = before, " " + rendered
            elif start == end and start > 0 and text[start - 1] not in " \t\r\n":
                rendered = " " + rendered  # `key:` (null) becomes `key: value`
        self.edits.append(_Edit(start, end, rendered))

    def whole(self, root: Node, value: Any) -> _Edit:
        """The document's value written anew in place of its root node (comments before it kept)."""
        start = root.start_mark.index
        end = root.end_mark.index
        while end > start and self.text[end - 1] in " \t\r\n":
            end -= 1
        if self.source.is_json:
            return _Edit(start, end, self._lines(fragments.json_text(value, 2).split("\n"), 0))
        if isinstance(value, (dict, list)) and value:
            return _Edit(start, end, self._lines(fragments.block_lines(value, self.source.style), 0))
        return _Edit(start, end, fragments.flow(value))


def _values(nodes: list[Node | None], text: str) -> list[Any]:
    """The values of the documents of `text` as crdtool reads them (duplicate keys were reported when
    it did); a mapping is searched for merge keys only if the text has a `<<`, as when it was read."""
    merge_keys = "<<" in text
    return [None if node is None else construct(node, [], merge_keys=merge_keys) for node in nodes]


def _may_share_nodes(text: str, root: Node) -> bool:
    """Whether a document's nodes may be shared: only an alias shares one, and an alias needs an
    anchor (`&`) in the same document, so a document whose text has no `&` has none to look for."""
    return text.find("&", root.start_mark.index, root.end_mark.index) >= 0


def _shared_nodes(root: Node) -> set[int]:
    """The nodes that occur more than once in a document (an anchor and its aliases): their
    positions are those of the anchor, so no edit goes through them."""
    seen: set[int] = set()
    shared: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            shared.add(id(node))
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for k, v in node.value:
                stack.append(k)
                stack.append(v)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return shared
