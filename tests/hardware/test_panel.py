"""The dealer's panel through gpiozero's MockFactory, with our own debounce and hold on a fake clock."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_py.core.events import Button, ButtonName
from hardware.hardware_config import ButtonConfig, PanelConfig
from hardware.panel import DealerPanel

PINS = {ButtonName.FOLD: 5, ButtonName.CALL: 16, ButtonName.MISDEAL: 23, ButtonName.UNDO: 27}


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig(events):
    factory = MockFactory()
    clock = FakeClock()
    config = PanelConfig(
        buttons=tuple(ButtonConfig(name=n, pin=p, long_press=n in (ButtonName.MISDEAL, ButtonName.UNDO))
                      for n, p in PINS.items()),
        debounce_s=0.03, hold_s=1.0, buzzer_pin=12, led_pin=13, beep_s=0.15, led_s=3.0)
    panel = DealerPanel(config, pin_factory=factory, queue=events, clock=clock)
    yield panel, factory, clock
    panel.close()


def run(panel, clock, until, step=0.005):
    events = []
    while clock.t < until - 1e-9:
        clock.t = round(clock.t + step, 6)
        events += panel.service()
    return events


def test_a_clean_press_is_one_button_event(rig, events, drain):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    pressed = run(panel, clock, 0.5)
    factory.pin(5).drive_high()
    run(panel, clock, 1.0)
    assert pressed == [Button(t=0.03, name=ButtonName.FOLD)]
    assert drain(events) == pressed


def test_contact_bounce_is_one_press(rig):
    panel, factory, clock = rig
    pin = factory.pin(16)
    for i in range(6):  # 6 ms of bounce
        clock.t = i * 0.001
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
    clock.t = 0.006
    pin.drive_low()
    assert [e.name for e in run(panel, clock, 0.5)] == [ButtonName.CALL]


def test_a_press_shorter_than_the_debounce_is_nothing(rig):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    clock.t = 0.01
    factory.pin(5).drive_high()
    assert run(panel, clock, 0.5) == []


@pytest.mark.parametrize("name", [ButtonName.MISDEAL, ButtonName.UNDO])
def test_a_costly_button_acts_only_on_a_long_press(rig, name):
    panel, factory, clock = rig
    pin = factory.pin(PINS[name])
    pin.drive_low()
    assert run(panel, clock, 0.5) == []
    pin.drive_high()
    assert run(panel, clock, 1.0) == []  # a short press of misdeal or undo does nothing
    pin.drive_low()
    held = run(panel, clock, 3.0)
    assert [(e.t, e.name) for e in held] == [(2.0, name)]  # once, when held for hold_s, not repeated


def test_a_new_ruling_beeps_and_lights_the_led(rig):
    panel, factory, clock = rig
    panel.signal_ruling()
    assert factory.pin(12).state and factory.pin(13).state
    run(panel, clock, 0.2)
    assert not factory.pin(12).state and factory.pin(13).state
    run(panel, clock, 3.1)
    assert not factory.pin(13).state


def test_the_panel_uses_only_the_factory_it_is_given(rig):
    panel, factory, _ = rig
    assert all(device.pin_factory is factory for device in panel._devices)


def test_a_players_action_carries_the_table_state_it_was_pressed_against(events):
    """Each action press carries the hand number and action count last shown: a second press before
    the table took the first is the same press again, and the core refuses it as stale."""
    factory = MockFactory()
    clock = FakeClock()
    config = PanelConfig(buttons=tuple(ButtonConfig(name=n, pin=p, long_press=False) for n, p in PINS.items()),
                         debounce_s=0.03, hold_s=1.0, buzzer_pin=None, led_pin=None, beep_s=0.15, led_s=3.0)
    shown = (7, 3)
    panel = DealerPanel(config, pin_factory=factory, queue=events, clock=clock, made_against=lambda: shown)
    try:
        factory.pin(16).drive_low()
        pressed = run(panel, clock, 0.5)
        factory.pin(16).drive_high()
        factory.pin(27).drive_low()
        pressed += run(panel, clock, 1.0)
    finally:
        panel.close()
    assert pressed == [Button(t=0.03, name=ButtonName.CALL, hand=7, count=3),
                       Button(t=0.53, name=ButtonName.UNDO)]  # not a player's action: not stamped
