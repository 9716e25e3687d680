"""apimachinery's ObjectMeta validation (`k8s.io/apimachinery/pkg/api/validation`), for any kind.

CRDs and custom resources share these rules; only the name rule differs, so it is passed in
(`name_fn`, a `ValidateNameFunc`). Metadata arrives as the decoded JSON object. Go iterates the
label and annotation maps in random order; document order is used here.
"""

from __future__ import annotations

from typing import Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct, go_is_print
from crdtool.model.groupversion import GroupVersionKind, from_api_version_and_kind
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import (
    NameFunc,
    byte_len,
    is_qualified_name,
    is_valid_label_value,
    name_is_dns_label,
)

FIELD_IMMUTABLE = "field is immutable"
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)
FIELD_MANAGER_MAX_LENGTH = 128
MAX_SUBRESOURCE_NAME_LENGTH = 256
FINALIZER_ORPHAN = "orphan"
FINALIZER_FOREGROUND = "foregroundDeletion"
#: ObjectMeta fields whose Go type is not `string` (types.UID, metav1.Time, *metav1.Time): their bad
#: values are rendered by json.Marshal
_TYPED_STRING_FIELDS = frozenset({"uid", "creationTimestamp", "deletionTimestamp"})


def validate_object_meta(meta: dict | None, namespaced: bool, name_fn: NameFunc, path: Path) -> list[FieldError]:
    """ValidateObjectMeta: the metadata of an object being created (after name generation)."""
    meta = meta or {}
    errs: list[FieldError] = []
    generate_name = meta.get("generateName") or ""
    if generate_name:
        errs.extend(FieldError.invalid(path.child("generateName"), generate_name, m)
                    for m in name_fn(generate_name, True))
    name = meta.get("name") or ""
    if not name:
        errs.append(FieldError.required(path.child("name"), "name or generateName is required"))
    else:
        errs.extend(FieldError.invalid(path.child("name"), name, m) for m in name_fn(name, False))
    namespace = meta.get("namespace") or ""
    if namespaced:
        if not namespace:
            errs.append(FieldError.required(path.child("namespace")))
        else:
            errs.extend(FieldError.invalid(path.child("namespace"), namespace, m)
                        for m in name_is_dns_label(namespace, False))
    elif namespace:
        errs.append(FieldError.forbidden(path.child("namespace"), "not allowed on this type"))
    generation = meta.get("generation") or 0
    if generation < 0:
        errs.append(FieldError.invalid(path.child("generation"), generation, "must be greater than or equal to 0"))
    errs.extend(validate_labels(meta.get("labels"), path.child("labels")))
    errs.extend(validate_annotations(meta.get("annotations"), path.child("annotations")))
    errs.extend(validate_owner_references(meta.get("ownerReferences"), path.child("ownerReferences")))
    errs.extend(validate_finalizers(meta.get("finalizers"), path.child("finalizers")))
    errs.extend(validate_managed_fields(meta.get("managedFields"), path.child("managedFields")))
    return errs


def validate_object_meta_update(new: dict | None, old: dict | None, path: Path) -> list[FieldError]:
    """ValidateObjectMetaUpdate: what an update may not change, and the rules every metadata must meet."""
    new, old = new or {}, old or {}
    errs: list[FieldError] = []
    if old.get("deletionTimestamp") is not None:
        added = sorted(set(new.get("finalizers") or ()) - set(old.get("finalizers") or ()))
        if added:
            listed = ", ".join(f'"{f}"' for f in added)
            errs.append(FieldError.forbidden(
                path.child("finalizers"),
                "no new finalizers can be added if the object is being deleted, "
                f"found new finalizers []string{{{listed}}}"))
    resource_version = new.get("resourceVersion") or ""
    if not resource_version:
        errs.append(FieldError.invalid(path.child("resourceVersion"), resource_version,
                                       "must be specified for an update"))
    new_generation = new.get("generation") or 0
    if new_generation < (old.get("generation") or 0):
        errs.append(FieldError.invalid(path.child("generation"), new_generation, "must not be decremented"))
    for name, empty in (("name", ""), ("namespace", ""), ("uid", ""), ("creationTimestamp", None),
                        ("deletionTimestamp", None), ("deletionGracePeriodSeconds", None)):
        value = new.get(name, empty)
        if name in _TYPED_STRING_FIELDS and isinstance(value, str):
            value = TypedString(value)
        errs.extend(validate_immutable_field(value, old.get(name, empty), path.child(name)))
    errs.extend(validate_labels(new.get("labels"), path.child("labels")))
    errs.extend(validate_annotations(new.get("annotations"), path.child("annotations")))
    errs.extend(validate_owner_references(new.get("ownerReferences"), path.child("ownerReferences")))
    errs.extend(validate_managed_fields(new.get("managedFields"), path.child("managedFields")))
    return errs


def validate_immutable_field(new: Any, old: Any, path: Path) -> list[FieldError]:
    """ValidateImmutableField: `field is immutable` with the new value."""
    if new == old:
        return []
    return [FieldError.invalid(path, new, FIELD_IMMUTABLE)]


def validate_labels(labels: dict | None, path: Path) -> list[FieldError]:
    """ValidateLabels: each key a qualified name, each value a label value; all errors on `labels`."""
    errs: list[FieldError] = []
    for key, value in (labels or {}).items():
        errs.extend(FieldError.invalid(path, key, m) for m in is_qualified_name(key))
        value = value or ""
        errs.extend(FieldError.invalid(path, value, m) for m in is_valid_label_value(value))
    return errs


