"""The hardware layer: RFID readers, the serial antenna board and the dealer panel, turned into events."""

from hardware.config import HardwareConfig, load_hardware_config
from hardware.faults import Fault, ReaderFault, ReaderRecovered
from hardware.presence import Presence

__all__ = ["Fault", "HardwareConfig", "Presence", "ReaderFault", "ReaderRecovered", "load_hardware_config"]
