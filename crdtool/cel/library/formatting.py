"""cel-go's `<string>.format(<list>)` at strings versions below 4 (ext/formatting.go, v0.26.1).

One reader of the format string (`interpolate`: parseFormatString, parseAndFormatClause, parsePrecision)
serves two sets of clauses, as in cel-go: the values formatted at run time (`format_string`, the
stringFormatter with the en_US locale the apiserver leaves it), and the static types of a list
literal's elements checked at compile time (crdtool.cel.format_validator, the stringFormatValidator).
Both see the same errors in the same order, hence the same texts.

Run-time values are cel-expr-python's: an int stands for an int or a uint (which every clause treats
alike), bytes arrive as bytearray, a type value as a `cel.Type`, an opaque value as a protobuf message.
"""

from __future__ import annotations

import datetime
import math
from typing import Any, Protocol

from cel_expr_python import cel

from crdtool.model.gofmt import go_float_f, go_float_g, go_quote, x_text_float_e, x_text_float_f

__all__ = ["VERBS", "Args", "Clauses", "FormatError", "format_string", "interpolate", "type_name"]

#: The clauses parseFormattingClause knows, by the letter that ends them.
VERBS = frozenset("sdfebxXo")
_FLOAT_STRINGS = frozenset({"NaN", "Infinity", "-Infinity"})
_MAX_INT = (1 << 63) - 1  # strconv.Atoi's range on a 64-bit platform
#: golang.org/x/text/internal/format's tooLarge: a number whose digits so far exceed it stops the parse.
_PRINTER_LIMIT = 1_000_000


class FormatError(ValueError):
    """A formatting error (cel-go's formatError / parseFormatError): its text, and the id of the list
    literal element that caused it (-1 at run time and when no element did)."""

    def __init__(self, message: str, expr_id: int = -1) -> None:
        super().__init__(message)
        self.expr_id = expr_id


class Args(Protocol):
    """The arguments of the format (cel-go's formatListArgs)."""

    def arg(self, index: int) -> Any:
        """The argument at `index` (the run-time list raises `index N out of range` past its end)."""

    def size(self) -> int: ...


class Clauses(Protocol):
    """What each clause does with its argument (cel-go's formatStringInterpolator)."""

    def apply(self, verb: str, precision: int | None, value: Any) -> str:
        """`value` formatted by the clause `verb` (one of VERBS); raises FormatError."""


def interpolate(template: str, clauses: Clauses, args: Args) -> str:
    """parseFormatString: `template` with each clause replaced by `clauses`' rendering of its argument.

    cel-go reads the format string byte by byte: a clause letter that is not ASCII is named by its
    first byte, as a rune."""
    data = template.encode()
    out = bytearray()
    i = index = 0
    while i < len(data):
        if data[i] != 0x25:  # %
            out.append(data[i])
            i += 1
            continue
        if i + 1 < len(data) and data[i + 1] == 0x25:
            out.append(0x25)
            i += 2
            continue
        value = args.arg(index)
        if i + 1 >= len(data):
            raise FormatError("unexpected end of string")
        if index >= args.size():
            raise FormatError(f"index {index} out of range")
        read, text = _clause(data, i + 1, value, clauses)
        out += text.encode()
        i = read
        index += 1
    return out.decode()


def _clause(data: bytes, start: int, value: Any, clauses: Clauses) -> tuple[int, str]:
    """parseAndFormatClause: where the clause starting at `start` (after its `%`) ends, and its text."""
    try:
        i, precision = _precision(data, start)
    except FormatError as err:
        raise FormatError(f"could not parse formatting clause: error while parsing precision: {err}") from None
    verb = chr(data[i])
    if verb not in VERBS:
        raise FormatError(f'could not parse formatting clause: unrecognized formatting clause "{verb}"')
    try:
        return i + 1, clauses.apply(verb, precision, value)
    except FormatError as err:
        raise FormatError(f"error during formatting: {err}", err.expr_id) from None


def _precision(data: bytes, i: int) -> tuple[int, int | None]:
    """parsePrecision: the position after a `.N` precision at `i`, and N (None without one)."""
    if data[i] != 0x2E:  # .
        return i, None
    start = i = i + 1
    while True:
        if i >= len(data):
            raise FormatError("could not find end of precision specifier")
        if not 0x30 <= data[i] <= 0x39:
            break
        i += 1
    digits = data[start:i].decode()
    if not digits:
        raise FormatError('error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax')
    if int(digits) > _MAX_INT:
        raise FormatError(f'error while converting precision to integer: strconv.Atoi: parsing "{digits}": '
                          "value out of range")
    return i, int(digits)


class _ValueList:
    """The run-time arguments (cel-go's stringArgList)."""

    def __init__(self, values: list[Any]) -> None:
        self._values = values

    def arg(self, index: int) -> Any:
        if index >= len(self._values):
            raise FormatError(f"index {index} out of range")
        return self._values[index]

    def size(self) -> int:
        return len(self._values)


