"""One way to make an MQTT client for every room program: paho-mqtt 2.x, MQTT 5, TLS and a password.

MQTT 5 rather than 3.1.1 because its acknowledgements carry reason codes: a publish the broker's
ACL refuses comes back as "Not authorized" instead of vanishing, so the table can log it.
"""

from __future__ import annotations

import argparse
import socket
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_py.errors import BrokerRefused, BrokerUnreachable
from firmware_py.room.room_config import DEFAULT_PORT, DEFAULT_TLS_PORT, BrokerConfig

KEEPALIVE_S = 15
RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 2  # back within 2 s of the broker: catch-up goal 10 s
CONNECT_TIMEOUT_S = 10.0  # a room program that cannot reach the broker at start stops after this
RETRY_S = 1.0
# CONNACK reason codes that no retry mends: the user, the password, the client id, a ban.
REFUSALS = ("Bad user name or password", "Not authorized", "Client identifier not valid", "Banned",
            "Bad authentication method")


def make_client(broker: BrokerConfig, *, client_id: str, clean_start: bool = True) -> Any:
    """A paho client set up for `broker` (not yet connected); raises ConfigError for an unreadable password."""
    import paho.mqtt.client as mqtt  # noqa: PLC0415 (only the room's programs need paho)
    from paho.mqtt.enums import CallbackAPIVersion  # noqa: PLC0415

    client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id,
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


def where(broker: BrokerConfig) -> str:
    return f"the broker {broker.host}:{broker.port}{' (TLS)' if broker.tls else ''}"


def explain(exc: BaseException, broker: BrokerConfig) -> BrokerRefused | BrokerUnreachable:
    """What a failed connection attempt means for the operator, as the error to raise."""
    at = where(broker)
    if isinstance(exc, ssl.SSLCertVerificationError):
        why = exc.verify_message or str(exc)
        if "mismatch" in why.lower() or "not valid for" in why:
            return BrokerRefused(f"{at}: its certificate is not for the name {broker.host!r} ({why}); connect by a "
                                 "name its certificate holds (subjectAltName), or give the broker a certificate "
                                 f"that names {broker.host}")
        ca = f"the CA in {broker.ca_file}" if broker.ca_file else "a CA this system trusts (no --ca-file given)"
        return BrokerRefused(f"{at}: its certificate does not check against {ca} ({why}); give the CA that signed "
                             "the broker's certificate")
    if isinstance(exc, ssl.SSLError):
        return BrokerRefused(f"{at}: the TLS handshake failed ({exc.reason or exc}); is port {broker.port} the "
                             "broker's TLS listener (8883), and the CA and certificates the room's?")
    if isinstance(exc, socket.gaierror):
        return BrokerUnreachable(f"{at}: unknown host ({exc.strerror or exc})")
    if isinstance(exc, ConnectionRefusedError):
        return BrokerUnreachable(f"{at}: connection refused: is the broker running and the port right?")
    if isinstance(exc, OSError):
        return BrokerUnreachable(f"{at}: unreachable ({exc.strerror or exc})")
    return BrokerUnreachable(f"{at}: {exc}")


def refusal(reason: Any, broker: BrokerConfig) -> BrokerRefused | None:
    """The error for a CONNACK that refuses us for good (None for a passing refusal, such as busy)."""
    text = str(reason)
    if not any(text == known for known in REFUSALS):
        return None
    user = f"user {broker.username!r}" if broker.username else "an anonymous client"
    hint = ("a second client uses this client id" if "identifier" in text
            else "check the user name and its password file (Mosquitto answers a wrong password so)")
    return BrokerRefused(f"{where(broker)} refused {user}: {text}; {hint}. Not retrying.")


def connect_first(client: Any, broker: BrokerConfig, *, answered: threading.Event, refused: Callable[[], str],
                  deadline: float, stop: threading.Event | None = None, **connect: Any) -> None:
    """Connect `client` now, retrying an unreachable broker until `deadline` (time.monotonic), and wait for
    its answer; then paho's thread keeps the connection. The client's on_connect sets `answered` on success;
    `refused()` is the reason of a refusal ('' for none). Raises BrokerRefused at once for what no retry
    mends (the certificate, the password) and BrokerUnreachable when the deadline passes."""
    failure: BrokerRefused | BrokerUnreachable | None = None
    while True:
        try:
            client.connect(broker.host, broker.port, keepalive=KEEPALIVE_S, **connect)
            break
        except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
            failure = explain(exc, broker)
            if isinstance(failure, BrokerRefused) or time.monotonic() + RETRY_S > deadline:
                raise failure from None
            if stop is not None and stop.wait(RETRY_S):
                raise failure from None
            if stop is None:
                time.sleep(RETRY_S)
    client.loop_start()
    while time.monotonic() < deadline and not answered.is_set() and not refused():
        if stop is not None and stop.is_set():
            break
        answered.wait(0.05)
    if answered.is_set():
        return
    client.disconnect()
    client.loop_stop()
    if refused():
        raise refusal(refused(), broker) or BrokerUnreachable(f"{where(broker)} refused us: {refused()}")
    raise BrokerUnreachable(f"{where(broker)}: no answer to our connection in time (a TLS listener reached "
                            "without --tls, or a broker too busy to answer?)")


def connect_properties(*, session_expiry_s: int = 0) -> Any:
    from paho.mqtt.packettypes import PacketTypes  # noqa: PLC0415
    from paho.mqtt.properties import Properties  # noqa: PLC0415

    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]  # paho 2's __init__ is unannotated
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
    parser.add_argument("--warn-silence", type=float, default=30.0, metavar="S",
                        help="warn when, tables online, a kind of message has not come for S seconds (rulings "
                        "and hands: 20 times S): the sign of a user the broker's ACL lets read nothing")


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
