"""The daemon's side of the ports: `DaemonPort` is the `firmware_py.ports.TablePort` a feature is handed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from firmware_py.daemon.app import iter_journal_events
from firmware_py.ports import Component, Shown, Sink

if TYPE_CHECKING:
    from firmware_py.core import Event, Gone, Read, Ruling, TableSnapshot
    from firmware_py.daemon.app import Daemon
    from firmware_py.daemon.fault_state import FaultState
    from firmware_py.daemon.journal import Journal
    from firmware_py.daemon.origins import Origins
    from firmware_py.daemon.table_config import TableConfig

__all__ = ["DaemonPort"]


class DaemonPort:
    """A table's port onto one daemon: what a feature may do there, and nothing more of the daemon."""

    def __init__(self, daemon: Daemon, *, simulated: bool = False) -> None:
        self._daemon = daemon
        self._simulated = simulated

    @property
    def config(self) -> TableConfig:
        return self._daemon.config

    @property
    def journal(self) -> Journal:
        return self._daemon.journal

    @property
    def faults(self) -> FaultState:
        return self._daemon.faults

    @property
    def simulated(self) -> bool:
        return self._simulated

    def post(self, item: object) -> None:
        self._daemon.queue.put(item)

    def clock(self) -> float:
        return self._daemon.clock()

    def presses(self, by: str) -> Sink:
        return self._daemon.presses(by)

    @property
    def press_notes(self) -> Origins:
        return self._daemon.origins

    def show(self, shown: Shown, value: object) -> None:
        display = self._daemon.display
        if display is None:
            return
        if shown is Shown.KEYED:
            display.post_keyed(str(value))
        elif shown is Shown.PAIRING:
            display.post_pairing(str(value))
        else:
            display.post_tournament(value)

    def fault(self, component: str, message: str) -> None:
        # Shown when the main loop first publishes (a fault raised while the table is put together).
        self._daemon.faults.raise_fault(component, message, t=self._daemon.clock())

    def add_reader(self, component: Component) -> None:
        self._daemon.readers.append(component)

    def add_panel(self, component: Component) -> None:
        self._daemon.panel = component

    def add_component(self, component: Component, *, first: bool = False) -> None:
        if first:
            self._daemon.extras.insert(0, component)
        else:
            self._daemon.extras.append(component)

    def on_snapshot(self, listener: Callable[[TableSnapshot], None]) -> None:
        self._daemon.on_snapshot.append(listener)

    def on_ruling(self, listener: Callable[[Ruling], None]) -> None:
        self._daemon.on_ruling.append(listener)

    def add_read_filter(self, translate: Callable[[Read | Gone], Event | None]) -> None:
        self._daemon.read_filters.append(translate)

    def snapshot(self) -> TableSnapshot:
        return self._daemon.core.snapshot()

    def card(self, uid: str) -> str | None:
        return self._daemon.core.card(uid)

    @property
    def resumed_t(self) -> float | None:
        return self._daemon.resumed_t

    def journaled(self) -> Iterator[Event]:
        return iter_journal_events(self._daemon.journal, base_dir=self._daemon.config.hardware_file.parent)

    def hand_over_table(self, keeper: str) -> None:
        self._daemon.table_keeper = keeper

    def offer(self, kind: str, thing: object) -> None:
        self._daemon.offers.setdefault(kind, []).append(thing)

    def offered(self, kind: str) -> tuple[object, ...]:
        return tuple(self._daemon.offers.get(kind, ()))
