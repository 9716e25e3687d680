"""The apiserver's Table for custom resources: a CRD version's additionalPrinterColumns
evaluated on each object, as apiextensions-apiserver's table convertor does it.

The first column is always Name; a version without printer columns gets the default Age
column (`.metadata.creationTimestamp`, type date). Each cell is the first value the
column's JSONPath finds, typed by the column: integer (a number truncated), number,
boolean, string (any value printed as JSONPath prints it: lists and maps as JSON) and
date (the age of an RFC 3339 timestamp, `<invalid>` if it is not one). A value of
another type, a missing value or a path error gives an empty cell (None). A CRD whose
columns do not parse as JSONPath is served with the generic Name/Created At table, as
the apiserver falls back to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from crdtool.columns.humanize import human_duration
from crdtool.columns.jsonpath import JSONPath, JSONPathError, print_results

NAME_DESCRIPTION = (
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names")
CREATION_TIMESTAMP_DESCRIPTION = (
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. "
    "It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. "
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata")

_DEFAULT_AGE = {"name": "Age", "type": "date", "description": CREATION_TIMESTAMP_DESCRIPTION,
                "jsonPath": ".metadata.creationTimestamp"}


@dataclass
class Column:
    """One column definition of the Table (meta.k8s.io/v1 TableColumnDefinition)."""

    name: str
    type: str
    format: str = ""
    description: str = ""
    priority: int = 0

    def definition(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "format": self.format, "description": self.description,
                "priority": self.priority}


@dataclass
class Row:
    """A row: its cells and the object it shows (for namespace and kind decoration)."""

    cells: list[Any]
    obj: dict[str, Any]


@dataclass
class Table:
    """The Table of one CRD version's objects."""

    group: str
    kind: str
    version: str
    namespaced: bool
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"apiVersion": "meta.k8s.io/v1", "kind": "Table", "group": self.group, "version": self.version,
                "resourceKind": self.kind,
                "columnDefinitions": [c.definition() for c in self.columns],
                "rows": [r.cells for r in self.rows]}


class Convertor:
    """A CRD version's columns, parsed once and applied to every object (as the apiserver keeps
    one convertor per served version)."""

    def __init__(self, printer_columns: list[dict[str, Any]] | None) -> None:
        specs = printer_columns or [_DEFAULT_AGE]
        self.columns = [Column("Name", "string", "name", NAME_DESCRIPTION)]
        self.paths: list[JSONPath] = []
        self.generic = False
        try:
            for spec in specs:
                path = spec.get("jsonPath") or ""
                self.paths.append(JSONPath.column(path))
                self.columns.append(Column(
                    name=spec.get("name") or "", type=spec.get("type") or "", format=spec.get("format") or "",
                    description=spec.get("description")
                    or f"Custom resource definition column (in JSONPath format): {path}",
                    priority=int(spec.get("priority") or 0)))
        except JSONPathError:
            # The apiserver logs "invalid printer specification" and serves the generic table.
            self.generic = True
            self.paths = []
            self.columns = [Column("Name", "string", "name", NAME_DESCRIPTION),
                            Column("Created At", "date", "", CREATION_TIMESTAMP_DESCRIPTION)]

    def cells(self, obj: dict[str, Any], now: datetime) -> list[Any]:
        meta = v if isinstance(v := obj.get("metadata"), dict) else {}
        name = meta.get("name") if isinstance(meta.get("name"), str) else ""
        if self.generic:
            created = parse_time(meta.get("creationTimestamp")) if meta.get("creationTimestamp") else None
            stamp = created.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if created else \
                "0001-01-01T00:00:00Z"
            return [name, stamp]
        cells: list[Any] = [name]
        for column, path in zip(self.columns[1:], self.paths, strict=True):
            try:
                value = path.first(obj)
            except LookupError:
                cells.append(None)
                continue
            cells.append(cell_for(column.type, value, now))
        return cells


def cell_for(column_type: str, value: Any, now: datetime) -> Any:
    """A found value as a cell of the column's type (cellForJSONValue, and JSONPath text for strings)."""
    if column_type == "string":
        return print_results([value])
    if value is None:
        return None
    if column_type == "integer":
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return int(value) if value == value and abs(value) < 2**63 else -(2**63)
        return None
    if column_type == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return float(value)
    if column_type == "boolean":
        return value if isinstance(value, bool) else None
    if column_type == "date":
        if not isinstance(value, str):
            return None
        if value in ("", "null"):
            return "<unknown>"
        stamp = parse_time(value)
        if stamp is None:
            return "<invalid>"
        return human_duration(now - stamp)
    return None


def parse_time(text: Any) -> datetime | None:
    """A metav1.Time as the apiserver parses it (Go's time.Parse with RFC 3339), or None where it refuses it."""
    from crdtool.model.gotime import parse_rfc3339

    if not isinstance(text, str):
        return None
    try:
        return parse_rfc3339(text).to_datetime()
    except ValueError:  # TimeParseError, or a year datetime cannot hold
        return None
