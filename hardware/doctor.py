"""Doctor checks: each reader, the serial board, each button and the buzzer, as pass/fail lines with a fix."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import LED, Buzzer
from gpiozero import Button as GpioButton

from firmware_py.errors import ProtocolError, TableError
from hardware.hardware_config import HardwareConfig, SpiReaderConfig
from hardware.mfrc522_reader import VALID_VERSIONS, Mfrc522Reader, SpiOpener
from hardware.protocol import Hello, Scan, decode


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report: `ok` is None when the check was skipped."""

    name: str
    ok: bool | None
    detail: str
    fix: str = ""

    def line(self) -> str:
        mark = {True: "PASS", False: "FAIL", None: "SKIP"}[self.ok]
        text = f"{mark}  {self.name}: {self.detail}"
        if self.fix and self.ok is not True:
            text += f"\n      fix: {self.fix}"
        return text


Prompt = Callable[[str], str]  # shows a question, returns the answer ("" when non-interactive)


def check_reader(config: SpiReaderConfig, *, spi_exists: Callable[[int, int], bool], sleep: Callable[[float], None],
                 prompt: Prompt | None, tag_wait_s: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 on_tag_request: Callable[[str], None] | None = None, open_spi: SpiOpener | None = None,
                 gpio: Any = None) -> list[Check]:
    name = f"reader {config.antenna}"
    checks = []
    if not spi_exists(config.bus, config.device):
        fix = ("enable SPI: add dtparam=spi=on to /boot/firmware/config.txt" if config.bus == 0 else
               f"enable SPI bus {config.bus}: add dtoverlay=spi{config.bus}-3cs to /boot/firmware/config.txt")
        return [Check(name, False, f"{config.spi_path} does not exist", fix + ", then reboot")]
    checks.append(Check(name, True, f"{config.spi_path} present"))
    reader = Mfrc522Reader(config, open_spi=open_spi, gpio=gpio, sleep=sleep)
    try:
        reader.open()
    except TableError as exc:
        return [*checks, Check(name, False, str(exc),
                               "check 3.3 V and GND, MISO/MOSI/SCK, the chip-select wire and the reset pin")]
    try:
        version = reader.version or 0
        kind = VALID_VERSIONS.get(version)
        if kind is None:
            checks.append(Check(name, False, f"VersionReg reads 0x{version:02X}, not an MFRC522",
                                "check the wiring; a reading that changes from run to run is a loose wire"))
            return checks
        checks.append(Check(name, True, f"VersionReg 0x{version:02X} ({kind})"))
        if prompt is None:
            checks.append(Check(name, None, "tag read not tried (non-interactive)", "run doctor with --tags"))
            return checks
        prompt(f"Place a card on the {config.antenna} antenna, then press Enter")
        if on_tag_request is not None:
            on_tag_request(config.antenna)
        deadline = clock() + tag_wait_s
        while clock() < deadline:
            uids = reader.poll()
            if uids:
                checks.append(Check(name, True, f"read tag {', '.join(uids)}"))
                return checks
            sleep(0.02)
        checks.append(Check(name, False, f"no tag read in {tag_wait_s:g} s",
                            "check the antenna cable and that the card's tag is NTAG21x/MIFARE (13.56 MHz)"))
        return checks
    except TableError as exc:
        checks.append(Check(name, False, str(exc), "check the wiring and power of this reader"))
        return checks
    finally:
        reader.close()


def check_serial(config: HardwareConfig, *, open_port: Callable[..., Any], listen_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic) -> list[Check]:
    board = config.serial
    if board is None:
        return []
    name = f"serial board {board.name}"
    try:
        port = open_port(board.port, baudrate=board.baudrate, timeout=0.05)
    except Exception as exc:
        exists = Path(board.port).exists() if "://" not in board.port else True
        fix = ("plug the board in; `ls /dev/serial/by-id/` shows its name" if not exists else
               "is another program (or the daemon) using the port? add the user to the dialout group")
        return [Check(name, False, f"cannot open {board.port}: {exc}", fix)]
    good = bad = 0
    hello: Hello | None = None
    ports: set[int] = set()
    buffer = b""
    try:
        deadline = clock() + listen_s
        while clock() < deadline:
            buffer += port.read(port.in_waiting or 1)
            *lines, buffer = buffer.split(b"\n")
            for line in lines[1 if good + bad == 0 and not hello else 0:]:
                if not line.strip():
                    continue
                try:
                    message = decode(line)
                except ProtocolError:
                    bad += 1
                    continue
                good += 1
                if isinstance(message, Hello):
                    hello = message
                elif isinstance(message, Scan):
                    ports.add(message.port)
    finally:
        port.close()
    checks = [Check(name, True, f"{board.port} open")]
    if good == 0:
        checks.append(Check(name, False, f"no valid line in {listen_s:g} s ({bad} bad)",
                            f"check the baud rate ({board.baudrate}) and the board's firmware"))
        return checks
    detail = f"{good} valid lines, {bad} bad"
    if hello:
        detail += f"; board {hello.board} firmware {hello.firmware}, {hello.ports} ports"
    checks.append(Check(name, bad * 20 <= good, detail, "a noisy cable or a wrong baud rate" if bad else ""))
    missing = [a for i, a in enumerate(board.antennas) if i not in ports]
    if missing:
        checks.append(Check(name, False, f"no scan from the ports of {', '.join(missing)}",
                            "check those antennas' connectors on the board"))
    return checks


def check_panel(config: HardwareConfig, *, pin_factory: Any, prompt: Prompt | None, press_wait_s: float = 10.0,
                sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic,
                on_press_request: Callable[[int], None] | None = None) -> list[Check]:
    panel = config.panel
    if panel is None:
        return []
    checks = []
    if prompt is None:
        return [Check("panel", None, "buttons and buzzer not tried (non-interactive)", "run doctor with --panel")]
    for button in panel.buttons:
        name = f"button {button.name}"
        try:
            device = GpioButton(button.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        except Exception as exc:
            checks.append(Check(name, False, f"GPIO {button.pin}: {exc}", "is the pin used by something else?"))
            continue
        try:
            if device.is_pressed:
                checks.append(Check(name, False, f"GPIO {button.pin} reads pressed before any press",
                                    "a short to ground, or a normally-closed switch: use normally-open"))
                continue
            hold = " and hold it for a second" if button.long_press else ""
            prompt(f"Press {button.name.upper()}{hold}")
            if on_press_request is not None:
                on_press_request(button.pin)
            deadline = clock() + press_wait_s
            while clock() < deadline and not device.is_pressed:
                sleep(0.01)
            if device.is_pressed:
                checks.append(Check(name, True, f"GPIO {button.pin} pressed"))
            else:
                checks.append(Check(name, False, f"no press on GPIO {button.pin} in {press_wait_s:g} s",
                                    f"wire the button between GPIO {button.pin} and GND"))
        finally:
            device.close()
    for label, pin, cls in (("buzzer", panel.buzzer_pin, Buzzer), ("led", panel.led_pin, LED)):
        if pin is None:
            continue
        device = cls(pin, pin_factory=pin_factory)
        try:
            device.on()
            answer = prompt(f"Is the {label} on GPIO {pin} {'sounding' if label == 'buzzer' else 'lit'}? [y/n]")
            device.off()
        finally:
            device.close()
        ok = answer.strip().lower().startswith("y")
        checks.append(Check(label, ok, f"GPIO {pin} {'confirmed' if ok else 'not confirmed'}",
                            f"an active {label} between GPIO {pin} and GND (a buzzer over 20 mA needs a transistor)"))
    return checks
