"""TLS to a conversion webhook as the apiserver's Go client does it, and its failures in Go's words.

The apiserver trusts the CRD's caBundle (or the system roots without one) and checks the serving
certificate as Go's crypto/x509 does: the leaf's validity period, then the host name (an IP address
only against IP SANs; the Common Name is ignored), then the chain. OpenSSL checks them in another
order and words them differently, so the chain is left to OpenSSL and the rest is done here on the
leaf certificate (parsed from DER, just the fields Go's messages need). When OpenSSL refuses the
chain, the leaf is fetched once more without verification so that Go's order can be kept: an
expired or misnamed certificate is reported as such even when its issuer is unknown too.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import socket
import ssl
from dataclasses import dataclass, field

__all__ = [
    "Leaf", "go_tls_error", "hostname_error", "make_context", "parse_leaf", "validity_error", "verification_error",
]

_OID_CN = bytes.fromhex("550403")
_OID_SAN = bytes.fromhex("551d11")
_STRING_TAGS = {0x0C, 0x13, 0x14, 0x16, 0x1E, 0x1C}


@dataclass
class Leaf:
    """What Go's verification messages need from the serving certificate."""

    not_before: datetime.datetime | None = None
    not_after: datetime.datetime | None = None
    common_name: str = ""
    dns_names: list[str] = field(default_factory=list)
    ip_addresses: list[str] = field(default_factory=list)
    has_san: bool = False


def _tlv(der: bytes, i: int) -> tuple[int, int, int]:
    """(tag, start of the value, end of the value) of the DER element at i."""
    tag = der[i]
    length = der[i + 1]
    i += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(der[i:i + count], "big")
        i += count
    return tag, i, i + length


