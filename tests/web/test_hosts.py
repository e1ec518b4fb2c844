"""The Host a page answers at, decided per connection (`HostPolicy`): the address the browser connected
to, localhost on loopback, a configured name; never another name (DNS rebinding) nor another address."""

from __future__ import annotations

import pytest

from firmware_py.web.guard import HostPolicy

LAN = ("192.168.4.20", 8095)  # the connection's own local address, as uvicorn reads it off the socket


@pytest.mark.parametrize(("host", "server", "allowed"), [
    ("192.168.4.20:8095", LAN, True),  # a LAN browser at the machine's address (listening on 0.0.0.0)
    ("192.168.4.21:8095", LAN, False),  # another address: not this connection's
    ("192.168.4.20:8096", LAN, False),  # another port
    ("evil.example:8095", LAN, False),  # a DNS-rebinding page's own name
    ("localhost:8095", LAN, False),  # localhost means loopback only
    ("localhost:8095", ("127.0.0.1", 8095), True),
    ("127.0.0.1:8095", ("127.0.0.1", 8095), True),
    ("[::1]:8095", ("::1", 8095), True),
    ("192.168.4.20:8095", ("::ffff:192.168.4.20", 8095), True),  # a dual-stack socket's mapped address
    ("table1.local:8095", LAN, True),  # configured
    ("TABLE1.LOCAL:8095", LAN, True),
    ("table1.local", LAN, True),  # configured, behind port 80
    ("table2.local:8095", LAN, False),
    ("", LAN, False),
    ("192.168.4.20:8095", None, False),
])
def test_a_page_answers_at_its_own_addresses_and_configured_names_only(host: str, server: tuple[str, int] | None,
                                                                        allowed: bool) -> None:
    assert HostPolicy(["table1.local"]).allows(host, server) is allowed
