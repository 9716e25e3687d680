"""The upgrade-safety rules of `crdtool lint --against`: one stable code, a default severity and the
consequence a user should know, per kind of change.

The apiserver checks an update of a CRD for what would corrupt its own bookkeeping (a stored version
dropped from spec.versions, a changed scope, group, kind or plural) and refuses it; those answers come
from `lint --old`'s update validation, word for word, and no rule here repeats them. These rules are
about what the apiserver accepts but what breaks the objects already stored or the clients already
written against the old CRD. Severities: error breaks stored objects or existing clients outright,
warning may break them, info is a notice.

| code                            | severity | what changed                                                      |
|---------------------------------|----------|-------------------------------------------------------------------|
| served-version-removed          | error    | a served version removed from spec.versions (unless the apiserver |
|                                 |          | refuses that itself: a stored version), or set to served: false   |
| storage-version-changed         | error    | a new storage version under conversion strategy None, schemas     |
|                                 |          | differ (warning if no difference breaks, info if none may)        |
| subresource-removed             | error    | the status or scale subresource of a version removed              |
| field-removed                   | error    | a property gone from a version that still exists (renames too);   |
|                                 |          | warning when the parent keeps unknown fields                      |
| type-changed                    | error    | type, x-kubernetes-int-or-string or -embedded-resource changed    |
|                                 |          | (warning for a widening: integer -> number or int-or-string, ...) |
| preserve-unknown-fields-removed | error    | x-kubernetes-preserve-unknown-fields: true removed                |
| required-field-added            | error    | a field newly required (info when it has a default)               |
| enum-value-removed              | error    | a value removed from an enum                                      |
| format-changed                  | warning  | format added or changed (info if the apiserver ignores the format)|
| list-type-changed               | warning  | x-kubernetes-list-type, -list-map-keys or -map-type changed       |
| enum-added                      | warning  | an enum where there was none                                      |
| limit-tightened                 | warning  | a min/max/length/items/properties limit, pattern, multipleOf,     |
|                                 |          | nullable, or allOf/anyOf/oneOf/not made stricter (or changed)     |
| cel-rule-added                  | warning  | an x-kubernetes-validations rule whose text is new                |
| default-changed                 | warning  | a default changed                                                 |
| default-removed                 | warning  | a default removed                                                 |
| default-added                   | info     | a default added                                                   |
"""

from __future__ import annotations

from dataclasses import dataclass

from crdtool.model.findings import SEVERITIES, Finding
from crdtool.model.path import Path


@dataclass(frozen=True, slots=True)
class Rule:
    """One kind of upgrade hazard: its code, its default severity, and why it matters to users."""

    code: str
    severity: str
    summary: str
    #: The consequence appended to every finding of the rule (unless a change states its own).
    why: str


_RULE_LIST = (
    Rule("served-version-removed", "error", "a served version removed or no longer served",
         "clients and controllers that use it get 404 NotFound"),
    Rule("storage-version-changed", "error", "a new storage version without a conversion strategy",
         "with conversion strategy None, objects stored in the old version are served in the new one "
         "unchanged but for apiVersion"),
    Rule("subresource-removed", "error", "a subresource removed",
         "clients that use it get 404 NotFound"),
    Rule("field-removed", "error", "a field removed or renamed",
         "stored values are pruned when objects are read, and clients that still send it are refused "
         "under strict field validation (kubectl's default)"),
    Rule("type-changed", "error", "a field's type changed",
         "stored values of the old type no longer validate, and clients built for the old type break"),
    Rule("preserve-unknown-fields-removed", "error", "x-kubernetes-preserve-unknown-fields removed",
         "fields stored under it that the schema does not list are pruned when objects are read"),
    Rule("required-field-added", "error", "a field became required",
         "creates that omit it are refused, and so are updates of existing objects that change the object "
         "holding it without setting it"),
    Rule("enum-value-removed", "error", "enum values removed",
         "clients sending a removed value are refused, and stored objects that hold one cannot change the "
         "field except to an allowed value"),
    Rule("format-changed", "warning", "a string format added or changed",
         "values that do not match the new format are refused when written"),
    Rule("list-type-changed", "warning", "a list or map merge strategy changed",
         "server-side apply merges the field differently, and set/map lists refuse duplicates"),
    Rule("enum-added", "warning", "an enum added",
         "values outside it are refused when written; existing values are kept while unchanged "
         "(validation ratcheting)"),
    Rule("limit-tightened", "warning", "a validation limit tightened",
         "values outside the new limit are refused when written; existing values are kept while unchanged "
         "(validation ratcheting)"),
    Rule("cel-rule-added", "warning", "a new CEL validation rule",
         "existing values may fail it: updates that leave the field unchanged still pass (Kubernetes 1.36 "
         "ratchets validation), but creates and changes of the field must satisfy it; to check it only where "
         "the field is first set, write a transition rule with optionalOldSelf: true, e.g. "
         "`oldSelf.hasValue() || <rule>`"),
    Rule("default-changed", "warning", "a default changed",
         "objects that omit the field change value: defaults apply when objects are read and written"),
    Rule("default-removed", "warning", "a default removed",
         "new objects that omit the field no longer get a value, and controllers that expect one may break"),
    Rule("default-added", "info", "a default added",
         "objects that omit the field show the default when read, and store it on their next write"),
)

#: code -> Rule, in the table's order (most severe first).
RULES: dict[str, Rule] = {rule.code: rule for rule in _RULE_LIST}


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between the old and the new CRD that a rule is about.

    `path` is in the new document (for a removal: the removed node's path, whose nearest existing
    ancestor gives the position); `what` says what changed, e.g. `type changed from "integer" to
    "string"`; `version` the CRD version it is in (None for changes of the CRD itself); `why` and
    `severity` replace the rule's own when the consequence differs (a new required field with a default).
    """

    code: str
    path: Path
    what: str
    version: str | None = None
    why: str | None = None
    severity: str | None = None


def to_finding(change: Change) -> Finding:
    """The finding a user reads: `<what> in version <v>; <consequence>`, with the rule's code and severity."""
    rule = RULES[change.code]
    where = f" in version {change.version}" if change.version is not None else ""
    return Finding(change.code, change.severity or rule.severity, change.path,
                   f"{change.what}{where}; {change.why or rule.why}")


def at_least(severity: str, threshold: str) -> bool:
    """Whether `severity` is `threshold` or more severe (error > warning > info)."""
    return SEVERITIES.index(severity) <= SEVERITIES.index(threshold)
