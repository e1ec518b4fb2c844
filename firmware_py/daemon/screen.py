"""The daemon's screen: the display package's views on their own thread, with the fault banner on top."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from firmware_py.core import TableSnapshot
from firmware_py.daemon.fault_state import FaultState
from firmware_py.daemon.table_config import ScreenConfig

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 15.0


def _fault_screen_class() -> Any:
    from display import theme  # noqa: PLC0415 (pygame loads only when there is a screen)
    from display.app import Screen  # noqa: PLC0415
    from display.display_config import View  # noqa: PLC0415
    from display.operator import OperatorStatus  # noqa: PLC0415

    class FaultScreen(Screen):
        """A view that shows what is broken across its foot, over whatever the view drew."""

        def __init__(self, *, faults: FaultState, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.faults = faults

        def draw(self, surface: Any, now: float) -> None:
            import pygame  # noqa: PLC0415

            faults = self.faults.current()
            self.operator = OperatorStatus(readers=tuple((f.component, f.message) for f in faults),
                                           note="FAULT" if faults else "")
            super().draw(surface, now)
            if not faults or self.view == View.BROADCAST:
                return  # the broadcast picture is on air: the faults go to the log and the operator's screen
            width, height = surface.get_size()
            line_h = max(18, height // 22)
            box = pygame.Rect(0, height - line_h * (len(faults) + 1) - 8, width, line_h * (len(faults) + 1) + 8)
            surface.fill(theme.ALARM, box)
            pygame.draw.rect(surface, theme.ALARM_EDGE, box, 3)
            theme.draw_text(surface, "TABLE FAULT: call the floor", line_h, theme.TEXT, (10, box.top + 4),
                            max_width=width - 20)
            for i, fault in enumerate(faults, start=1):
                theme.draw_text(surface, f"{fault.component}: {fault.message}", int(line_h * 0.8), theme.TEXT,
                                (10, box.top + 4 + i * line_h), max_width=width - 20)

    return FaultScreen


class DisplayComponent:
    """Opens the screen (a window, or the whole display on the appliance) and draws the snapshots."""

    name = "display"

    def __init__(self, config: ScreenConfig, *, faults: FaultState, clock: Callable[[], float],
                 on_closed: Callable[[], None] | None = None, title: str = "Poker table") -> None:
        self.config = config
        self.faults = faults
        self.clock = clock
        self.on_closed = on_closed
        self.title = title
        self._loop: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="display", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise RuntimeError(f"the screen did not open within {START_TIMEOUT_S:g} s")
        if self._error is not None:
            raise RuntimeError(f"cannot open the screen: {self._error}")

    def _run(self) -> None:
        try:
            import pygame  # noqa: PLC0415

            from display.app import DisplayLoop, init_display  # noqa: PLC0415
            from display.display_config import View  # noqa: PLC0415

            init_display()
            if self.config.fullscreen:
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)
            else:
                pygame.display.set_mode(self.config.size, pygame.RESIZABLE)
            pygame.display.set_caption(self.title)
            from firmware_py.odds.chances import ChancesCache  # noqa: PLC0415

            # Win chances in a worker process: a nine-handed pre-flop calculation never holds a frame.
            chances = ChancesCache(background=self.config.view == View.BROADCAST)
            screen = _fault_screen_class()(view=View(self.config.view), config=self.config.display,
                                           faults=self.faults, chances=chances)
            self._loop = DisplayLoop(screen=screen, clock=self.clock, close_keys=not self.config.fullscreen)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            self._loop.run()
        except Exception:
            logger.exception("the display loop failed")
        finally:
            pygame.display.quit()
        if self.on_closed is not None and not self._stopping:
            self.on_closed()

    def post(self, snapshot: TableSnapshot) -> None:
        if self._loop is not None:
            self._loop.post(snapshot)

    def post_keyed(self, text: str) -> None:
        """The amount being keyed on the keypad, for the venue view."""
        if self._loop is not None:
            self._loop.post_keyed(text)

    def post_pairing(self, code: str) -> None:
        """The action tracker's pairing code, for the venue view."""
        if self._loop is not None:
            self._loop.post_pairing(code)

    def post_tournament(self, notice: Any) -> None:
        """What the tournament director tells this table (a TournamentNotice), for the venue view."""
        if self._loop is not None:
            self._loop.post_tournament(notice)

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stopping = True
        if self._loop is not None:
            self._loop.stop()
        if self._thread is not None:
            self._thread.join(5.0)
