"""`spec.conversion` of a CRD: the strategy, the webhook's client config, its CA bundle and the
ConversionReview versions (validateCustomResourceConversion and apiserver's pkg/util/webhook).

In the internal form (as in the apiserver's internal type) the v1 `conversion.webhook`
is flattened: `conversion.webhookClientConfig` and `conversion.conversionReviewVersions`.
"""

from __future__ import annotations

import base64
import binascii
import re

from crdtool.model.errors import FieldError
from crdtool.model.gourl import URLError, parse
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_dns1035_label, is_dns1123_subdomain, is_valid_port_num

#: The ConversionReview versions the previous apiserver release understands.
ACCEPTED_CONVERSION_REVIEW_VERSIONS = ("v1", "v1beta1")
_URL_FORM = "; desired format: https://host[/path]"
_NOT_WEBHOOK = "should not be set when strategy is not set to Webhook"


def validate_enum(path: Path, value: str, accepted: tuple[str, ...]) -> list[FieldError]:
    """validateEnumStrings with required=true."""
    if not value:
        return [FieldError.required(path)]
    if value in accepted:
        return []
    return [FieldError.not_supported(path, value, accepted)]


def validate_conversion(conversion: dict | None, require_recognized_version: bool, allow_invalid_ca_bundle: bool,
                        path: Path) -> list[FieldError]:
    """validateCustomResourceConversion."""
    if conversion is None:
        return []
    strategy = conversion.get("strategy") or ""
    errs = validate_enum(path.child("strategy"), strategy, ("None", "Webhook"))
    client_config = conversion.get("webhookClientConfig")
    review_versions = conversion.get("conversionReviewVersions")
    if strategy == "Webhook":
        at = path.child("webhookClientConfig")
        if client_config is None:
            errs.append(FieldError.required(at, "required when strategy is set to Webhook"))
        else:
            errs.extend(_validate_client_config(client_config, allow_invalid_ca_bundle, at))
        errs.extend(validate_conversion_review_versions(review_versions, require_recognized_version,
                                                        path.child("conversionReviewVersions")))
    else:
        if client_config is not None:
            errs.append(FieldError.forbidden(path.child("webhookClientConfig"), _NOT_WEBHOOK))
        if review_versions:
            errs.append(FieldError.forbidden(path.child("conversionReviewVersions"), _NOT_WEBHOOK))
    return errs


