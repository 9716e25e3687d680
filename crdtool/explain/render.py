"""kubectl explain's plaintext output (k8s.io/kubectl pkg/explain/v2, templates/plaintext.tmpl).

The functions follow the template's named parts, `output`, `fieldList`, `fieldDetail`,
`description`, `typeGuess` and `extractEnum`, over the decoded OpenAPI v3 document, with
Go template semantics where they show: a value counts as set when it is not empty (an empty
map, list or string is unset), maps are walked in sorted key order, and `$ref`s resolve
inside the document. Text is wrapped by go-wordwrap (kubectl's `wrap`) and indented by
prefixing every line (kubectl's `indent`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.model.gofmt import go_float_g, go_is_space

# The template's `fail` for a field whose schema is empty (possible only under allOf/anyOf/oneOf/not):
# kubectl prints Go's template error around it, with positions in its template.
NO_SCHEMA = "error: expected schema argument to subtemplate 'typeguess'"


class TemplateError(Exception):
    """An error the template raises: kubectl prints it and exits 1."""


@dataclass(frozen=True)
class GroupVersionKind:
    """The kind explained, as the OpenAPI path's x-kubernetes-group-version-kind names it."""

    group: str
    version: str
    kind: str


def render(document: dict[str, Any], gvk: GroupVersionKind, field_path: tuple[str, ...], recursive: bool
           ) -> tuple[str, str | None]:
    """(stdout, error): what kubectl writes for one resource. The header is written before a
    field path is followed, so it is printed even when the path does not exist."""
    header = (f"GROUP:      {gvk.group}\n" if gvk.group else "") + f"KIND:       {gvk.kind}\n"
    header += f"VERSION:    {gvk.version}\n\n"
    wanted = {"group": gvk.group, "version": gvk.version, "kind": gvk.kind}
    schemas = (document.get("components") or {}).get("schemas") or {}
    for name in sorted(schemas):
        schema = schemas[name]
        if wanted in (schema.get("x-kubernetes-group-version-kind") or []):
            try:
                body = _Explainer(document, recursive).output(schema, {}, field_path)
            except TemplateError as err:
                return header, str(err)
            if not body:
                return header, f'error: field "{field_path[-1]}" does not exist'
            return header + body + "\n", None
    printed = f"map[group:{gvk.group} kind:{gvk.kind} version:{gvk.version}]"  # Go's %v of the GVK map
    return header, f"error: GVK {printed} not found in OpenAPI schema"


class _Explainer:
    def __init__(self, document: dict[str, Any], recursive: bool) -> None:
        self.document = document
        self.recursive = recursive

    def resolve(self, ref: Any) -> dict[str, Any] | None:
        """resolveRef: the schema a local `#/...` reference points to, or None."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        current = self.document
        for part in ref[1:].split("/"):
            if not part:
                continue
            found = current.get(part)
            if not isinstance(found, dict):
                return None
            current = found
        return current

    # -- output: follow the field path, then describe what it reaches
    def output(self, schema: dict[str, Any], history: dict[str, int], path: tuple[str, ...]) -> str:
        ref = schema.get("$ref") or ""
        next_history = {**history, ref: 1}
        resolved = self.resolve(ref) or schema
        if not path:
            text = "DESCRIPTION:\n" + indent(wrap(self.description(resolved) or "<empty>", 76), 4) + "\n"
            docs = external_docs(resolved.get("externalDocs"), 0, 4, 76)
            if docs:
                text += "\n" + docs
            fields = self.field_list(resolved, 1, {})
            return text + ("FIELDS:\n" + fields if fields else "")
        if ref and history.get(ref):
            return ""  # a cycle
        properties = resolved.get("properties") or {}
        sub = properties.get(path[0]) if isinstance(properties, dict) else None
        if sub:
            head = ""
            if len(path) == 1:
                head = (f"FIELD: {path[0]} <{self.type_guess(sub)}>\n"
                        + extract_enum(sub, long_view=True, limit=-1, indent_amount=0) + "\n\n")
            return head + self.output(sub, {}, path[1:])
        if resolved.get("items"):
            return self.output(resolved["items"], next_history, path)
        if _schema_value(resolved.get("additionalProperties")):
            return self.output(resolved["additionalProperties"], next_history, path)
        for alternative in resolved.get("allOf") or []:
            text = self.output(alternative, next_history, path)
            if text:
                return text
        return ""

    # -- fieldList / fieldDetail
    def field_list(self, schema: dict[str, Any], level: int, history: dict[str, int]) -> str:
        ref = schema.get("$ref") or ""
        if ref and history.get(ref):
            return ""  # a cycle
        next_history = {**history, ref: 1}
        resolved = self.resolve(ref) or schema
        out = []
        properties = resolved.get("properties") or {}
        for name in sorted(properties):
            out.append(self.field_detail(name, resolved, level))
            if self.recursive:
                out.append(self.field_list(properties[name], level + 1, next_history))
        for alternative in resolved.get("allOf") or []:
            out.append(self.field_list(alternative, level, next_history))
        if resolved.get("items"):
            out.append(self.field_list(resolved["items"], level, next_history))
        if _schema_value(resolved.get("additionalProperties")):
            out.append(self.field_list(resolved["additionalProperties"], level, next_history))
        return "".join(out)

    def field_detail(self, name: str, parent: dict[str, Any], level: int) -> str:
        width = level * 2
        field = parent["properties"][name]
        line = indent(name, width) + "\t<" + self.type_guess(field) + ">"
        if name in (parent.get("required") or []):
            line += " -required-"
        line += extract_enum(field, long_view=False, limit=4, indent_amount=width) + "\n"
        if self.recursive:
            return line
        line += indent(wrap(field.get("description") or "<no description>", 78 - width), width + 2) + "\n"
        docs = external_docs(field.get("externalDocs"), width + 2, width + 4, 76 - width)
        return line + ("\n" + docs if docs else "") + "\n"

    # -- description: the schema's own, then its allOf's, items' and map values' descriptions
    def description(self, schema: dict[str, Any]) -> str:
        resolved = self.resolve(schema.get("$ref")) or schema
        if not resolved:
            return ""
        out = []
        if resolved.get("description"):
            out.append(str(resolved["description"]) + "\n")
        for alternative in resolved.get("allOf") or []:
            out.append(self.description(alternative))
        if resolved.get("items"):
            out.append(self.description(resolved["items"]))
        if _schema_value(resolved.get("additionalProperties")):
            out.append(self.description(resolved["additionalProperties"]))
        return "".join(out)

    # -- typeGuess: `string`, `Object`, `[]Object`, `map[string]string`, `ObjectMeta`, ...
    def type_guess(self, schema: Any) -> str:
        if not schema:
            raise TemplateError(NO_SCHEMA)
        if schema.get("items"):
            return "[]" + self.type_guess(schema["items"])
        if _schema_value(schema.get("additionalProperties")):
            return "map[string]" + self.type_guess(schema["additionalProperties"])
        all_of = schema.get("allOf")
        if all_of and not schema.get("properties") and len(all_of) == 1:
            return self.type_guess(all_of[0])
        ref = schema.get("$ref")
        if ref:
            target = self.resolve(ref)
            if not target or not target.get("type") or target.get("type") == "object":
                return ref.split("/")[-1].split(".")[-1] or "Object"
            return str(target["type"])
        kind = schema.get("type")
        if kind == "object":
            return "Object"
        return str(kind) if kind else "Object"


def external_docs(docs: Any, title_indent: int, text_indent: int, width: int) -> str:
    """The `EXTERNAL DOCS:` block of a schema's externalDocs (its description wrapped, then its URL)."""
    if not docs:
        return ""
    out = indent("EXTERNAL DOCS:", title_indent) + "\n"
    if docs.get("description"):
        out += indent(wrap(str(docs["description"]), width), text_indent) + "\n"
    if docs.get("url"):
        out += indent("URL: " + str(docs["url"]), text_indent) + "\n"
    return out


