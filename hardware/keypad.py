"""A USB numeric keypad for amounts: the dealer keys an amount, then an action key.

Read with `python-evdev` (Linux input events): the reader thread opens the keypad's event device,
grabs it (so the keystrokes reach no console), decodes key presses and posts `Button` events,
with `amount` on bet, raise and all-in, to the main loop's queue as the panel does. Only the main
loop touches the core.

The decoding is a small state machine on key codes and their down/up/repeat values, so a test can
feed it a recorded event stream or drive a real kernel device through evdev's UInput.

>>> from evdev import ecodes as e
>>> keys = KeypadDecoder(KeypadConfig())
>>> for code in (e.KEY_KP6, e.KEY_KP0, e.KEY_KP0):
...     _ = keys.key(code, 1)
>>> keys.entry, keys.key(e.KEY_KPPLUS, 1)
('600', (<ButtonName.RAISE: 'raise'>, 600))
"""

from __future__ import annotations

import logging
import os
import select
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from evdev import InputDevice, ecodes

from firmware_py.config_toolkit import ConfigMistakes, Section, did_you_mean, shown
from firmware_py.core.events import AMOUNT_ACTIONS, PLAYER_ACTIONS, Button, ButtonName
from firmware_py.errors import ConfigError
from firmware_py.extensions import ConfigFile, Extension, Where
from firmware_py.ports import KEYPAD, CallbackComponent, HardwareFacts, Shown, TablePort
from hardware.polling import Clock, EventSink
from hardware.worker import Worker

logger = logging.getLogger(__name__)

KEY_DOWN, KEY_UP, KEY_REPEAT = 1, 0, 2
MAX_DIGITS = 9  # 999,999,999 chips: more is a key held down, not an amount
DIGITS: dict[int, str] = {
    **{getattr(ecodes, f"KEY_KP{d}"): str(d) for d in range(10)},
    **{getattr(ecodes, f"KEY_{d}"): str(d) for d in range(10)},  # keypads that send the top-row digits
}
# A plain 17-key USB keypad: digits, Enter, + - * /, dot, NumLock, Backspace on some models.
DEFAULT_KEYS: dict[str, str] = {
    "KEY_KPPLUS": "raise",  # bet or raise: the core tells which from the bet faced
    "KEY_KPENTER": "call",  # call, or check when there is nothing to call
    "KEY_KPMINUS": "fold",
    "KEY_KPASTERISK": "allin",
    "KEY_KPSLASH": "check",
}
CLEAR_KEYS = frozenset({ecodes.KEY_KPDOT, ecodes.KEY_NUMLOCK, ecodes.KEY_ESC})
BACK_KEYS = frozenset({ecodes.KEY_BACKSPACE})


@dataclass(frozen=True, kw_only=True, slots=True)
class KeypadConfig:
    """`[keypad]` of hardware.toml: the event device and which key means which action."""

    device: str = ""  # /dev/input/by-id/usb-...-event-kbd, or a device name to look for
    keys: Mapping[int, ButtonName] = field(
        default_factory=lambda: {ecodes.ecodes[k]: ButtonName(v) for k, v in DEFAULT_KEYS.items()})


def parse_keypad_config(raw: Any, *, source: str = "hardware.toml") -> KeypadConfig:
    """Validate `[keypad]`: `device` and an optional `[keypad.keys]` of evdev key name to button; every
    mistake in one ConfigError."""
    mistakes = ConfigMistakes()
    section = Section(source, "keypad", raw, ("device", "keys"), mistakes=mistakes)
    device = section.get("device", "")
    if not isinstance(device, str) or not device:
        mistakes.note(section.error("must be the keypad's event device, e.g. "
                                    "/dev/input/by-id/usb-...-event-kbd (see `ls /dev/input/by-id`)", "device"))
    keys = dict(KeypadConfig().keys)
    table = section.get("keys", {})
    if not isinstance(table, dict):
        mistakes.note(section.error("must be a table of key name = action, e.g. [keypad.keys] KEY_KPENTER = "
                                    "\"call\"", "keys"))
        table = {}
    actions = sorted(b.value for b in PLAYER_ACTIONS)
    for name, action in table.items():
        code = ecodes.ecodes.get(name)
        if not isinstance(code, int) or not name.startswith("KEY_"):
            mistakes.note(ConfigError(f"{source}: [keypad].keys {name}: not an evdev key name (e.g. KEY_KPENTER)"))
        elif action not in actions:
            mistakes.note(ConfigError(f"{source}: [keypad].keys {name}: {shown(action)} is not one of "
                                      f"{', '.join(actions)}{did_you_mean(str(action), actions)}"))
        else:
            keys = {c: b for c, b in keys.items() if b != ButtonName(action)}
            keys[code] = ButtonName(action)
    mistakes.raise_if_any()
    return KeypadConfig(device=device, keys=keys)


