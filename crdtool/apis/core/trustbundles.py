"""The names a clusterTrustBundle projection refers to, as core/validation checks them (kubernetes
pkg/apis/core/validation, 1.36, with pkg/apis/certificates/validation's helpers): a signer name
(ValidateSignerName) and a ClusterTrustBundle name (ValidateClusterTrustBundleName, with the
signer name extractSignerNameFromClusterTrustBundleName reads from it)."""

from __future__ import annotations

from collections.abc import Callable

from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_quote
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_dns1123_label, is_dns1123_subdomain, name_is_dns_subdomain

_SUBDOMAIN_MAX = 253
_LABEL_MAX = 63
_SIGNER_NAME_MAX = _SUBDOMAIN_MAX + (_SUBDOMAIN_MAX + _LABEL_MAX + 1) + 1


def validate_signer_name(signer: str, path: Path) -> list[FieldError]:
    """ValidateSignerName: `<domain>/<path>`, the domain of at least two DNS labels and at most 253
    characters, the path of DNS subdomains joined by dots, 571 characters in all. Only the first
    bad label of each part is reported."""
    if not signer:
        return [FieldError.required(path)]
    segments = signer.split("/")
    if len(segments) != 2:
        return [FieldError.invalid(path, signer, "must be a fully qualified domain and path of the form "
                                                 "'example.com/signer-name'")]
    domain, rest = segments
    errs: list[FieldError] = []
    if len(domain) > _SUBDOMAIN_MAX:
        errs.append(FieldError.too_long(path, _SUBDOMAIN_MAX))
    labels = domain.split(".")
    errs += _first_bad_label(labels, domain, path, is_dns1123_label)
    if len(labels) < 2:
        errs.append(FieldError.invalid(path, domain, "should be a domain with at least two segments separated by dots"))
    errs += _first_bad_label(rest.split("."), rest, path, is_dns1123_subdomain)
    if len(signer) > _SIGNER_NAME_MAX:
        errs.append(FieldError.too_long(path, _SIGNER_NAME_MAX))
    return errs


def _first_bad_label(labels: list[str], segment: str, path: Path,
                      check: Callable[[str], list[str]]) -> list[FieldError]:
    for label in labels:
        messages = check(label)
        if messages:
            return [FieldError.invalid(path, segment, f"validating label {go_quote(label)}: {m}") for m in messages]
    return []


def cluster_trust_bundle_name_errors(name: str) -> list[str]:
    """ValidateClusterTrustBundleName for the signer name the name itself implies: up to its last
    `:`, with `:` read as `/` (a name without `:` belongs to no signer)."""
    split = name.rfind(":")
    if split < 0:
        return name_is_dns_subdomain(name, False)
    signer = name[:split].replace(":", "/")
    if not signer:
        if ":" in name:
            return ['ClusterTrustBundle without signer name must not have ":" in its name']
        return name_is_dns_subdomain(name, False)
    prefix = signer.replace("/", ":") + ":"
    if not name.startswith(prefix):
        return [f"ClusterTrustBundle for signerName {signer} must be named with prefix {prefix}"]
    return name_is_dns_subdomain(name[len(prefix):], False)
