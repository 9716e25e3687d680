"""The project's crdtool settings: `.crdtool.yaml` or `[tool.crdtool]` in pyproject.toml.

The first directory from the working directory upward that holds either file decides (a
pyproject.toml without a `[tool.crdtool]` table does not count), so that a pre-commit hook and a
CI step run from anywhere in a repository see the same settings. Paths in the file are relative to
the file's directory. Command-line flags always win over the file. A key crdtool does not know is
an error naming the file and the key: a misspelt setting silently ignored would pass a build that
should fail.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from yaml.nodes import MappingNode, Node, SequenceNode

from crdtool import KUBE_VERSION
from crdtool.errors import InputError, SettingsError
from crdtool.load.sources import read_text
from crdtool.load.yamlreader import PLAIN_TAG, YAMLInputError, node_locator, read_yaml_stream
from crdtool.model.record import Record
from crdtool.report.registry import FORMAT_NAMES

if TYPE_CHECKING:
    from crdtool.engine.skipped import SkipKinds

__all__ = ["Config", "find_config", "load_config"]

YAML_NAMES = (".crdtool.yaml", ".crdtool.yml")
#: The request's fieldValidation directives (metav1): the choices of --field-validation and of the setting.
FIELD_VALIDATION = ("Strict", "Warn", "Ignore")
SEVERITIES = ("error", "warning", "info", "off")

#: key -> what it holds, for the error that names a key crdtool does not know.
KEYS = {
    "crds": "CRD files or folders used by validate, prune, default, convert and columns (as -c)",
    "skip-kinds": "kinds not to check (Kind or Kind.group)",
    "skip-unknown-kinds": "skip objects whose kind no CRD defines",
    "field-validation": "Strict, Warn or Ignore",
    "format": "the output format",
    "kube-version": "the Kubernetes version to check against",
    "severities": "rule code -> error, warning, info or off",
    "cache": "false turns off the cache of CRD verdicts and decoded CRD files (as --no-cache)",
}


class _Locate(Protocol):
    """A setting's line and column from its keys (none: the settings as a whole), if known."""

    def __call__(self, *keys: str) -> tuple[int, int] | None: ...


class _Fail(Protocol):
    """The SettingsError for a setting (`key`, and keys inside it), placed where the setting is."""

    def __call__(self, key: str | None, message: str, *inner: str) -> SettingsError: ...


class Config(Record):
    """Settings read from a file (defaults when there is none)."""

    __slots__ = ("source", "crds", "skip_kinds", "skip_unknown_kinds", "field_validation", "format", "kube_version",
                 "severities", "cache")

    source: str | None
    crds: list[str]
    skip_kinds: list[str]
    skip_unknown_kinds: bool | None
    field_validation: str | None
    format: str | None
    kube_version: str | None
    severities: dict[str, str]
    #: False: no persistent cache (crdtool.cache) for this project.
    cache: bool

    def __init__(self, source: str | None = None, crds: list[str] | None = None, skip_kinds: list[str] | None = None,
                 skip_unknown_kinds: bool | None = None, field_validation: str | None = None, format: str | None = None,
                 kube_version: str | None = None, severities: dict[str, str] | None = None, cache: bool = True) -> None:
        self.source = source
        self.crds = [] if crds is None else crds
        self.skip_kinds = [] if skip_kinds is None else skip_kinds
        self.skip_unknown_kinds = skip_unknown_kinds
        self.field_validation = field_validation
        self.format = format
        self.kube_version = kube_version
        self.severities = {} if severities is None else severities
        self.cache = cache

    @property
    def skip_kinds_value(self) -> SkipKinds:
        """`skip-kinds` as the engine takes it."""
        from crdtool.engine.skipped import SkipKinds

        return SkipKinds(tuple(self.skip_kinds), self.source)

    def skips(self, kind: object, api_version: object) -> bool:
        """Whether a document of this kind is not to be checked (`Kind` or `Kind.group`)."""
        return self.skip_kinds_value.skips(kind, api_version)

def find_config(start: str | None = None) -> str | None:
    """The settings file that applies in `start` (default: the working directory), or None."""
    directory = os.path.abspath(start or os.getcwd())
    while True:
        for name in YAML_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(pyproject) and _has_tool_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _has_tool_table(path: str) -> bool:
    """Whether a pyproject.toml holds `[tool.crdtool]`. One that cannot be parsed counts only if it
    names the table: then it is surely meant for crdtool, and reading it must fail loudly."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return False
    if b"crdtool" not in raw and b"\\u" not in raw and b"\\U" not in raw:
        return False  # not even spelled (in a quoted key, an escape could spell it): nothing to parse
    import tomllib  # here: most runs meet no pyproject.toml naming crdtool

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return b"tool.crdtool" in raw
    return isinstance(data.get("tool"), dict) and "crdtool" in data["tool"]


def load_config(path: str) -> Config:
    """The settings in `path`; an unreadable file or an unknown or ill-typed key is a SettingsError."""
    if os.path.basename(path) == "pyproject.toml":
        return _load_pyproject(path)
    try:
        documents = [(value, root) for value, root, _ in read_yaml_stream(read_text(path)) if root is not None]
    except (InputError, YAMLInputError) as err:  # unreadable (read_text), or not YAML
        raise SettingsError(path, err.message, err.line, err.column) from None
    if not documents:
        return Config(source=path)
    if len(documents) > 1:
        raise SettingsError(path, "a settings file holds one YAML document", documents[1][1].start_mark.line + 1)
    value, root = documents[0]
    _refuse_tags(path, root)
    locate = node_locator(root)
    return _parse(path, value, "the settings", lambda *keys: locate(keys))


#: The tags of YAML's core schema; any other (`!!python/object`, `!custom`) has no place in settings.
_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "map", "seq"))


def _refuse_tags(path: str, root: Node) -> None:
    """A tag outside YAML's core schema is an error: the file would not mean what it seems to."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.tag not in _CORE_TAGS and node.tag != PLAIN_TAG:
            mark = node.start_mark
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise SettingsError(path, f"the tag {tag} is not allowed in a settings file", mark.line + 1,
                             mark.column + 1)
        if isinstance(node, MappingNode):
            stack.extend(item for pair in node.value for item in pair)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


