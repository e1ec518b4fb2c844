"""The `[room]` section of the table file, and how any room client reaches the broker.

Publishing is off unless `[room]` is present. Ids go into MQTT topics, so they are checked here:
letters, digits, `-` and `_` only (no `/`, `+` or `#`). Like every other section of the table file,
all its mistakes are reported at once, each naming the file and the key, with a "did you mean" or
how to write it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write, shown
from firmware_py.errors import ConfigError

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
RESERVED_USERS = ("floor", "collector", "production", "director")  # the room's own clients (config/room/acl)
ZONE_PREFIX = "zone-"  # a zone's bridge user on the room's centre (config/room/acl-centre): zone-a, zone-b, ...
MAX_NAME = 200  # as the room's messages allow (firmware_py/room/messages.py, Name)
ROOM_KEYS = ("room", "table", "broker", "port", "tls", "ca_file", "cert_file", "key_file", "username",
             "password_file", "dealer", "heartbeat_s", "broadcast", "broadcast_hold_s", "tournament")


@dataclass(frozen=True, kw_only=True, slots=True)
class BrokerConfig:
    """Where the broker is and who we are to it (shared by the table, floor, collector and production)."""

    host: str = "localhost"
    port: int = DEFAULT_PORT
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    username: str | None = None
    password_file: Path | None = None

    def password(self) -> str | None:
        """The password, read from its file when the client connects (never kept in the config)."""
        if self.password_file is None:
            return None
        try:
            return self.password_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"{self.password_file}: cannot read the broker password "
                              f"({exc.strerror or exc})") from None


@dataclass(frozen=True, kw_only=True, slots=True)
class RoomConfig:
    """One table's place in the room: its ids, its broker, what it publishes."""

    room: str
    table: str
    broker: BrokerConfig
    dealer: str = ""
    heartbeat_s: float = 5.0
    broadcast: bool = True  # publish hole cards and board on the broadcast topic
    broadcast_hold_s: float = 0.0  # hold broadcast messages this long on the table before publishing
    tournament: bool = False  # follow the director's state (level, seats) and report each hand (docs/tournament.md)


def check_id(value: str, what: str) -> str:
    """`value` if it is usable as one level of a topic; raises ValueError saying what is wrong."""
    if not ID_PATTERN.fullmatch(value):
        raise ValueError(f"{what} {value!r} may hold only letters, digits, '-' and '_' (1 to 64 of them): "
                         "it is one level of an MQTT topic")
    return value


def is_reserved(table: str) -> bool:
    """Whether `table` is one of the room's own ids (a user of config/room/acl or a zone's), never a table's."""
    return table in RESERVED_USERS or table.startswith(ZONE_PREFIX)


def check_table_id(value: str, what: str) -> str:
    """`value` if it can be a table's id: one topic level (check_id) and none of the room's own ids, which the
    ACL keeps for the floor, the collector, production, the director and the zones' bridges."""
    check_id(value, what)
    if is_reserved(value):
        raise ValueError(f"{what} {value!r} is reserved for the room's own clients ({', '.join(RESERVED_USERS)}, "
                         f"and {ZONE_PREFIX}* for the zones' bridges): name the table otherwise")
    return value


def parse_room(source: str, raw: Any, *, base_dir: Path) -> RoomConfig:
    """Validate the `[room]` table of `source`: every mistake in one ConfigError, each naming the file and key."""
    mistakes = ConfigMistakes()
    section = Section(source, "room", raw, ROOM_KEYS, mistakes=mistakes)
    error, string, boolean = section.error, section.string, section.boolean

    def ident(key: str) -> str:
        try:
            return check_id(string(key), "the id")
        except ValueError as exc:
            raise error(str(exc), key) from None

    def seconds(key: str, default: float, *, low: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < low:
            raise error(f"must be a number of seconds, at least {low:g}, not {shown(value)}"
                        f"{how_to_write(key, value, default)}", key)
        return float(value)

    def path(key: str) -> Path | None:
        if key not in raw:
            return None
        found = Path(string(key)).expanduser()
        found = (found if found.is_absolute() else base_dir / found).resolve()
        if not found.is_file():
            raise error(f"no such file: {found}", key)
        return found

    def not_reserved(table: str) -> str:
        if is_reserved(table):
            raise error(f"{table!r} is reserved for the room's own clients ({', '.join(RESERVED_USERS)}, and "
                        f"{ZONE_PREFIX}* for the zones' bridges): name the table otherwise", "table")
        return table

    def tcp_port(tls: bool) -> int:
        port = raw.get("port", DEFAULT_TLS_PORT if tls else DEFAULT_PORT)
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise error(f"must be a TCP port 1..65535, not {shown(port)}{how_to_write('port', port, DEFAULT_PORT)}",
                        "port")
        return port

    def dealer() -> str:
        name = raw.get("dealer", "")
        if not isinstance(name, str):
            raise error(f"must be the dealer's name, a string, not {shown(name)} (e.g. dealer = \"Ada\")", "dealer")
        if len(name) > MAX_NAME or any(ord(c) < 32 or ord(c) == 127 for c in name):  # the room's schema (Name)
            raise error(f"must be a name of at most {MAX_NAME} characters on one line, not {shown(name)}", "dealer")
        return name

    room = mistakes.attempt(lambda: ident("room"), "")
    table = mistakes.attempt(lambda: not_reserved(ident("table")), "")
    tls = mistakes.attempt(lambda: boolean("tls", False), None)  # None: wrong, and noted
    port = mistakes.attempt(lambda: tcp_port(bool(tls)), DEFAULT_PORT)
    ca_file, cert_file, key_file, password_file = (
        mistakes.attempt(partial(path, key), None) for key in ("ca_file", "cert_file", "key_file", "password_file"))
    given = [key for key in ("ca_file", "cert_file", "key_file") if key in raw]
    if tls is False and given:
        mistakes.note(error("is set but tls is false: set tls = true or remove it", given[0]))
    if ("cert_file" in raw) != ("key_file" in raw):
        mistakes.note(error("a client certificate needs both cert_file and key_file", "cert_file"))
    host = mistakes.attempt(lambda: string("broker", "localhost"), "")
    username = mistakes.attempt(lambda: string("username", table or "table"), "")  # (a wrong table is noted)
    name = mistakes.attempt(dealer, "")
    heartbeat_s = mistakes.attempt(lambda: seconds("heartbeat_s", 5.0, low=0.5), 5.0)
    broadcast = mistakes.attempt(lambda: boolean("broadcast", True), True)
    broadcast_hold_s = mistakes.attempt(lambda: seconds("broadcast_hold_s", 0.0, low=0.0), 0.0)
    tournament = mistakes.attempt(lambda: boolean("tournament", False), False)
    mistakes.raise_if_any()
    broker = BrokerConfig(host=host, port=port, tls=bool(tls), ca_file=ca_file, cert_file=cert_file, key_file=key_file,
                          username=username, password_file=password_file)
    return RoomConfig(room=room, table=table, broker=broker, dealer=name, heartbeat_s=heartbeat_s,
                      broadcast=broadcast, broadcast_hold_s=broadcast_hold_s, tournament=bool(tournament))
