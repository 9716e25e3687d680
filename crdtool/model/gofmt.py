"""Go's renderings of values, as the apiserver's messages contain them.

The apiserver builds its texts with Go's fmt and encoding/json; these functions give
the same characters from Python values: `%q` (strconv.Quote), `%v` of numbers and
booleans, and json.Marshal (sorted map keys, HTML-safe escapes, Go's float format).
Every float64 Go renders is rendered here: `%v`/`%g` (go_float_g), `%f`/`%.Nf` and
FormatFloat 'f' (go_float_f), `%e` (go_float_e), encoding/json (go_json_float), and
golang.org/x/text/message's localized `%f` and `%e` (x_text_float_f, x_text_float_e).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from typing import Any

_SIMPLE_ESCAPES = {"\a": r"\a", "\b": r"\b", "\f": r"\f", "\n": r"\n", "\r": r"\r", "\t": r"\t", "\v": r"\v",
                   "\\": "\\\\", '"': '\\"'}
_PRINTABLE_CATEGORIES = ("L", "M", "N", "P", "S")


class GoStruct(dict[str, Any]):
    """A Go struct value: json.Marshal keeps its field order (plain dicts are Go maps, sorted)."""


def go_is_print(ch: str) -> bool:
    """unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space."""
    return ch == " " or unicodedata.category(ch)[0] in _PRINTABLE_CATEGORIES


def go_quote(s: str) -> str:
    """strconv.Quote: a double-quoted Go string literal."""
    out = ['"']
    for ch in s:
        esc = _SIMPLE_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x80 and 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        elif 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append("\\x%02x" % (ord(ch) - 0xDC00))
        elif go_is_print(ch):
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def _exp_suffix(exp: int) -> str:
    sign = "-" if exp < 0 else "+"
    return f"e{sign}{abs(exp):02d}"


def _shortest_digits(f: float) -> tuple[str, int]:
    """The shortest decimal digits of |f| and the decimal exponent: f = 0.DIGITS * 10**dp."""
    mantissa, _, exp = repr(abs(f)).partition("e")
    int_part, _, frac = mantissa.partition(".")
    frac = frac.rstrip("0") if frac != "0" else ""
    digits = (int_part + frac).lstrip("0")
    dp = len(int_part) + (int(exp) if exp else 0)
    if int_part == "0":
        stripped = frac.lstrip("0")
        dp = -(len(frac) - len(stripped)) + (int(exp) if exp else 0)
        digits = stripped
    digits = digits.rstrip("0") or "0"
    return digits, dp


def go_float_g(f: float) -> str:
    """`%v` of a float64: strconv.FormatFloat(f, 'g', -1, 64)."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    sign = "-" if f < 0 else ""
    exp = dp - 1
    if exp < -4 or exp >= 6:  # Go: the shortest 'g' switches to %e from exponent 6 on
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return sign + mant + _exp_suffix(exp)
    return sign + _fixed(digits, dp)


def go_float_f(f: float, prec: int = -1) -> str:
    """strconv.FormatFloat(f, 'f', prec, 64), which `%.<prec>f` prints too (`%f`: prec 6); prec -1: the
    fewest digits that read back as f, never an exponent (cel-go's durations: `1.5s`)."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if prec >= 0:
        return f"{f:.{prec}f}"  # Python's fixed notation rounds the exact binary value as Go's does
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    return ("-" if f < 0 else "") + _fixed(digits, dp)


def go_float_e(f: float, prec: int = 6) -> str:
    """`%.<prec>e` of a float64 (strconv.FormatFloat(f, 'e', prec, 64)): a two-digit exponent at least."""
    if math.isnan(f) or math.isinf(f):
        return go_float_f(f)
    return f"{f:.{prec}e}"  # Python's exponent has Go's sign and two digits at least


_SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def x_text_float_f(f: float, prec: int = 6) -> str:
    """golang.org/x/text/message's `%.<prec>f` for en-US (cel-go's string.format `%f`): Go's digits, the
    integer part grouped by thousands (`1,234.500000`), `∞` and `-∞` for the infinities, no sign on -0."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "∞" if f > 0 else "-∞"
    whole, dot, fraction = go_float_f(abs(f), prec).partition(".")
    return ("-" if f < 0 else "") + f"{int(whole):,}" + dot + fraction


def x_text_float_e(f: float, width: int = 0) -> str:
    """golang.org/x/text/message's `%<width>e` for en-US (cel-go's string.format `%e`): six decimals and a
    superscript power of ten, two digits at least (`2.718280 × 10⁰⁰`, narrow no-break spaces around ×),
    padded with spaces to `width` characters."""
    if math.isnan(f) or math.isinf(f):
        text = x_text_float_f(f)
    else:
        mantissa, _, exponent = go_float_e(abs(f)).partition("e")
        power = int(exponent)
        text = (("-" if f < 0 else "") + mantissa + "\u202f\u00d7\u202f10" + ("\u207b" if power < 0 else "")
                + f"{abs(power):02d}".translate(_SUPERSCRIPT_DIGITS))
    return text.rjust(width)


