"""The opaque values of the Kubernetes CEL libraries as protobuf messages, named as cel-go names them.

An IP address is a `net.IP`, a CIDR a `net.CIDR`, a URL a `kubernetes.URL`, a quantity a
`kubernetes.Quantity`, a version a `kubernetes.Semver`, a named format a `kubernetes.NamedFormat`:
each a message with one string field holding the parsed value's text, so type errors print the
apiserver's type names and the Python functions get their value back.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from cel_expr_python import cel

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2

__all__ = ["OPAQUE_TYPES", "cel_type", "descriptor_file", "make"]

#: CEL type name -> proto file package and message name.
OPAQUE_TYPES = ("net.IP", "net.CIDR", "kubernetes.URL", "kubernetes.Quantity", "kubernetes.Semver",
                "kubernetes.NamedFormat")


@cache
def descriptor_files() -> tuple[descriptor_pb2.FileDescriptorProto, ...]:
    """One file per package (net, kubernetes) declaring its opaque messages (also written out, serialized,
    in cel/pool_files.py by scripts/gen_pool_files.py)."""
    from google.protobuf import descriptor_pb2

    files: dict[str, descriptor_pb2.FileDescriptorProto] = {}
    for full in OPAQUE_TYPES:
        package, name = full.rsplit(".", 1)
        proto = files.get(package)
        if proto is None:
            proto = files[package] = descriptor_pb2.FileDescriptorProto(
                name=f"crdtool/opaque/{package}.proto", package=package, syntax="proto3")
        msg = proto.message_type.add(name=name)
        msg.field.add(name="value", number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
                      label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    return tuple(files.values())


def descriptor_file() -> list[descriptor_pb2.FileDescriptorProto]:
    return list(descriptor_files())


@cache
def _classes() -> dict[str, type]:
    """The message classes, made when a library function first makes an opaque value."""
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    for proto in descriptor_files():
        pool.Add(proto)
    return {full: message_factory.GetMessageClass(pool.FindMessageTypeByName(full)) for full in OPAQUE_TYPES}


def make(type_name: str, value: str):
    """A message of the opaque type `type_name` holding `value`."""
    return _classes()[type_name](value=value)


@cache
def cel_type(type_name: str) -> cel.Type:
    return cel.Type(type_name)