def validate_annotations(annotations: dict | None, path: Path) -> list[FieldError]:
    """ValidateAnnotations: keys are qualified names in any case; keys and values together at most 256 KiB."""
    annotations = annotations or {}
    errs: list[FieldError] = []
    total = 0
    for key, value in annotations.items():
        errs.extend(FieldError.invalid(path, key, m) for m in is_qualified_name(key.lower()))
        total += byte_len(key) + byte_len(value or "")
    if total > TOTAL_ANNOTATION_SIZE_LIMIT:
        errs.append(FieldError.too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT))
    return errs


#: BannedOwners: the kinds that may not own anything.
BANNED_OWNERS = frozenset({GroupVersionKind("", "v1", "Event")})


def _owner_reference_struct(ref: dict) -> GoStruct:
    """A metav1.OwnerReference as json.Marshal writes it: field order, pointers omitted when nil."""
    out = GoStruct(apiVersion=ref.get("apiVersion") or "", kind=ref.get("kind") or "", name=ref.get("name") or "",
                   uid=ref.get("uid") or "")
    for optional in ("controller", "blockOwnerDeletion"):
        if ref.get(optional) is not None:
            out[optional] = ref[optional]
    return out


def validate_owner_reference(ref: dict, path: Path) -> list[FieldError]:
    """validateOwnerReference: the group version, kind, name and uid must be there (the group may be
    empty, the legacy group), and the owner's kind may not be a banned one.

    The apiVersion is read with FromAPIVersionAndKind, so an unparseable one has no version either.
    """
    api_version, kind = ref.get("apiVersion") or "", ref.get("kind") or ""
    gvk = from_api_version_and_kind(api_version, kind)
    errs: list[FieldError] = []
    if not gvk.version:
        errs.append(FieldError.invalid(path.child("apiVersion"), api_version, "version must not be empty"))
    if not gvk.kind:
        errs.append(FieldError.invalid(path.child("kind"), kind, "must not be empty"))
    if not ref.get("name"):
        errs.append(FieldError.invalid(path.child("name"), ref.get("name") or "", "must not be empty"))
    if not ref.get("uid"):  # types.UID: rendered by json.Marshal
        errs.append(FieldError.invalid(path.child("uid"), TypedString(ref.get("uid") or ""), "must not be empty"))
    if gvk in BANNED_OWNERS:
        errs.append(FieldError.invalid(path, _owner_reference_struct(ref), f"{gvk} is disallowed from being an owner"))
    return errs


def validate_owner_references(refs: list | None, path: Path) -> list[FieldError]:
    """ValidateOwnerReferences: each reference valid, at most one with `controller: true`.

    The errors name `ownerReferences.<field>` without an index, as the apiserver's do.
    """
    errs: list[FieldError] = []
    first_controller = ""
    for ref in refs or ():
        ref = ref or {}
        errs.extend(validate_owner_reference(ref, path))
        if ref.get("controller"):
            current = f"{ref.get('kind') or ''}/{ref.get('name') or ''}"
            if first_controller:
                errs.append(FieldError.invalid(
                    path, [_owner_reference_struct(r or {}) for r in refs],
                    'Only one reference can have Controller set to true. Found "true" in references for '
                    f"{first_controller} and {current}"))
            else:
                first_controller = current
    return errs


def validate_finalizers(finalizers: list | None, path: Path) -> list[FieldError]:
    """ValidateFinalizers: each a qualified name; `orphan` and `foregroundDeletion` exclude each other."""
    finalizers = finalizers or []
    errs: list[FieldError] = []
    for finalizer in finalizers:
        errs.extend(FieldError.invalid(path, finalizer, m) for m in is_qualified_name(finalizer))
    if FINALIZER_ORPHAN in finalizers and FINALIZER_FOREGROUND in finalizers:
        errs.append(FieldError.invalid(path, finalizers, f"finalizer {FINALIZER_ORPHAN} and {FINALIZER_FOREGROUND} "
                                                         "cannot be both set"))
    return errs


def validate_field_manager(manager: str, path: Path) -> list[FieldError]:
    """ValidateFieldManager: at most 128 bytes, printable characters only."""
    errs: list[FieldError] = []
    if byte_len(manager) > FIELD_MANAGER_MAX_LENGTH:
        errs.append(FieldError.too_long(path, FIELD_MANAGER_MAX_LENGTH))
    offset = 0
    for ch in manager:
        if not go_is_print(ch):
            errs.append(FieldError.invalid(path, manager, f"invalid character U+{ord(ch):04X} (at position {offset})"))
        offset += byte_len(ch)
    return errs


def validate_managed_fields(entries: list | None, path: Path) -> list[FieldError]:
    """ValidateManagedFields: operation, fieldsType, manager and subresource of each entry."""
    errs: list[FieldError] = []
    for i, entry in enumerate(entries or ()):
        entry = entry or {}
        at = path.index(i)
        operation = entry.get("operation") or ""
        if operation not in ("Apply", "Update"):
            errs.append(FieldError.invalid(at.child("operation"), TypedString(operation),  # ManagedFieldsOperationType
                                           "must be `Apply` or `Update`"))
        fields_type = entry.get("fieldsType") or ""
        if fields_type and fields_type != "FieldsV1":
            errs.append(FieldError.invalid(at.child("fieldsType"), fields_type, "must be `FieldsV1`"))
        errs.extend(validate_field_manager(entry.get("manager") or "", at.child("manager")))
        if byte_len(entry.get("subresource") or "") > MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(FieldError.too_long(at.child("subresource"), MAX_SUBRESOURCE_NAME_LENGTH))
    return errs