class KeypadDecoder:
    """Key presses to actions: digits build the amount, an action key sends it, dot clears."""

    def __init__(self, config: KeypadConfig) -> None:
        self.config = config
        self.entry = ""

    def key(self, code: int, value: int) -> tuple[ButtonName, int | None] | None:
        """One key event (down 1, up 0, repeat 2); an action when an action key goes down."""
        if value != KEY_DOWN:
            return None  # act on the press; a held key does not repeat an action or a digit
        if code in DIGITS:
            if len(self.entry) < MAX_DIGITS and not (self.entry == "" and DIGITS[code] == "0"):
                self.entry += DIGITS[code]
            return None
        if code in BACK_KEYS:
            self.entry = self.entry[:-1]
            return None
        if code in CLEAR_KEYS:
            self.entry = ""
            return None
        action = self.config.keys.get(code)
        if action is None:
            return None
        amount = int(self.entry) if self.entry else None
        self.entry = ""
        if amount is not None and action not in AMOUNT_ACTIONS:
            logger.info("keypad: amount %d ignored: %s takes no amount", amount, action)
            amount = None
        if action is ButtonName.ALLIN:
            amount = None  # all in is the whole stack, whatever was keyed
        return action, amount


class KeypadReader(Worker):
    """The keypad's thread: reads an evdev device, decodes, posts `Button` events to `queue`.

    `device` is an `evdev.InputDevice` (or anything with `fileno()` and `read()` yielding input
    events), passed in explicitly; `open_keypad` finds the configured one.
    """

    def __init__(self, config: KeypadConfig, *, device: Any, queue: EventSink, clock: Clock,
                 on_entry: Callable[[str], None] | None = None) -> None:
        self.decoder = KeypadDecoder(config)
        self.device = device
        self.queue = queue
        self.clock = clock
        self.on_entry = on_entry  # told the digits keyed so far, for the dealer's screen
        super().__init__("keypad", error_wait_s=0.0)

    def handle(self, event: Any) -> Button | None:
        """One input event from the device: a Button posted to the queue when an action key went down."""
        if event.type != ecodes.EV_KEY:
            return None
        before = self.decoder.entry
        decoded = self.decoder.key(event.code, event.value)
        if self.on_entry is not None and self.decoder.entry != before:
            try:
                self.on_entry(self.decoder.entry)
            except Exception:  # a callback boundary: the screen must not stop the keypad
                logger.exception("keypad: showing the amount keyed failed")
        if decoded is None:
            return None
        name, amount = decoded
        button = Button(t=self.clock(), name=name, amount=amount)
        self.queue.put(button)
        return button

    def _cycle(self) -> float | None:
        try:
            ready, _, _ = select.select([self.device.fileno()], [], [], 0.2)
            if ready:
                for event in self.device.read():
                    self.handle(event)
        except BlockingIOError:
            pass
        except OSError as exc:  # unplugged: say so once and stop; the panel still works
            logger.error("keypad: %s: %s (unplugged?); amounts can no longer be keyed", self.device, exc)
            return None
        return 0.0


def open_keypad(config: KeypadConfig) -> Any:
    """Open and grab the configured keypad; a clear error when it is missing or not readable."""
    try:
        device = InputDevice(config.device)
    except FileNotFoundError:
        raise ConfigError(f"keypad {config.device}: no such device; is it plugged in? "
                          "(`ls /dev/input/by-id/` lists keyboards as ...-event-kbd)") from None
    except PermissionError:
        raise ConfigError(f"keypad {config.device}: permission denied; add the service user to the "
                          "`input` group") from None
    try:
        device.grab()  # keystrokes go to the table only, never to a console
    except OSError as exc:
        logger.warning("keypad: could not grab %s (%s): keys may also reach a console", config.device, exc)
    return device


def keypad_of(hardware: HardwareFacts) -> KeypadConfig | None:
    """`[keypad]` of a loaded hardware file: a USB numeric keypad for amounts, if fitted."""
    config = hardware.extensions.get("keypad")
    return config if isinstance(config, KeypadConfig) else None


def add_keypad(port: TablePort, keypad: KeypadConfig, *, device: Any = None) -> None:
    """The keypad's reader thread, attached through the table's port: it posts actions with amounts to the main
    loop's queue, and the digits keyed so far to the venue screen. `device`: an opened one (a test's); else the
    configured device is opened when the readers start."""
    running: dict[str, KeypadReader] = {}

    def start() -> None:
        reader = KeypadReader(keypad, device=device if device is not None else open_keypad(keypad),
                              queue=port.presses(KEYPAD), clock=port.clock,
                              on_entry=lambda text: port.show(Shown.KEYED, text))
        reader.start()
        running["reader"] = reader

    def stop() -> None:
        reader = running.pop("reader", None)
        if reader is not None:
            reader.stop()

    port.add_reader(CallbackComponent("keypad", start, stop))


def check_keypad(config: KeypadConfig, where: Where) -> None:
    """The keypad's environment (Mopidy's `validate_environment`): its device is there to be opened."""
    if "/" in config.device and not os.path.exists(config.device):
        raise ConfigError(f"{where.source}: [keypad] device: {config.device} does not exist; is the keypad plugged "
                          "in? `ls /dev/input/by-id/` lists keyboards as ...-event-kbd: write that path, e.g. "
                          "device = \"/dev/input/by-id/usb-...-event-kbd\"")


# A keypad is a USB device on the Pi: the simulated table has none (its dealer bot keys no amounts).
EXTENSION = Extension(name="keypad", section="keypad", file=ConfigFile.HARDWARE, real_hardware_only=True,
                      parse=lambda raw, where: parse_keypad_config(raw, source=where.source),
                      validate_environment=check_keypad, setup=add_keypad)
