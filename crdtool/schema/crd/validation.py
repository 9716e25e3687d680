"""The apiserver's validation of a CustomResourceDefinition around its schemas
(ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate of
k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation).

Input is the internal form (`crd_internal.to_internal`, whose docstring is the contract): the
v1 CRD with JSON field names, defaulted, its namespace cleared, per-version schema,
subresources, printer columns and selectable fields hoisted to `spec` when all versions
agree, `spec.version` set to the first version's name, the conversion webhook flattened
(`webhookClientConfig`, `conversionReviewVersions`) and `status` set by the create or
update strategy. An update expects the REST layer's metadata too (the stored
resourceVersion, uid, creationTimestamp and generation), as `kubectl apply` sends them. The schemas themselves are
checked by the `validate_schema` callable (validateCustomResourceDefinitionValidation),
called where and as the apiserver calls it so its errors land in the apiserver's order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gourl import URLError, parse_request_uri
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_dns1035_label, is_dns1123_subdomain, name_is_dns_subdomain
from crdtool.schema.apimachinery.objectmeta import (
    validate_immutable_field,
    validate_object_meta,
    validate_object_meta_update,
)
from crdtool.schema.crd import gostruct as crd_gostruct
from crdtool.schema.crd.conversion import validate_conversion, validate_enum
from crdtool.schema.crd.extras import (
    deprecation_warning_errors,
    validate_printer_columns,
    validate_selectable_fields,
    validate_subresources,
)
from crdtool.schema.crd.nodes import iter_schemas
from crdtool.schema.crd.options import CREATE, ValidationOptions
from crdtool.schema.crd.update_options import has_default, has_kubernetes_extension, spec_schemas, update_options
from crdtool.schema.structural.structural import NotStructuralError, new_structural

#: validateCustomResourceDefinitionValidation: (validation, status enabled, options, path) -> errors.
SchemaValidator = Callable[[dict | None, bool, ValidationOptions, Path], list[FieldError]]

API_APPROVAL_ANNOTATION = "api-approved.kubernetes.io"
_APPROVAL_PR = "see https://github.com/kubernetes/enhancements/pull/1111"
_METADATA = Path.root("metadata")
_SPEC = Path.root("spec")
_STATUS = Path.root("status")


def validate_crd(crd: dict, validate_schema: SchemaValidator) -> list[FieldError]:
    """ValidateCustomResourceDefinition: the errors of creating this CRD, in the apiserver's order."""
    spec = crd.get("spec") or {}
    errs = validate_object_meta(crd.get("metadata"), False, _name_fn(spec), _METADATA)
    errs.extend(_validate_spec(spec, CREATE, validate_schema, _SPEC))
    errs.extend(_validate_tail(crd, None))
    return errs


def validate_crd_update(crd: dict, old: dict, validate_schema: SchemaValidator) -> list[FieldError]:
    """ValidateCustomResourceDefinitionUpdate: the errors of replacing `old` (the stored CRD) by `crd`."""
    opts = update_options(old, crd)
    spec, old_spec = crd.get("spec") or {}, old.get("spec") or {}
    errs = validate_object_meta_update(crd.get("metadata"), old.get("metadata"), _METADATA)
    errs.extend(_validate_spec(spec, opts, validate_schema, _SPEC))
    names, old_names = spec.get("names") or {}, old_spec.get("names") or {}
    if opts.require_immutable_names:
        errs.extend(validate_immutable_field(TypedString(spec.get("scope", "")),  # ResourceScope
                                             old_spec.get("scope", ""), _SPEC.child("scope")))
        errs.extend(validate_immutable_field(names.get("kind", ""), old_names.get("kind", ""),
                                             _SPEC.child("names", "kind")))
    errs.extend(validate_immutable_field(spec.get("group", ""), old_spec.get("group", ""), _SPEC.child("group")))
    errs.extend(validate_immutable_field(names.get("plural", ""), old_names.get("plural", ""),
                                         _SPEC.child("names", "plural")))
    errs.extend(_validate_tail(crd, old))
    return errs


