"""Features as extensions: each optional part of the daemon declares its config section and attaches itself here.

The shape is Mopidy's extension API: an `Extension` has a name, the config section it owns and its schema
(`parse`: the raw TOML table to a typed, frozen config, every mistake in one ConfigError naming the file,
the section and the key, through the config toolkit), and `setup(registry, config)`, which attaches the
feature to the daemon (its components, its snapshot and ruling listeners). `EXTENSIONS` is the one
registration point: the table and hardware loaders accept the sections registered there (an unknown one gets
a "did you mean" among them too) and `attach_extensions` wires every configured one, in registration order.

A new feature is one module with an `Extension` and one line in `BUILT_IN` (or `EXTENSIONS.register(...)`
from a plugin or a test); the loaders, the daemon and `run` are not edited. The module named in `BUILT_IN`
is imported only when its section is in the file, so a table without `[room]` never loads paho.

>>> from firmware_py.config_toolkit import Section
>>> lamp = Extension(name="lamp", section="lamp",
...                  parse=lambda raw, where: Section(where.source, "lamp", raw, ("watts",)).finish() or raw,
...                  setup=lambda registry, config: None)
>>> extensions = Extensions()
>>> extensions.register(lamp) is lamp
True
>>> extensions.sections(ConfigFile.TABLE)
('lamp',)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

if TYPE_CHECKING:
    from firmware_py.core import Event, Gone, Read, Ruling, TableSnapshot
    from firmware_py.daemon.app import Component, Daemon
    from firmware_py.daemon.journal import Journal
    from firmware_py.daemon.table_config import TableConfig

__all__ = ["BUILT_IN", "EXTENSIONS", "ConfigFile", "Extension", "Extensions", "Registry", "Where",
           "attach_extensions"]

C = TypeVar("C")


class ConfigFile(StrEnum):
    """Which file holds an extension's section: the table file, or the hardware file it names."""

    TABLE = "table"
    HARDWARE = "hardware"


@dataclass(frozen=True, kw_only=True, slots=True)
class Where:
    """Where a section is read from: the file (for messages) and its folder (for relative paths)."""

    source: str
    base_dir: Path


@dataclass(frozen=True, kw_only=True, slots=True)
class Extension(Generic[C]):
    """One optional feature. `parse` is its config schema; `setup` attaches it (its return value, e.g. the
    room publisher, is handed back by `attach_extensions`). `real_hardware_only`: not attached to the
    simulated table (a USB keypad is a device on the Pi, not part of the emulated rig)."""

    name: str  # in logs and the fault state: "action tracker"
    section: str  # its config section: "tracker" is [tracker]
    parse: Callable[[Any, Where], C]
    setup: Callable[[Registry, C], object]
    file: ConfigFile = ConfigFile.TABLE
    real_hardware_only: bool = False

    def config_of(self, config: TableConfig) -> C | None:
        """This extension's typed config in a loaded table config, or None when its section is absent."""
        held = config.extensions if self.file is ConfigFile.TABLE else config.hardware.extensions
        return cast("C | None", held.get(self.section))


# The built-in optional features: section, file, and "module:attribute" of the Extension (imported on demand).
BUILT_IN: tuple[tuple[str, ConfigFile, str], ...] = (
    ("tracker", ConfigFile.TABLE, "firmware_py.daemon.tracker:EXTENSION"),
    ("room", ConfigFile.TABLE, "firmware_py.room.publisher:EXTENSION"),
    ("keypad", ConfigFile.HARDWARE, "hardware.keypad:EXTENSION"),
    ("jackpots", ConfigFile.TABLE, "firmware_py.jackpots:EXTENSION"),
    ("checkin", ConfigFile.TABLE, "firmware_py.players:EXTENSION"),
)


