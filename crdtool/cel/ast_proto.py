"""Editable protobuf messages for the checked expressions cel-expr-python serializes.

No Python package carries cel-spec's protobuf classes, so the few fields that a rewrite of the
expression tree needs are declared here at run time (field numbers from cel-spec's syntax.proto and
checked.proto). Every other field (types, source positions, identifiers, other constants) stays
unknown to these declarations and is kept byte for byte when the message is serialized again.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["checked_expr_classes"]

_PACKAGE = "crdtool.celast"
_F = descriptor_pb2.FieldDescriptorProto

# message name -> [(field name, number, type, label, message type or None)]
_MESSAGES: dict[str, list[tuple[str, int, int, int, str | None]]] = {
    "Any": [("type_url", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
            ("value", 2, _F.TYPE_BYTES, _F.LABEL_OPTIONAL, None)],
    "CheckedExpr": [("reference_map", 2, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "ReferenceEntry"),
                    ("expr", 4, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr")],
    "ReferenceEntry": [("key", 1, _F.TYPE_INT64, _F.LABEL_OPTIONAL, None),
                       ("value", 2, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Reference")],
    "Reference": [("name", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
                  ("overload_id", 3, _F.TYPE_STRING, _F.LABEL_REPEATED, None)],
    "Expr": [("id", 2, _F.TYPE_INT64, _F.LABEL_OPTIONAL, None),
             ("const_expr", 3, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Constant"),
             ("ident_expr", 4, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Ident"),
             ("select_expr", 5, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Select"),
             ("call_expr", 6, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Call"),
             ("list_expr", 7, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "CreateList"),
             ("struct_expr", 8, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "CreateStruct"),
             ("comprehension_expr", 9, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Comprehension")],
    "Constant": [("bool_value", 2, _F.TYPE_BOOL, _F.LABEL_OPTIONAL, None),
                 ("int64_value", 3, _F.TYPE_INT64, _F.LABEL_OPTIONAL, None),
                 ("string_value", 6, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None)],
    "Ident": [("name", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None)],
    "Select": [("operand", 1, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
               ("field", 2, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
               ("test_only", 3, _F.TYPE_BOOL, _F.LABEL_OPTIONAL, None)],
    "Call": [("target", 1, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
             ("function", 2, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
             ("args", 3, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "Expr")],
    "CreateList": [("elements", 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "Expr")],
    "CreateStruct": [("entries", 2, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "StructEntry")],
    "StructEntry": [("map_key", 3, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
                    ("value", 4, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr")],
    "Comprehension": [("iter_var", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
                      ("iter_var2", 8, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
                      ("accu_var", 3, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
                      ("iter_range", 2, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
                      ("accu_init", 4, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
                      ("loop_condition", 5, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
                      ("loop_step", 6, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr"),
                      ("result", 7, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Expr")],
}


@cache
def checked_expr_classes() -> dict[str, Any]:
    """The message classes by name (Any, CheckedExpr, Expr, ...)."""
    file = descriptor_pb2.FileDescriptorProto(name="crdtool/celast.proto", package=_PACKAGE, syntax="proto3")
    for name, fields in _MESSAGES.items():
        message = file.message_type.add(name=name)
        if name == "Constant":
            # A oneof, as in cel-spec: its members keep their presence, so a constant 0 or '' is written back.
            message.oneof_decl.add(name="constant_kind")
        for field_name, number, kind, label, type_name in fields:
            f = message.field.add(name=field_name, number=number, type=kind, label=label)
            if type_name:
                f.type_name = f".{_PACKAGE}.{type_name}"
            if name == "Constant":
                f.oneof_index = 0
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
            for name in _MESSAGES}
