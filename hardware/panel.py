"""The dealer's panel: gpiozero buttons debounced and held on an injected clock, a buzzer and an LED."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Buzzer
from gpiozero import Button as GpioButton

from firmware_py.core.events import PLAYER_ACTIONS, Button, ButtonName
from hardware.hardware_config import ButtonConfig, PanelConfig
from hardware.polling import Clock, EventSink
from hardware.worker import Worker

logger = logging.getLogger(__name__)

SERVICE_INTERVAL_S = 0.005


class ButtonLogic:
    """Debounce and long press of one button, from raw edges and the time they came.

    The level must hold for `debounce_s` to count. A normal button acts as soon as its press is
    stable; a long-press button (`misdeal`, `undo`) acts only once held for `hold_s`, so a brush
    of the hand does nothing.

    >>> b = ButtonLogic(ButtonConfig(name=ButtonName.UNDO, pin=27, long_press=True), debounce_s=0.03, hold_s=1.0)
    >>> b.edge(True, 0.0); b.service(0.5), b.service(1.0), b.service(1.5)
    (False, True, False)
    """

    def __init__(self, config: ButtonConfig, *, debounce_s: float, hold_s: float) -> None:
        self.config = config
        self.debounce_s = debounce_s
        self.hold_s = hold_s
        self._raw = False
        self._raw_since = 0.0
        self._stable = False
        self._pressed_at = 0.0
        self._fired = False
        self.short_presses = 0

    def edge(self, pressed: bool, now: float) -> None:
        """A raw level change, as the pin reported it (bounces included)."""
        if pressed != self._raw:
            self._raw, self._raw_since = pressed, now

    def service(self, now: float) -> bool:
        """Decide at `now`; True when the button acts (at most once per press)."""
        if self._raw != self._stable and now - self._raw_since >= self.debounce_s:
            self._stable = self._raw
            if self._stable:
                self._pressed_at, self._fired = self._raw_since, False
            elif not self._fired and self.config.long_press:
                self.short_presses += 1
                logger.info("%s released before %.1f s: hold it to act", self.config.name, self.hold_s)
        if not self._stable or self._fired:
            return False
        needed = self.hold_s if self.config.long_press else 0.0
        if now - self._pressed_at >= needed:
            self._fired = True
            return True
        return False

    @property
    def pressed(self) -> bool:
        return self._stable


class DealerPanel(Worker):
    """The panel's gpiozero devices on an explicit pin factory; posts `Button` events to `queue`.

    Edges come from gpiozero callbacks (its own thread on a Pi), decisions from `service()`,
    which the panel's thread calls every few milliseconds and a test calls by hand.
    """

    def __init__(self, config: PanelConfig, *, pin_factory: Any, queue: EventSink, clock: Clock,
                 made_against: Callable[[], tuple[int, int] | None] | None = None) -> None:
        super().__init__("panel", error_wait_s=SERVICE_INTERVAL_S)  # first: a failed pin closes the panel
        self.config = config
        # The hand number and action count the table showed when a player's action was pressed: the
        # core refuses the press if the table has moved on since (a double press, or the tracker's
        # press for the same player landing first), instead of giving it to the next player.
        self.made_against = made_against
        self.queue = queue
        self.clock = clock
        self._lock = threading.Lock()
        self.logic: dict[ButtonName, ButtonLogic] = {}
        self._devices: list[Any] = []
        self._buttons: dict[ButtonName, Any] = {}
        try:
            for button in config.buttons:
                logic = ButtonLogic(button, debounce_s=config.debounce_s, hold_s=config.hold_s)
                # bounce_time=None: gpiozero's own debounce is not deterministic; ours runs on `clock`.
                device = GpioButton(button.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                device.when_pressed = self._edge_handler(logic, True)
                device.when_released = self._edge_handler(logic, False)
                self.logic[button.name] = logic
                self._buttons[button.name] = device
                self._devices.append(device)
            self.buzzer = (Buzzer(config.buzzer_pin, pin_factory=pin_factory)
                           if config.buzzer_pin is not None else None)
            self.led = LED(config.led_pin, pin_factory=pin_factory) if config.led_pin is not None else None
        except Exception:
            self.close()
            raise
        self._devices += [d for d in (self.buzzer, self.led) if d is not None]
        self._buzzer_until: float | None = None
        self._led_until: float | None = None

    def _edge_handler(self, logic: ButtonLogic, pressed: bool) -> Any:
        def handler() -> None:
            try:
                with self._lock:
                    logic.edge(pressed, self.clock())
            except Exception:  # a callback boundary: log and survive
                logger.exception("panel: edge of %s", logic.config.name)
        return handler

    def service(self) -> list[Button]:
        """Turn settled presses into `Button` events (posted and returned) and time the signals."""
        now = self.clock()
        events = []
        with self._lock:
            for name, logic in self.logic.items():
                if logic.service(now):
                    made = self.made_against() if self.made_against is not None and name in PLAYER_ACTIONS else None
                    events.append(Button(t=now, name=name) if made is None
                                  else Button(t=now, name=name, hand=made[0], count=made[1]))
            if self._buzzer_until is not None and now >= self._buzzer_until and self.buzzer is not None:
                self.buzzer.off()
                self._buzzer_until = None
            if self._led_until is not None and now >= self._led_until and self.led is not None:
                self.led.off()
                self._led_until = None
        for event in events:
            self.queue.put(event)
        return events

    def signal_ruling(self) -> None:
        """A new ruling is on screen: beep once and light the LED for `led_s`."""
        now = self.clock()
        with self._lock:
            if self.buzzer is not None:
                self.buzzer.on()
                self._buzzer_until = now + self.config.beep_s
            if self.led is not None:
                self.led.on()
                self._led_until = now + self.config.led_s

    def acknowledge(self) -> None:
        """The dealer has seen the ruling: LED and buzzer off."""
        with self._lock:
            for device in (self.buzzer, self.led):
                if device is not None:
                    device.off()
            self._buzzer_until = self._led_until = None

    def is_pressed(self, name: ButtonName) -> bool:
        return bool(self._buttons[name].is_pressed)

    def _cycle(self) -> float:
        self.service()
        return SERVICE_INTERVAL_S

    def close(self) -> None:
        """Release this panel's pins only, in reverse order of creation."""
        self.stop()
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:
                logger.exception("panel: closing %r", device)
        self._devices.clear()
