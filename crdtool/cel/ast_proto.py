"""Editable protobuf messages for the checked expressions cel-expr-python serializes.

No Python package carries cel-spec's protobuf classes, so the few fields that a rewrite of the
expression tree needs are declared here at run time (field numbers from cel-spec's syntax.proto and
checked.proto). Every other field (types, source positions, identifiers, other constants) stays
unknown to these declarations and is kept byte for byte when the message is serialized again.
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["checked_expr_classes"]

_PACKAGE = "crdtool.celast"

# message name -> [(field name, number, type, label, message type or None)], the type and label named as
# FieldDescriptorProto's TYPE_ and LABEL_ constants (protobuf is imported when the classes are made)
_MESSAGES: dict[str, list[tuple[str, int, str, str, str | None]]] = {
    "Any": [("type_url", 1, "STRING", "OPTIONAL", None),
            ("value", 2, "BYTES", "OPTIONAL", None)],
    "CheckedExpr": [("reference_map", 2, "MESSAGE", "REPEATED", "ReferenceEntry"),
                    ("expr", 4, "MESSAGE", "OPTIONAL", "Expr")],
    "ReferenceEntry": [("key", 1, "INT64", "OPTIONAL", None),
                       ("value", 2, "MESSAGE", "OPTIONAL", "Reference")],
    "Reference": [("name", 1, "STRING", "OPTIONAL", None),
                  ("overload_id", 3, "STRING", "REPEATED", None)],
    "Expr": [("id", 2, "INT64", "OPTIONAL", None),
             ("const_expr", 3, "MESSAGE", "OPTIONAL", "Constant"),
             ("ident_expr", 4, "MESSAGE", "OPTIONAL", "Ident"),
             ("select_expr", 5, "MESSAGE", "OPTIONAL", "Select"),
             ("call_expr", 6, "MESSAGE", "OPTIONAL", "Call"),
             ("list_expr", 7, "MESSAGE", "OPTIONAL", "CreateList"),
             ("struct_expr", 8, "MESSAGE", "OPTIONAL", "CreateStruct"),
             ("comprehension_expr", 9, "MESSAGE", "OPTIONAL", "Comprehension")],
    "Constant": [("bool_value", 2, "BOOL", "OPTIONAL", None),
                 ("int64_value", 3, "INT64", "OPTIONAL", None),
                 ("string_value", 6, "STRING", "OPTIONAL", None)],
    "Ident": [("name", 1, "STRING", "OPTIONAL", None)],
    "Select": [("operand", 1, "MESSAGE", "OPTIONAL", "Expr"),
               ("field", 2, "STRING", "OPTIONAL", None),
               ("test_only", 3, "BOOL", "OPTIONAL", None)],
    "Call": [("target", 1, "MESSAGE", "OPTIONAL", "Expr"),
             ("function", 2, "STRING", "OPTIONAL", None),
             ("args", 3, "MESSAGE", "REPEATED", "Expr")],
    "CreateList": [("elements", 1, "MESSAGE", "REPEATED", "Expr")],
    "CreateStruct": [("entries", 2, "MESSAGE", "REPEATED", "StructEntry")],
    "StructEntry": [("map_key", 3, "MESSAGE", "OPTIONAL", "Expr"),
                    ("value", 4, "MESSAGE", "OPTIONAL", "Expr")],
    "Comprehension": [("iter_var", 1, "STRING", "OPTIONAL", None),
                      ("iter_var2", 8, "STRING", "OPTIONAL", None),
                      ("accu_var", 3, "STRING", "OPTIONAL", None),
                      ("iter_range", 2, "MESSAGE", "OPTIONAL", "Expr"),
                      ("accu_init", 4, "MESSAGE", "OPTIONAL", "Expr"),
                      ("loop_condition", 5, "MESSAGE", "OPTIONAL", "Expr"),
                      ("loop_step", 6, "MESSAGE", "OPTIONAL", "Expr"),
                      ("result", 7, "MESSAGE", "OPTIONAL", "Expr")],
}


@cache
def checked_expr_classes() -> dict[str, Any]:
    """The message classes by name (Any, CheckedExpr, Expr, ...)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    field = descriptor_pb2.FieldDescriptorProto
    file = descriptor_pb2.FileDescriptorProto(name="crdtool/celast.proto", package=_PACKAGE, syntax="proto3")
    for name, fields in _MESSAGES.items():
        message = file.message_type.add(name=name)
        if name == "Constant":
            # A oneof, as in cel-spec: its members keep their presence, so a constant 0 or '' is written back.
            message.oneof_decl.add(name="constant_kind")
        for field_name, number, kind, label, type_name in fields:
            f = message.field.add(name=field_name, number=number, type=getattr(field, f"TYPE_{kind}"),
                                  label=getattr(field, f"LABEL_{label}"))
            if type_name:
                f.type_name = f".{_PACKAGE}.{type_name}"
            if name == "Constant":
                f.oneof_index = 0
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
            for name in _MESSAGES}
