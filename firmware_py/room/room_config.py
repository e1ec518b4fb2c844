"""The `[room]` section of the table file, and how any room client reaches the broker.

Publishing is off unless `[room]` is present. Ids go into MQTT topics, so they are checked here:
letters, digits, `-` and `_` only (no `/`, `+` or `#`). A bad key names the file, the key and a
"did you mean", like every other section of the table file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.config_toolkit import Section, shown
from firmware_py.errors import ConfigError

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
RESERVED_USERS = ("floor", "collector", "production")  # the room's own clients (config/room/acl)
ROOM_KEYS = ("room", "table", "broker", "port", "tls", "ca_file", "cert_file", "key_file", "username",
             "password_file", "dealer", "heartbeat_s", "broadcast", "broadcast_hold_s")


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


def check_id(value: str, what: str) -> str:
    """`value` if it is usable as one level of a topic; raises ValueError saying what is wrong."""
    if not ID_PATTERN.fullmatch(value):
        raise ValueError(f"{what} {value!r} may hold only letters, digits, '-' and '_' (1 to 64 of them): "
                         "it is one level of an MQTT topic")
    return value


def parse_room(source: str, raw: Any, *, base_dir: Path) -> RoomConfig:
    """Validate the `[room]` table of `source`; raises ConfigError naming the file and key."""

    section = Section(source, "room", raw, ROOM_KEYS)
    error, string, boolean = section.error, section.string, section.boolean

    def ident(key: str) -> str:
        try:
            return check_id(string(key), "the id")
        except ValueError as exc:
            raise error(str(exc), key) from None

    def seconds(key: str, default: float, *, low: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < low:
            raise error(f"must be a number of seconds, at least {low:g}, not {shown(value)}", key)
        return float(value)

    def path(key: str) -> Path | None:
        if key not in raw:
            return None
        found = Path(string(key)).expanduser()
        found = (found if found.is_absolute() else base_dir / found).resolve()
        if not found.is_file():
            raise error(f"no such file: {found}", key)
        return found

    room, table = ident("room"), ident("table")
    if table in RESERVED_USERS:
        raise error(f"{table!r} is reserved for the room's own clients ({', '.join(RESERVED_USERS)}): "
                    "name the table otherwise", "table")
    tls = boolean("tls", False)
    port = raw.get("port", DEFAULT_TLS_PORT if tls else DEFAULT_PORT)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise error(f"must be a TCP port 1..65535, not {port!r}", "port")
    ca_file, cert_file, key_file = path("ca_file"), path("cert_file"), path("key_file")
    if not tls and (ca_file or cert_file or key_file):
        raise error("is set but tls is false: set tls = true or remove it",
                    "ca_file" if ca_file else "cert_file" if cert_file else "key_file")
    if (cert_file is None) != (key_file is None):
        raise error("a client certificate needs both cert_file and key_file", "cert_file")
    broker = BrokerConfig(host=string("broker", "localhost"), port=port, tls=tls, ca_file=ca_file,
                          cert_file=cert_file, key_file=key_file, username=string("username", table),
                          password_file=path("password_file"))
    dealer = raw.get("dealer", "")
    if not isinstance(dealer, str):
        raise error(f"must be the dealer's name, a string, not {dealer!r}", "dealer")
    return RoomConfig(room=room, table=table, broker=broker, dealer=dealer,
                      heartbeat_s=seconds("heartbeat_s", 5.0, low=0.5), broadcast=boolean("broadcast", True),
                      broadcast_hold_s=seconds("broadcast_hold_s", 0.0, low=0.0))
