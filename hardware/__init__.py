"""The hardware layer: RFID readers, the serial antenna board and the dealer panel, turned into events."""
