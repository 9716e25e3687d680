"""storage.k8s.io/v1 defaulting (kubernetes pkg/apis/storage/v1/defaults.go, 1.36): StorageClass and
CSIDriver."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

STORAGE = "io.k8s.api.storage.v1."
#: SetDefaults_CSIDriver's pointer fields and their values, in its order (the feature gates that once
#: guarded fsGroupPolicy, volumeLifecycleModes and seLinuxMount are on in 1.36).
_CSI_DRIVER = (("attachRequired", True), ("podInfoOnMount", False), ("storageCapacity", False),
               ("fsGroupPolicy", "ReadWriteOnceWithFSType"))


@register(STORAGE + "StorageClass")
def storage_class(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate."""
    if obj.get("reclaimPolicy") is None:
        d.set(obj, "reclaimPolicy", "Delete", at)
    if obj.get("volumeBindingMode") is None:
        d.set(obj, "volumeBindingMode", "Immediate", at)


@register(STORAGE + "CSIDriver")
def csi_driver(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_CSIDriver: attachRequired true; podInfoOnMount, storageCapacity, requiresRepublish
    and seLinuxMount false; fsGroupPolicy ReadWriteOnceWithFSType; volumeLifecycleModes [Persistent]."""
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    for key, value in _CSI_DRIVER:
        if spec.get(key) is None:
            d.set(spec, key, value, s_at)
    if not spec.get("volumeLifecycleModes"):
        d.set(spec, "volumeLifecycleModes", ["Persistent"], s_at)
    for key in ("requiresRepublish", "seLinuxMount"):
        if spec.get(key) is None:
            d.set(spec, key, False, s_at)
