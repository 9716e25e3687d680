"""storage.k8s.io/v1 defaulting (kubernetes pkg/apis/storage/v1/defaults.go, 1.36): StorageClass."""

from __future__ import annotations

from crdtool.apis.defaults import Defaulted, register


@register("io.k8s.api.storage.v1.StorageClass")
def storage_class(obj: dict, d: Defaulted, at: str) -> None:
    """SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate."""
    if obj.get("reclaimPolicy") is None:
        d.set(obj, "reclaimPolicy", "Delete", at)
    if obj.get("volumeBindingMode") is None:
        d.set(obj, "volumeBindingMode", "Immediate", at)
