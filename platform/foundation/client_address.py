"""The client's address: one answer for the throttles, the log-in lockout (django-axes) and the
site's logs. Trust model (deploy/SECURITY.md, "Client addresses"):

- ``NUM_PROXIES=0`` (the default): the socket's peer, ``REMOTE_ADDR``. ``X-Forwarded-For`` is
  the client's own claim and never read: a forged header cannot pass a per-address limit.
- ``NUM_PROXIES=N``: N proxies of the deployment stand in front of the site, each appending the
  address it saw to ``X-Forwarded-For``. The client is the entry the outermost trusted proxy
  wrote, the N-th from the right; whatever stands left of it the client wrote and is ignored.

The site must then be reachable only through those proxies (else a client talking to it
directly writes the entries the proxies would have written). The throttles count an IPv6
client by its /64 network (:func:`counted_address`).
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """The address that the per-address limits count, as text; ``REMOTE_ADDR`` unless
    ``NUM_PROXIES`` trusted proxies wrote a valid address into ``X-Forwarded-For``."""
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR") or "").strip()
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    forwarded = [e.strip() for e in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    forwarded = [e for e in forwarded if e]
    if not forwarded:
        return remote  # no proxy said anything: the peer is the client
    # Fewer entries than proxies: the outermost one we have is the best the proxies told us.
    entry = forwarded[-min(proxies, len(forwarded))]
    # A proxy that wrote something that is not an address is misconfigured: count by the
    # peer (stricter, never looser) rather than by text a client may have chosen.
    return _address(entry) or remote


def client_ip(request: Any) -> str | None:
    """:func:`client_address` as a canonical IP address, or None when it is not one (a request
    made in-process); django-axes' ``AXES_CLIENT_IP_CALLABLE`` (its inet column refuses text)."""
    return _address(client_address(request))


def _address(text: str) -> str | None:
    """Canonical text of an IP address, also written as ``1.2.3.4:80`` or ``[::1]:80``."""
    text = text.strip()
    candidates = [text]
    if text.startswith("[") and "]" in text:
        candidates.append(text[1 : text.index("]")])
    elif text.count(":") == 1:
        candidates.append(text.split(":", 1)[0])
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None


#: How much of an IPv6 address the per-address limits count: one subscriber is commonly given a
#: /64 (or more) and may use any of its 2**64 addresses, one per request.
IPV6_COUNTED_PREFIX = 64


def counted_address(request: Any) -> str:
    """What a per-address limit counts: :func:`client_address`, with an IPv6 address cut to
    its /64 network (else a client of one network passes every limit by rotating addresses)."""
    address = client_address(request)
    ip = _address(address)
    if ip is None or ":" not in ip:
        return address
    mapped = ipaddress.IPv6Address(ip).ipv4_mapped
    if mapped is not None:  # ::ffff:1.2.3.4 is that IPv4 client
        return str(mapped)
    return str(ipaddress.ip_network(f"{ip}/{IPV6_COUNTED_PREFIX}", strict=False))


class ClientAddressFilter(logging.Filter):
    """Gives every log record a ``client`` attribute: the client's address for records about a
    request (Django's ``django.request`` and ``django.security`` loggers carry it), else "-"."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        record.client = client_address(request) if hasattr(request, "META") else "-"
        return True