def _children(der: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    out = []
    while start < end:
        tag, value, stop = _tlv(der, start)
        out.append((tag, value, stop))
        start = stop
    return out


def _time(der: bytes, tag: int, start: int, end: int) -> datetime.datetime | None:
    text = der[start:end].decode("ascii", "replace").rstrip("Z")
    try:
        if tag == 0x17:  # UTCTime: two-digit years 50-99 are 19xx
            year = int(text[:2])
            text = f"{1900 + year if year >= 50 else 2000 + year}{text[2:]}"
        moment = datetime.datetime.strptime(text[:14], "%Y%m%d%H%M%S")
    except ValueError:
        return None
    return moment.replace(tzinfo=datetime.UTC)


def parse_leaf(der: bytes) -> Leaf:
    """The validity, subject Common Name and subjectAltName of a DER certificate."""
    leaf = Leaf()
    try:
        _, cert_start, cert_end = _tlv(der, 0)
        _, tbs_start, tbs_end = _children(der, cert_start, cert_end)[0]
        fields = _children(der, tbs_start, tbs_end)
        if fields and fields[0][0] == 0xA0:  # [0] version
            fields = fields[1:]
        # serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, [1], [2], [3] extensions
        validity = _children(der, fields[3][1], fields[3][2])
        leaf.not_before = _time(der, *validity[0])
        leaf.not_after = _time(der, *validity[1])
        for _, rdn_start, rdn_end in _children(der, fields[4][1], fields[4][2]):
            for _, atv_start, atv_end in _children(der, rdn_start, rdn_end):
                oid, value = _children(der, atv_start, atv_end)[:2]
                if der[oid[1]:oid[2]] == _OID_CN and value[0] in _STRING_TAGS:
                    leaf.common_name = der[value[1]:value[2]].decode("utf-8", "replace")
        for tag, start, _ in fields[6:]:
            if tag != 0xA3:
                continue
            _, exts_start, exts_end = _tlv(der, start)
            for _, ext_start, ext_end in _children(der, exts_start, exts_end):
                parts = _children(der, ext_start, ext_end)
                if der[parts[0][1]:parts[0][2]] != _OID_SAN:
                    continue
                leaf.has_san = True
                _, names_start, names_end = _tlv(der, parts[-1][1])
                for name_tag, name_start, name_end in _children(der, names_start, names_end):
                    if name_tag == 0x82:
                        leaf.dns_names.append(der[name_start:name_end].decode("ascii", "replace"))
                    elif name_tag == 0x87:
                        leaf.ip_addresses.append(str(ipaddress.ip_address(der[name_start:name_end])))
    except (IndexError, ValueError):
        pass
    return leaf


def _rfc3339(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def validity_error(leaf: Leaf, now: datetime.datetime | None = None) -> str | None:
    """x509's CertificateInvalidError(Expired) text, or None while the certificate is valid."""
    now = now or datetime.datetime.now(datetime.UTC)
    if leaf.not_before is not None and now < leaf.not_before:
        return (f"x509: certificate has expired or is not yet valid: current time {_rfc3339(now)} is before "
                f"{_rfc3339(leaf.not_before)}")
    if leaf.not_after is not None and now > leaf.not_after:
        return (f"x509: certificate has expired or is not yet valid: current time {_rfc3339(now)} is after "
                f"{_rfc3339(leaf.not_after)}")
    return None


def _match_hostnames(pattern: str, host: str) -> bool:
    """x509's matchHostnames: label by label, a leading `*` matching one label."""
    host, pattern = host.rstrip("."), pattern.rstrip(".")
    if not pattern or not host:
        return False
    pattern_parts, host_parts = pattern.split("."), host.split(".")
    if len(pattern_parts) != len(host_parts):
        return False
    return all((i == 0 and p == "*") or p == h for i, (p, h) in enumerate(zip(pattern_parts, host_parts, strict=True)))


def _parse_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def hostname_error(leaf: Leaf, host: str) -> str | None:
    """Certificate.VerifyHostname's HostnameError text, or None when the certificate is for `host`."""
    candidate = host[1:-1] if len(host) >= 3 and host[0] == "[" and host[-1] == "]" else host
    ip = _parse_ip(candidate)
    if ip is not None:
        if any(_parse_ip(san) == ip for san in leaf.ip_addresses):
            return None
        host = candidate
    else:
        lowered = host.lower()
        if any(_match_hostnames(name.lower(), lowered) for name in leaf.dns_names):
            return None
    if not leaf.has_san and _match_hostnames(leaf.common_name, host):
        return "x509: certificate relies on legacy Common Name field, use SANs instead"
    if _parse_ip(host) is not None:
        if not leaf.ip_addresses:
            return f"x509: cannot validate certificate for {host} because it doesn't contain any IP SANs"
        valid = ", ".join(leaf.ip_addresses)
    else:
        valid = ", ".join(leaf.dns_names)
    if not valid:
        return f"x509: certificate is not valid for any names, but wanted to match {host}"
    return f"x509: certificate is valid for {valid}, not {host}"


def make_context(ca_pem: bytes | None, verify: bool) -> ssl.SSLContext:
    """A client context as the webhook client's: HTTP/1.1 by ALPN, the CA bundle (or the system
    roots) trusted; the host name is checked by `hostname_error`, in Go's order."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["http/1.1"])
    if not verify:
        context.verify_mode = ssl.CERT_NONE
        return context
    context.verify_mode = ssl.CERT_REQUIRED
    if ca_pem:
        # a bundle without a certificate trusts nothing: every certificate is signed by an unknown authority.
        # PEM is ASCII: other bytes (outside its blocks, as Go's pem.Decode skips them) become "?", since
        # OpenSSL takes only an ASCII text.
        text = ca_pem.decode("ascii", "replace").replace("\ufffd", "?")
        with contextlib.suppress(ssl.SSLError, ValueError):
            context.load_verify_locations(cadata=text)
    else:
        context.load_default_certs()
    return context


#: OpenSSL alert reasons -> crypto/tls alert texts (`remote error: tls: ...`).
_ALERTS = {
    "HANDSHAKE_FAILURE": "handshake failure", "BAD_CERTIFICATE": "bad certificate",
    "UNSUPPORTED_CERTIFICATE": "unsupported certificate", "CERTIFICATE_REVOKED": "revoked certificate",
    "CERTIFICATE_EXPIRED": "expired certificate", "CERTIFICATE_UNKNOWN": "unknown certificate",
    "ILLEGAL_PARAMETER": "illegal parameter", "UNKNOWN_CA": "unknown certificate authority",
    "ACCESS_DENIED": "access denied", "DECODE_ERROR": "error decoding message",
    "DECRYPT_ERROR": "error decrypting message", "PROTOCOL_VERSION": "protocol version not supported",
    "INSUFFICIENT_SECURITY": "insufficient security level", "INTERNAL_ERROR": "internal error",
    "CERTIFICATE_REQUIRED": "certificate required", "NO_APPLICATION_PROTOCOL": "no application protocol",
    "UNRECOGNIZED_NAME": "unrecognized name", "UNEXPECTED_MESSAGE": "unexpected message",
}


def _fetch_leaf(address: tuple, server_name: str, timeout: float) -> Leaf | None:
    """The server's certificate, read without verifying it (to word a verification failure as Go)."""
    context = make_context(None, verify=False)
    try:
        with socket.create_connection(address[:2], timeout=timeout) as raw, \
                context.wrap_socket(raw, server_hostname=server_name or None) as tls:
            der = tls.getpeercert(binary_form=True)
    except (OSError, ValueError):
        return None
    return parse_leaf(der) if der else None


def verification_error(err: ssl.SSLCertVerificationError, address: tuple, server_name: str,
                       timeout: float) -> str:
    """Go's text for a certificate OpenSSL refused: the leaf's validity and name first, as Go checks."""
    leaf = _fetch_leaf(address, server_name, timeout)
    if leaf is not None:
        problem = validity_error(leaf) or hostname_error(leaf, server_name)
        if problem is not None:
            return f"tls: failed to verify certificate: {problem}"
    code = getattr(err, "verify_code", 0)
    if code == 26:
        return "tls: failed to verify certificate: x509: certificate specifies an incompatible key usage"
    return "tls: failed to verify certificate: x509: certificate signed by unknown authority"


def go_tls_error(err: ssl.SSLError) -> str:
    """Go's text for a handshake that failed for another reason than the certificate."""
    reason = getattr(err, "reason", None) or ""
    if "ALERT_" in reason:
        name = reason.split("ALERT_", 1)[1]
        return f"remote error: tls: {_ALERTS.get(name, name.lower().replace('_', ' '))}"
    if reason in ("WRONG_VERSION_NUMBER", "HTTP_REQUEST"):
        return "http: server gave HTTP response to HTTPS client"
    if reason in ("RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG", "UNKNOWN_PROTOCOL"):
        return "tls: first record does not look like a TLS handshake"
    if isinstance(err, (ssl.SSLEOFError, ssl.SSLZeroReturnError)) or "EOF" in str(err):
        return "EOF"
    return f"tls: {reason.lower().replace('_', ' ') or err}"