class _Formatter:
    """cel-go's stringFormatter: the clauses over run-time values, in the en_US locale."""

    def apply(self, verb: str, precision: int | None, value: Any) -> str:
        if verb == "s":
            return _string(value)
        if verb == "d":
            return _decimal(value)
        if verb in "fe":
            if isinstance(value, str) and value in _FLOAT_STRINGS:
                value = float(value)
            elif not isinstance(value, float):
                clause = "fixed-point" if verb == "f" else "scientific"
                raise FormatError(f"{clause} clause can only be used on doubles, was given {type_name(value)}")
            p = 6 if precision is None else precision
            if p // 10 > _PRINTER_LIMIT:
                # x/text's parser reads no number past 10^6 (parsenum's tooLarge): the verb is lost with it
                return "%!(NOVERB)"
            # `%.<p>f`; for `%e` cel-go writes `%<p>e`: p is a width there, the precision stays 6
            return x_text_float_f(value, p) if verb == "f" else x_text_float_e(value, p)
        if verb == "b":
            if isinstance(value, bool):
                return "1" if value else "0"
            if isinstance(value, int):
                return format(value, "b")
            raise FormatError(f"only integers and bools can be formatted as binary, was given {type_name(value)}")
        if verb == "o":
            if isinstance(value, int) and not isinstance(value, bool):
                return format(value, "o")
            raise FormatError(f"octal clause can only be used on integers, was given {type_name(value)}")
        # x, X
        if isinstance(value, (str, bytes, bytearray)):
            data = value.encode() if isinstance(value, str) else bytes(value)
            return data.hex() if verb == "x" else data.hex().upper()
        if isinstance(value, int) and not isinstance(value, bool):
            return format(value, verb)
        raise FormatError("only integers, byte buffers, and strings can be formatted as hex, was given "
                          + type_name(value))


def format_string(template: str, values: list[Any]) -> str:
    """`template.format(values)`, or FormatError with cel-go's text."""
    return interpolate(template, _Formatter(), _ValueList(values))


def _decimal(value: Any) -> str:
    """formatDecimal: ints and uints only (a double, even NaN, is an error)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise FormatError(f"decimal clause can only be used on integers, was given {type_name(value)}")


def _string(value: Any) -> str:
    """FormatString: the value converted to a string; lists and maps with their members as CEL literals."""
    if isinstance(value, list):
        return "[" + ", ".join(_member(v) for v in value) + "]"
    if isinstance(value, dict):
        return _map(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, float):
        return go_float_g(value)  # double's conversion to string: fmt's %g
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode()
        except UnicodeDecodeError:
            raise FormatError('could not convert argument "invalid UTF-8 in bytes, cannot convert to string" '
                              "to string") from None
    if isinstance(value, datetime.datetime):
        return _timestamp(value)
    if isinstance(value, datetime.timedelta):
        return _duration(value)
    if isinstance(value, cel.Type):
        return _type_value_name(value)
    raise FormatError("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
                      f"types, durations, and timestamps, was given {type_name(value)}")


def _member(value: Any) -> str:
    """A list member or map value: clauseForType's rendering, quoted by quoteForCEL."""
    if isinstance(value, float):
        text = go_float_f(value, 6)  # fmt's %.6f, not the locale's
        return text if math.isfinite(value) else go_quote(text)
    if isinstance(value, datetime.datetime):
        return f"timestamp({go_quote(_timestamp(value))})"
    if isinstance(value, datetime.timedelta):
        return f"duration({go_quote(_duration(value))})"
    if isinstance(value, bool) or value is None or isinstance(value, (int, list, dict, cel.Type)):
        return _string(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, (bytes, bytearray)):
        return "b" + go_quote(_string(value))
    raise FormatError(f"no formatting function for {type_name(value)}")


def _map(value: dict) -> str:
    """formatMap: `key:value` entries sorted by the key's text (keys: strings, bools, ints, uints)."""
    entries = []
    for key, member in value.items():
        if isinstance(key, str):
            key_text = go_quote(key)
        elif isinstance(key, (bool, int)):
            key_text = _string(key)
        else:
            raise FormatError(f"no formatting function for map key of type {type_name(key)}")
        entries.append((key_text, _member(member)))
    entries.sort(key=lambda entry: entry[0])  # sort.SliceStable on the quoted keys
    return "{" + ", ".join(f"{k}:{v}" for k, v in entries) + "}"


def _timestamp(value: datetime.datetime) -> str:
    """A timestamp converted to a string: time.RFC3339Nano in UTC (fraction without trailing zeros)."""
    t = value.astimezone(datetime.UTC)
    fraction = f".{t.microsecond:06d}".rstrip("0") if t.microsecond else ""
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}{fraction}Z"


def _duration(value: datetime.timedelta) -> str:
    """A duration converted to a string: FormatFloat(d.Seconds(), 'f', -1, 64) + "s"."""
    nanos = (value // datetime.timedelta(microseconds=1)) * 1000
    whole = abs(nanos) // 1_000_000_000 * (1 if nanos >= 0 else -1)
    return go_float_f(float(whole) + float(nanos - whole * 1_000_000_000) / 1e9) + "s"


#: cel-expr-python's names of type values -> cel-go's runtime type names (Type.TypeName()).
_TYPE_NAMES = {"INT": "int", "UINT": "uint", "DOUBLE": "double", "BOOL": "bool", "STRING": "string",
               "BYTES": "bytes", "NULL": "null_type", "TYPE": "type", "LIST": "list", "MAP": "map",
               "TIMESTAMP": "google.protobuf.Timestamp", "DURATION": "google.protobuf.Duration",
               "DYN": "dyn", "ERROR": "error"}


def _type_value_name(t: cel.Type) -> str:
    """A type value converted to a string: its runtime type name, without type parameters."""
    if t.is_message():
        return t.name()
    head = t.name().split("<", 1)[0]
    return _TYPE_NAMES.get(head, head)


def type_name(value: Any) -> str:
    """The runtime type name of a value, as cel-go's errors name it."""
    for python_type, name in ((bool, "bool"), (int, "int"), (float, "double"), (str, "string"),
                              ((bytes, bytearray), "bytes"), (list, "list"), (dict, "map"),
                              (datetime.datetime, "google.protobuf.Timestamp"),
                              (datetime.timedelta, "google.protobuf.Duration"), (cel.Type, "type")):
        if isinstance(value, python_type):
            return name
    if value is None:
        return "null_type"
    descriptor = getattr(value, "DESCRIPTOR", None)
    return descriptor.full_name if descriptor is not None else type(value).__name__
