"""scripts/gen_builtin_openapi.py and scripts/openapigen.py: the enum values and descriptions openapi-gen
builds from Go source, generated here from small fixtures of Go source (no network), and checked
against the vendored data they made from k8s.io/api v0.36.0."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from crdtool.apis import openapi

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
DATA = Path(__file__).resolve().parents[2] / "data" / "openapi-gen"

# Excerpts of k8s.io/api v0.36.0 core/v1/types.go and apps/v1/types.go, comments as they are there.
CORE_V1 = (DATA / "core-v1.go").read_text(encoding="utf-8")
APPS_V1 = (DATA / "apps-v1.go").read_text(encoding="utf-8")
# Made up, in the shapes k8s.io/api uses: an alias of an enum type in another package re-exporting its
# constants, a deprecated alias constant without comment, a trailing comment, a `---` line.
ADMISSION_V1 = '''package v1

// ScopeType specifies a scope for a Rule.
// +enum
type ScopeType string

const (
	// ClusterScope means that scope is limited to cluster-scoped objects.
	ClusterScope ScopeType = "Cluster"
	// AllScopes means that all scopes are included.
	AllScopes ScopeType = "*" // every scope
	NamespacedScope ScopeType = "Namespaced"
	Plain = "Plain"
	Converted = ScopeType("Converted")
)

// Level is a string but not an enum.
type Level string

const LevelHigh Level = "High"
'''
ADMISSION_V1BETA1 = '''package v1beta1

import (
	v1 "k8s.io/api/admissionregistration/v1"
)

// ScopeType specifies a scope for a Rule.
// +enum
type ScopeType = v1.ScopeType

const (
	// ClusterScope means that scope is limited to cluster-scoped objects.
	// Namespace objects are cluster-scoped.
	ClusterScope ScopeType = v1.ClusterScope
	AllScopesDeprecated = v1.AllScopes
)

type Rule struct {
	// scope of the rule.
	//
	// +optional
	Scope *ScopeType `json:"scope,omitempty"`
	// scopes of the rule.
	Scopes []ScopeType `json:"scopes,omitempty"`
	// level of the rule.
	//---
	// hidden text
	Level v1.Level `json:"level,omitempty"`
	// other scope of the rule.
	// ---
	// after the cut
	Other ScopeType `json:"other,omitempty"`
}
'''
SOURCES = {"k8s.io/api/core/v1": [CORE_V1], "k8s.io/api/apps/v1": [APPS_V1],
           "k8s.io/api/admissionregistration/v1": [ADMISSION_V1],
           "k8s.io/api/admissionregistration/v1beta1": [ADMISSION_V1BETA1]}


@pytest.fixture
def gen(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("gen_builtin_openapi")


@pytest.fixture
def openapigen(gen):
    return importlib.import_module("openapigen")


def generator(gen, definitions=None):
    return gen.Generator(definitions or {}, SOURCES.__getitem__, sorted(SOURCES))


@pytest.mark.parametrize(("key", "field"), [
    ("io.k8s.api.core.v1.Container", "imagePullPolicy"),
    ("io.k8s.api.core.v1.PodSpec", "restartPolicy"),
    ("io.k8s.api.apps.v1.DeploymentStrategy", "type"),
])
def test_the_vendored_enums_are_the_go_constants(gen, key: str, field: str) -> None:
    """Generating from the Go excerpts gives the vendored field's enum and description."""
    entry, descriptions = generator(gen).definition(key, {"properties": {field: {}}})
    generated = next(f for f in entry["fields"] if f["n"] == field)
    vendored = next(f for f in openapi.definition(key)["fields"] if f["n"] == field)
    assert generated["enum"] == vendored["enum"]
    assert descriptions[field] == openapi.descriptions()[key][field]


def test_enum_values_and_lines(gen) -> None:
    entry, descriptions = generator(gen).definition("io.k8s.api.apps.v1.DeploymentStrategy",
                                                    {"properties": {"type": {}}})
    assert entry["fields"][0]["enum"] == ["Recreate", "RollingUpdate"]
    assert descriptions["type"] == (
        'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.\n\n'
        "Possible enum values:\n"
        ' - `"Recreate"` Kill all existing pods before creating new ones.\n'
        ' - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling update i.e gradually scale '
        "down the old ReplicaSets and scale up the new one.")
    _, restart = generator(gen).definition("io.k8s.api.core.v1.PodSpec", {"properties": {"restartPolicy": {}}})
    assert restart["restartPolicy"].endswith('Possible enum values:\n - `"Always"`\n - `"Never"`\n - `"OnFailure"`')


