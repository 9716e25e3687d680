"""apimachinery's field errors (`k8s.io/apimachinery/pkg/util/validation/field`), rendered
character for character, and the status texts the apiserver builds from a list of them.
"""

from __future__ import annotations

import enum
from typing import Any

from crdtool.model.gofmt import go_json, go_quote, go_value
from crdtool.model.path import Path
from crdtool.model.record import Record

#: rest.BeforeCreate/BeforeUpdate's 400 for an object whose namespace is not the request's.
NAMESPACE_MISMATCH = "the namespace of the provided object does not match the namespace sent on the request"


class ErrorType(enum.Enum):
    """field.ErrorType: the machine name and the text it renders as."""

    NOT_FOUND = ("FieldValueNotFound", "Not found")
    REQUIRED = ("FieldValueRequired", "Required value")
    DUPLICATE = ("FieldValueDuplicate", "Duplicate value")
    INVALID = ("FieldValueInvalid", "Invalid value")
    NOT_SUPPORTED = ("FieldValueNotSupported", "Unsupported value")
    FORBIDDEN = ("FieldValueForbidden", "Forbidden")
    TOO_LONG = ("FieldValueTooLong", "Too long")
    TOO_MANY = ("FieldValueTooMany", "Too many")
    TOO_FEW = ("FieldValueTooFew", "Too few")
    INTERNAL = ("InternalError", "Internal error")
    TYPE_INVALID = ("FieldValueTypeInvalid", "Invalid value")
    TOO_SHORT = ("FieldValueTooShort", "Too short")

    @property
    def code(self) -> str:
        return self.value[0]

    @property
    def text(self) -> str:
        return self.value[1]


class _Omit:
    """The apiserver's `omitValue`: the error text carries no value."""

    def __repr__(self) -> str:
        return "OMIT"

    def __reduce__(self) -> str:
        return "OMIT"  # one instance, also in a result from a worker process (compared by identity)


OMIT = _Omit()

_VALUE_FREE = {ErrorType.REQUIRED, ErrorType.FORBIDDEN, ErrorType.TOO_LONG, ErrorType.TOO_SHORT, ErrorType.INTERNAL}


class FieldError(Record):
    """One field.Error. `path` keeps the structure needed to find the source node."""

    __slots__ = ("type", "path", "bad_value", "detail")

    type: ErrorType
    path: Path | str
    bad_value: Any
    detail: str

    def __init__(self, type: ErrorType, path: Path | str, bad_value: Any = "", detail: str = "") -> None:
        self.type = type
        self.path = path
        self.bad_value = bad_value
        self.detail = detail

    @property
    def field(self) -> str:
        return str(self.path)

    @property
    def value_omitted(self) -> bool:
        return self.type in _VALUE_FREE or self.bad_value is OMIT

    def body(self) -> str:
        """ErrorBody(): the message without the field name."""
        s = self.type.text if self.value_omitted else f"{self.type.text}: {render_bad_value(self.bad_value)}"
        if self.detail:
            s += f": {self.detail}"
        return s

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"

    # The constructors mirror field.Required, field.Invalid, ... so call sites read like the apiserver's.
    @classmethod
    def required(cls, path: Path | str, detail: str = "") -> FieldError:
        return cls(ErrorType.REQUIRED, path, "", detail)

    @classmethod
    def forbidden(cls, path: Path | str, detail: str) -> FieldError:
        return cls(ErrorType.FORBIDDEN, path, "", detail)

    @classmethod
    def invalid(cls, path: Path | str, value: Any, detail: str) -> FieldError:
        return cls(ErrorType.INVALID, path, value, detail)

    @classmethod
    def type_invalid(cls, path: Path | str, value: Any, detail: str) -> FieldError:
        return cls(ErrorType.TYPE_INVALID, path, value, detail)

    @classmethod
    def not_supported(cls, path: Path | str, value: Any, valid: list[Any] | tuple[Any, ...]) -> FieldError:
        detail = ""
        if valid:
            detail = "supported values: " + ", ".join(go_quote(v if isinstance(v, str) else go_value(v))
                                                      for v in valid)
        return cls(ErrorType.NOT_SUPPORTED, path, value, detail)

    @classmethod
    def duplicate(cls, path: Path | str, value: Any) -> FieldError:
        return cls(ErrorType.DUPLICATE, path, value, "")

    @classmethod
    def not_found(cls, path: Path | str, value: Any) -> FieldError:
        return cls(ErrorType.NOT_FOUND, path, value, "")

    @classmethod
    def too_long(cls, path: Path | str, max_length: int) -> FieldError:
        if max_length >= 0:
            detail = f"may not be more than {max_length} {'byte' if max_length == 1 else 'bytes'}"
        else:
            detail = "value is too long"
        return cls(ErrorType.TOO_LONG, path, "<value omitted>", detail)

    @classmethod
    def too_long_characters(cls, path: Path | str, max_length: int) -> FieldError:
        if max_length >= 0:
            detail = f"may not be more than {max_length} {'character' if max_length == 1 else 'characters'}"
        else:
            detail = "value is too long"
        return cls(ErrorType.TOO_LONG, path, "<value omitted>", detail)

    @classmethod
    def too_many(cls, path: Path | str, actual: int, maximum: int) -> FieldError:
        if maximum >= 0:
            detail = f"must have at most {maximum} {'item' if maximum == 1 else 'items'}"
        else:
            detail = "has too many items"
        return cls(ErrorType.TOO_MANY, path, actual if actual >= 0 else OMIT, detail)

    @classmethod
    def internal(cls, path: Path | str, message: str) -> FieldError:
        return cls(ErrorType.INTERNAL, path, message, message)


class TypedString(str):
    """A string whose Go value is not of type `string`: a named string type (types.UID,
    ConversionStrategyType, FieldValueErrorReason, ...) or a *string. ErrorBody's `case string`
    does not match it, so json.Marshal renders it: `"bad\u0007warn"` where %q gives `"bad\awarn"`,
    and `<`, `>`, `&` escaped."""

    __slots__ = ()


def render_bad_value(value: Any) -> str:
    """How ErrorBody() prints a bad value: %v for numbers and booleans, %q for a Go `string`, JSON
    otherwise (a TypedString, a list, a map, a struct)."""
    if isinstance(value, (bool, int, float)):
        return go_value(value)
    if isinstance(value, str) and not isinstance(value, TypedString):
        return go_quote(value)
    return go_json(value)


def aggregate_text(messages: list[str]) -> str:
    """utilerrors.Aggregate's Error() of already-deduplicated messages."""
    if len(messages) == 1:
        return messages[0]
    return "[" + ", ".join(messages) + "]"


def dedupe(messages: list[str]) -> list[str]:
    """ErrorList.ToAggregate(): duplicates (by text) dropped, first occurrence kept."""
    seen: set[str] = set()
    out = []
    for m in messages:
        if m not in seen:
            seen.add(m)
            out.append(m)
    return out


def aggregate_message(qualified_kind: str, name: str, errors: list[FieldError]) -> str:
    """apierrors.NewInvalid(...).Error(): `Kind.group "name" is invalid: [a, b]`."""
    head = f"{qualified_kind} {go_quote(name)} is invalid"
    if not errors:
        return head
    return head + ": " + aggregate_text(dedupe([str(e) for e in errors]))
