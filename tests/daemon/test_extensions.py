"""Features as extensions: a new optional part plugs in through the one registration point alone (no loader,
daemon or command edited), and its broken config section is reported as the file's other mistakes are."""

from __future__ import annotations

import queue
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write
from firmware_py.core import TableSnapshot
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.port import DaemonPort
from firmware_py.daemon.table_config import parse_table_config
from firmware_py.errors import ConfigError
from firmware_py.extensions import BUILT_IN, EXTENSIONS, ConfigFile, Extension, Registry, Where, attach_extensions
from firmware_py.ports import CallbackComponent
from hardware.hardware_config import parse_hardware_config
from tests.config_mistakes import assert_mistakes

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "config"


@dataclass(frozen=True, kw_only=True, slots=True)
class LampConfig:
    """`[lamp]`: a tower light over the table, lit while a ruling is open."""

    pin: int
    brightness: float = 1.0


def parse_lamp(raw: Any, where: Where) -> LampConfig:
    mistakes = ConfigMistakes()
    section = Section(where.source, "lamp", raw, ("pin", "brightness"), mistakes=mistakes)
    pin = mistakes.attempt(lambda: section.integer("pin", None, choices=range(28), what="a BCM GPIO number"), 0)
    brightness = section.get("brightness", 1.0)
    if not isinstance(brightness, int | float) or not 0 <= brightness <= 1:
        mistakes.note(section.error(f"must be from 0 to 1{how_to_write('brightness', brightness, 0.5)}",
                                    "brightness"))
    mistakes.raise_if_any()
    return LampConfig(pin=pin, brightness=float(brightness))


class Lamp:
    def __init__(self, config: LampConfig) -> None:
        self.config = config
        self.log: list[str] = []
        self.snapshots: list[TableSnapshot] = []


def setup_lamp(registry: Registry, config: LampConfig) -> Lamp:
    lamp = Lamp(config)
    registry.add_component(CallbackComponent("lamp", lambda: lamp.log.append("on"), lambda: lamp.log.append("off")))
    registry.on_snapshot(lamp.snapshots.append)
    return lamp


LAMP = Extension(name="tower lamp", section="lamp", parse=parse_lamp, setup=setup_lamp)


@pytest.fixture
def lamp_registered():
    EXTENSIONS.register(LAMP)
    yield LAMP
    EXTENSIONS.unregister("lamp")


def table_file(**sections: dict[str, Any]) -> dict[str, Any]:
    with (CONFIG / "table.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data.pop("tracker", None)
    data.pop("room", None)
    return data | sections


def test_a_new_extension_plugs_in_through_the_registration_point_alone(lamp_registered, tmp_path):
    config = parse_table_config(table_file(lamp={"pin": 17, "brightness": 0.5}), source="table.toml",
                                base_dir=CONFIG, with_display=False)
    assert LAMP.config_of(config) == LampConfig(pin=17, brightness=0.5)  # typed, by its own schema
    events: queue.Queue[object] = queue.Queue()
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        daemon = Daemon(config, journal=journal, clock=time.monotonic, events=events)
        attached = attach_extensions(DaemonPort(daemon, simulated=True))
        lamp = attached["lamp"]
        assert isinstance(lamp, Lamp)
        events.put(Stop("test"))
        assert daemon.run() == 0
    assert lamp.log == ["on", "off"]  # started with the daemon's components, stopped in its finally
    assert lamp.snapshots and lamp.snapshots[0].hand_number == 0


def test_an_unregistered_section_is_unknown_and_a_registered_one_is_suggested(lamp_registered):
    with pytest.raises(ConfigError) as error:
        parse_table_config(table_file(lamps={"pin": 17}), source="table.toml", base_dir=CONFIG, with_display=False)
    assert_mistakes(error.value, "table.toml", [("[lamps]", "did you mean 'lamp'?")])


def test_a_broken_extension_section_is_reported_with_the_files_other_mistakes(lamp_registered):
    data = table_file(lamp={"pin": 40, "brightnes": 0.5}, chips={"starting_stack": -1})
    with pytest.raises(ConfigError) as error:
        parse_table_config(data, source="table.toml", base_dir=CONFIG, with_display=False)
    assert_mistakes(error.value, "table.toml", [
        ("[chips] starting_stack", "starting_stack = 1500"),
        ("[lamp] brightnes", "did you mean 'brightness'?"),
        ("[lamp] pin", "BCM GPIO number"),
    ])


def test_an_extension_of_the_hardware_file_is_read_there(tmp_path):
    EXTENSIONS.register(Extension(name="tower lamp", section="lamp", parse=parse_lamp, setup=setup_lamp,
                                  file=ConfigFile.HARDWARE))
    try:
        with (CONFIG / "hardware.toml").open("rb") as handle:
            data = tomllib.load(handle) | {"lamp": {"pin": 17, "brightness": 2}}
        with pytest.raises(ConfigError) as error:
            parse_hardware_config(data, source="hardware.toml", extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))
        assert_mistakes(error.value, "hardware.toml", [("[lamp] brightness", "brightness = 0.5")])
        config = parse_hardware_config(data | {"lamp": {"pin": 17}}, source="hardware.toml",
                                       extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))
        assert config.extensions["lamp"] == LampConfig(pin=17)
    finally:
        EXTENSIONS.unregister("lamp")


