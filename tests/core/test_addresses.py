"""A client's address is kept as a keyed hash of its network: an IPv4 address, an IPv6 /64."""

from __future__ import annotations

from django.test import RequestFactory, override_settings

from core.addresses import address_key, address_key_of


def test_an_ipv6_host_counts_as_its_64_network() -> None:
    one = address_key_of("2001:db8:1:2::1")
    assert one == address_key_of("2001:db8:1:2:ffff:abcd:1234:5678")
    assert one != address_key_of("2001:db8:1:3::1")
    assert address_key_of("::ffff:203.0.113.7") == address_key_of("203.0.113.7")


def test_the_key_is_a_keyed_hash_not_the_address() -> None:
    key = address_key_of("203.0.113.7")
    assert len(key) == 32 and "203" not in key
    assert key != address_key_of("203.0.113.8")
    with override_settings(SECRET_KEY="another-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"):
        assert address_key_of("203.0.113.7") != key
    assert address_key_of("") == ""
    assert address_key(RequestFactory().get("/", REMOTE_ADDR="203.0.113.7")) == key