class Extensions:
    """The registration point: extensions by section, built-in ones named lazily, in registration order."""

    def __init__(self, built_in: tuple[tuple[str, ConfigFile, str], ...] = ()) -> None:
        self._named: dict[str, tuple[ConfigFile, str | Extension[Any]]] = {
            section: (file, target) for section, file, target in built_in}

    def register(self, extension: Extension[C]) -> Extension[C]:
        """Add (or replace) the extension owning `extension.section`; returns it."""
        self._named[extension.section] = (extension.file, extension)
        return extension

    def unregister(self, section: str) -> None:
        self._named.pop(section, None)

    def sections(self, file: ConfigFile) -> tuple[str, ...]:
        return tuple(section for section, (where, _) in self._named.items() if where is file)

    def get(self, section: str) -> Extension[Any]:
        """The extension owning `section` (its module imported now if it was named lazily)."""
        file, target = self._named[section]
        if isinstance(target, str):
            module, _, attribute = target.partition(":")
            target = cast("Extension[Any]", getattr(importlib.import_module(module), attribute))
            self._named[section] = (file, target)
        return target

    def configured(self, config: TableConfig) -> Iterator[tuple[Extension[Any], object]]:
        """Each extension whose section the table (or its hardware file) has, with its typed config, in
        registration order; an extension not configured is not imported."""
        for section, (file, _) in list(self._named.items()):
            held = config.extensions if file is ConfigFile.TABLE else config.hardware.extensions
            if section in held:
                yield self.get(section), held[section]

    def parse(self, data: Mapping[str, Any], *, file: ConfigFile, where: Where,
              attempt: Callable[[Callable[[], Any], Any], Any]) -> dict[str, object]:
        """The typed config of each registered section present in `data`; `attempt` is the loader's
        `ConfigMistakes.attempt`, so an extension's mistakes are reported with the file's others."""
        parsed: dict[str, object] = {}
        for section in self.sections(file):
            if section in data:
                value = attempt(partial(self.get(section).parse, data[section], where), None)
                if value is not None:
                    parsed[section] = value
        return parsed


EXTENSIONS = Extensions(BUILT_IN)


class Registry:
    """What an extension's `setup` attaches to: the daemon's components and listeners, and its journal."""

    def __init__(self, daemon: Daemon, *, journal: Journal, simulated: bool) -> None:
        self.daemon = daemon
        self.journal = journal
        self.simulated = simulated

    def add_reader(self, component: Component) -> None:
        """A reader thread: started with the readers, before the core."""
        self.daemon.readers.append(component)

    def add_component(self, component: Component, *, first: bool = False) -> None:
        """Started after the core and the display (`first`: before the simulated dealer)."""
        if first:
            self.daemon.extras.insert(0, component)
        else:
            self.daemon.extras.append(component)

    def on_snapshot(self, listener: Callable[[TableSnapshot], None]) -> None:
        """Called with each new snapshot of the table, on the main loop: quick, or queue the work."""
        self.daemon.on_snapshot.append(listener)

    def add_read_filter(self, translate: Callable[[Read | Gone], Event | None]) -> None:
        """A reader's `read` or `gone` translated before the core sees it, on the main loop (players.py: a player
        card read is a `checkin`); what it returns is journaled and fed instead, None drops the event."""
        self.daemon.read_filters.append(translate)

    def on_ruling(self, listener: Callable[[Ruling], None]) -> None:
        """Called with each ruling as it is made (the buzzer, a lamp); one that raises is logged, not fatal."""
        self.daemon.on_ruling.append(listener)


def attach_extensions(daemon: Daemon, *, journal: Journal, simulated: bool,
                      extensions: Extensions = EXTENSIONS) -> dict[str, object]:
    """Attach every extension whose section is configured; what each `setup` returned, by section."""
    registry = Registry(daemon, journal=journal, simulated=simulated)
    attached: dict[str, object] = {}
    for extension, config in extensions.configured(daemon.config):
        if not (simulated and extension.real_hardware_only):
            attached[extension.section] = extension.setup(registry, config)
    return attached
