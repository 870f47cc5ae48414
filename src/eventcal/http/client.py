"""Who is calling: the client address that failed logins are counted against."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.requests import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _ip(text: str) -> Address | None:
    """An address from a forwarded hop (``1.2.3.4``, ``1.2.3.4:80``, ``[::1]:80``, ``::1``)."""
    text = text.strip()
    candidates = [text]
    if text.startswith("["):
        candidates.append(text[1:].partition("]")[0])
    elif text.count(":") == 1:
        candidates.append(text.partition(":")[0])
    for candidate in candidates:
        try:
            return ipaddress.ip_address(candidate)
        except ValueError:
            continue
    return None


def _trusted(address: Address | None, proxies: Sequence[Network]) -> bool:
    return address is not None and any(address in network for network in proxies)


def client_address(request: Request, trusted_proxies: Sequence[Network] = ()) -> str:
    """The peer's address; for a peer that is a trusted proxy, the nearest ``X-Forwarded-For``
    hop that is not one (hops further left are the client's to write, so never believed)."""
    peer = request.client.host if request.client else ""
    if not trusted_proxies or not _trusted(_ip(peer), trusted_proxies):
        return peer
    hops = [hop for value in request.headers.getlist("x-forwarded-for") for hop in value.split(",")]
    address = peer
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            break
        address = str(ip)
        if not _trusted(ip, trusted_proxies):
            break
    return address
