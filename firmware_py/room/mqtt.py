"""One way to make an MQTT client for every room program: paho-mqtt 2.x, MQTT 5, TLS and a password.

MQTT 5 rather than 3.1.1 because its acknowledgements carry reason codes: a publish the broker's
ACL refuses comes back as "Not authorized" instead of vanishing, so the table can log it.
"""

from __future__ import annotations

import argparse
import ssl
from pathlib import Path
from typing import Any

from firmware_py.room.room_config import DEFAULT_PORT, DEFAULT_TLS_PORT, BrokerConfig

KEEPALIVE_S = 15
RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 2  # back within 2 s of the broker: catch-up goal 10 s


def make_client(broker: BrokerConfig, *, client_id: str, clean_start: bool = True) -> Any:
    """A paho client set up for `broker` (not yet connected); raises ConfigError for an unreadable password."""
    import paho.mqtt.client as mqtt  # noqa: PLC0415 (only the room's programs need paho)

    client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5)
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    client.max_inflight_messages_set(200)  # a catch-up after an outage is limited by round trips otherwise
    client.max_queued_messages_set(0)
    if broker.tls:
        client.tls_set(ca_certs=str(broker.ca_file) if broker.ca_file else None,
                       certfile=str(broker.cert_file) if broker.cert_file else None,
                       keyfile=str(broker.key_file) if broker.key_file else None,
                       cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    if broker.username:
        client.username_pw_set(broker.username, broker.password())
    client.user_data_set({"clean_start": clean_start})
    return client


def connect_properties(*, session_expiry_s: int = 0) -> Any:
    from paho.mqtt.packettypes import PacketTypes  # noqa: PLC0415
    from paho.mqtt.properties import Properties  # noqa: PLC0415

    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = session_expiry_s
    return properties


def add_broker_arguments(parser: argparse.ArgumentParser, *, user: str) -> None:
    """The options every room client shares: where the broker is, TLS, who we are."""
    parser.add_argument("--broker", default="localhost", metavar="HOST[:PORT]",
                        help=f"the MQTT broker (default localhost, port {DEFAULT_PORT}, {DEFAULT_TLS_PORT} with --tls)")
    parser.add_argument("--tls", action="store_true", help="connect over TLS")
    parser.add_argument("--ca-file", metavar="FILE", help="the CA certificate that signed the broker's (with --tls)")
    parser.add_argument("--user", default=user, help=f"broker user name (default {user!r})")
    parser.add_argument("--password-file", metavar="FILE", help="a file holding the broker password")


def broker_from_args(args: argparse.Namespace) -> BrokerConfig:
    """The BrokerConfig of the shared options; raises ValueError with a message for bad ones."""
    host, _, port_text = args.broker.rpartition(":") if ":" in args.broker else (args.broker, "", "")
    port = DEFAULT_TLS_PORT if args.tls else DEFAULT_PORT
    if port_text:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ValueError(f"--broker {args.broker!r}: the port must be 1..65535")
        port = int(port_text)
    for name in ("ca_file", "password_file"):
        value = getattr(args, name)
        if value and not Path(value).is_file():
            raise ValueError(f"--{name.replace('_', '-')} {value}: no such file")
    if args.ca_file and not args.tls:
        raise ValueError("--ca-file needs --tls")
    client_id = getattr(args, "client_id", None)
    if client_id is not None and args.user and client_id != args.user and not client_id.startswith(args.user + "."):
        raise ValueError(f"--client-id {client_id!r}: the room's broker accepts user {args.user!r} only with the "
                         f"id {args.user!r} or {args.user}.<anything> (e.g. {args.user}.{client_id})")
    return BrokerConfig(host=host or "localhost", port=port, tls=args.tls,
                        ca_file=Path(args.ca_file) if args.ca_file else None, username=args.user or None,
                        password_file=Path(args.password_file) if args.password_file else None)