def _name_fn(spec: dict):
    names = spec.get("names") or {}
    required = f"{names.get('plural') or ''}.{spec.get('group') or ''}"

    def name_fn(name: str, prefix: bool) -> list[str]:
        msgs = name_is_dns_subdomain(name, prefix)
        if name != required:
            msgs.append('must be spec.names.plural+"."+spec.group')
        return msgs

    return name_fn


def _validate_tail(crd: dict, old: dict | None) -> list[FieldError]:
    """What follows the spec in both create and update: status, stored versions, approval, pruning."""
    spec = crd.get("spec") or {}
    status = crd.get("status") or {}
    errs = validate_names(status.get("acceptedNames") or {}, _STATUS.child("acceptedNames"))
    errs.extend(validate_stored_versions(status.get("storedVersions"), spec.get("versions") or [],
                                         _STATUS.child("storedVersions")))
    errs.extend(_validate_api_approval(crd, old))
    errs.extend(_validate_preserve_unknown_fields(crd, old))
    return errs


def _preserve_unknown_fields(spec: dict) -> bool:
    """spec.preserveUnknownFields; converted from v1 it is always set, absent reads as false."""
    return bool(spec.get("preserveUnknownFields"))


def _schema_flags(spec: dict) -> tuple[bool, bool]:
    """(specHasDefaults, specHasKubernetesExtensions) in one walk of the schemas."""
    defaults = extensions = False
    for schema in spec_schemas(spec):
        for node in iter_schemas(schema):
            defaults = defaults or has_default(node)
            extensions = extensions or has_kubernetes_extension(node)
            if defaults and extensions:
                return True, True
    return defaults, extensions


def _status_enabled(subresources: dict | None) -> bool:
    return subresources is not None and subresources.get("status") is not None


def _subresources_for_version(spec: dict, versions: list, name: str) -> dict | None:
    """getSubresourcesForVersion."""
    if not any(v.get("subresources") is not None for v in versions):
        return spec.get("subresources")
    for v in versions:
        if v.get("name") == name:
            return v.get("subresources")
    return None


def _identical(versions: list, key: str, present: Callable) -> bool:
    """hasIdenticalPerVersion*: every version sets the field, all to the first one's value."""
    if not versions:
        return False
    first = versions[0].get(key)
    return all(present(v.get(key)) and v.get(key) == first for v in versions)


def _validate_spec(spec: dict, opts: ValidationOptions, validate_schema: SchemaValidator,
                   path: Path) -> list[FieldError]:
    """validateCustomResourceDefinitionSpec, its steps in Go's order."""
    errs = _group_errors(spec.get("group") or "", path.child("group"))
    errs.extend(validate_enum(path.child("scope"), spec.get("scope") or "", ("Cluster", "Namespaced")))
    preserve = _preserve_unknown_fields(spec)
    validation = spec.get("validation")
    top_schema = (validation or {}).get("openAPIV3Schema")
    versions = spec.get("versions") or []
    errs.extend(_missing_schema_errors(versions, top_schema, opts, preserve, path))
    opts = _schema_options(spec, opts, preserve, path, errs)
    errs.extend(_versions_errors(spec, versions, opts, validate_schema, path))
    version = spec.get("version") or ""
    if version:
        if version_errs := is_dns1035_label(version):
            errs.append(FieldError.invalid(path.child("version"), version, ",".join(version_errs)))
        if versions and (versions[0].get("name") or "") != version:
            errs.append(FieldError.invalid(path.child("version"), version,
                                           "must match the first version in spec.versions"))

    names = spec.get("names") or {}
    for name in ("plural", "singular", "kind", "listKind"):
        if not names.get(name):
            errs.append(FieldError.required(path.child("names", name)))
    errs.extend(validate_names(names, path.child("names")))
    any_status = _status_enabled(spec.get("subresources")) or any(
        _status_enabled(v.get("subresources")) for v in versions)
    errs.extend(validate_schema(validation, any_status, opts.for_version(version), path.child("validation")))
    errs.extend(validate_subresources(spec.get("subresources"), path.child("subresources")))
    errs.extend(validate_printer_columns(spec.get("additionalPrinterColumns"), path.child("additionalPrinterColumns")))
    selectable = spec.get("selectableFields")
    if selectable:
        if validation is None:
            errs.append(FieldError.invalid(path.child("selectableFields"), "",
                                           "selectableFields may only be set when validations.schema is included"))
        else:
            errs.extend(_selectable_fields(selectable, top_schema, path.child("schema.openAPIV3Schema"),
                                           path.child("selectableFields")))
    errs.extend(_conversion_errors(spec.get("conversion"), preserve, opts, path.child("conversion")))
    return errs


