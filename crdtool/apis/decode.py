"""How kube-apiserver 1.36 decodes a built-in object of a create or update request.

The request body goes through the apimachinery JSON serializer
(pkg/runtime/serializer/json/json.go, `Serializer.Decode` and `unmarshal`) into the kind's Go type
with sigs.k8s.io/json: case-sensitive field names, and, in strict mode (fieldValidation Strict or
Warn), the strict errors gathered while decoding: a YAML body's repeated keys first (one go-yaml
error from YAMLToJSONStrict), then unknown and duplicate fields (`unknown field
"spec.template.spec.containers[0].prots"`). Those are reported only when decoding otherwise
succeeded: a type error (encoding/json's, through model.gounmarshal) or an error of a type's own
UnmarshalJSON (a quantity, a time) is the answer instead.

The create handler (k8s.io/apiserver pkg/endpoints/handlers/create.go) then answers:
- a decoding error, or strict errors under Strict: `transformDecodeError` (rest.go), a 400
  BadRequest `Deployment in version "v1" cannot be handled as a Deployment: <error>`, where a
  StrictDecodingError reads `strict decoding error: <errors joined by ", ">`;
- strict errors under Warn: each one a warning; under Ignore: nothing.

Object keys are read in the order of the JSON kubectl sends, written from a map: sorted. That
decides which type error is reported and the order of unknown fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.model.gounmarshal import GoType, unmarshal


@dataclass
class Decoded:
    """The decoded object (None when the apiserver refuses the body with a 400), the decoding error
    (the text after `cannot be handled as a Kind: `), and the unknown/duplicate fields sigs.k8s.io/json
    found (its strict errors, in its order)."""

    object: dict[str, Any] | None
    error: str | None = None
    strict_errors: list[str] = field(default_factory=list)


def decode(data: Any, root: GoType) -> Decoded:
    """json.Unmarshal (strict) of a document's value into the kind's Go type, as the serializer runs it.

    The value keeps the document's key order (what `default -o yaml` shows is written in Go's field
    order anyway); the sorted reading, the apiserver's, is done only when there is something to report.
    """
    res = unmarshal(data, root, strict=True)
    if res.error is None and not res.strict_errors:
        return Decoded(res.value)
    ordered = unmarshal(data, root, strict=True, sorted_keys=True)
    if ordered.error is not None:
        return Decoded(None, str(ordered.error))
    return Decoded(res.value, None, ordered.strict_errors)