def _schema_value(value: Any) -> bool:
    """Whether additionalProperties holds a (non-empty) schema rather than a bool."""
    return bool(value) and not isinstance(value, bool)


def extract_enum(schema: dict[str, Any], long_view: bool, limit: int, indent_amount: int) -> str:
    """extractEnum: `ENUM:` and one value a line for a field explained alone, else
    `enum: a, b, c, d, ....` (four values at most) under the field's line."""
    values = schema.get("enum")
    if not values:
        return ""
    out = ["ENUM:" if long_view else "\n" + " " * indent_amount + "enum: "]
    for index, value in enumerate(values):
        if limit > -1 and index >= limit:
            out.append(", ....")
            break
        if long_view:
            out.append("\n    ")
        elif index > 0:
            out.append(", ")
        out.append('""' if value == "" and isinstance(value, str) else go_print(value))
    return "".join(out)


def go_print(value: Any) -> str:
    """How a Go template prints a value decoded from JSON (numbers are float64)."""
    if value is None:
        return "<no value>"
    return _go_v(value)


def _go_v(value: Any) -> str:
    """fmt's %v of a JSON value."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return go_float_g(float(value))
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{_go_v(value[k])}" for k in sorted(value)) + "]"
    if isinstance(value, list):
        return "[" + " ".join(_go_v(v) for v in value) + "]"
    return str(value)


def indent(text: str, amount: int) -> str:
    """kubectl's `indent`: the padding before the text and after every newline."""
    pad = " " * amount
    return pad + text.replace("\n", "\n" + pad)


def wrap(text: str, limit: int) -> str:
    """go-wordwrap's WrapString (v1.0.1), kubectl's `wrap`: break lines at white space so they fit
    in `limit` runes where possible; newlines are kept, a word longer than the limit is never split,
    the spaces where a line breaks are dropped, and a no-break space is part of a word."""
    out: list[str] = []
    current = 0
    word: list[str] = []
    space: list[str] = []
    for ch in text:
        if ch == "\n":
            _flush(out, space, word, current, limit)
            word.clear()
            space.clear()
            out.append(ch)
            current = 0
        elif ch != "\u00a0" and go_is_space(ch):
            if not space or word:
                current += len(space) + len(word)
                out.extend(space)
                out.extend(word)
                space.clear()
                word.clear()
            space.append(ch)
        else:
            word.append(ch)
            if current + len(space) + len(word) > limit and len(word) < limit:
                out.append("\n")
                current = 0
                space.clear()
    _flush(out, space, word, current, limit)
    return "".join(out)


def _flush(out: list[str], space: list[str], word: list[str], current: int, limit: int) -> None:
    """Write what is pending at a newline or the end: a word with the spaces before it, or
    the spaces alone if they still fit on the line."""
    if word or current + len(space) <= limit:
        out.extend(space)
        out.extend(word)
