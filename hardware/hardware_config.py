"""Loading `config/hardware.toml`: readers, the serial antenna board, the dealer's panel and timings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_py.config_toolkit import ConfigMistakes, Section, did_you_mean, read_toml, shown, toml_value
from firmware_py.core.events import ANTENNAS, ButtonName
from firmware_py.errors import ConfigError

if TYPE_CHECKING:
    from firmware_py.ports import SectionReader

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "config" / "hardware.toml"

MFRC522_MAX_SPI_HZ = 10_000_000  # datasheet limit of the MFRC522's SPI interface
MIN_SPI_HZ = 10_000
BCM_PINS = range(28)  # GPIO 0..27 on the 40-pin header

# Header pins that an SPI bus takes once it is enabled: (MISO, MOSI, SCLK) and one chip select per device.
SPI_BUS_PINS = {0: (9, 10, 11), 1: (19, 20, 21)}
SPI_CS_PINS = {0: (8, 7), 1: (18, 17, 16)}

DEFAULT_LONG_PRESS = (ButtonName.MISDEAL, ButtonName.UNDO)
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)


@dataclass(frozen=True, kw_only=True, slots=True)
class PresenceTiming:
    """How raw polls become arrivals: a tag must be seen for `debounce_s`, and is gone after
    `removal_delay_s` unseen."""

    debounce_s: float = 0.05
    removal_delay_s: float = 0.6


@dataclass(frozen=True, kw_only=True, slots=True)
class SpiReaderConfig:
    """One MFRC522 module on the Pi's SPI bus, sensing one antenna."""

    antenna: str
    bus: int
    device: int
    reset_pin: int | None
    spi_hz: int = 1_000_000

    @property
    def name(self) -> str:
        return self.antenna

    @property
    def spi_path(self) -> str:
        return f"/dev/spidev{self.bus}.{self.device}"


@dataclass(frozen=True, kw_only=True, slots=True)
class SerialBoardConfig:
    """A multi-antenna reader board on a serial port; `antennas[i]` is the table antenna of its port i."""

    name: str
    port: str
    baudrate: int = 115_200
    antennas: tuple[str, ...] = ()
    reconnect_s: float = 0.2
    silence_s: float = 1.0


