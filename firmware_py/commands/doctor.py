"""`doctor`: check each configured reader, the serial board, each button and the buzzer; say what to fix."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gpiozero.devices import Device

from firmware_py.extensions import EXTENSIONS, ConfigFile
from hardware.doctor import Check, check_panel, check_reader, check_serial
from hardware.emulation.emulated_table import EmulatedTable
from hardware.hardware_config import DEFAULT_PATH, load_hardware_config
from hardware.serial_board import open_serial_port

HELP = "check the table's hardware (readers, serial board, buttons, buzzer) and print what to fix"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=DEFAULT_PATH, help="hardware config file")
    parser.add_argument("--tags", action="store_true", help="ask for a card on each reader's antenna")
    parser.add_argument("--panel", action="store_true", help="ask for each button press and the buzzer")
    parser.add_argument("--emulate", action="store_true",
                        help="check emulated hardware, with a simulated operator (no Pi needed)")


def run(args: argparse.Namespace) -> int:
    config = load_hardware_config(args.config, extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))  # [keypad] too
    print(f"Checking the hardware of {config.source}")
    table = None
    if args.emulate:
        table = EmulatedTable(config)
        config = table.config
    checks: list[Check] = []
    try:
        checks += _readers(config, args, table)
        checks += _serial(config)
        checks += _panel(config, args, table)
    finally:
        if table is not None:
            table.close()
    for check in checks:
        print(check.line())
    failed = sum(1 for c in checks if c.ok is False)
    skipped = sum(1 for c in checks if c.ok is None)
    print(f"{len(checks) - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def _prompt(question: str) -> str:
    try:
        return input(question + " ")
    except EOFError:
        return ""


def _emulated_prompt(question: str) -> str:
    print(question + " [simulated: yes]")
    return "y"


def _readers(config, args, table) -> list[Check]:  # type: ignore[no-untyped-def]
    checks: list[Check] = []
    for reader in config.readers:
        if table is not None:
            hw = table.hardware
            checks += check_reader(reader, spi_exists=hw.spi_device_exists, sleep=hw.sleep,
                                   open_spi=hw.open_spi, gpio=hw.gpio,
                                   prompt=_emulated_prompt if args.tags else None, clock=hw.now,
                                   on_tag_request=lambda antenna: table.place(antenna, "04D0C7041F2E3D"))
        else:
            checks += check_reader(reader, spi_exists=lambda b, d: Path(f"/dev/spidev{b}.{d}").exists(),
                                   sleep=time.sleep, prompt=_prompt if args.tags else None)
    return checks


def _serial(config) -> list[Check]:  # type: ignore[no-untyped-def]
    return check_serial(config, open_port=open_serial_port)


def _panel(config, args, table) -> list[Check]:  # type: ignore[no-untyped-def]
    if not args.panel:
        return check_panel(config, pin_factory=None, prompt=None) if config.panel else []
    if table is not None:
        factory = table.pin_factory
        return check_panel(config, pin_factory=factory, prompt=_emulated_prompt,
                           on_press_request=lambda pin: factory.pin(pin).drive_low())
    try:
        factory = Device._default_pin_factory()
    except Exception as exc:
        return [Check("panel", False, f"no GPIO access: {exc}", "run on the Pi; on a Pi 5 install lgpio")]
    return check_panel(config, pin_factory=factory, prompt=_prompt)
