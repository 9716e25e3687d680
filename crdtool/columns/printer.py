"""kubectl get's human-readable printing of server-side Tables.

What kubectl does with a Table: priority > 0 columns only with `-o wide`, a NAMESPACE
column first with `-A` (namespaced kinds only), `kind.group/name` names when several
kinds are shown, upper-cased headers, cells cut at the first line break (then `...`),
ESC shown as `^[`, and a tabwriter (minimum width 6, padding 3) that aligns the columns
of each kind's table; tables of several kinds are separated by a blank line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.columns.table import Table
from crdtool.model.gofmt import go_value

MIN_WIDTH, PADDING = 6, 3
_BREAK_CHARS = "\f\n\r"


@dataclass(frozen=True)
class PrintOptions:
    wide: bool = False
    no_headers: bool = False
    all_namespaces: bool = False
    with_kind: bool = False


def cell_text(cell: Any) -> str:
    """fmt.Sprint of a cell as kubectl decoded it from the Table's JSON (integral numbers as int64)."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, float) and cell.is_integer() and abs(cell) < 1e21:
        return str(int(cell))
    return go_value(cell)


def _display(text: str) -> str:
    """The cell as written to the terminal: cut at a line break, ESC made visible."""
    cut = min((i for i in (text.find(c) for c in _BREAK_CHARS) if i >= 0), default=-1)
    if cut >= 0:
        return text[:cut].replace("\x1b", "^[") + "..."
    return text.replace("\x1b", "^[")


def render_table(table: Table, options: PrintOptions) -> str:
    """One kind's table as kubectl prints it ('' when there are no rows)."""
    if not table.rows:
        return ""
    columns = list(table.columns)
    rows = [list(r.cells) for r in table.rows]
    with_namespace = options.all_namespaces and table.namespaced
    if options.with_kind:
        prefix = f"{table.kind}.{table.group}".lower() if table.group else table.kind.lower()
        for row in rows:
            row[0] = f"{prefix}/{cell_text(row[0])}"
    names = [c.name for c in columns]
    if with_namespace:
        names.insert(0, "Namespace")
        visible_priority = [0, *(c.priority for c in columns)]
        for row, source in zip(rows, table.rows, strict=True):
            meta = v if isinstance(v := source.obj.get("metadata"), dict) else {}
            row.insert(0, meta.get("namespace") or "")
    else:
        visible_priority = [c.priority for c in columns]
    visible = [i for i, p in enumerate(visible_priority) if options.wide or p == 0]
    texts = [[cell_text(row[i]) if i < len(row) else "" for i in visible] for row in rows]
    # kubectl pads the header (or, without headers, the first row) to each column's widest cell in
    # bytes, then lets the tabwriter align in characters.
    widest = [max(len(t[k].encode()) for t in texts) for k in range(len(visible))]
    lines: list[list[str]] = []
    last = len(visible) - 1
    if not options.no_headers:
        header = [names[i].upper() for i in visible]
        lines.append([h + " " * (widest[k] - len(h.encode())) if k != last else h for k, h in enumerate(header)])
    for n, row_texts in enumerate(texts):
        cells = [_display(t) for t in row_texts]
        if options.no_headers and n == 0:
            cells = [c + " " * max(0, widest[k] - len(row_texts[k].encode())) if k != last else c
                     for k, c in enumerate(cells)]
        lines.append(cells)
    return _tabwriter(lines)


def _tabwriter(lines: list[list[str]]) -> str:
    """Go's tabwriter over tab-separated cells: every cell but a line's last is padded to its
    column's width, the widest cell plus the padding, at least the minimum width."""
    widths: list[int] = []
    for cells in lines:
        for k, cell in enumerate(cells[:-1]):
            width = max(MIN_WIDTH, len(cell) + PADDING)
            if k == len(widths):
                widths.append(width)
            elif width > widths[k]:
                widths[k] = width
    out = []
    for cells in lines:
        padded = [cell + " " * (widths[k] - len(cell)) for k, cell in enumerate(cells[:-1])]
        out.append("".join(padded) + (cells[-1] if cells else "") + "\n")
    return "".join(out)


def render(tables: list[Table], options: PrintOptions) -> str:
    """Several kinds' tables, each aligned on its own, a blank line between them (with headers)."""
    out: list[str] = []
    written = False
    for table in tables:
        text = render_table(table, options)
        if text and written and not options.no_headers:
            out.append("\n")
        if text:
            written = True
        out.append(text)
    return "".join(out)
