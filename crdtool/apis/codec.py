"""A built-in object as admission handles it: written and read by the apiserver's JSON serializer
into the kind's Go type (k8s.io/apimachinery pkg/runtime/serializer/json/json.go, used by the
mutating webhook dispatcher, k8s.io/apiserver pkg/admission/plugin/webhook/mutating/dispatcher.go).

- `encode`: the versioned object as json.Marshal writes it: every field of the Go type that is not
  omitempty (`status: {}`, a container's `resources: {}`), ObjectMeta's creationTimestamp left out
  when zero (`omitempty,omitzero` in 1.36). This is the `object` of an AdmissionReview and of the
  admission CEL variables (runtime.DefaultUnstructuredConverter writes the same fields), and what a
  webhook's JSONPatch applies to.
- `decode_mutated`: the patched JSON decoded back into the Go type as the dispatcher does it, a
  non-strict `jsonSerializer.Decode` into a new object of the kind: apiVersion and kind read first
  (SimpleMetaFactory.Interpret), empty ones taken from the kind (gvkWithDefaults), then
  json.Unmarshal, case-sensitive: unknown fields are dropped silently, a value of the wrong type is
  the decoder's error (the dispatcher's 500 `Internal error occurred: json: cannot unmarshal ...`).
  A MutatingAdmissionPolicy's JSONPatch is read back by a strict serializer (policy/mutating/patch
  json_patch.go: `SerializerOptions{Strict: true}`): there an unknown field is refused too, as
  `strict decoding error: unknown field "data.x"` (runtime.NewStrictDecodingError), after type errors.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis import openapi
from crdtool.model import gounmarshal as gu
from crdtool.model.discovery import BuiltinKind
from crdtool.model.groupversion import GroupVersionError, parse_group_version

__all__ = ["CodecError", "decode", "decode_mutated", "encode"]


class CodecError(Exception):
    """The serializer's refusal of a patched object: the text is its error."""


def _root(kind: BuiltinKind) -> gu.GoType:
    return openapi.go_type(openapi.kind_definition(kind))


def encode(obj: dict[str, Any], kind: BuiltinKind) -> dict[str, Any]:
    """json.Marshal of a decoded object of `kind` (apis.decode's plain form)."""
    t = _root(kind)
    out: dict[str, Any] = gu.marshal(obj, t)
    _omit_zero_creation(out, t)
    return out


def _omit_zero_creation(value: Any, t: gu.GoType) -> None:
    """`omitzero` of ObjectMeta.creationTimestamp, wherever an ObjectMeta is (templates too)."""
    if t.kind == gu.K_STRUCT and isinstance(value, dict):
        if t.go == "v1.ObjectMeta" and "creationTimestamp" in value and value["creationTimestamp"] is None:
            del value["creationTimestamp"]
        for key, field in t.fields.items():
            if key in value:
                _omit_zero_creation(value[key], field)
    elif t.kind == gu.K_SLICE and isinstance(value, list) and t.elem is not None:
        for item in value:
            _omit_zero_creation(item, t.elem)
    elif t.kind == gu.K_MAP and isinstance(value, dict) and t.elem is not None:
        for item in value.values():
            _omit_zero_creation(item, t.elem)


def decode(value: dict[str, Any], kind: BuiltinKind) -> dict[str, Any]:
    """An encoded object back in apis.decode's plain form (it decodes: it was written from the type)."""
    decoded = gu.unmarshal(value, _root(kind))
    assert decoded.error is None and isinstance(decoded.value, dict), decoded.error
    return decoded.value


def decode_mutated(value: Any, kind: BuiltinKind, strict: bool = False) -> dict[str, Any]:
    """jsonSerializer.Decode(patched, nil, new(kind)) as encoded JSON data, or CodecError with its error
    (a `strict` serializer's unknown fields included).

    A patch that makes the object another kind or version decodes, in the apiserver, into that
    kind's type and fails later in a conversion crdtool does not reproduce: CodecError says so."""
    from crdtool.convert.review import CallError, interpret

    try:
        api_version, found_kind = interpret(value)
        group, version = parse_group_version(api_version)
    except (CallError, GroupVersionError) as err:
        raise CodecError(str(err)) from None
    found_kind = found_kind or kind.kind  # gvkWithDefaults
    if not version and (not group or group == kind.group):
        group, version = kind.group, kind.version
    if (group, version, found_kind) != (kind.group, kind.version, kind.kind):
        target = f"{group}/{version}" if group else version
        raise CodecError(f"crdtool cannot decode the object as {target}, Kind={found_kind} (the webhook's patch "
                         f"changed its apiVersion or kind from {kind.api_version}, Kind={kind.kind})")
    decoded = gu.unmarshal(value, _root(kind), strict=strict, sorted_keys=True)
    if decoded.error is not None:
        raise CodecError(str(decoded.error))
    if decoded.strict_errors:
        raise CodecError("strict decoding error: " + ", ".join(decoded.strict_errors))
    return encode(decoded.value, kind)
