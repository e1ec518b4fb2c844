"""Features as extensions: each optional part of the table declares its config section and attaches itself here.

The shape is Mopidy's extension API: an `Extension` has a name, the config section it owns and its schema
(`parse`: the raw TOML table to a typed, frozen config, every mistake in one ConfigError naming the file,
the section and the key, through the config toolkit), an optional `validate_environment` (what the config
needs of the machine: a device plugged in, an address to listen on; a ConfigError naming the file, the key
and what to do), and `setup(port, config)`, which attaches the feature through the table's port
(`firmware_py.ports.TablePort`: its components, its snapshot and ruling listeners; never the daemon).
`EXTENSIONS` is the one registration point: the table and hardware loaders accept the sections registered
there (an unknown one gets a "did you mean" among them too) and `attach_extensions` wires every configured
one, in registration order.

A new feature is one module with an `Extension` and one line in `BUILT_IN` (or `EXTENSIONS.register(...)`
from a plugin or a test); the loaders, the daemon and `run` are not edited. The module named in `BUILT_IN`
is imported only when its section is in the file, so a table without `[room]` never loads paho. This module
imports no daemon, hardware or simulation module (tests/test_adapter_layers.py).

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
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from firmware_py.errors import TableError
from firmware_py.ports import TableFacts, TablePort

__all__ = ["BUILT_IN", "EXTENSIONS", "ConfigFile", "Extension", "Extensions", "FileSections", "Registry", "Where",
           "attach_extensions"]

logger = logging.getLogger(__name__)

# What an extension's `setup` is handed: the table's port (the name kept from before the ports).
Registry = TablePort

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
    """One optional feature. `parse` is its config schema; `validate_environment` checks what its config
    needs of this machine, just before `setup` (Mopidy's: a ConfigError or TableError there leaves the feature
    out, as a line in the fault state, and the table runs on without it); `setup` attaches it through the
    table's port (its return value, e.g. the room publisher, is handed back by `attach_extensions`).
    `real_hardware_only`: not attached to the simulated table (a USB keypad is a device on the Pi, not part
    of the emulated rig)."""

    name: str  # in logs and the fault state: "action tracker"
    section: str  # its config section: "tracker" is [tracker]
    parse: Callable[[Any, Where], C]
    setup: Callable[[TablePort, C], object]
    file: ConfigFile = ConfigFile.TABLE
    real_hardware_only: bool = False
    validate_environment: Callable[[C, Where], None] | None = None

    def config_of(self, config: TableFacts) -> C | None:
        """This extension's typed config in a loaded table config, or None when its section is absent."""
        held = config.extensions if self.file is ConfigFile.TABLE else config.hardware.extensions
        return cast("C | None", held.get(self.section))

    def where(self, config: TableFacts) -> Where:
        """The file its section was read from."""
        source = config.source if self.file is ConfigFile.TABLE else str(config.hardware_file)
        return Where(source=source, base_dir=Path(source).parent)


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

    def configured(self, config: TableFacts) -> Iterator[tuple[Extension[Any], object]]:
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


    def reader(self, file: ConfigFile) -> FileSections:
        """The sections of `file` as its loader reads them (a `firmware_py.ports.SectionReader`)."""
        return FileSections(extensions=self, file=file)


@dataclass(frozen=True, kw_only=True, slots=True)
class FileSections:
    """The registered sections of one config file (the hardware loader's `SectionReader`)."""

    extensions: Extensions
    file: ConfigFile

    def sections(self) -> tuple[str, ...]:
        return self.extensions.sections(self.file)

    def parse(self, data: Mapping[str, Any], *, source: str,
              attempt: Callable[[Callable[[], Any], Any], Any]) -> dict[str, object]:
        where = Where(source=source, base_dir=Path(source).parent)
        return self.extensions.parse(data, file=self.file, where=where, attempt=attempt)


EXTENSIONS = Extensions(BUILT_IN)


def attach_extensions(port: TablePort, *, extensions: Extensions = EXTENSIONS) -> dict[str, object]:
    """Attach every extension whose section is configured, through the table's port; what each `setup`
    returned, by section. One whose environment is not right (`validate_environment`) is left out: its
    ConfigError is a line in the fault state, and the table runs on without it."""
    attached: dict[str, object] = {}
    for extension, config in extensions.configured(port.config):
        if port.simulated and extension.real_hardware_only:
            continue
        if extension.validate_environment is not None:
            try:
                extension.validate_environment(config, extension.where(port.config))
            except TableError as exc:  # a ConfigError among them: it names the file, the key and what to do
                logger.error("%s: not attached: %s", extension.name, exc)
                port.fault(extension.name, f"not started: {exc}")
                continue
        attached[extension.section] = extension.setup(port, config)
    return attached
