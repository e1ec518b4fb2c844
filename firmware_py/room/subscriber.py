"""A room client that subscribes and hands each JSON message to a callback (floor, collector, production).

paho's network thread calls `on_message`; the callback must be quick or queue the work. A
persistent session (a fixed client id, clean_start off, a session expiry) makes the broker keep
QoS 1 messages for the client while it is away: the collector uses it so nothing is missed.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from firmware_py.room.messages import parse_topic
from firmware_py.room.mqtt import connect_first, connect_properties, make_client
from firmware_py.room.room_config import BrokerConfig

logger = logging.getLogger("firmware_py.room")

SESSION_EXPIRY_S = 7 * 24 * 3600


class RoomSubscriber:
    """Subscribe to `topics` on `broker`; `on_message(topic, body, now)` gets each parsed JSON message."""

    def __init__(self, broker: BrokerConfig, topics: Sequence[str], *, client_id: str,
                 on_message: Callable[..., None], persistent: bool = False, manual_ack: bool = False) -> None:
        """With `manual_ack`, `on_message` also gets the message id, and the message is acknowledged to the
        broker only when `ack(mid)` is called (after it is safely stored); else paho acknowledges it."""
        self.broker, self.topics, self.persistent = broker, list(topics), persistent
        self.on_message = on_message
        self.connected = threading.Event()
        self.refused = ""
        self.bad_messages = 0
        # What has come, by kind, and which tables say they are online: the broker grants any subscription
        # and delivers only what the ACL lets us read, so silence is the only sign of a wrong user. The
        # retained status (every room reader may read it) is watched too, to tell silence from no tables.
        self.received: dict[str, int] = {}
        self.online: dict[str, bool] = {}
        self.subscribed_at: float | None = None
        self._status_asked = any(name.endswith("/status") for name in self.topics)
        if not self._status_asked and self.topics:
            self.topics.append(self.topics[0].rsplit("/", 1)[0] + "/status")
        self.client = make_client(broker, client_id=client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.manual_ack = manual_ack
        self.client.manual_ack_set(manual_ack)

    def start(self, *, deadline: float, stop: threading.Event | None = None) -> None:
        """Connect and subscribe before `deadline` (time.monotonic); then paho keeps the connection up.
        Raises BrokerRefused (certificate, name, password: no retry mends them) or BrokerUnreachable."""
        connect_first(self.client, self.broker, answered=self.connected, refused=lambda: self.refused,
                      deadline=deadline, stop=stop, clean_start=not self.persistent,
                      properties=connect_properties(session_expiry_s=SESSION_EXPIRY_S if self.persistent else 0))

    def ack(self, mid: int) -> None:
        self.client.ack(mid, 1)

    def stop(self) -> None:
        self.connected.clear()  # a disconnect we asked for is not worth a warning
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            logger.error("room: the broker %s:%d refused us: %s", self.broker.host, self.broker.port, reason)
            return
        self.refused = ""
        for name in self.topics:
            client.subscribe(name, qos=1)
        logger.info("room: subscribed to %s on %s:%d", ", ".join(self.topics), self.broker.host, self.broker.port)
        if self.subscribed_at is None:
            self.subscribed_at = time.monotonic()
        self.connected.set()

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if self.connected.is_set():
            logger.warning("room: lost the broker (%s); reconnecting", reason)
        self.connected.clear()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        now = time.monotonic()
        where = parse_topic(message.topic)
        if where is not None:
            self.received[where[2]] = self.received.get(where[2], 0) + 1
        try:
            body = json.loads(message.payload)
        except ValueError:
            self.bad_messages += 1
            logger.warning("room: %s: not JSON, ignored", message.topic)
            if self.manual_ack and message.qos:
                self.client.ack(message.mid, message.qos)
            return
        if where is not None and where[2] == "status":
            self.online[where[1]] = isinstance(body, dict) and body.get("online") is True
            if not self._status_asked:  # watched for silence only: not the caller's
                if self.manual_ack and message.qos:
                    self.client.ack(message.mid, message.qos)
                return
        try:
            if self.manual_ack:
                self.on_message(message.topic, body, now, message.mid if message.qos else 0)
            else:
                self.on_message(message.topic, body, now)
        except Exception:
            logger.exception("room: handling %s failed", message.topic)
