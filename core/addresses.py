"""A client's address as the site keeps it: a keyed hash, never the address itself.

Records that must recognise "the same address again" for a while (solutions seen from it,
proofs queued from it) store ``address_key(request)``: a short keyed hash of the address that
``core.throttles.client_address`` reads (behind ``TRUSTED_PROXY_COUNT`` proxies). It cannot be
turned back into the address without the site's ``SECRET_KEY``. An IPv6 client counts by its
/64 network, so that one host cannot pass for many by changing its low bits.
"""

from __future__ import annotations

import hashlib
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from core.throttles import client_address


def address_network(address: str) -> str:
    """What counts as one address: an IPv4 address itself, an IPv6 address's /64 network (one
    home or phone is given a whole /64); anything else as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def address_key_of(address: str) -> str:
    """The keyed hash of ``address``'s network (32 hex digits); empty for an empty address."""
    if not address:
        return ""
    key = hashlib.sha256(f"address-key:{settings.SECRET_KEY}".encode()).digest()
    network = address_network(address)
    return hashlib.blake2b(network.encode(), key=key, digest_size=16).hexdigest()


def address_key(request: HttpRequest) -> str:
    """The keyed hash of the request's client address."""
    return address_key_of(client_address(request))