def _fixed(digits: str, dp: int) -> str:
    if dp <= 0:
        return "0." + "0" * (-dp) + digits
    if dp >= len(digits):
        return digits + "0" * (dp - len(digits))
    return digits[:dp] + "." + digits[dp:]


def go_json_float(f: float) -> str:
    """A float64 as encoding/json writes it (ES6 number formatting)."""
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    sign = "-" if f < 0 else ""
    exp = dp - 1
    if abs(f) < 1e-6 or abs(f) >= 1e21:
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return sign + mant + ("e-" if exp < 0 else "e+") + str(abs(exp))
    return sign + _fixed(digits, dp)


def go_json_data(value: Any) -> Any:
    """JSON data whose floats read back as encoding/json writes them: `value` itself when it holds
    none that Python writes otherwise (most objects; found by a walk that copies nothing), else a copy.

    Go writes an integral float64 below 1e21 without a fraction or exponent
    (9223372036854775807 read as a float is written 9223372036854776000), so such a
    float becomes the int of those digits; Python's json would write 9.223372036854776e+18.
    """
    return _with_go_ints(value) if _holds_float(value, _go_writes_as_int) else value


def _holds_float(value: Any, which: Callable[[float], bool]) -> bool:
    """Whether decoded JSON holds a float for which `which` is true: a walk without recursion, sorting
    or copying, for the questions asked of every object whose answer is almost always no."""
    if not isinstance(value, (dict, list)):
        return isinstance(value, float) and which(value)
    stack = [value]  # containers only: the leaves, mostly strings, are looked at once, where they are
    while stack:
        container = stack.pop()
        for x in container.values() if isinstance(container, dict) else container:
            if isinstance(x, (dict, list)):
                stack.append(x)
            elif isinstance(x, float) and which(x):
                return True
    return False


def _go_writes_as_int(x: Any) -> bool:
    return isinstance(x, float) and x.is_integer() and abs(x) < 1e21


def _with_go_ints(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _with_go_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_go_ints(v) for v in value]
    return int(go_json_float(value)) if _go_writes_as_int(value) else value


def go_value(v: Any) -> str:
    """`%v` (fmt.Sprint) of a value decoded from JSON into interface{}: numbers and booleans as Go
    prints them, nil as `<nil>`, maps as `map[k:v ...]` with sorted keys, slices as `[a b]`."""
    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_float_g(v)
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{go_value(v[k])}" for k in sorted(v)) + "]"
    if isinstance(v, list):
        return "[" + " ".join(go_value(x) for x in v) + "]"
    return str(v)


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f",
                 "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _json_string(s: str) -> str:
    out = ['"']
    for ch in s:
        esc = _JSON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_json(v: Any) -> str:
    """json.Marshal of a value: Go maps (dict) with sorted keys, GoStruct in field order."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return go_json_float(v)
    if isinstance(v, str):
        return _json_string(v)
    if isinstance(v, GoStruct):
        return "{" + ",".join(_json_string(k) + ":" + go_json(x) for k, x in v.items()) + "}"
    if isinstance(v, dict):
        return "{" + ",".join(_json_string(k) + ":" + go_json(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(go_json(x) for x in v) + "]"
    return _json_string(str(v))


# Go's unicode.IsSpace (strings.TrimSpace); Python's str.strip also strips \x1c-\x1f.
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028" \
            "\u2029\u202f\u205f\u3000"


_GO_TYPE_NAMES = {str: "string", int: "int64", float: "float64", bool: "bool", dict: "map[string]interface {}",
                  list: "[]interface {}", type(None): "<nil>"}


def go_type_name(value: Any) -> str:
    """%T of a value decoded from JSON into interface{} (unstructured)."""
    return _GO_TYPE_NAMES.get(type(value), type(value).__name__)


def go_json_kind(value: Any) -> str:
    """The word encoding/json uses for a JSON value in `cannot unmarshal <kind> into ...`."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    return "object"


def go_trim_space(s: str) -> str:
    """strings.TrimSpace."""
    return s.strip(_GO_SPACE)


def go_is_space(ch: str) -> bool:
    """unicode.IsSpace of one character."""
    return len(ch) == 1 and ch in _GO_SPACE


def json_unsupported_value(v: Any) -> tuple[tuple[str | int, ...], str] | None:
    """json.Marshal's refusal of a value that holds an infinity or NaN (`json: unsupported value: NaN`):
    the path of the first one in the order Go writes the value (map keys sorted) and its text (`NaN`,
    `+Inf`, `-Inf`); None for a value Go marshals. sigs.k8s.io/yaml marshals every YAML document so,
    and fails on `.nan` and `.inf` before anything reads it."""
    return _first_non_finite(v, ()) if _holds_float(v, lambda x: not math.isfinite(x)) else None


def _first_non_finite(v: Any, path: tuple[str | int, ...]) -> tuple[tuple[str | int, ...], str] | None:
    if isinstance(v, float):
        return None if math.isfinite(v) else (path, go_float_g(v))
    if isinstance(v, dict):
        return next((bad for key in sorted(v) if (bad := _first_non_finite(v[key], (*path, key))) is not None), None)
    if isinstance(v, list):
        return next((bad for i, x in enumerate(v) if (bad := _first_non_finite(x, (*path, i))) is not None), None)
    return None
