"""The table's fault state: one idempotent record per component, shown on screen, logged once."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

logger = logging.getLogger("firmware_py.daemon.fault")


@dataclass(frozen=True, kw_only=True, slots=True)
class ComponentFault:
    """What is broken in one component. The fault state keeps these; a component that breaks while running
    posts one to the daemon's queue and the main loop records it (at the daemon's clock, not `t`)."""

    component: str  # "reader shoe", "board felt-board", "panel", "display", "journal"
    message: str
    t: float


class FaultState:
    """What is broken now. `raise_fault` twice for the same component logs once; `clear` logs recovery.

    Thread-safe: the main loop writes it, the display reads it to draw the fault banner.
    """

    def __init__(self) -> None:
        self._faults: dict[str, ComponentFault] = {}
        self._lock = threading.Lock()
        self.version = 0  # bumped on every change, so a screen knows to redraw

    def raise_fault(self, component: str, message: str, *, t: float = 0.0) -> bool:
        """Record a fault; True if it is new (or its message changed)."""
        with self._lock:
            old = self._faults.get(component)
            if old is not None and old.message == message:
                return False
            self._faults[component] = ComponentFault(component=component, message=message, t=t)
            self.version += 1
        logger.error("fault %s: %s", component, message)
        return True

    def clear(self, component: str, *, note: str = "recovered") -> bool:
        with self._lock:
            if self._faults.pop(component, None) is None:
                return False
            self.version += 1
        logger.warning("fault %s cleared: %s", component, note)
        return True

    def current(self) -> tuple[ComponentFault, ...]:
        with self._lock:
            return tuple(self._faults.values())

    def has(self, component: str) -> bool:
        with self._lock:
            return component in self._faults

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._faults)
