"""A room client that subscribes and hands each message to a callback (floor, collector, production).

paho's network thread calls `on_message` with the message's raw bytes: each consumer checks them
against the room's schemas itself (`messages.decode`) and quarantines what fails, so one bad message
never stops it. The callback must be quick or queue the work. A persistent session (a fixed client
id, clean_start off, a session expiry) makes the broker keep QoS 1 messages for the client while it
is away: the collector uses it so nothing is missed. With `share`, the topics are MQTT 5 shared
subscriptions (`$share/<group>/...`): the broker gives each message to one member of the group, so
two collectors can run at once.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from firmware_py.room.messages import BadMessage, decode, parse_topic
from firmware_py.room.mqtt import connect_first, connect_properties, make_client
from firmware_py.room.room_config import BrokerConfig

logger = logging.getLogger("firmware_py.room")

SESSION_EXPIRY_S = 7 * 24 * 3600
# A member of a shared subscription that is away keeps being given its share (Mosquitto queues it in
# its session): a member gone for good must drop out soon, and the tables send what it held again.
SHARED_SESSION_EXPIRY_S = 120
TAKEN_OVER = "Session taken over"  # MQTT 5 reason 0x8E: another client connected with our client id
# Mosquitto 2.0 closes the socket of a client whose id another one takes, without that reason code: a
# connection lost this soon after it was made, this many times in a row, is another process with our id.
FLAP_S, FLAPS = 5.0, 3


def default_client_id(user: str | None, *parts: str, per_process: bool = False) -> str:
    """`<user>.<parts>.<host>[.<pid>]`: the room's broker lets a user connect only with its own name or
    `<name>.<anything>` (config/room/clientid_guard.c), and two processes never share an id. A
    persistent session (collector, floor) keeps the same id across restarts, so per host; a
    process that keeps no session (broadcast) adds its pid, so a standby runs beside the primary.

    >>> default_client_id("collector", "main", "db1a2b").startswith("collector.main.db1a2b.")
    True
    """
    host = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())[:40] or "host"
    return ".".join([user or "anonymous", *parts, host] + ([str(os.getpid())] if per_process else []))


class RoomSubscriber:
    """Subscribe to `topics` on `broker`; `on_message(topic, payload, now)` gets each message's bytes."""

    def __init__(self, broker: BrokerConfig, topics: Sequence[str], *, client_id: str,
                 on_message: Callable[..., None], persistent: bool = False, manual_ack: bool = False,
                 share: str | None = None, session_expiry_s: int | None = None) -> None:
        """With `manual_ack`, `on_message` also gets the message id, and the message is acknowledged to the
        broker only when `ack(mid)` is called (after it is safely stored); else paho acknowledges it."""
        self.broker, self.persistent = broker, persistent
        self.session_expiry_s = session_expiry_s if session_expiry_s is not None else (
            SHARED_SESSION_EXPIRY_S if share else SESSION_EXPIRY_S)
        self.topics = [f"$share/{share}/{name}" if share else name for name in topics]
        self.client_id = client_id
        self.on_message = on_message
        self.connected = threading.Event()
        self.subscribed = threading.Event()  # the broker has answered every SUBSCRIBE (SUBACK)
        self.refused = ""
        # The broker's answer to each subscription (SUBACK): the topics it refused, with its reason. Mosquitto
        # 2.0's file ACL grants every subscription and delivers only what the ACL lets us read, so a refusal
        # here is certain, and silence with everything granted may be the ACL or simply nobody publishing.
        self.subscription_refused: dict[str, str] = {}
        self._subscribing: dict[int, str] = {}
        # What has come, by kind, and which tables say they are online. The
        # retained status (every room reader may read it) is watched too, to tell silence from no tables;
        # never shared (a shared subscription gets no retained message, and every member must watch).
        self.received: dict[str, int] = {}
        self.online: dict[str, bool] = {}
        self.subscribed_at: float | None = None
        self._status_asked = any(name.endswith("/status") for name in topics)
        if not self._status_asked and topics:
            self.topics.append(topics[0].rsplit("/", 1)[0] + "/status")
        self.taken_over = False
        self._stopping = False
        self._connected_at: float | None = None
        self._flaps = 0
        self._pending_subscriptions: set[int] = set()
        self.client = make_client(broker, client_id=client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.manual_ack = manual_ack
        self.client.manual_ack_set(manual_ack)

    def start(self, *, deadline: float, stop: threading.Event | None = None) -> None:
        """Connect and subscribe before `deadline` (time.monotonic); then paho keeps the connection up.
        Raises BrokerRefused (certificate, name, password: no retry mends them) or BrokerUnreachable."""
        connect_first(self.client, self.broker, answered=self.connected, refused=lambda: self.refused,
                      deadline=deadline, stop=stop, clean_start=not self.persistent,
                      properties=connect_properties(session_expiry_s=self.session_expiry_s
                                                    if self.persistent else 0))

    def ack(self, mid: int) -> None:
        self.client.ack(mid, 1)

    def stop(self) -> None:
        self._stopping = True
        self.connected.clear()  # a disconnect we asked for is not worth a warning
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            logger.error("room: the broker %s:%d refused us: %s", self.broker.host, self.broker.port, reason)
            return
        self.refused = ""
        self._connected_at = time.monotonic()
        self.subscribed.clear()
        self._subscribing = {client.subscribe(name, qos=1)[1]: name for name in self.topics}
        self._pending_subscriptions = set(self._subscribing)
        logger.info("room: subscribed to %s on %s:%d", ", ".join(self.topics), self.broker.host, self.broker.port)
        if self.subscribed_at is None:
            self.subscribed_at = time.monotonic()
        self.connected.set()

    def _on_subscribe(self, _client: Any, _userdata: Any, mid: int, reasons: Any, _properties: Any) -> None:
        name = self._subscribing.get(mid, "?")
        for reason in reasons:
            if getattr(reason, "is_failure", False):
                self.subscription_refused[name] = str(reason)
                logger.error("room: the broker refused the subscription to %s: %s", name, reason)
            else:
                self.subscription_refused.pop(name, None)
        self._pending_subscriptions.discard(mid)
        if not self._pending_subscriptions:
            self.subscribed.set()

    def _on_disconnect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        lasted = time.monotonic() - self._connected_at if self._connected_at is not None else None
        self._connected_at = None
        if self._stopping:
            return
        if lasted is not None:
            self._flaps = self._flaps + 1 if lasted < FLAP_S else 0
        if str(reason) == TAKEN_OVER or self._flaps >= FLAPS:
            # Another process connected with our client id: reconnecting would knock it off in turn, every
            # second. Stop, and let the command say why.
            self.taken_over = True
            logger.error("room: another client connected as %s and took this session over (the broker dropped "
                         "us %d times within seconds of connecting); give each process its own --client-id",
                         self.client_id, self._flaps)
            # Not from paho's own thread (it would reconnect after this callback): before its next attempt.
            threading.Thread(target=self._give_up, name="room-give-up", daemon=True).start()
        elif self.connected.is_set():
            logger.warning("room: lost the broker (%s); reconnecting", reason)
        self.connected.clear()
        self.subscribed.clear()

    def _give_up(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        now = time.monotonic()
        where = parse_topic(message.topic)
        if where is not None:
            self.received[where[2]] = self.received.get(where[2], 0) + 1
        if where is not None and where[2] == "status":
            try:
                self.online[where[1]] = decode(message.topic, message.payload).online
            except BadMessage:  # the caller quarantines it, if it asked for status
                self.online[where[1]] = False
            if not self._status_asked:  # watched for silence only: not the caller's
                if self.manual_ack and message.qos:
                    self.client.ack(message.mid, message.qos)
                return
        try:
            if self.manual_ack:
                self.on_message(message.topic, message.payload, now, message.mid if message.qos else 0)
            else:
                self.on_message(message.topic, message.payload, now)
        except Exception:  # a consumer quarantines bad messages itself; this is a bug, and we go on
            logger.exception("room: handling %s failed", message.topic)
