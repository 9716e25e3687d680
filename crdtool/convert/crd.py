"""A CRD's conversion settings as the apiserver holds them: the strategy, the webhook's client
config and ConversionReview versions, the storage version and the versions it can convert between
(every version in spec.versions, served or not, is a valid conversion target for the converter).
"""

from __future__ import annotations

from dataclasses import dataclass

from crdtool.engine.lint import decode_internal
from crdtool.engine.registry import Registry

__all__ = ["CRDInfo", "WebhookConfig", "crd_infos"]


@dataclass(frozen=True)
class WebhookConfig:
    """spec.conversion.webhook: where the apiserver sends ConversionReviews and how it trusts them."""

    url: str | None
    service: dict | None
    ca_bundle: bytes | None
    review_versions: tuple[str, ...]

    def service_text(self) -> str:
        s = self.service or {}
        return f"{s.get('namespace', '')}/{s.get('name', '')}:{s.get('port', 443)}{s.get('path') or ''}"


@dataclass(frozen=True)
class CRDInfo:
    """One CustomResourceDefinition's names and conversion."""

    name: str
    #: The file the CRD was read from (for messages about it).
    source: str
    group: str
    kind: str
    list_kind: str
    storage_version: str
    versions: tuple[str, ...]
    strategy: str
    webhook: WebhookConfig | None


def _info(internal: dict, source: str) -> CRDInfo:
    spec = internal.get("spec") or {}
    names = spec.get("names") or {}
    conversion = spec.get("conversion") or {}
    versions = [v for v in spec.get("versions") or [] if isinstance(v, dict)]
    client = conversion.get("webhookClientConfig")
    webhook = None
    if client is not None:
        webhook = WebhookConfig(url=client.get("url"), service=client.get("service"),
                                ca_bundle=client.get("caBundle") or None,
                                review_versions=tuple(conversion.get("conversionReviewVersions") or ()))
    return CRDInfo(
        name=(internal.get("metadata") or {}).get("name", ""), source=source, group=spec.get("group", ""),
        kind=names.get("kind", ""), list_kind=names.get("listKind", ""),
        storage_version=next((v.get("name", "") for v in versions if v.get("storage")), ""),
        versions=tuple(v.get("name", "") for v in versions), strategy=conversion.get("strategy") or "None",
        webhook=webhook)


def crd_infos(registry: Registry) -> dict[tuple[str, str], CRDInfo]:
    """The CRDs the registry serves, by (group, kind)."""
    served = {(group, kind) for group, _, kind in registry.versions}
    out: dict[tuple[str, str], CRDInfo] = {}
    for result in registry.lint_results:
        internal, _ = decode_internal(result.document, create=False)
        if internal is None:
            continue
        info = _info(internal, result.document.source)
        key = (info.group, info.kind)
        if key in served and key not in out:
            out[key] = info
    return out