def _validate_client_config(cc: dict, allow_invalid_ca_bundle: bool, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    url, service = cc.get("url"), cc.get("service")
    if (url is None) == (service is None):
        errs.append(FieldError.required(path, "exactly one of url or service is required"))
    elif url is not None:
        errs.extend(validate_webhook_url(path.child("url"), url, force_https=True))
    else:
        port = service.get("port")
        # The apiserver passes the name as the namespace and the namespace as the name: a missing
        # name is reported on `service.namespace` and a missing namespace on `service.name`.
        errs.extend(validate_webhook_service(path.child("service"), service.get("name") or "",
                                             service.get("namespace") or "", service.get("path"),
                                             443 if port is None else port))
    ca_bundle = ca_bundle_bytes(cc.get("caBundle"))
    if ca_bundle and not allow_invalid_ca_bundle:
        errs.extend(validate_ca_bundle(path.child("caBundle"), ca_bundle))
    return errs


def validate_conversion_review_versions(versions: list | None, require_recognized: bool,
                                        path: Path) -> list[FieldError]:
    """validateConversionReviewVersions: at least one, no duplicates, DNS-1035 labels, one the server knows."""
    if not versions:
        return [FieldError.required(path)]
    errs: list[FieldError] = []
    seen: set[str] = set()
    has_accepted = False
    for i, v in enumerate(versions):
        if v in seen:
            errs.append(FieldError.invalid(path.index(i), v, "duplicate version"))
            continue
        seen.add(v)
        errs.extend(FieldError.invalid(path.index(i), v, m) for m in is_dns1035_label(v))
        if v in ACCEPTED_CONVERSION_REVIEW_VERSIONS:
            has_accepted = True
    if require_recognized and not has_accepted:
        errs.append(FieldError.invalid(path, versions, "must include at least one of "
                                       + ", ".join(sorted(ACCEPTED_CONVERSION_REVIEW_VERSIONS))))
    return errs


def has_valid_conversion_review_version_or_empty(versions: list | None) -> bool:
    """hasValidConversionReviewVersionOrEmpty: whether the stored CRD already met the rule (ratcheting)."""
    return not versions or any(v in ACCEPTED_CONVERSION_REVIEW_VERSIONS for v in versions)


def validate_webhook_url(path: Path, url: str, force_https: bool) -> list[FieldError]:
    """webhook.ValidateWebhookURL."""
    try:
        u = parse(url)
    except URLError as e:
        return [FieldError.required(path, f"url must be a valid URL: {e}{_URL_FORM}")]
    errs: list[FieldError] = []
    if force_https and u.scheme != "https":
        errs.append(FieldError.invalid(path, u.scheme, "'https' is the only allowed URL scheme" + _URL_FORM))
    if not u.host:
        errs.append(FieldError.invalid(path, u.host, "host must be specified" + _URL_FORM))
    if u.user is not None:
        errs.append(FieldError.invalid(path, u.user_string(), "user information is not permitted in the URL"))
    if u.fragment:
        errs.append(FieldError.invalid(path, u.fragment, "fragments are not permitted in the URL"))
    if u.raw_query:
        errs.append(FieldError.invalid(path, u.raw_query, "query parameters are not permitted in the URL"))
    return errs


def validate_webhook_service(path: Path, namespace: str, name: str, url_path: str | None,
                             port: int) -> list[FieldError]:
    """webhook.ValidateWebhookService."""
    errs: list[FieldError] = []
    if not name:
        errs.append(FieldError.required(path.child("name")))
    if not namespace:
        errs.append(FieldError.required(path.child("namespace")))
    port_errs = is_valid_port_num(port)
    if port_errs:
        errs.append(FieldError.invalid(path.child("port"), port, "port is not valid: " + ", ".join(port_errs)))
    if url_path is None or url_path in ("", "/"):
        return errs
    at = path.child("path")
    if url_path == "//":
        errs.append(FieldError.invalid(at, url_path, "segment[0] may not be empty"))
        return errs
    if not url_path.startswith("/"):
        errs.append(FieldError.invalid(at, url_path, "must start with a '/'"))
    to_check = url_path[1:]
    if to_check.endswith("/"):
        to_check = to_check[:-1]
    for i, step in enumerate(to_check.split("/")):
        if not step:
            errs.append(FieldError.invalid(at, url_path, f"segment[{i}] may not be empty"))
            continue
        errs.extend(FieldError.invalid(at, url_path, f"segment[{i}]: {m}") for m in is_dns1123_subdomain(step))
    return errs


def ca_bundle_bytes(value: str | bytes | None) -> bytes:
    """The caBundle's bytes: the decoded form may still hold the base64 text of the JSON."""
    if not value:
        return b""
    if isinstance(value, bytes):
        return value
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return value.encode("utf-8", "surrogateescape")


_PEM_BEGIN = b"-----BEGIN "
_PEM_BLOCK = re.compile(
    rb"-----BEGIN ([^\r\n]*?)-----[ \t]*\r?\n(.*?)\r?\n?-----END \1-----[ \t\r]*(?:\n|$)", re.S)


def _pem_blocks(data: bytes):
    """pem.Decode repeated: (type, has headers, DER bytes or None) per block; None for an undecodable rest."""
    while data:
        start = data.find(_PEM_BEGIN)
        m = _PEM_BLOCK.search(data, start) if start >= 0 else None
        if m is None or m.start() != start:
            yield None
            return
        block_type, body = m.group(1), m.group(2)
        has_headers = b":" in body.split(b"\n\n", 1)[0] if b"\n\n" in body else False
        try:
            der = base64.b64decode(b"".join(body.split()), validate=True)
        except (binascii.Error, ValueError):
            yield None
            return
        yield block_type, has_headers, der
        data = data[m.end():]


def _der_element(data: bytes, pos: int) -> tuple[int, int, int] | None:
    """(tag, content start, content end) of the DER element at pos, None when malformed."""
    if pos + 2 > len(data):
        return None
    tag, length = data[pos], data[pos + 1]
    pos += 2
    if length & 0x80:
        n = length & 0x7F
        if n == 0 or n > 4 or pos + n > len(data):
            return None
        length = int.from_bytes(data[pos:pos + n], "big")
        pos += n
    if pos + length > len(data):
        return None
    return tag, pos, pos + length


def _looks_like_certificate(der: bytes) -> bool:
    """The outer shape x509.ParseCertificate insists on: SEQUENCE { SEQUENCE, SEQUENCE, BIT STRING }."""
    outer = _der_element(der, 0)
    if outer is None or outer[0] != 0x30 or outer[2] != len(der):
        return False
    pos, expected = outer[1], (0x30, 0x30, 0x03)
    for tag in expected:
        el = _der_element(der, pos)
        if el is None or el[0] != tag:
            return False
        pos = el[2]
    return pos == outer[2]


def ca_bundle_error(data: bytes) -> str | None:
    """Why client-go's transport would refuse the CA data (createErrorParsingCAData), None if it loads."""
    certificates = 0
    reason = None
    for block in _pem_blocks(data):
        if block is None:
            reason = reason or "unable to parse bytes as PEM block"
            break
        block_type, has_headers, der = block
        if block_type != b"CERTIFICATE" or has_headers:
            continue
        if _looks_like_certificate(der):
            certificates += 1
        else:
            reason = reason or "failed to parse certificate: x509: malformed certificate"
    if certificates:
        return None
    return "unable to load root certificates: " + (reason or "no valid certificate authority data seen")


def validate_ca_bundle(path: Path, data: bytes) -> list[FieldError]:
    """webhook.ValidateCABundle: the bundle must load as PEM root certificates ([]byte prints as base64)."""
    reason = ca_bundle_error(data)
    if reason is None:
        return []
    return [FieldError.invalid(path, base64.b64encode(data).decode("ascii"), reason)]
