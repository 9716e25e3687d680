"""The smaller per-version parts of a CRD: printer columns, selectable fields, subresources and
the deprecation warning (ValidateCustomResourceColumnDefinition, ValidateCustomResourceSelectableFields,
ValidateCustomResourceDefinitionSubresources and validateDeprecationWarning in validation.go).
"""

from __future__ import annotations

from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_is_print
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import byte_len

PRINTER_COLUMN_TYPES = ("boolean", "date", "integer", "number", "string")
PRINTER_COLUMN_FORMATS = ("byte", "date", "date-time", "double", "float", "int32", "int64", "password")
MAX_SELECTABLE_FIELDS = 8
_SELECTABLE_TYPES = ("string", "boolean", "integer")
_SELECTABLE_TYPE_DETAIL = ("must point to a field of type string, boolean or integer. Enum string fields and "
                           "strings with formats are allowed.")


def validate_simple_json_path(s: str, path: Path) -> list[FieldError]:
    """validateSimpleJSONPath: a non-empty path starting with '.'."""
    if not s:
        return [FieldError.invalid(path, s, "must not be empty")]
    if s[0] != ".":
        return [FieldError.invalid(path, s, "must be a simple json path starting with .")]
    return []


def validate_printer_column(col: dict, path: Path) -> list[FieldError]:
    """ValidateCustomResourceColumnDefinition (the jsonPath is reported as `JSONPath`, the Go field name)."""
    errs: list[FieldError] = []
    if not col.get("name"):
        errs.append(FieldError.required(path.child("name")))
    col_type = col.get("type") or ""
    types = "must be one of " + ",".join(PRINTER_COLUMN_TYPES)
    if not col_type:
        errs.append(FieldError.required(path.child("type"), types))
    elif col_type not in PRINTER_COLUMN_TYPES:
        errs.append(FieldError.invalid(path.child("type"), col_type, types))
    col_format = col.get("format") or ""
    if col_format and col_format not in PRINTER_COLUMN_FORMATS:
        errs.append(FieldError.invalid(path.child("format"), col_format,
                                       "must be one of " + ",".join(PRINTER_COLUMN_FORMATS)))
    json_path = col.get("jsonPath") or ""
    if not json_path:
        errs.append(FieldError.required(path.child("JSONPath")))
    else:
        errs.extend(validate_simple_json_path(json_path, path.child("JSONPath")))
    return errs


def validate_printer_columns(columns: list | None, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, col in enumerate(columns or ()):
        errs.extend(validate_printer_column(col or {}, path.index(i)))
    return errs


def validate_subresources(subresources: dict | None, path: Path) -> list[FieldError]:
    """ValidateCustomResourceDefinitionSubresources: the scale subresource's three JSON paths."""
    if subresources is None or subresources.get("scale") is None:
        return []
    scale = subresources["scale"]
    errs: list[FieldError] = []
    for name, prefix, detail in (("specReplicasPath", ".spec.", "should be a json path under .spec"),
                                 ("statusReplicasPath", ".status.", "should be a json path under .status")):
        at = path.child("scale." + name)
        value = scale.get(name) or ""
        if not value:
            errs.append(FieldError.required(at))
            continue
        path_errs = validate_simple_json_path(value, at)
        if path_errs:
            errs.extend(path_errs)
        elif not value.startswith(prefix):
            errs.append(FieldError.invalid(at, value, detail))
    selector = scale.get("labelSelectorPath")
    if selector:
        at = path.child("scale.labelSelectorPath")
        path_errs = validate_simple_json_path(selector, at)
        if path_errs:
            errs.extend(path_errs)
        elif not selector.startswith((".spec.", ".status.")):
            errs.append(FieldError.invalid(at, selector, "should be a json path under either .spec or .status"))
    return errs


def deprecation_warning_errors(deprecated: bool, warning: str | None) -> list[str]:
    """validateDeprecationWarning: the details reported on `deprecationWarning`."""
    if not deprecated and warning is not None:
        return ["can only be set for deprecated versions"]
    if warning is None:
        return []
    errs = []
    if byte_len(warning) > 256:
        errs.append("must be <= 256 characters long")
    if not warning:
        errs.append("must not be an empty string")
    offset = 0
    for ch in warning:
        if not go_is_print(ch):
            errs.append("must only contain printable UTF-8 characters; non-printable character found at index "
                        f"{offset}")
            break
        offset += byte_len(ch)
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in warning):
        errs.append("must only contain printable UTF-8 characters")
    return errs


class _PathError(Exception):
    pass


def _json_path_tokens(s: str):
    """The tokens of cel.ValidFieldPath's scanner: '.', '[' and ']' alone, 'quoted strings', other runs."""
    i, n = 0, len(s)
    while i < n:
        if s[i] == "'":
            j = i + 1
            while j < n and not (s[j] == "'" and s[j - 1] != "\\"):
                j += 1
            end = min(j + 1, n)
        elif s[i] in ".[]":
            end = i + 1
        else:
            end = i + 1
            while end < n and s[end] not in ".[]":
                end += 1
        yield s[i:end]
        i = end


def selectable_field_target(json_path: str, schema: dict | None) -> tuple[Path, dict | None]:
    """cel.ValidFieldPath without array notation over the raw schema: the field path and its schema.

    Raises _PathError with the apiserver's reason when the path is malformed or leaves the schema.
    """
    path: Path | None = None
    tokens = _json_path_tokens(json_path)
    for tok in tokens:
        if tok == "[":
            raise _PathError("array notation is not allowed")
        if tok != ".":
            raise _PathError(f"expected [ or . but got: {tok}")
        name = next(tokens, None)
        if name is None:
            raise _PathError("unexpected end of JSON path")
        schema = schema or {}
        if schema.get("properties"):  # NewStructural drops `properties: {}`
            path = Path.root(name) if path is None else path.child(name)
            if name not in schema["properties"]:
                raise _PathError("does not refer to a valid field")
            schema = schema["properties"][name]
        elif schema.get("additionalProperties") is not None:
            path = Path((name,), "k") if path is None else path.key(name)
            additional = schema["additionalProperties"]
            schema = additional if isinstance(additional, dict) else None
        else:
            raise _PathError("does not refer to a valid field")
    return path or Path(), schema


def validate_selectable_fields(fields: list, schema: dict | None, path: Path) -> list[FieldError]:
    """ValidateCustomResourceSelectableFields: at most 8 distinct fields of scalar types outside metadata."""
    errs: list[FieldError] = []
    unique: set[str] = set()
    for i, selectable in enumerate(fields):
        at = path.index(i).child("jsonPath")
        json_path = (selectable or {}).get("jsonPath") or ""
        if not json_path:
            errs.append(FieldError.required(at))
            continue
        try:
            target, found = selectable_field_target(json_path, schema)
        except _PathError as e:
            errs.append(FieldError.invalid(at, json_path, f"is an invalid path: {e}"))
            continue
        if target.segments and target.segments[0] == "metadata":
            errs.append(FieldError.invalid(at, json_path, "must not point to fields in metadata"))
        if found is None or found.get("type") not in _SELECTABLE_TYPES:
            errs.append(FieldError.invalid(at, json_path, _SELECTABLE_TYPE_DETAIL))
        key = str(target)
        if key in unique:
            errs.append(FieldError.duplicate(at, json_path))
        else:
            unique.add(key)
    if len(unique) > MAX_SELECTABLE_FIELDS:
        errs.append(FieldError.too_many(path, len(unique), MAX_SELECTABLE_FIELDS))
    return errs
