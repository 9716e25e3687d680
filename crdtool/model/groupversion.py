"""apimachinery's group/version strings (`k8s.io/apimachinery/pkg/runtime/schema`).

Every place that splits an `apiVersion` goes through `parse_group_version`, so that a value such
as `a/b/c` is refused (or read as empty) everywhere exactly as the apiserver does, instead of each
caller cutting at some slash of its own choosing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

__all__ = [
    "GroupVersion", "GroupVersionError", "GroupVersionKind", "from_api_version_and_kind", "group_of",
    "parse_group_version", "try_parse_group_version",
]


class GroupVersionError(ValueError):
    """schema.ParseGroupVersion's error; str() is Go's text."""


class GroupVersion(NamedTuple):
    """schema.GroupVersion (a tuple, so `group, version = ...` reads it)."""

    group: str
    version: str

    def __str__(self) -> str:
        """GroupVersion.String(): the legacy group has no `group/` prefix."""
        return f"{self.group}/{self.version}" if self.group else self.version

    def with_kind(self, kind: str) -> GroupVersionKind:
        return GroupVersionKind(self.group, self.version, kind)


class GroupVersionKind(NamedTuple):
    """schema.GroupVersionKind."""

    group: str
    version: str
    kind: str

    def __str__(self) -> str:
        """GroupVersionKind.String(): `group/version, Kind=kind`, the group even when empty."""
        return f"{self.group}/{self.version}, Kind={self.kind}"

    @property
    def group_version(self) -> GroupVersion:
        return GroupVersion(self.group, self.version)


_EMPTY = GroupVersion("", "")


def parse_group_version(text: str) -> GroupVersion:
    """schema.ParseGroupVersion: "" and "/" are the empty group version, `v` is the legacy group,
    `g/v` splits at its only slash; more slashes raise GroupVersionError."""
    if not text or text == "/":
        return _EMPTY
    slashes = text.count("/")
    if slashes == 0:
        return GroupVersion("", text)
    if slashes == 1:
        group, _, version = text.partition("/")
        return GroupVersion(group, version)
    raise GroupVersionError(f"unexpected GroupVersion string: {text}")


def try_parse_group_version(text: str) -> GroupVersion | None:
    """parse_group_version, with None where Go returns an error."""
    try:
        return parse_group_version(text)
    except GroupVersionError:
        return None


def from_api_version_and_kind(api_version: object, kind: object) -> GroupVersionKind:
    """schema.FromAPIVersionAndKind (and Unstructured's GroupVersionKind()): an apiVersion that does
    not parse, or is not a string, leaves group and version empty. A non-string kind is read as ""."""
    return _group_version_kind(api_version if isinstance(api_version, str) else "",
                               kind if isinstance(kind, str) else "")


@lru_cache(maxsize=1024)
def _group_version_kind(api_version: str, kind: str) -> GroupVersionKind:
    """from_api_version_and_kind of strings, remembered: every object's is asked for several times, and a
    run's objects name a few kinds."""
    return (try_parse_group_version(api_version) or _EMPTY).with_kind(kind)


def group_of(api_version: object) -> str:
    """The group an object's apiVersion names ("" for the legacy group, a non-string or an unparseable
    value), as the apiserver's REST mapping reads it."""
    return from_api_version_and_kind(api_version, "").group
