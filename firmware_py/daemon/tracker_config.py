"""`[tracker]` of the table file: where the action tracker listens, validated (every mistake in one ConfigError
naming the file, the key and how to write it), and whether this machine can listen there (its environment)."""

from __future__ import annotations

import errno
import ipaddress
import socket
from dataclasses import dataclass
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, Section, did_you_mean, how_to_write, shown
from firmware_py.errors import ConfigError
from firmware_py.hand_replay import HoleCards

__all__ = ["HOLE_CARD_RULES", "TrackerConfig", "check_tracker_environment", "parse_tracker_config"]

HOLE_CARD_RULES = tuple(rule.value for rule in HoleCards)  # what a finished hand's replay shows of hole cards


@dataclass(frozen=True, kw_only=True, slots=True)
class TrackerConfig:
    """`[tracker]`: the address of the interface to listen on, the port, other names of the appliance."""

    listen: str
    port: int
    hosts: tuple[str, ...] = ()  # e.g. "table1.local": the names the tablet may use besides the address
    replay_hole_cards: str = "showdown"  # a finished hand's hole cards on the replay: none, showdown or all


def parse_tracker_config(raw: Any, *, source: str) -> TrackerConfig:
    """Validate `[tracker]`: every mistake in one ConfigError, each naming the file, the key and how to write it."""
    mistakes = ConfigMistakes()
    section = Section(source, "tracker", raw, ("listen", "port", "hosts", "replay_hole_cards"), mistakes=mistakes)
    listen = mistakes.attempt(lambda: _listen(section), "")
    port = mistakes.attempt(lambda: _port(section), 8080)
    no_hosts: tuple[str, ...] = ()
    hosts = mistakes.attempt(lambda: _hosts(section), no_hosts)
    hole_cards = mistakes.attempt(lambda: _replay_hole_cards(section), "showdown")
    mistakes.raise_if_any()
    return TrackerConfig(listen=listen, port=port, hosts=hosts, replay_hole_cards=hole_cards)


def _replay_hole_cards(section: Section) -> str:
    rule = section.get("replay_hole_cards", "showdown")
    if rule not in HOLE_CARD_RULES:
        raise section.error(f"must be one of {', '.join(HOLE_CARD_RULES)} (the hole cards a finished hand's replay "
                            f"shows; a hand in play never shows one), not {shown(rule)}"
                            f"{did_you_mean(str(rule), list(HOLE_CARD_RULES))}", "replay_hole_cards")
    return str(rule)


def _listen(section: Section) -> str:
    listen = section.get("listen")
    try:
        address = ipaddress.ip_address(listen)
    except ValueError:
        raise section.error(f"{shown(listen)} is not an IP address; give the address of the interface the "
                            "operator's tablet is on, e.g. listen = \"192.168.4.1\"", "listen") from None
    if address.is_unspecified:
        raise section.error(f"{listen} would listen on every interface; give the address of the one interface "
                            "the tablet is on", "listen")
    return str(address)


def _port(section: Section) -> int:
    port = section.get("port", 8080)
    if isinstance(port, bool) or not isinstance(port, int) or not 1024 <= port <= 65535:
        raise section.error(f"must be a port number 1024..65535, not {shown(port)}{how_to_write('port', port, 8080)}",
                            "port")
    return port


def _hosts(section: Section) -> tuple[str, ...]:
    hosts = section.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) and h and " " not in h for h in hosts):
        raise section.error(f'must be a list of host names, e.g. hosts = ["table1.local"], not {shown(hosts)}',
                            "hosts")
    return tuple(hosts)


def check_tracker_environment(config: TrackerConfig, *, source: str) -> None:
    """The tracker's environment (Mopidy's `validate_environment`): this machine has the address and nobody else
    listens on the port. A ConfigError names the key and what to write; the table then runs without the page."""
    if config.port == 0:  # a free port, chosen when it starts (practice and tests)
        return
    family = socket.AF_INET6 if ipaddress.ip_address(config.listen).version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closing page is no user
        try:
            probe.bind((config.listen, config.port))
        except OSError as exc:
            if exc.errno == errno.EADDRNOTAVAIL:
                raise ConfigError(f"{source}: [tracker] listen: {config.listen} is not an address of this machine; "
                                  "give the address of the interface the tablet is on (`ip -brief address` lists "
                                  "them), e.g. listen = \"192.168.4.1\"") from None
            if exc.errno == errno.EADDRINUSE:
                free = config.port + 1 if config.port < 65535 else 8080
                raise ConfigError(f"{source}: [tracker] port: {config.port} on {config.listen} is taken by another "
                                  f"program; choose a free one, e.g. port = {free}") from None
            raise ConfigError(f"{source}: [tracker] listen: cannot listen on {config.listen}:{config.port} "
                              f"({exc.strerror or exc})") from None
