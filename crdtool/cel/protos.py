"""Object types of a schema as protobuf message descriptors, so the CEL checker knows their fields.

cel-expr-python type-checks field selections against protobuf messages: every object type of a
rule's `self` becomes one message (fields named as CEL sees them), lists become repeated fields, maps
map fields, `dyn` a google.protobuf.Value. Where protobuf cannot nest (a list of lists, a map of
lists), the inner collection is a ListValue or Struct: `list(dyn)` / `map(string, dyn)` to the
checker, a little more permissive than the apiserver's precise type there.

Messages get neutral names (`crdtool.self<N>.T<i>`); `type_names` maps them back to the names the
apiserver gives the same types (`selfType<N>`, `selfType<N>.spec`, `selfType<N>.spec.items.@idx`, ...)
so that compile errors read as the apiserver's.

protobuf, unlike the apiserver's DeclType, bounds a message: upb (protobuf's Python runtime) lays one
out in at most 65535 bytes (16 per string field, 8 per list, map or message field) and, as protobuf's
C++ descriptors do, takes at most 65535 fields; the C++ descriptors also refuse a field whose full name
(`package.Message.field`) is longer than 21845 characters, which leaves every type of the file
undeclared. So an object of more than `WIDE` properties declares only the fields the expressions can
name (`selectable_names`; the checker looks fields up by the names an expression selects, so its
answers are the same), its singular fields in one `oneof`, which shares their storage; a field whose
name is too long for protobuf is declared only if an expression names it. What still cannot be
declared is `UndeclarableError`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from cel_expr_python import cel
from google.protobuf import descriptor_pb2, descriptor_pool

from crdtool.cel import pool_files
from crdtool.cel.types import DeclType
from crdtool.model.record import Record, replace

__all__ = ["WIDE", "SchemaTypes", "UndeclarableError", "base_pool_files", "build_schema_types", "renumbered",
           "selectable_names"]

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "bool": _F.TYPE_BOOL, "int": _F.TYPE_INT64, "double": _F.TYPE_DOUBLE, "string": _F.TYPE_STRING,
    "bytes": _F.TYPE_BYTES,
}
_WELL_KNOWN = {"timestamp": ".google.protobuf.Timestamp", "duration": ".google.protobuf.Duration",
               "dyn": ".google.protobuf.Value", "list": ".google.protobuf.ListValue",
               "map": ".google.protobuf.Struct"}
_CEL_SIMPLE = {"bool": cel.Type.BOOL, "int": cel.Type.INT, "double": cel.Type.DOUBLE, "string": cel.Type.STRING,
               "bytes": cel.Type.BYTES, "timestamp": cel.Type.TIMESTAMP, "duration": cel.Type.DURATION,
               "dyn": cel.Type.DYN}
_counter = itertools.count(1)
#: Objects with more properties than this are declared narrowed (see above); up to it any message fits.
WIDE = 1024
#: The longest full name protobuf's C++ descriptors take (measured with cel-expr-python 0.1.3).
_MAX_FULL_NAME = 21845
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class UndeclarableError(Exception):
    """An object type protobuf cannot declare even narrowed; the text names the limit."""


def selectable_names(sources: Iterable[str]) -> frozenset[str]:
    """Every name the expressions `sources` could select a field by: each identifier in their text."""
    return frozenset(name for source in sources for name in _IDENTIFIER.findall(source))


def base_pool_files() -> list[descriptor_pb2.FileDescriptorProto]:
    """The well-known types every schema file depends on."""
    return [descriptor_pb2.FileDescriptorProto.FromString(data) for data in pool_files.WELL_KNOWN]


class SchemaTypes(Record):
    """The message types of one rule-bearing schema node and the CEL type of its `self`."""

    __slots__ = ("self_type", "pool", "type_names", "json_name_clash", "names", "number", "narrowed", "check_envs")
    _derived = ("check_envs",)  # the checking environments the other fields make, once asked

    self_type: cel.Type
    pool: descriptor_pool.DescriptorPool
    #: Message full name -> the apiserver's name of the same type.
    type_names: dict[str, str]
    #: Whether two fields of a message share a camelCase name (`jwks_uri`, `jwksUri`): harmless for CEL,
    #: but protobuf logs a warning to stderr when the checker first reads such a message.
    json_name_clash: bool
    #: The identifiers of the expressions checked against these types (`selectable_names`; None: any).
    names: frozenset[str] | None
    #: The number N of the type names (`selfType<N>`), and whether the names narrowed a wide object.
    number: int
    narrowed: bool
    #: The checking environments made for these types (environment.check_env), by whether oldSelf is declared.
    check_envs: dict[bool, cel.Env]

    def __init__(self, self_type: cel.Type, pool: descriptor_pool.DescriptorPool,
                 type_names: dict[str, str] | None = None, json_name_clash: bool = False,
                 names: frozenset[str] | None = None, number: int = 0, narrowed: bool = False,
                 check_envs: dict[bool, cel.Env] | None = None) -> None:
        self.self_type = self_type
        self.pool = pool
        self.type_names = {} if type_names is None else type_names
        self.json_name_clash = json_name_clash
        self.names = names
        self.number = number
        self.narrowed = narrowed
        self.check_envs = {} if check_envs is None else check_envs


class _Builder:
    def __init__(self, package: str, names: frozenset[str] | None) -> None:
        self.package = package
        self.names = names
        self.file = descriptor_pb2.FileDescriptorProto(
            name=f"{package.replace('.', '/')}.proto", package=package, syntax="proto2",
            dependency=["google/protobuf/struct.proto", "google/protobuf/timestamp.proto",
                        "google/protobuf/duration.proto"])
        self.type_names: dict[str, str] = {}
        self.json_name_clash = False
        self.narrowed = False

    def message(self, t: DeclType, name: str) -> str:
        """Add the message of object type `t` (named `name` by the apiserver); return its full name."""
        short = f"T{len(self.file.message_type)}"
        full = f"{self.package}.{short}"
        self.type_names[full] = name
        msg = self.file.message_type.add(name=short)
        # The longest name a field (or a map field's entry: `FooEntry.value`) of this message can have.
        longest = _MAX_FULL_NAME - len(f"{full}.Entry.value")
        fields = {n: f for n, f in t.fields.items() if self._declares(n, len(t.fields), longest)}
        camel_names = {_camel_case(n) for n in fields}
        self.json_name_clash = self.json_name_clash or len(camel_names) < len(fields)
        for number, (cel_name, f) in enumerate(fields.items(), start=1):
            self._field(msg, cel_name, number, f.type, f"{name}.{cel_name}")
        singular = [proto for proto in msg.field if proto.label != _F.LABEL_REPEATED]
        if len(fields) > WIDE and singular:
            msg.oneof_decl.add(name="wide")
            for proto in singular:
                proto.oneof_index = 0
        return full

    def _declares(self, cel_name: str, width: int, longest: int) -> bool:
        """Whether a message of `width` fields declares the field `cel_name` (see the module's docstring)."""
        named = self.names is None or cel_name in self.names
        self.narrowed = self.narrowed or (self.names is not None and (width > WIDE or len(cel_name) > longest))
        if len(cel_name) > longest:
            if named:
                raise UndeclarableError(f"a property name longer than {longest} characters")
            return False
        return named or width <= WIDE

    def _field(self, msg: descriptor_pb2.DescriptorProto, cel_name: str, number: int, t: DeclType,
               name: str) -> None:
        proto = msg.field.add(name=cel_name, number=number, json_name=f"f{number}")
        if t.kind == "list":
            proto.label = _F.LABEL_REPEATED
            self._element(proto, t.elem_type, f"{name}.@idx")
        elif t.kind == "map" and _map_entry_name(cel_name) not in {n.name for n in msg.nested_type}:
            entry_name = _map_entry_name(cel_name)
            entry = msg.nested_type.add(name=entry_name)
            entry.options.map_entry = True
            entry.field.add(name="key", number=1, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
            value = entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL)
            self._element(value, t.elem_type, f"{name}.@elem")
            proto.label = _F.LABEL_REPEATED
            proto.type = _F.TYPE_MESSAGE
            proto.type_name = f".{self.package}.{msg.name}.{entry_name}"
        else:
            proto.label = _F.LABEL_OPTIONAL
            self._element(proto, t, name)

    def _element(self, proto: descriptor_pb2.FieldDescriptorProto, t: DeclType, name: str) -> None:
        """Type `proto` (a field, list element or map value) as `t`; nested collections become dyn ones."""
        if t.kind in _SCALARS:
            proto.type = _SCALARS[t.kind]
        elif t.kind == "object":
            proto.type = _F.TYPE_MESSAGE
            proto.type_name = "." + self.message(t, name)
        else:
            proto.type = _F.TYPE_MESSAGE
            proto.type_name = _WELL_KNOWN[t.kind]

    def cel_type(self, t: DeclType, name: str) -> cel.Type:
        """The CEL type of a value of `t` whose apiserver type name is `name`."""
        if t.kind in _CEL_SIMPLE:
            return _CEL_SIMPLE[t.kind]
        if t.kind == "object":
            return cel.Type(self.message(t, name))
        if t.kind == "list":
            return cel.Type.List(self.cel_type(t.elem_type, f"{name}.@idx"))
        return cel.Type.Map(cel.Type.STRING, self.cel_type(t.elem_type, f"{name}.@elem"))


def _camel_case(field_name: str) -> str:
    """protobuf's default JSON name of a field (`foo_bar` -> `fooBar`)."""
    head, *rest = field_name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _map_entry_name(field_name: str) -> str:
    """protobuf's name for the entry message of a map field (`foo_bar` -> `FooBarEntry`)."""
    out, cap_next = [], True
    for ch in field_name:
        if ch == "_":
            cap_next = True
        elif cap_next:
            out.append(ch.upper() if "a" <= ch <= "z" else ch)
            cap_next = False
        else:
            out.append(ch)
    return "".join(out) + "Entry"


def build_schema_types(t: DeclType, extra_files: Iterable[descriptor_pb2.FileDescriptorProto] = (),
                       names: frozenset[str] | None = None) -> SchemaTypes:
    """Messages for every object type reachable from `t`, in a pool of their own (with `extra_files`).

    `names`: the names the expressions checked against these types can select (`selectable_names`), to
    narrow wide objects by; None: any. Raises UndeclarableError."""
    number = next(_counter)
    builder = _Builder(f"crdtool.self{number}", names)
    self_type = builder.cel_type(t, f"selfType{number}")
    pool = descriptor_pool.DescriptorPool()
    for proto in [*base_pool_files(), *extra_files]:
        pool.Add(proto)
    try:
        pool.Add(builder.file)
    except TypeError as err:  # "Couldn't build proto file into descriptor pool: Error building mini table: ..."
        if "mini table" not in str(err):
            raise
        raise UndeclarableError(str(err).rpartition(": ")[2]) from None
    return SchemaTypes(self_type, pool, builder.type_names, builder.json_name_clash, names, number, builder.narrowed)


def renumbered(types: SchemaTypes) -> SchemaTypes:
    """`types` (their messages and checking environments) for another node of the same type, under the
    next number, as `build_schema_types` would have named its own (`selfType<N>` in compile errors)."""
    number = next(_counter)
    old, new = f"selfType{types.number}", f"selfType{number}"
    type_names = {full: new + name[len(old):] for full, name in types.type_names.items()}
    return replace(types, type_names=type_names, number=number)