def _load_pyproject(path: str) -> Config:
    """`[tool.crdtool]` of a pyproject.toml; keys are located by their line (tomllib keeps no positions)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as err:
        raise SettingsError(path, f"cannot read: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise SettingsError(path, f"not valid UTF-8 (byte 0x{raw[err.start]:02x}), as TOML must be", line) from None
    import tomllib

    try:
        table = tomllib.loads(text).get("tool", {}).get("crdtool", {})
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(path, f"invalid TOML: {err}") from None
    lines = text.splitlines()

    def locate(*keys: str) -> tuple[int, int] | None:
        key = keys[-1] if keys else None
        if key is None:
            return None
        pattern = re.compile(rf'^\s*(?:"{re.escape(key)}"|{re.escape(key)})\s*=')
        for number, line in enumerate(lines, 1):
            match = pattern.match(line)
            if match:
                return number, len(line) - len(line.lstrip()) + 1
        return None

    return _parse(path, table, "[tool.crdtool]", locate)


def _parse(path: str, table: Any, what: str, position: _Locate) -> Config:
    def fail(key: str | None, message: str, *inner: str) -> SettingsError:
        line, column = (position(key, *inner) if key else position()) or (None, None)
        return SettingsError(path, message, line, column)

    if table is None:
        return Config(source=path)
    if not isinstance(table, dict):
        raise fail(None, f"{what} must be a mapping of settings")
    config = Config(source=path)
    base = os.path.dirname(os.path.abspath(path))
    for key, value in table.items():
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise fail(key, f'unknown setting "{key}" (known: {known})')
        if key == "crds":
            config.crds = [os.path.normpath(os.path.join(base, p)) for p in _strings(value, key, fail)]
        elif key == "skip-kinds":
            config.skip_kinds = _strings(value, key, fail)
        elif key == "skip-unknown-kinds":
            if not isinstance(value, bool):
                raise fail(key, f'"{key}" must be true or false')
            config.skip_unknown_kinds = value
        elif key == "cache":
            if not isinstance(value, bool):
                raise fail(key, f'"{key}" must be true or false')
            config.cache = value
        elif key == "field-validation":
            config.field_validation = _choice(value, FIELD_VALIDATION, key, fail)
        elif key == "format":
            config.format = _choice(value, FORMAT_NAMES, key, fail)
        elif key == "kube-version":
            config.kube_version = check_kube_version(str(value), lambda message: fail("kube-version", message))
        elif key == "severities":
            if not isinstance(value, dict):
                raise fail(key, f'"{key}" must map rule codes to one of: {", ".join(SEVERITIES)}')
            config.severities = _severities(value, fail)
    return config


def _severities(value: dict[str, Any], fail: _Fail) -> dict[str, str]:
    """Rule code -> severity; a code crdtool does not have would silently change nothing."""
    from crdtool.upgrade.rules import RULES

    severities = {}
    for code, level in value.items():
        if code not in RULES:
            raise fail("severities", f'unknown rule code "{code}" in severities (known: {", ".join(RULES)})', code)
        # YAML 1.1, as Kubernetes reads it, takes a bare `off` for false.
        level = "off" if level is False else level
        if level not in SEVERITIES:
            raise fail("severities", f'"severities.{code}" must be one of: {", ".join(SEVERITIES)} (got {level!r})',
                       code)
        severities[str(code)] = level
    return severities


def check_kube_version(value: str, fail: Callable[[str], Exception]) -> str:
    """The version if it is the one crdtool checks against (1.36, v1.36 or 1.36.x); else `fail(message)`."""
    wanted = KUBE_VERSION.lstrip("v")
    given = value.strip().lstrip("v")
    if given == wanted or given.startswith(wanted + "."):
        return value
    raise fail(f'kube-version "{value}" is not supported: crdtool checks what a Kubernetes {wanted} '
               f"apiserver does")


def _strings(value: Any, key: str, fail: _Fail) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise fail(key, f'"{key}" must be a string or a list of strings')


def _choice(value: Any, choices: tuple[str, ...], key: str, fail: _Fail) -> str:
    if not isinstance(value, str) or value not in choices:
        raise fail(key.split(".")[0], f'"{key}" must be one of: {", ".join(choices)} (got {value!r})')
    return value