def _group_errors(group: str, path: Path) -> list[FieldError]:
    """spec.group: required, a DNS subdomain, with at least one dot."""
    if not group:
        return [FieldError.required(path)]
    if group_errs := is_dns1123_subdomain(group):
        return [FieldError.invalid(path, group, ",".join(group_errs))]
    if len(group.split(".")) < 2:
        return [FieldError.invalid(path, group, "should be a domain with at least one dot")]
    return []


def _missing_schema_errors(versions: list, top_schema: dict | None, opts: ValidationOptions, preserve: bool,
                           path: Path) -> list[FieldError]:
    """A version without a schema: required by v1, or (when unknown fields are pruned) for a served version."""
    errs: list[FieldError] = []
    if top_schema is not None or not (opts.require_openapi_schema or not preserve):
        return errs
    for i, v in enumerate(versions):
        if (v.get("schema") or {}).get("openAPIV3Schema") is not None:
            continue
        at = path.child("versions").index(i).child("schema", "openAPIV3Schema")
        if opts.require_openapi_schema:
            # 1.36 reports this without the older "schemas are required" detail.
            errs.append(FieldError.required(at))
        elif v.get("served"):
            errs.append(FieldError.required(at, "because otherwise all fields are pruned"))
    return errs


def _schema_options(spec: dict, opts: ValidationOptions, preserve: bool, path: Path,
                    errs: list[FieldError]) -> ValidationOptions:
    """The options the schemas are validated with: pruning, defaults and the x-kubernetes extensions
    require a structural schema (defaults also require preserveUnknownFields false, appended to errs)."""
    if not preserve:
        opts = replace(opts, require_structural_schema=True)
    has_defaults, has_extensions = _schema_flags(spec)
    if opts.allow_defaults and has_defaults:
        opts = replace(opts, require_structural_schema=True)
        if preserve:
            errs.append(FieldError.invalid(path.child("preserveUnknownFields"), True,
                                           "must be false in order to use defaults in the schema"))
    if has_extensions:
        opts = replace(opts, require_structural_schema=True)
    return opts


def _versions_errors(spec: dict, versions: list, opts: ValidationOptions, validate_schema: SchemaValidator,
                     path: Path) -> list[FieldError]:
    """spec.versions: each version, then the rules across them (top-level against per-version fields,
    identical per-version values, unique names, exactly one storage version)."""
    errs: list[FieldError] = []
    storage_count = 0
    seen: set[str] = set()
    unique_names = True
    for i, v in enumerate(versions):
        name = v.get("name") or ""
        storage_count += bool(v.get("storage"))
        if name in seen:
            unique_names = False
        seen.add(name)
        at = path.child("versions").index(i)
        if name_errs := is_dns1035_label(name):
            errs.append(FieldError.invalid(at.child("name"), name, ",".join(name_errs)))
        status_enabled = _status_enabled(_subresources_for_version(spec, versions, name))
        errs.extend(_validate_version(v, at, status_enabled, opts, validate_schema))

    if spec.get("validation") is not None and any(v.get("schema") is not None for v in versions):
        errs.append(FieldError.forbidden(path.child("validation"),
                                         "top-level and per-version schemas are mutually exclusive"))
    if spec.get("subresources") is not None and any(v.get("subresources") is not None for v in versions):
        errs.append(FieldError.forbidden(path.child("subresources"),
                                         "top-level and per-version subresources are mutually exclusive"))
    if spec.get("additionalPrinterColumns") and any(v.get("additionalPrinterColumns") for v in versions):
        errs.append(FieldError.forbidden(path.child("additionalPrinterColumns"),
                                         "top-level and per-version additionalPrinterColumns are mutually exclusive"))
    for key, what, top in (("schema", "schemas", "validation"), ("subresources", "subresources", "subresources"),
                           ("additionalPrinterColumns", "additionalPrinterColumns", "additionalPrinterColumns")):
        present = bool if key == "additionalPrinterColumns" else (lambda x: x is not None)
        if _identical(versions, key, present):
            errs.append(FieldError.invalid(path.child("versions"), crd_gostruct.versions(spec.get("versions")),
                                           f"per-version {what} may not all be set to identical values "
                                           f"(top-level {top} should be used instead)"))
    if not unique_names:
        errs.append(FieldError.invalid(path.child("versions"), crd_gostruct.versions(spec.get("versions")),
                                       "must contain unique version names"))
    if storage_count != 1:
        errs.append(FieldError.invalid(path.child("versions"), crd_gostruct.versions(spec.get("versions")),
                                       "must have exactly one version marked as storage version"))
    return errs


