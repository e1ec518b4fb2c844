"""The USB numeric keypad: key events to actions with amounts, through the reader thread to the daemon.

Where /dev/uinput is usable (a Pi, a CI runner with the uinput module) a kernel input device made
with evdev's UInput is read through evdev exactly as the keypad is; elsewhere (containers without
uinput) the same reader reads a recorded event stream of a real keypad's events (EV_MSC scan
codes, key down, repeat, key up, EV_SYN) from a pipe, through the same `select` and decoding.
"""

from __future__ import annotations

import os
import queue
import struct
import threading
import time
from pathlib import Path

import pytest
from evdev import InputEvent, ecodes

from firmware_py.core import Button, ButtonName
from firmware_py.daemon.app import Stop
from firmware_py.daemon.port import DaemonPort
from firmware_py.errors import ConfigError
from hardware.keypad import KeypadConfig, KeypadDecoder, KeypadReader, add_keypad, parse_keypad_config
from tests.chips_daemon import dealt_daemon
from tests.config_mistakes import assert_mistakes

ROOT = Path(__file__).resolve().parents[2]
K = ecodes


def strokes(*keys: int) -> list[tuple[int, int, int]]:
    """What a keypad sends per key: a scan code, key down, a sync, key up, a sync."""
    out = []
    for key in keys:
        out += [(K.EV_MSC, K.MSC_SCAN, 0x70000 + key), (K.EV_KEY, key, 1), (K.EV_SYN, K.SYN_REPORT, 0),
                (K.EV_KEY, key, 0), (K.EV_SYN, K.SYN_REPORT, 0)]
    return out


class RecordedKeypad:
    """A recorded event stream served like an evdev device: a pipe to select on, events read in batches."""

    def __init__(self, events: list[tuple[int, int, int]]) -> None:
        self._read_fd, self._write_fd = os.pipe()
        self._events = [InputEvent(1, i, kind, code, value) for i, (kind, code, value) in enumerate(events)]
        self._sent = 0

    def play(self) -> None:
        for _ in self._events:
            os.write(self._write_fd, b"e")

    def fileno(self) -> int:
        return self._read_fd

    def read(self) -> list[InputEvent]:
        count = len(os.read(self._read_fd, 4096))
        batch = self._events[self._sent:self._sent + count]
        self._sent += count
        return batch


def test_digits_then_an_action_key_make_one_action_with_the_amount() -> None:
    keys = KeypadDecoder(KeypadConfig())
    got = [keys.key(code, value) for code, value in (
        (K.KEY_KP1, 1), (K.KEY_KP1, 2), (K.KEY_KP1, 0),  # a repeat adds nothing
        (K.KEY_KP2, 1), (K.KEY_BACKSPACE, 1), (K.KEY_KP5, 1), (K.KEY_KP0, 1), (K.KEY_KPPLUS, 1))]
    assert got[-1] == (ButtonName.RAISE, 150) and got[:-1] == [None] * 7
    assert keys.key(K.KEY_KP9, 1) is None and keys.key(K.KEY_KPDOT, 1) is None  # dot clears
    assert keys.key(K.KEY_KPENTER, 1) == (ButtonName.CALL, None)
    assert keys.key(K.KEY_KP5, 1) is None and keys.key(K.KEY_KPMINUS, 1) == (ButtonName.FOLD, None)  # no amount on fold
    assert keys.key(K.KEY_KP5, 1) is None and keys.key(K.KEY_KPASTERISK, 1) == (ButtonName.ALLIN, None)


def test_a_keymap_names_the_bad_key_and_action() -> None:
    assert parse_keypad_config({"device": "/dev/x", "keys": {"KEY_KPENTER": "check"}}).keys[K.KEY_KPENTER] \
        is ButtonName.CHECK
    with pytest.raises(ConfigError, match=r"\[keypad\].keys KEY_KPENTR: not an evdev key name"):
        parse_keypad_config({"device": "/dev/x", "keys": {"KEY_KPENTR": "call"}})
    with pytest.raises(ConfigError, match="'rase' is not one of"):
        parse_keypad_config({"device": "/dev/x", "keys": {"KEY_KPENTER": "rase"}})
    with pytest.raises(ConfigError, match="device: must be the keypad's event device"):
        parse_keypad_config({})


def test_keypad_config_reports_every_bad_value_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_keypad_config({"device": 3, "keys": {"KEY_KPENTR": "call", "KEY_KPENTER": "rase"}, "dev": 1},
                            source="hw.toml")
    assert_mistakes(caught.value, "hw.toml", [
        ("[keypad] dev", "unknown key (did you mean 'device'?)"), ("[keypad] device", "e.g. /dev/input/by-id/"),
        ("[keypad].keys KEY_KPENTR", "not an evdev key name (e.g. KEY_KPENTER)"),
        ("[keypad].keys KEY_KPENTER", "'rase' is not one of allin, bet, call, check, fold, raise "
                                      "(did you mean 'raise'?)")])


def test_a_keypad_config_with_a_keymap_is_still_accepted() -> None:
    config = parse_keypad_config({"device": "/dev/x", "keys": {"KEY_KPENTER": "check", "KEY_KPSLASH": "call"}})
    assert config.keys[K.KEY_KPENTER] is ButtonName.CHECK and config.keys[K.KEY_KPSLASH] is ButtonName.CALL


