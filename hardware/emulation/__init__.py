"""Emulated table hardware: an MFRC522 register model with tags, fake spidev/RPi.GPIO, a serial board."""