def test_the_built_in_features_are_extensions_and_load_only_when_configured():
    sections = {section for section, _, _ in BUILT_IN}
    assert sections == {"tracker", "room", "keypad", "jackpots", "checkin"}
    for section in sections:
        extension = EXTENSIONS.get(section)
        assert extension.section == section and callable(extension.parse) and callable(extension.setup)
    config = parse_table_config(table_file(), source="table.toml", base_dir=CONFIG, with_display=False)
    assert config.tracker is None and config.room is None and dict(config.extensions) == {}


def test_an_extension_is_handed_the_tables_port_never_the_daemon(lamp_registered, tmp_path):
    """What `setup` gets is a TablePort: posting, the clock, the screen, parts and listeners; no daemon inside."""
    seen: list[object] = []
    EXTENSIONS.register(Extension(name="tower lamp", section="lamp", parse=parse_lamp,
                                  setup=lambda port, config: seen.append(port)))
    config = parse_table_config(table_file(lamp={"pin": 17}), source="table.toml", base_dir=CONFIG,
                                with_display=False)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        attach_extensions(DaemonPort(Daemon(config, journal=journal, clock=time.monotonic), simulated=True))
    (port,) = seen
    assert isinstance(port, DaemonPort) and port.simulated
    assert not hasattr(port, "daemon") and not hasattr(port, "queue") and not hasattr(port, "core")


def test_an_extension_whose_environment_is_wrong_is_left_out_as_a_fault_and_the_table_runs(tmp_path):
    """Mopidy's validate_environment: the lamp's GPIO is not there; the table starts without it, the fault shown
    names the file, the key and what to do."""
    def no_gpio(config: LampConfig, where: Where) -> None:
        raise ConfigError(f"{where.source}: [lamp] pin: GPIO {config.pin} is not on this board; use 0..27")

    lamp = Extension(name="tower lamp", section="lamp", parse=parse_lamp, setup=setup_lamp,
                     validate_environment=no_gpio)
    EXTENSIONS.register(lamp)
    try:
        config = parse_table_config(table_file(lamp={"pin": 17}), source="table.toml", base_dir=CONFIG,
                                    with_display=False)
        events: queue.Queue[object] = queue.Queue()
        with Journal.open(tmp_path / "j.sqlite3") as journal:
            daemon = Daemon(config, journal=journal, clock=time.monotonic, events=events)
            attached = attach_extensions(DaemonPort(daemon))
            events.put(Stop("test"))
            assert daemon.run() == 0
    finally:
        EXTENSIONS.unregister("lamp")
    assert "lamp" not in attached
    (fault,) = daemon.faults.current()
    assert fault.component == "tower lamp"
    assert fault.message == "not started: table.toml: [lamp] pin: GPIO 17 is not on this board; use 0..27"
