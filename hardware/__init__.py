"""The hardware layer: RFID readers, the serial antenna board and the dealer panel, turned into events."""

from hardware.hardware_config import HardwareConfig, load_hardware_config
from hardware.presence import Presence
from hardware.reader_health import ReaderFault, ReaderHealth, ReaderRecovered

__all__ = ["HardwareConfig", "Presence", "ReaderFault", "ReaderHealth", "ReaderRecovered", "load_hardware_config"]
