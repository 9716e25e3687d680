"""The core group's validation (kubernetes pkg/apis/core/validation, 1.36): the kinds registered in
`VALIDATORS` (see apis.validation), and `validate_pod_template_spec`, which the workload groups
(apps, batch) call for their pod templates.

Objects arrive decoded and defaulted as JSON values (dicts, lists, str, int, bool); a field absent
from the JSON is Go's zero value. Go iterates maps in random order; document order is used here.
"""

from __future__ import annotations

from crdtool.apis.core import claims, endpoints, kinds, limitranges, persistentvolumes, services
from crdtool.apis.core.pods import DEFAULT_OPTIONS, PodValidationOptions, validate_pod_template_spec
from crdtool.apis.validation import KindValidation

__all__ = ["DEFAULT_OPTIONS", "PodValidationOptions", "VALIDATORS", "validate_pod_template_spec"]

VALIDATORS: dict[str, KindValidation] = {
    "Pod": KindValidation(kinds.validate_pod, kinds.validate_pod_update),
    "ConfigMap": KindValidation(kinds.validate_config_map, kinds.validate_config_map_update),
    "Secret": KindValidation(kinds.validate_secret, kinds.validate_secret_update),
    "Service": KindValidation(services.validate_service_create, services.validate_service_update),
    "Namespace": KindValidation(kinds.validate_namespace, kinds.validate_namespace_update),
    "ServiceAccount": KindValidation(kinds.validate_service_account),
    "PersistentVolumeClaim": KindValidation(claims.validate_claim, claims.validate_claim_update),
    "Endpoints": KindValidation(endpoints.validate_endpoints),
    "PersistentVolume": KindValidation(persistentvolumes.validate_pv, persistentvolumes.validate_pv_update),
    "LimitRange": KindValidation(limitranges.validate_limit_range),
}
