"""The CEL environment of a Kubernetes 1.36 apiserver for CRD rules (compatibility version 1.35).

cel-go's extensions as the apiserver's base environment enables them (optional types, strings at
version 2, sets, lists, two-variable comprehensions; no math, no bindings, no encoders), and the
Kubernetes libraries written here in Python: the strings extension, IP and CIDR, URLs, quantities,
regex find/findAll, list isSorted/sum/min/max/indexOf/lastIndexOf, semver and named formats.
Authz is not available to CRD rules.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel.library import format as format_lib
from crdtool.cel.library import lists, net, opaque, quantity, regex, semver, strings, urls
from crdtool.cel.library.functions import Library

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2

    from crdtool.cel.sourcemap import SourceMap

__all__ = ["callable_functions", "config", "descriptor_files", "functions", "functions_named", "global_only_functions",
           "rewrite", "runtime_functions"]

# cel-expr-python's own extensions; its lists library stops at version 2 (cel-go's version 3 adds
# first() and last(), which are missing here). The strings extension (version 2) is written in Python
# (strings.py): cel-expr-python's own would own `indexOf`, which the Kubernetes list library overloads.
_EXTENSIONS = """extensions:
- name: optional
  version: 2
- name: sets
- name: lists
  version: 2
- name: two-var-comprehensions
"""


def config() -> cel.EnvConfig:
    """A fresh environment configuration with the extensions (cel-expr-python consumes it)."""
    return cel.NewEnvConfigFromYaml(_EXTENSIONS)


@cache
def _library() -> Library:
    lib = Library()
    for module in (strings, net, urls, quantity, regex, lists, semver, format_lib):
        module.library(lib)
    return lib


@cache
def functions() -> list[cel.FunctionDecl]:
    """The Kubernetes functions with their precise types, for type-checking rules (made once: every
    rule-bearing schema node's checking environment declares them; do not change the list)."""
    return _library().declarations()


def global_only_functions() -> frozenset[str]:
    """The library's functions that have no member overload."""
    return _library().global_only()


def functions_named(names: frozenset[str]) -> list[cel.FunctionDecl]:
    """`functions()` narrowed to those that expressions whose identifiers are `names` can call (`callable`)."""
    declared = dict(zip(_library().names(), functions(), strict=True))
    return [declared[name] for name in callable_functions(names)]


def callable_functions(names: frozenset[str]) -> tuple[str, ...]:
    """The library functions that expressions whose identifiers are `names` can call: each part of a
    function's name is an identifier of the call (`ip.isCanonical(...)`, `x.isSorted()`), and the checker
    looks up no other. An environment declares each function at some cost (most rules call none of the
    library's), and one it does not declare changes no answer for these expressions. Functions the
    rewrite of a call adds (`rewrite`: `__formatErrors`) are always callable."""
    return tuple(name for name, parts in _name_parts() if name.startswith("__") or parts <= names)


@cache
def _name_parts() -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((name, frozenset(name.split("."))) for name in _library().names())


def runtime_functions() -> list[cel.FunctionDecl]:
    """The Kubernetes functions for evaluating rules over dynamically typed values."""
    return _library().runtime_declarations()


def descriptor_files() -> list[descriptor_pb2.FileDescriptorProto]:
    return opaque.descriptor_file()


def rewrite(source: str) -> SourceMap:
    """The rule as compiled here (calls cel-expr-python cannot express directly, rewritten), with where
    its text came from in the rule."""
    return format_lib.rewrite(source)