def test_an_alias_shares_its_types_values_across_packages(gen) -> None:
    """v1beta1.ScopeType is v1.ScopeType: the constants of both packages are its values, each value once
    with its longest comment (a conversion's constant too); a pointer field has them, a slice's items
    have the values only; untyped constants and constants of a type without `+enum` are no values."""
    props = {name: {} for name in ("scope", "scopes", "level", "other")}
    entry, descriptions = generator(gen).definition("io.k8s.api.admissionregistration.v1beta1.Rule",
                                                    {"properties": props})
    fields = {f["n"]: f for f in entry["fields"]}
    assert fields["scope"]["enum"] == ["*", "Cluster", "Converted", "Namespaced"]
    assert fields["scope"]["go"] == "v1.ScopeType"
    assert fields["scopes"]["e"]["enum"] == fields["scope"]["enum"] and "enum" not in fields["scopes"]
    assert "scopes" not in descriptions or "Possible" not in descriptions["scopes"]
    assert "enum" not in fields["level"]
    assert descriptions["scope"] == (
        "scope of the rule.\n\n\n"  # `+optional` after a blank line leaves the paragraph break doubled
        "Possible enum values:\n"
        ' - `"*"` means that all scopes are included.\n'
        ' - `"Cluster"` means that scope is limited to cluster-scoped objects. Namespace objects are cluster-scoped.\n'
        ' - `"Converted"`\n'
        ' - `"Namespaced"` every scope')  # gengo takes the trailing comment of the line before as its doc
    assert descriptions["other"] == "other scope of the rule."  # `---` ends it, enum lines too
    assert "level" not in descriptions  # not an enum: the published description (none here) is kept


def test_a_types_own_map_type_is_kept(gen) -> None:
    """`+structType=atomic` on a type is its definition's x-kubernetes-map-type (structured merge reads it)."""
    entry, _ = generator(gen).definition("io.k8s.api.core.v1.PodSpec", {
        "x-kubernetes-map-type": "atomic", "properties": {"restartPolicy": {}}})
    plain, _ = generator(gen).definition("io.k8s.api.core.v1.PodSpec", {"properties": {"restartPolicy": {}}})
    assert entry["mapType"] == "atomic" and "mapType" not in plain
    assert openapi.definition("io.k8s.api.core.v1.LocalObjectReference")["mapType"] == "atomic"
    assert "mapType" not in openapi.definition("io.k8s.api.core.v1.PodSpec")


def test_a_published_description_unlike_the_go_comment_is_reported(gen) -> None:
    g = generator(gen)
    _, descriptions = g.definition("io.k8s.api.core.v1.PodSpec",
                                   {"description": "PodSpec.", "properties": {"restartPolicy": {}}})
    assert descriptions[""] == "PodSpec."
    assert g.disagreements == ["io.k8s.api.core.v1.PodSpec"]


def test_comment_groups_as_go_parser_makes_them(openapigen) -> None:
    go = openapigen.GoFile('package p\n\n// a\n//b\n\n// c\n//go:generate x\n// d   \nvar x = "//no" // e\n'
                           "// f\nvar y = 1 /* g */ /* h\n*/\nvar z = 2\n")
    assert go.doc(3) == [""]  # nothing ends on line 2
    assert go.doc(5) == ["a", "b"]
    assert go.doc(9) == ["c", "d"]  # the blank line ended the group before; directives dropped, space trimmed
    assert go.doc(10) == ["e"]  # a trailing comment is a group of its own
    assert go.doc(11) == ["f"]
    assert go.doc(13) == [" g", " h"]  # comments on the line of code, and those the last one reaches
    assert go.code.splitlines()[8] == 'var x = "//no"     '


def test_description_rules(openapigen) -> None:
    lines = ["First line", "second line", "", "TODO: not this", "+tag", "Example:", "\tindented", "after", "---",
             "hidden"]
    assert openapigen.description(lines) == "First line second line\n\nExample:\n\tindented\nafter"
    value = openapigen.EnumValue("PullNever", "Never", "  PullNever   means\tnever ")
    assert value.line() == ' - `"Never"` means never'
