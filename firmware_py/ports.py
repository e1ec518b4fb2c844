"""The ports: what a feature may use of the table, and nothing more (an extension never holds the daemon).

A feature (an extension of `firmware_py.extensions`, the simulated table, the real readers' wiring) is handed
a `TablePort` and attaches itself through it: it posts events to the main loop's one queue, reads the session
clock, shows an operator notice on the venue screen, adds its reader threads and components (started in the
daemon's order, stopped in reverse), and hears the rulings and snapshots as the core makes them. The daemon
implements the port (`firmware_py.daemon.port.DaemonPort`); a test may implement it too.

This module imports nothing of the adapters (daemon, hardware, simulation): the layers above and beside it
depend on it, never the other way (tests/test_adapter_layers.py).

>>> started = []
>>> part = CallbackComponent("lamp", lambda: started.append("on"), lambda: started.append("off"))
>>> part.start(); part.stop(); started
['on', 'off']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from firmware_py.core import Event, Gone, Read, Ruling, Setup, TableSnapshot
    from firmware_py.core.profiles import Profile

__all__ = ["KEYPAD", "PANEL", "PRESS_SOURCES", "TRACKER", "CallbackComponent", "Component", "FaultView",
           "HardwareFacts", "JournalView", "PortSink", "PressNotes", "SectionReader", "Shown", "Sink", "TableFacts",
           "TablePort"]

# Who made a press (journaled with it as "by": a hand's replay says who pressed what from the journal itself).
PANEL: Final = "panel"  # the dealer's panel of buttons (GPIO)
TRACKER: Final = "tracker"  # the action tracker page on the operator's tablet
KEYPAD: Final = "keypad"  # the dealer's USB numeric keypad (amounts, then the action key)
PRESS_SOURCES: Final = (PANEL, TRACKER, KEYPAD)


class Component(Protocol):
    """A part the daemon starts and stops: a reader thread, a web page, the simulated dealer."""

    name: str

    def start(self) -> None: ...

    def stop(self) -> None: ...


@dataclass
class CallbackComponent:
    """A component made of two callables (the simulated sensors, the real readers, the panel...)."""

    name: str
    on_start: Callable[[], None]
    on_stop: Callable[[], None]

    def start(self) -> None:
        self.on_start()

    def stop(self) -> None:
        self.on_stop()


@dataclass(frozen=True, slots=True)
class PortSink:
    """A reader thread's queue (anything with `put`) that posts through the port."""

    port: TablePort

    def put(self, item: object) -> None:
        self.port.post(item)


class Sink(Protocol):
    """Where a reader thread puts what it read (a queue, or anything with `put`)."""

    def put(self, item: object) -> None: ...


class PressNotes(Protocol):
    """Who made each press posted and not yet journaled (`firmware_py.daemon.origins.Origins`)."""

    def note(self, event: Any, by: str) -> None: ...


class SectionReader(Protocol):
    """The registered extensions' sections of one config file, as its loader reads them (the hardware loader is
    handed one: `firmware_py.extensions.EXTENSIONS.reader(ConfigFile.HARDWARE)`, and imports no registry)."""

    def sections(self) -> tuple[str, ...]: ...

    def parse(self, data: Mapping[str, Any], *, source: str,
              attempt: Callable[[Callable[[], Any], Any], Any]) -> dict[str, object]:
        """The typed config of each registered section in `data` (read from `source`); `attempt` is the loader's
        `ConfigMistakes.attempt`, so an extension's mistakes are reported with the file's others."""


class Shown(StrEnum):
    """An operator notice on the venue screen (dropped when the table runs headless)."""

    KEYED = "keyed"  # the digits keyed on the amount keypad so far
    PAIRING = "pairing"  # the code a device pairs with (the action tracker)
    TOURNAMENT = "tournament"  # what the director tells the table (a TournamentNotice)


class HardwareFacts(Protocol):
    """What a feature reads of the hardware file: its extensions' typed sections."""

    @property
    def extensions(self) -> Mapping[str, object]: ...


class TableFacts(Protocol):
    """What a feature reads of the table file (`firmware_py.daemon.table_config.TableConfig` is one)."""

    @property
    def source(self) -> str: ...

    @property
    def profiles(self) -> Mapping[str, Profile]: ...

    @property
    def hardware_file(self) -> Path: ...

    @property
    def hardware(self) -> HardwareFacts: ...

    @property
    def seat_names(self) -> Mapping[int, str]: ...

    @property
    def schedule(self) -> Any: ...  # display.display_config.DisplayConfig | None: the blind levels (level_at)

    @property
    def game(self) -> Any: ...  # firmware_py.daemon.table_config.GameSetup: the game, its profile and its decks

    @property
    def extensions(self) -> Mapping[str, object]: ...

    def setup(self, t: float = 0.0) -> Setup: ...


