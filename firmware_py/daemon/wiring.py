"""Putting a real table together: the readers and the panel attached to the daemon through its port (the
simulated table's wiring is `firmware_py.simulation.wiring`; the optional parts attach as extensions)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from firmware_py.errors import HardwareError
from firmware_py.ports import PANEL, CallbackComponent, PortSink, TablePort

if TYPE_CHECKING:
    from firmware_py.daemon.table_config import TableConfig
    from hardware.panel import DealerPanel
    from hardware.rig import Sensors


def add_real_hardware(port: TablePort, config: TableConfig) -> None:
    """The configured SPI readers and serial board on their threads, the panel on the Pi's GPIO (the optional
    parts, a keypad among them, attach as extensions: `firmware_py.extensions.attach_extensions`)."""
    from hardware.rig import start_sensors  # noqa: PLC0415 (spidev and serial: only on a real table)

    sensors: dict[str, Sensors] = {}

    def start_readers() -> None:
        sensors["sensors"] = start_sensors(config.hardware, queue=PortSink(port), clock=port.clock)

    def stop_readers() -> None:
        running = sensors.pop("sensors", None)
        if running is not None:
            running.stop()

    port.add_reader(CallbackComponent("readers", start_readers, stop_readers))
    panel_config = config.hardware.panel
    if panel_config is None:
        return

    shown: list[tuple[int, int] | None] = [None]  # the table as last published: what a press is made against
    port.on_snapshot(lambda snapshot: shown.__setitem__(0, (snapshot.hand_number, snapshot.actions)))
    panels: dict[str, DealerPanel] = {}

    def start_panel() -> None:
        from gpiozero import Device  # noqa: PLC0415 (GPIO: only on a real table)

        from hardware.panel import DealerPanel  # noqa: PLC0415

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero warns of each factory it falls back from
                Device.ensure_pin_factory()  # lgpio on Raspberry Pi OS; passed on explicitly from here
        except Exception as exc:  # gpiozero's BadPinFactory: no GPIO library or no Pi here
            raise HardwareError(f"no GPIO to drive the dealer panel ({exc}): on a Raspberry Pi install lgpio "
                                "(python3-lgpio); without one, run --simulate") from None
        panel = DealerPanel(panel_config, pin_factory=Device.pin_factory, queue=port.presses(PANEL),
                            clock=port.clock, made_against=lambda: shown[0])
        panel.start()
        panels["panel"] = panel
        port.on_ruling(lambda _ruling: panel.signal_ruling())

    def stop_panel() -> None:
        panel = panels.pop("panel", None)
        if panel is not None:
            panel.close()

    port.add_panel(CallbackComponent("panel", start_panel, stop_panel))
