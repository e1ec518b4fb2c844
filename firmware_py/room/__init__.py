"""The room: tables publishing through an MQTT broker; the floor view, the collector, the broadcast off the table."""

from firmware_py.room.messages import SCHEMA_VERSION, parse_topic, topic
from firmware_py.room.room_config import BrokerConfig, RoomConfig, check_id, parse_room

__all__ = ["SCHEMA_VERSION", "BrokerConfig", "RoomConfig", "check_id", "parse_room", "parse_topic", "topic"]