class JournalView(Protocol):
    """What a feature reads of the session's journal (`firmware_py.daemon.journal.Journal` is one)."""

    @property
    def path(self) -> Path: ...

    def meta(self, key: str) -> Any: ...

    def set_meta(self, key: str, value: Any) -> None: ...

    def chained_rows(self, *, after: int = 0) -> Iterator[tuple[int, str, int, int]]: ...


class FaultView(Protocol):
    """The table's fault state as a feature sees it (`firmware_py.daemon.fault_state.FaultState` is one)."""

    @property
    def version(self) -> int: ...

    def current(self) -> tuple[Any, ...]: ...

    def raise_fault(self, component: str, message: str, *, t: float = 0.0) -> bool: ...


class TablePort(Protocol):
    """What a feature may use of the table. Everything reaches the core through the main loop's one queue;
    listeners are called on the main loop (quick, or queue the work; one that raises is logged, not fatal)."""

    @property
    def config(self) -> TableFacts: ...

    @property
    def journal(self) -> JournalView: ...

    @property
    def faults(self) -> FaultView: ...

    @property
    def simulated(self) -> bool: ...  # the simulated table on emulated hardware (`run --simulate`)

    # -- into the table --

    def post(self, item: object) -> None:
        """An event (or a reader's health record, or a `ComponentFault`) to the main loop's queue."""

    def clock(self) -> float:
        """The session clock, in seconds (never going back over a restart)."""

    def presses(self, by: str) -> Sink:
        """The queue as one source of presses sees it (`PANEL`, `TRACKER`, `KEYPAD`): each press put there is
        journaled with its source."""

    @property
    def press_notes(self) -> PressNotes:
        """Where a source that posts through a queue of its own (the simulated table's tap) notes its presses."""

    def show(self, shown: Shown, value: object) -> None:
        """An operator notice on the venue screen, when there is one (looked up when shown: the screen
        starts after the readers and the extensions)."""

    def fault(self, component: str, message: str) -> None:
        """A line in the fault state on the screen: the part is broken, the table carries on without it."""

    # -- parts the daemon runs --

    def add_reader(self, component: Component) -> None:
        """A reader thread: started with the readers, before the core."""

    def add_panel(self, component: Component) -> None:
        """The dealer's panel (the one of them): started after the readers, before the core."""

    def add_component(self, component: Component, *, first: bool = False) -> None:
        """Started after the core and the screen (`first`: before those added so far, e.g. the simulated
        dealer); stopped in reverse."""

    # -- out of the table --

    def on_snapshot(self, listener: Callable[[TableSnapshot], None]) -> None:
        """Called with each new snapshot of the table."""

    def on_ruling(self, listener: Callable[[Ruling], None]) -> None:
        """Called with each ruling as it is made (the buzzer, a lamp)."""

    def add_read_filter(self, translate: Callable[[Read | Gone], Event | None]) -> None:
        """A reader's `read` or `gone` translated before the core sees it, on the main loop (players.py: a player
        card read is a `checkin`); what it returns is journaled and fed instead, None drops the event."""

    def snapshot(self) -> TableSnapshot:
        """The table now (on the main loop: in a ruling listener, the table the ruling was made on)."""

    def card(self, uid: str) -> str | None:
        """The card a tag is, in the decks of the session (None: not one of them)."""

    @property
    def resumed_t(self) -> float | None:
        """The session time of the last journaled event when the table started (None: a new session)."""

    def journaled(self) -> Iterator[Event]:
        """The session's journaled events, parsed back one by one (a resumed simulated dealer re-reads them)."""

    # -- between features --

    def hand_over_table(self, keeper: str) -> None:
        """From now on the table's seats, button, chips in play and blind levels are `keeper`'s (a tournament's
        director), not the table file's: the daemon journals no level of the file's schedule, and a journaled
        setup that differs from the file in those alone is still this table's."""

    def offer(self, kind: str, thing: object) -> None:
        """Make a part available to the other features by kind (Mopidy's registry: `registry.add`), e.g. the
        tournament table offers itself as the "deal gate" the simulated dealer waits at."""

    def offered(self, kind: str) -> tuple[object, ...]:
        """What the features offered of `kind`, in the order they offered it."""