def _conversion_errors(conversion: dict | None, preserve: bool, opts: ValidationOptions,
                       path: Path) -> list[FieldError]:
    """spec.conversion: a strategy other than None needs pruning; then the conversion itself."""
    errs: list[FieldError] = []
    if conversion is not None and conversion.get("strategy") != "None" and preserve:
        errs.append(FieldError.invalid(path.child("strategy"),
                                       TypedString(conversion.get("strategy") or ""),  # ConversionStrategyType
                                       "must be None if spec.preserveUnknownFields is true"))
    errs.extend(validate_conversion(conversion, opts.require_recognized_conversion_review_version,
                                    opts.allow_invalid_ca_bundle, path))
    return errs


def _validate_version(v: dict, path: Path, status_enabled: bool, opts: ValidationOptions,
                      validate_schema: SchemaValidator) -> list[FieldError]:
    """validateCustomResourceDefinitionVersion."""
    warning = v.get("deprecationWarning")
    errs = [FieldError.invalid(path.child("deprecationWarning"), warning, m)
            for m in deprecation_warning_errors(bool(v.get("deprecated")), warning)]
    schema = v.get("schema")
    errs.extend(validate_schema(schema, status_enabled, opts.for_version(v.get("name") or ""), path.child("schema")))
    errs.extend(validate_subresources(v.get("subresources"), path.child("subresources")))
    errs.extend(validate_printer_columns(v.get("additionalPrinterColumns"), path.child("additionalPrinterColumns")))
    selectable = v.get("selectableFields")
    if selectable:
        openapi = (schema or {}).get("openAPIV3Schema")
        if openapi is None:
            errs.append(FieldError.invalid(
                path.child("selectableFields"), "",
                "selectableFields may only be set when version.schema.openAPIV3Schema is not included"))
        else:
            errs.extend(_selectable_fields(selectable, openapi, path.child("schema.openAPIV3Schema"),
                                           path.child("selectableFields")))
    return errs


def _selectable_fields(fields: list, schema: dict | None, schema_path: Path, path: Path) -> list[FieldError]:
    """The selectable fields of a schema, after the NewStructural error the apiserver reports first."""
    errs: list[FieldError] = []
    try:
        new_structural(schema)
    except NotStructuralError as e:
        errs.append(FieldError.invalid(schema_path, "", str(e)))
    errs.extend(validate_selectable_fields(fields, schema, path))
    return errs


