"""When new entries put after a block mapping's last one need no read-back (load.edit).

`--write` reads the changed documents back to be sure they read as asked; for `default`, which
only adds fields, that reading was the largest part of a large file's write (1.8 s of 6.4 s for
10 MB). Entries appended to a block mapping change nothing else, by YAML's block structure:

- Mapping M's keys stand at one column c, and M's first key begins its entry (only spaces and
  `- ` before it on its line), so c is the indentation libyaml gives M.
- M's last character is where its last value (and that value's last value, down to a scalar or a
  flow collection) ends. That holds when each mapping on the way ends with a simple key: the value
  missing after an explicit key (`? k`) is placed by libyaml at the next token, which is not M's.
- The new lines go just after the line holding M's last character. What followed that line in
  the old text, up to the next token, is blank lines and comments (a token at a column >= c would
  have been M's), and that token stands at a column < c, or is a `---` line or the text's end.
- Lines at column c end whatever M's last value was, as they cannot continue it: a plain
  scalar continues only on deeper lines, a block scalar's content is deeper, a flow collection or
  quoted scalar is closed. A block scalar is the exception where its last line matters to its value:
  one that keeps its trailing blank lines (`|+`), one whose last line has no line break (the new
  lines would bring one), and one followed by lines of spaces (those deeper than its indentation are
  content): after these, a read-back decides.
- The new lines, all at column c or deeper, are read alone, and read as exactly the entries asked
  for: a mapping at column c. In the document they read the same, as new entries of M, because
  libyaml reads lines at column c and deeper alike in both places; and the token after them ends
  them as it ended M.
- Entries appended at one place go deepest first: each next mapping, at a smaller column, is
  still open there, since it ends at the same line.

So a document whose every edit is such an append reads as its old value with the new entries: the
value asked for, when the old value is the document as read. That needs the file's documents to be
told apart by their `---` lines (load.stretches: no directive, no `...`, only LF and CRLF line
breaks) and no merge key (`<<`), whose entries a mapping does not write.
"""

from __future__ import annotations

import re
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from crdtool.load.yamlreader import YAMLInputError, compose_documents, construct
from crdtool.model.jsonvalue import same_reading

__all__ = ["AppendReader", "begins_entry", "deepest_first", "ends_cleanly"]

#: Only indentation and sequence entries' dashes before a mapping's first key on its line.
_ENTRY_PREFIX = re.compile(r"[ ]*(?:-[ ]+)*")
#: A line that would open or end a document where the new lines are read alone.
_MARKER_LINE = re.compile(r"(?:\A|\n)(?:---|\.\.\.)(?=[ \t\r\n]|\Z)")


def begins_entry(text: str, line_start: int, key_start: int) -> bool:
    """Whether a mapping's first key, at `key_start`, is the first thing on its line but for
    indentation and `- ` dashes: then its column is the mapping's indentation."""
    return _ENTRY_PREFIX.fullmatch(text, line_start, key_start) is not None


def ends_cleanly(text: str, mapping: MappingNode) -> bool:
    """Whether new lines may follow the line where a block mapping's text ends: each mapping down its
    last values begins its last entry with a simple key, and a block scalar at the end is neither
    kept (`|+`) nor followed by anything but line breaks (one at least)."""
    node: Node = mapping
    while True:
        if isinstance(node, MappingNode) and not node.flow_style and node.value:
            key = node.value[-1][0]
            if not begins_entry(text, text.rfind("\n", 0, key.start_mark.index) + 1, key.start_mark.index):
                return False
            node = node.value[-1][1]
        elif isinstance(node, SequenceNode) and not node.flow_style and node.value:
            node = node.value[-1]
        elif isinstance(node, ScalarNode) and node.style in ("|", ">"):
            start, stop = node.start_mark.index, node.end_mark.index
            header_end = text.find("\n", start, stop)
            trailing = text[start + len(text[start:stop].rstrip(" \t\r\n")):stop]  # after its last visible character
            # Its last line ends with a line break, and only empty lines follow (spaces on a line
            # deeper than the content's indentation are content, which the new lines would cut off).
            return ("+" not in text[start:header_end if header_end >= 0 else stop]
                    and trailing.startswith(("\n", "\r\n")) and not trailing.strip("\r\n"))
        else:
            return True


def deepest_first(appends: list[tuple[int, int]]) -> bool:
    """Whether appends (place, column), in the order they are made, go deepest first at each place."""
    last: dict[int, int] = {}
    for place, column in appends:
        if place in last and column >= last[place]:
            return False
        last[place] = column
    return True


class AppendReader:
    """Reads new lines alone, each text once (a file's appends repeat: the same default is put
    into every object)."""

    def __init__(self) -> None:
        self._read: dict[str, Any] = {}

    def reads_as(self, lines: str, column: int, entries: dict[str, Any]) -> bool:
        """Whether `lines`, read alone, are exactly `entries` as a block mapping at `column`."""
        if lines not in self._read:
            self._read[lines] = self._mapping_at(lines, column)
        found = self._read[lines]
        return found is not None and found[0] == column and same_reading(found[1], entries)

    @staticmethod
    def _mapping_at(lines: str, column: int) -> tuple[int, Any] | None:
        """(column, value) of the one block mapping the lines read as; None for anything else."""
        if _MARKER_LINE.search(lines) or "<<" in lines:
            return None
        try:
            nodes = compose_documents(lines)
        except YAMLInputError:
            return None
        if len(nodes) != 1 or not isinstance(nodes[0], MappingNode) or nodes[0].flow_style or not nodes[0].value:
            return None
        root = nodes[0]
        first_key = root.value[0][0]
        if first_key.start_mark.index != column or not begins_entry(lines, 0, column):
            return None
        return column, construct(root, [], merge_keys=False)
