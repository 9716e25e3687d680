"""The Go types of built-in objects that read themselves (their own UnmarshalJSON), for
model.gounmarshal: how each decodes a JSON value, and the error it returns.

metav1.Time is model.metav1's (shared with the custom-resource path).
"""

from __future__ import annotations

from typing import Any

from crdtool.model import gounmarshal as gu
from crdtool.model.gofmt import go_json
from crdtool.model.gotime import TimeParseError, parse_rfc3339
from crdtool.model.quantity import QuantityError, parse_quantity


def _int_or_string(value: Any, decoder: gu.Decoder) -> Any:
    """intstr.IntOrString.UnmarshalJSON: a JSON string is its string (json.Unmarshal into a string),
    anything else json.Unmarshal into its int32 (`json: cannot unmarshal bool into Go struct field
    ServicePort.spec.ports.targetPort of type int32`, the field's context added by the caller)."""
    if isinstance(value, str):
        return value
    return decoder.nested(value, gu.INT32)


def _quantity(value: Any, decoder: gu.Decoder) -> str:
    """resource.Quantity.UnmarshalJSON: the JSON text, its quotes taken off, space trimmed, is
    ParseQuantity's; its error is returned as it is (`quantities must match ...`). The decoded
    quantity is its canonical string, as the apiserver validates, stores and prints it."""
    text = value if isinstance(value, str) else decoder.number_text(value) \
        if isinstance(value, (int, float)) and not isinstance(value, bool) else go_json(value)
    text = text.strip(" \t\n\r\v\f\x85\xa0")
    try:
        return parse_quantity(text).string()
    except QuantityError as err:
        raise gu.UnmarshalError(str(err)) from None


def _micro_time(value: Any, decoder: gu.Decoder) -> str:
    """metav1.MicroTime.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(RFC3339Micro)."""
    text: str = decoder.nested(value, gu.STRING)
    try:
        parse_rfc3339(text)
    except TimeParseError as err:
        raise gu.UnmarshalError(str(err)) from None
    return text


def _duration(value: Any, decoder: gu.Decoder) -> str:
    """metav1.Duration.UnmarshalJSON: json.Unmarshal into a string (then time.ParseDuration, whose
    errors are not reproduced)."""
    text: str = decoder.nested(value, gu.STRING)
    return text


CUSTOM: dict[str, gu.GoType] = {
    "intstr": gu.custom("intstr.IntOrString", _int_or_string),
    "quantity": gu.custom("resource.Quantity", _quantity),
    "microtime": gu.custom("v1.MicroTime", _micro_time),
    "duration": gu.custom("v1.Duration", _duration),
    "any": gu.any_json("runtime.RawExtension"),
}
