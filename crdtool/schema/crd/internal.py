"""The CRD the apiserver validates: v1 defaulted, converted to the internal version, prepared
by the registry strategy.

The apiserver never validates the v1 object a user sends. It decodes it, applies the v1
defaults (SetObjectDefaults_CustomResourceDefinition), converts it to the internal
`apiextensions` version, lets the REST layer clear the namespace (a CRD is cluster-scoped)
and the strategy prepare it (PrepareForCreate / PrepareForUpdate), and validates that. Its
error paths therefore name internal fields: `spec.validation.openAPIV3Schema...` when all
versions share one schema, `spec.conversion.webhookClientConfig`, `spec.version`.

The internal form (the input of the spec-level and schema-level validation) is plain data
with the JSON field names the validation code uses in its paths. Absent keys mean the Go
zero value (empty string, false, 0, nil pointer, nil slice). Precisely:

- `apiVersion`, `kind`: as decoded.
- `metadata`: the decoded ObjectMeta without `namespace`.
- `spec`:
  - `group`, `scope`, `names`: as decoded; `names.singular` defaults to the lowercased
    `names.kind` (Go's strings.ToLower) when empty, `names.listKind` to `kind + "List"`
    when empty and `kind` is set.
  - `versions`: the decoded list, each entry a shallow copy with `name`, `served`, `storage`,
    `deprecated`, `deprecationWarning`, `schema`, `subresources`, `additionalPrinterColumns`,
    `selectableFields` as given, minus the hoisted keys (below). Absent when not given.
  - `version`: the first version's name (present iff `versions` is non-empty).
  - Hoisting (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_...): when every
    version's `schema` is semantically equal to the first's (apiequality.Semantic: nil and
    empty alike), `spec.validation` is the first version's `schema` (a dict with
    `openAPIV3Schema`) and `schema` is removed from every version; likewise `subresources`
    -> `spec.subresources` and `additionalPrinterColumns` -> `spec.additionalPrinterColumns`;
    `selectableFields` -> `spec.selectableFields` only when the schemas were hoisted too.
    A single version always hoists. When the shared value is absent nothing appears at the
    top. With no versions nothing is hoisted.
  - `conversion`: `{"strategy": "None"}` when absent (defaulted); else `strategy` as given,
    the v1 `webhook` flattened: `webhookClientConfig` (from `webhook.clientConfig`: `url`,
    `service` with `port` always present (defaulted to 443, an int), `caBundle` as `bytes`)
    and `conversionReviewVersions` (from `webhook.conversionReviewVersions`).
  - `preserveUnknownFields`: always present, a bool (false when not given).
- `status`: on create only `storedVersions: [<the first storage version's name>]` (absent
  when no version is a storage version); without the create strategy the decoded status
  with `storedVersions` defaulted the same way when empty; on update the stored CRD's
  status with the new storage version appended when it is not already listed.

The feature-gated fields the strategy could drop (`optionalOldSelf`, `selectableFields`)
stay: their gates (CRDValidationRatcheting, CustomResourceFieldSelectors) are on in 1.36.
Schema subtrees (and all raw JSON values) are shared with the decoded input, not copied:
treat both as read-only. Nothing of the input is modified.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from crdtool.schema.crd.decode import MISSING, semantic_equal

__all__ = ["internal_to_source", "prepare_for_update", "to_internal"]

#: Per-version fields that move to spec when all versions agree: (v1 version key, internal spec key).
_HOISTED = (("schema", "validation"), ("subresources", "subresources"),
            ("additionalPrinterColumns", "additionalPrinterColumns"), ("selectableFields", "selectableFields"))
_TO_SOURCE = {"validation": "schema", "subresources": "subresources",
              "additionalPrinterColumns": "additionalPrinterColumns", "selectableFields": "selectableFields"}


def to_internal(crd: dict, *, create: bool = True) -> dict:
    """The internal CRD the apiserver validates, from the result of `decode_crd`.

    `create` applies the create strategy (status reset). Without it the result is the object
    as defaulted and converted: the stored CRD of an update, or the new one before
    `prepare_for_update`.
    """
    spec = crd.get("spec") or {}
    versions = spec.get("versions")
    out_spec: dict[str, Any] = {k: spec[k] for k in ("group", "scope") if k in spec}
    out_spec["names"] = _default_names(spec.get("names") or {})
    if versions is not None:
        out_spec["versions"] = [dict(v) for v in versions]
        if versions:
            out_spec["version"] = versions[0].get("name", "")
            _hoist(out_spec)
    out_spec["conversion"] = _conversion(spec.get("conversion"))
    out_spec["preserveUnknownFields"] = bool(spec.get("preserveUnknownFields", False))

    out = {k: crd[k] for k in ("apiVersion", "kind") if k in crd}
    meta = crd.get("metadata")
    if meta is not None:
        out["metadata"] = {k: v for k, v in meta.items() if k != "namespace"}
    out["spec"] = out_spec
    if create:
        out["status"] = _with_storage_version({}, versions or [])
    else:
        status = dict(crd.get("status") or {})
        out["status"] = status if status.get("storedVersions") else _with_storage_version(status, versions or [])
    return out


#: What the apiserver's REST layer carries over from the stored object before validating an update
#: (a stored object always has a resourceVersion; kubectl apply updates the current one).
_SERVER_METADATA = ("uid", "creationTimestamp", "generation", "resourceVersion")


def prepare_for_update(new_internal: dict, old_internal: dict) -> dict:
    """PrepareForUpdate: the new CRD with the stored CRD's status (plus its storage version if new)
    and the server-managed metadata of the stored object."""
    out = dict(new_internal)
    old_meta = old_internal.get("metadata") or {}
    meta = dict(out.get("metadata") or {})
    for key in _SERVER_METADATA:
        if key in old_meta:
            meta[key] = old_meta[key]
    meta.setdefault("resourceVersion", "1")
    out["metadata"] = meta
    status = dict(old_internal.get("status") or {})
    out["status"] = _with_storage_version(status, (new_internal.get("spec") or {}).get("versions") or [])
    return out


def internal_to_source(segments: tuple) -> tuple:
    """The path in the user's v1 document of a path in the internal form (for line and column).

    Hoisted fields point into the first version; the flattened webhook back into `webhook`.
    """
    if len(segments) < 2 or segments[0] != "spec":
        return tuple(segments)
    head, rest = segments[1], tuple(segments[2:])
    moved = _TO_SOURCE.get(head)
    if moved is not None:
        return ("spec", "versions", 0, moved, *rest)
    if head == "version":
        return ("spec", "versions", 0, "name", *rest)
    if head == "conversion" and rest:
        if rest[0] == "webhookClientConfig":
            return ("spec", "conversion", "webhook", "clientConfig", *rest[1:])
        if rest[0] == "conversionReviewVersions":
            return ("spec", "conversion", "webhook", *rest)
    return tuple(segments)


def _default_names(names: dict) -> dict:
    """SetDefaults_CustomResourceDefinitionSpec for names: singular and listKind from kind."""
    out = dict(names)
    kind = names.get("kind", "")
    if not names.get("singular") and kind:
        out["singular"] = _go_lower(kind)
    if not names.get("listKind") and kind:
        out["listKind"] = kind + "List"
    return out


def _go_lower(s: str) -> str:
    """strings.ToLower: per-rune simple lowercase (no final sigma, U+0130 to a plain i)."""
    if s.isascii():
        return s.lower()
    return "".join("i" if c == "\u0130" else c.lower() for c in s)


def _hoist(spec: dict) -> None:
    """Move per-version fields identical in all versions to spec (the v1 -> internal conversion)."""
    versions = spec["versions"]
    first = versions[0]
    identical = {key: all(semantic_equal("CustomResourceDefinitionVersion", key, v.get(key, MISSING),
                                         first.get(key, MISSING)) for v in versions)
                 for key, _ in _HOISTED}
    identical["selectableFields"] = identical["selectableFields"] and identical["schema"]
    for key, top in _HOISTED:
        if not identical[key]:
            continue
        if key in first:
            spec[top] = first[key]
        for v in versions:
            v.pop(key, None)


def _conversion(conversion: dict | None) -> dict:
    """The internal conversion: defaulted to strategy None, the webhook flattened."""
    if conversion is None:
        return {"strategy": "None"}
    out = {"strategy": conversion["strategy"]} if "strategy" in conversion else {}
    webhook = conversion.get("webhook")
    if webhook is not None:
        if "conversionReviewVersions" in webhook:
            out["conversionReviewVersions"] = webhook["conversionReviewVersions"]
        client = webhook.get("clientConfig")
        if client is not None:
            out["webhookClientConfig"] = _client_config(client)
    return out


def _client_config(client: dict) -> dict:
    out: dict[str, Any] = {}
    if "url" in client:
        out["url"] = client["url"]
    service = client.get("service")
    if service is not None:
        out["service"] = {**service, "port": service.get("port", 443)}
    if "caBundle" in client:
        out["caBundle"] = _bytes(client["caBundle"])
    return out


def _bytes(value: str | list) -> bytes:
    """A []byte as encoding/json decoded it: base64 text (line breaks ignored), or a list of byte values."""
    if isinstance(value, list):
        return bytes(value)
    text = value.replace("\r", "").replace("\n", "")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return value.encode("utf-8", "surrogateescape")


def _with_storage_version(status: dict, versions: list) -> dict:
    """Append the first storage version to status.storedVersions unless it is already there."""
    for v in versions:
        if v.get("storage"):
            stored = list(status.get("storedVersions") or [])
            name = v.get("name", "")
            if name not in stored:
                stored.append(name)
            status["storedVersions"] = stored
            break
    return status