def validate_names(names: dict, path: Path) -> list[FieldError]:
    """ValidateCustomResourceDefinitionNames (of spec.names and status.acceptedNames)."""
    errs: list[FieldError] = []
    for key in ("plural", "singular"):
        value = names.get(key) or ""
        if value and (msgs := is_dns1035_label(value)):
            errs.append(FieldError.invalid(path.child(key), value, ",".join(msgs)))
    for key in ("kind", "listKind"):
        value = names.get(key) or ""
        if value and (msgs := is_dns1035_label(value.lower())):
            errs.append(FieldError.invalid(path.child(key), value,
                                           "may have mixed case, but should otherwise match: " + ",".join(msgs)))
    for i, short in enumerate(names.get("shortNames") or ()):
        if msgs := is_dns1035_label(short):
            errs.append(FieldError.invalid(path.child("shortNames").index(i), short, ",".join(msgs)))
    kind = names.get("kind") or ""
    if kind and kind == (names.get("listKind") or ""):
        errs.append(FieldError.invalid(path.child("listKind"), kind, "kind and listKind may not be the same"))
    for i, category in enumerate(names.get("categories") or ()):
        if msgs := is_dns1035_label(category):
            errs.append(FieldError.invalid(path.child("categories").index(i), category, ",".join(msgs)))
    return errs


def validate_stored_versions(stored: list | None, versions: list, path: Path) -> list[FieldError]:
    """ValidateCustomResourceDefinitionStoredVersions: every version ever stored is still listed."""
    if not stored:
        return [FieldError.invalid(path, stored, "must have at least one stored version")]
    errs: list[FieldError] = []
    remaining = {v: i for i, v in enumerate(stored)}
    for v in versions:
        name = v.get("name") or ""
        if v.get("storage") and name not in remaining:
            errs.append(FieldError.invalid(path, stored, "must have the storage version " + name))
        remaining.pop(name, None)
    for v, i in sorted(remaining.items(), key=lambda item: item[1]):
        errs.append(FieldError.invalid(
            path.index(i), v, f"missing from spec.versions; {v} was previously a storage version, and must remain in "
                              f"spec.versions until a storage migration ensures no data remains persisted in {v} and "
                              f"removes {v} from status.storedVersions"))
    return errs


def is_protected_community_group(group: str) -> bool:
    """IsProtectedCommunityGroup: *.k8s.io and *.kubernetes.io need API approval."""
    return any(group == d or group.endswith("." + d) for d in ("k8s.io", "kubernetes.io"))


def api_approval_state(annotations: dict | None) -> tuple[str, str]:
    """GetAPIApprovalState: (missing | bypassed | approved | invalid, the reason)."""
    annotation = (annotations or {}).get(API_APPROVAL_ANNOTATION) or ""
    if not annotation:
        return "missing", f'protected groups must have approval annotation "{API_APPROVAL_ANNOTATION}", {_APPROVAL_PR}'
    if annotation.startswith("unapproved"):
        return "bypassed", f'not approved: "{annotation}"'
    try:
        url = parse_request_uri(annotation)
    except URLError:
        url = None
    if url is not None and url.host and url.scheme:
        return "approved", f"approved in {annotation}"
    return "invalid", (f'protected groups must have approval annotation "{API_APPROVAL_ANNOTATION}" with either a '
                       f'URL or a reason starting with "unapproved", {_APPROVAL_PR}')


def _validate_api_approval(crd: dict, old: dict | None) -> list[FieldError]:
    """validateAPIApproval: protected groups carry the approval annotation; an unchanged state passes."""
    if not is_protected_community_group((crd.get("spec") or {}).get("group") or ""):
        return []
    annotations = (crd.get("metadata") or {}).get("annotations") or {}
    state, reason = api_approval_state(annotations)
    if old is not None and api_approval_state((old.get("metadata") or {}).get("annotations"))[0] == state:
        return []
    at = _METADATA.child("annotations").key(API_APPROVAL_ANNOTATION)
    if state == "missing":
        return [FieldError.required(at, reason)]
    if state == "invalid":
        return [FieldError.invalid(at, annotations.get(API_APPROVAL_ANNOTATION) or "", reason)]
    return []


def _validate_preserve_unknown_fields(crd: dict, old: dict | None) -> list[FieldError]:
    """validatePreserveUnknownFields: it may stay true, never become true."""
    if old is not None and _preserve_unknown_fields(old.get("spec") or {}):
        return []
    if _preserve_unknown_fields(crd.get("spec") or {}):
        return [FieldError.invalid(_SPEC.child("preserveUnknownFields"), True,
                                   "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in "
                                   "spec.versions[*].schema instead")]
    return []