@dataclass(frozen=True, kw_only=True, slots=True)
class ButtonConfig:
    """One button of the dealer's panel; a long-press button acts only when held for `hold_s`."""

    name: ButtonName
    pin: int
    long_press: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class PanelConfig:
    """The dealer's panel: buttons to ground (pull-ups on), a buzzer and an LED for new rulings."""

    buttons: tuple[ButtonConfig, ...]
    debounce_s: float = 0.03
    hold_s: float = 1.0
    buzzer_pin: int | None = None
    led_pin: int | None = None
    beep_s: float = 0.15
    led_s: float = 3.0

    def button(self, name: ButtonName | str) -> ButtonConfig | None:
        return next((b for b in self.buttons if b.name == name), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class HardwareConfig:
    """The whole `hardware.toml`, validated."""

    source: str
    presence: PresenceTiming = PresenceTiming()
    presence_overrides: Mapping[str, PresenceTiming] = field(default_factory=dict)
    poll_interval_s: float = 0.01
    readers: tuple[SpiReaderConfig, ...] = ()
    serial: SerialBoardConfig | None = None
    panel: PanelConfig | None = None
    # The registered extensions' sections in this file (firmware_py.extensions), each typed by its own schema
    # (`[keypad]`: hardware.keypad.keypad_of).
    extensions: Mapping[str, object] = field(default_factory=dict)

    def timing_for(self, antenna: str) -> PresenceTiming:
        """The presence timing of one antenna (its own section, else `[presence]`)."""
        return self.presence_overrides.get(antenna, self.presence)

    @property
    def antennas(self) -> tuple[str, ...]:
        """Every configured antenna, SPI readers first."""
        board = self.serial.antennas if self.serial else ()
        return (*(r.antenna for r in self.readers), *board)

    def reader(self, antenna: str) -> SpiReaderConfig | None:
        return next((r for r in self.readers if r.antenna == antenna), None)


def _pin(section: Section, key: str) -> int | None:
    return section.integer(key, None, choices=BCM_PINS, what="a BCM GPIO number 0..27")


def _antenna(section: Section, key: str, value: Any) -> str:
    if not isinstance(value, str) or value not in ANTENNAS:
        hint = did_you_mean(value, sorted(ANTENNAS)) if isinstance(value, str) else ""
        raise section.error(f"unknown antenna {shown(value)}{hint}; antennas are shoe, burn, muck, "
                            "board1..board5 and seat1..seat10", key)
    return value


def _timing(section: Section, default: PresenceTiming, mistakes: ConfigMistakes) -> PresenceTiming:
    debounce_s = mistakes.attempt(lambda: section.number("debounce_s", default.debounce_s, high=5.0),
                                  default.debounce_s)
    removal_delay_s = mistakes.attempt(lambda: section.number("removal_delay_s", default.removal_delay_s,
                                                              high=60.0), default.removal_delay_s)
    return PresenceTiming(debounce_s=debounce_s, removal_delay_s=removal_delay_s)


def load_hardware_config(path: str | Path = DEFAULT_PATH, *, extensions: SectionReader | None = None) -> HardwareConfig:
    """Read and validate a hardware file; every mistake in it is one line of one ConfigError naming
    the file, section and key. `extensions`: the registered extensions' sections this file may have
    (`firmware_py.extensions.EXTENSIONS.reader(ConfigFile.HARDWARE)`; none: only the hardware's own)."""
    path = Path(path)
    data = read_toml(path, what="hardware config")
    return parse_hardware_config(data, source=str(path), extensions=extensions)


def parse_hardware_config(data: Mapping[str, Any], *, source: str = "hardware.toml",
                          extensions: SectionReader | None = None) -> HardwareConfig:
    """Validate an already-parsed hardware config (the TOML document as a dict): all its mistakes at once.

    A section with a mistake is left out of the checks across sections (pins used twice, an antenna
    sensed twice), so one mistake is not reported again as a conflict it seems to cause.
    """
    mistakes = ConfigMistakes()
    top = Section(source, "", dict(data), mistakes=mistakes)

    presence, overrides, poll_interval_s = PresenceTiming(), dict[str, PresenceTiming](), 0.01
    if top.has("presence"):
        with mistakes.check():
            presence, overrides, poll_interval_s = _presence(source, top.get("presence"), mistakes)
    before = len(mistakes.errors)
    listed: list[Any] = mistakes.attempt(lambda: _list(top, "reader"), [])
    readers = tuple(r for i, raw in enumerate(listed) if (r := _reader(source, i, raw, mistakes)) is not None)
    serial = _serial(source, top.get("serial"), mistakes) if top.has("serial") else None
    sensors_complete = len(mistakes.errors) == before
    panel = _panel(source, top.get("panel"), mistakes) if top.has("panel") else None
    extended = extensions.parse(data, source=source, attempt=mistakes.attempt) if extensions is not None else {}
    top.finish(extra=extensions.sections() if extensions is not None else ())

    config = HardwareConfig(source=source, presence=presence, presence_overrides=overrides,
                            poll_interval_s=poll_interval_s, readers=readers, serial=serial, panel=panel,
                            extensions=extended)
    _check_conflicts(config, mistakes, sensors_complete=sensors_complete)
    mistakes.raise_if_any()
    return config


def _presence(source: str, raw: Any, mistakes: ConfigMistakes) -> tuple[PresenceTiming, dict[str, PresenceTiming],
                                                                         float]:
    sec = Section(source, "presence", raw, mistakes=mistakes)
    presence = _timing(sec, PresenceTiming(), mistakes)
    poll_interval_s = mistakes.attempt(lambda: sec.number("poll_interval_s", 0.01, low=0.001, high=1.0), 0.01)
    overrides: dict[str, PresenceTiming] = {}
    for key, value in sec.data.items():
        if key in sec.used or not isinstance(value, dict):
            continue
        with mistakes.check():
            antenna = _antenna(sec, key, key)
            sub = Section(source, f"presence.{key}", value, mistakes=mistakes)
            overrides[antenna] = _timing(sub, presence, mistakes)
            sub.finish()
    sec.finish(extra=(k for k, v in sec.data.items() if isinstance(v, dict)))  # a bad antenna is reported above
    return presence, overrides, poll_interval_s


def _list(top: Section, key: str) -> list[Any]:
    value = top.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise top.error(f"must be a list of tables, written [[{key}]]", key)
    return value


def _reader(source: str, index: int, raw: Any, mistakes: ConfigMistakes) -> SpiReaderConfig | None:
    """One `[[reader]]`, or None when it has a mistake (noted: a wrong bus or chip select would clash)."""
    before = len(mistakes.errors)
    sec = mistakes.section(source, f"reader #{index + 1}", raw)
    if sec is None:
        return None
    antenna = mistakes.attempt(lambda: _antenna(sec, "antenna", sec.required("antenna")), "")
    if antenna:
        sec.path = f"reader {antenna}"
    bus = mistakes.attempt(lambda: sec.integer("bus", 0, low=0, high=6, what="an SPI bus number"), 0)
    device = mistakes.attempt(lambda: sec.integer("device", 0, low=0, high=23, what="an SPI chip-select number"), 0)
    reset_pin = mistakes.attempt(lambda: _pin(sec, "reset_pin"), None)
    spi_hz = mistakes.attempt(lambda: sec.integer("spi_hz", 1_000_000, low=MIN_SPI_HZ, high=MFRC522_MAX_SPI_HZ,
                                                  what="an SPI clock in Hz"), 1_000_000)
    sec.finish()
    if len(mistakes.errors) > before:
        return None
    return SpiReaderConfig(antenna=antenna, bus=bus, device=device, reset_pin=reset_pin, spi_hz=spi_hz)


def _serial(source: str, raw: Any, mistakes: ConfigMistakes) -> SerialBoardConfig | None:
    """`[serial]` (its mistakes noted, the antennas that are right kept for the checks across sections)."""
    sec = mistakes.section(source, "serial", raw)
    if sec is None:
        return None
    port = mistakes.attempt(lambda: sec.string("port"), "")
    name = mistakes.attempt(lambda: sec.string("name", "antenna-board"), "")
    baudrate = mistakes.attempt(lambda: sec.integer("baudrate", 115_200, choices=BAUD_RATES,
                                                    what="a standard baud rate"), 115_200)
    antennas_raw = mistakes.attempt(lambda: sec.required("antennas"), None)
    antennas: list[str] = []
    if antennas_raw is not None and (not isinstance(antennas_raw, list) or not antennas_raw):
        mistakes.note(sec.error("must list the table antenna of each board port, e.g. [\"board1\", \"board2\"]",
                                "antennas"))
    elif antennas_raw is not None:
        for antenna in antennas_raw:
            with mistakes.check():
                antennas.append(_antenna(sec, "antennas", antenna))
    reconnect_s = mistakes.attempt(lambda: sec.number("reconnect_s", 0.2, low=0.01, high=10.0), 0.2)
    silence_s = mistakes.attempt(lambda: sec.number("silence_s", 1.0, low=0.05, high=60.0), 1.0)
    sec.finish()
    return SerialBoardConfig(name=name, port=port, baudrate=baudrate, antennas=tuple(antennas),
                             reconnect_s=reconnect_s, silence_s=silence_s)


def _panel(source: str, raw: Any, mistakes: ConfigMistakes) -> PanelConfig | None:
    """`[panel]` and `[panel.buttons]` (their mistakes noted, the pins that are right kept for the checks
    across sections)."""
    sec = mistakes.section(source, "panel", raw)
    if sec is None:
        return None
    debounce_s = mistakes.attempt(lambda: sec.number("debounce_s", 0.03, high=1.0), 0.03)
    hold_s = mistakes.attempt(lambda: sec.number("hold_s", 1.0, low=0.1, high=10.0), 1.0)
    beep_s = mistakes.attempt(lambda: sec.number("beep_s", 0.15, low=0.01, high=5.0), 0.15)
    led_s = mistakes.attempt(lambda: sec.number("led_s", 3.0, low=0.1, high=600.0), 3.0)
    buzzer_pin = mistakes.attempt(lambda: _pin(sec, "buzzer_pin"), None)
    led_pin = mistakes.attempt(lambda: _pin(sec, "led_pin"), None)
    names = [b.value for b in ButtonName]
    long_raw = sec.get("long_press")
    long_press = set(DEFAULT_LONG_PRESS) if long_raw is None else set()
    if long_raw is not None and not isinstance(long_raw, list):
        mistakes.note(sec.error(f"must be a list of button names, e.g. long_press = "
                                f"{toml_value([str(b) for b in DEFAULT_LONG_PRESS])}", "long_press"))
    elif long_raw is not None:
        for name in long_raw:
            if name in names:
                long_press.add(ButtonName(name))
            else:
                mistakes.note(sec.error(f"unknown button {shown(name)}{did_you_mean(str(name), names)}",
                                        "long_press"))
    buttons = []
    with mistakes.check():
        buttons_sec = Section(source, "panel.buttons", sec.required("buttons"), mistakes=mistakes)
        for key in list(buttons_sec.data):
            if key not in names:
                buttons_sec.get(key)  # reported here, with its suggestion, not again as an unknown key
                mistakes.note(buttons_sec.error(f"unknown button{did_you_mean(key, names)}", key))
                continue
            pin = mistakes.attempt(partial(_pin, buttons_sec, key), None)
            if pin is not None:
                buttons.append(ButtonConfig(name=ButtonName(key), pin=pin, long_press=ButtonName(key) in long_press))
        buttons_sec.finish()
    sec.finish()
    return PanelConfig(buttons=tuple(buttons), debounce_s=debounce_s, hold_s=hold_s, buzzer_pin=buzzer_pin,
                       led_pin=led_pin, beep_s=beep_s, led_s=led_s)


def _check_conflicts(config: HardwareConfig, mistakes: ConfigMistakes, *, sensors_complete: bool) -> None:
    """One antenna per sensor, one reader per chip select, one use per header pin; each clash noted.

    Without `sensors_complete` (a reader or the serial board had a mistake, so it is missing here) an
    antenna that no reader senses is not a mistake of its own.
    """
    source = config.source
    seen_antennas: dict[str, str] = {}
    for reader in config.readers:
        where = f"[reader {reader.antenna}]"
        if reader.antenna in seen_antennas:
            mistakes.note(ConfigError(f"{source}: {where} antenna: {shown(reader.antenna)} is already sensed by "
                                      f"{seen_antennas[reader.antenna]}"))
        seen_antennas[reader.antenna] = where
    if config.serial:
        for index, antenna in enumerate(config.serial.antennas):
            if antenna in seen_antennas:
                mistakes.note(ConfigError(f"{source}: [serial] antennas: {shown(antenna)} (board port {index}) is "
                                          f"already sensed by {seen_antennas[antenna]}"))
            seen_antennas[antenna] = f"[serial] port {index}"
    for antenna in config.presence_overrides:
        if antenna not in seen_antennas and sensors_complete:
            mistakes.note(ConfigError(f"{source}: [presence.{antenna}]: no reader senses antenna {shown(antenna)}"
                                      f"{did_you_mean(antenna, seen_antennas)}"))

    pins: dict[int, str] = {}

    def claim(pin: int | None, user: str, *, shared: bool = False) -> None:
        if pin is None:
            return
        other = pins.get(pin)
        if other is not None and not (shared and other == user):
            mistakes.note(ConfigError(f"{source}: {user}: GPIO {pin} is already used by {other}"))
            return
        pins[pin] = user

    chip_selects: dict[tuple[int, int], str] = {}
    for reader in config.readers:
        key = (reader.bus, reader.device)
        if key in chip_selects:
            mistakes.note(ConfigError(f"{source}: [reader {reader.antenna}] device: SPI bus {reader.bus} chip "
                                      f"select {reader.device} is already {chip_selects[key]}"))
            continue
        chip_selects[key] = f"[reader {reader.antenna}]"
        for pin in SPI_BUS_PINS.get(reader.bus, ()):
            claim(pin, f"SPI bus {reader.bus}", shared=True)
        cs = SPI_CS_PINS.get(reader.bus, ())
        if reader.device < len(cs):
            claim(cs[reader.device], f"[reader {reader.antenna}] chip select")
        claim(reader.reset_pin, "the readers' reset line", shared=True)
    if config.panel:
        for button in config.panel.buttons:
            claim(button.pin, f"[panel.buttons] {button.name}")
        claim(config.panel.buzzer_pin, "[panel] buzzer_pin")
        claim(config.panel.led_pin, "[panel] led_pin")
    if not config.readers and not config.serial and sensors_complete:
        mistakes.note(ConfigError(f"{source}: no readers: add a [[reader]] section or a [serial] board"))
