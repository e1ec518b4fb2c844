"""The poker-table appliance: the daemon, its adapters, and the pure rules core (`firmware_py.core`)."""

__version__ = "0.1.0"