def uinput_device() -> object | None:
    try:
        from evdev import UInput  # noqa: PLC0415

        return UInput({K.EV_KEY: [*range(K.KEY_1, K.KEY_0 + 1), *DIGIT_KEYS, K.KEY_KPPLUS, K.KEY_KPENTER,
                                  K.KEY_KPMINUS, K.KEY_KPASTERISK, K.KEY_KPSLASH, K.KEY_KPDOT]},
                      name="pokertable test keypad")
    except Exception:  # no /dev/uinput (a container): the recorded stream is used instead
        return None


DIGIT_KEYS = [getattr(K, f"KEY_KP{d}") for d in range(10)]


def test_keypad_end_to_end_through_the_daemon(tmp_path: Path) -> None:
    """Key '3 0 0 +' (raise to 300), Enter (call), Enter: the daemon journals and the core counts the chips."""
    daemon, journal, events = dealt_daemon(tmp_path)
    presses = [K.KEY_KP3, K.KEY_KP0, K.KEY_KP0, K.KEY_KPPLUS, K.KEY_KPENTER, K.KEY_KPENTER]
    ui = uinput_device()
    if ui is not None:
        from evdev import InputDevice  # noqa: PLC0415

        time.sleep(0.2)  # udev creates the node
        device = InputDevice(ui.device.path)  # type: ignore[attr-defined]
    else:
        device = RecordedKeypad(strokes(*presses))
    add_keypad(DaemonPort(daemon), KeypadConfig(device="test"), device=device)

    def type_keys() -> None:
        time.sleep(0.3)  # the daemon is running and the keypad thread reading
        if ui is not None:
            for code in presses:
                ui.write(K.EV_KEY, code, 1)  # type: ignore[attr-defined]
                ui.syn()  # type: ignore[attr-defined]
                ui.write(K.EV_KEY, code, 0)  # type: ignore[attr-defined]
                ui.syn()  # type: ignore[attr-defined]
        else:
            device.play()  # type: ignore[union-attr]
        deadline = time.monotonic() + 5
        while daemon.events_fed < 3 + 1 + 6 + 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        events.put(Stop("test"))

    typist = threading.Thread(target=type_keys)
    typist.start()
    assert daemon.run() == 0
    typist.join()
    snapshot = daemon.core.snapshot()
    lines = [row.line for row in journal.rows()]
    journal.close()
    assert any('"name": "raise", "amount": 300' in line for line in lines), lines
    # Three seats, button 1: seat 2 small blind 25, seat 3 big blind 50; seat 1 raises to 300.
    assert [snapshot.seat(s).last_action for s in (1, 2, 3)] == ["raise 300", "call 300", "call 300"]
    assert snapshot.chips is not None and snapshot.chips.pot == 900


def test_the_recorded_stream_is_the_byte_layout_of_a_kernel_event() -> None:
    # struct input_event on 64-bit Linux: two longs of time, type, code, value.
    raw = struct.pack("llHHi", 1, 2, K.EV_KEY, K.KEY_KPENTER, 1)
    sec, usec, kind, code, value = struct.unpack("llHHi", raw)
    event = InputEvent(sec, usec, kind, code, value)
    reader = KeypadReader(KeypadConfig(), device=None, queue=queue.Queue(), clock=lambda: 7.0)
    assert reader.handle(event) == Button(t=7.0, name=ButtonName.CALL)


def test_the_amount_keyed_so_far_is_shown_until_the_action_key_sends_it() -> None:
    shown: list[str] = []
    posted: queue.Queue[object] = queue.Queue()
    reader = KeypadReader(KeypadConfig(), device=None, queue=posted, clock=lambda: 3.0, on_entry=shown.append)
    for kind, code, value in strokes(K.KEY_KP6, K.KEY_KP5, K.KEY_BACKSPACE, K.KEY_KP0, K.KEY_KP0, K.KEY_KPPLUS):
        reader.handle(InputEvent(0, 0, kind, code, value))
    assert shown == ["6", "65", "6", "60", "600", ""]
    assert posted.get_nowait() == Button(t=3.0, name=ButtonName.RAISE, amount=600)


def test_a_keypad_not_plugged_in_is_named_by_its_file_and_key_before_the_table_starts(tmp_path: Path) -> None:
    """The keypad's environment (validate_environment): its device must be there; the message says how to find it."""
    from firmware_py.extensions import Where  # noqa: PLC0415
    from hardware.keypad import EXTENSION, check_keypad  # noqa: PLC0415

    assert EXTENSION.validate_environment is check_keypad
    where = Where(source="hardware.toml", base_dir=tmp_path)
    missing = str(tmp_path / "usb-keypad-event-kbd")
    with pytest.raises(ConfigError, match=r"^hardware.toml: \[keypad\] device: .*usb-keypad-event-kbd does not "
                                          r"exist; is the keypad plugged in\? `ls /dev/input/by-id/`"):
        check_keypad(KeypadConfig(device=missing), where)
    (tmp_path / "usb-keypad-event-kbd").touch()
    check_keypad(KeypadConfig(device=missing), where)  # there: its opening is the reader's, when it starts
