"""A client's address as the site keeps it: a keyed hash, never the address itself.

Records that must recognise "the same address again" for a while (solutions seen from it,
proofs queued from it) store ``address_key(request)``: a short keyed hash of the address that
``core.throttles.client_address`` reads (behind ``TRUSTED_PROXY_COUNT`` proxies). It cannot be
turned back into the address without the site's ``SECRET_KEY``.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpRequest

from core.throttles import client_address


def address_key_of(address: str) -> str:
    """The keyed hash of ``address`` (32 hex digits); empty for an empty address."""
    if not address:
        return ""
    key = hashlib.sha256(f"address-key:{settings.SECRET_KEY}".encode()).digest()
    return hashlib.blake2b(address.encode(), key=key, digest_size=16).hexdigest()


def address_key(request: HttpRequest) -> str:
    """The keyed hash of the request's client address."""
    return address_key_of(client_address(request))
