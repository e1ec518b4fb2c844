"""The pure-Python MQTT 5 broker `tournament --simulate` starts where Mosquitto is not installed (a bare machine):
moat-lib-mqtt's `AsyncMQTTBroker` (MIT; the maintained continuation of mqttproto, a sans-io MQTT 5 state machine
on anyio, which Starlette already brings), anonymous, on 127.0.0.1 only, in its own process.

Why this one: every room program speaks MQTT 5 (firmware_py/room/mqtt.py), and the Python brokers that speak
only 3.1.1 (amqtt 0.12, hbmqtt) refuse them at CONNECT; amqtt also pins `websockets==15.0.1`, below the one
uvicorn runs here. What it does not do, and the simulated room does not need: a Last Will, a session kept across
a reconnect, persistence, TLS, passwords and the ACL. A real room runs Mosquitto (docs/room.md).

Run as `python -m firmware_py.room.python_broker PORT` (0: a free port): it prints `listening on PORT` once it
accepts connections, and ends when its standard input closes (the command that started it has gone) or on
SIGTERM."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

READY = "listening on "


def available() -> str | None:
    """None when the broker can run here, else why not (the install line)."""
    try:
        import moat.lib.mqtt.async_broker  # noqa: F401, PLC0415
    except ImportError as exc:
        return f"the pure-Python broker is not installed ({exc}): pip install 'moat-lib-mqtt==0.8.7'"
    return None


def _exit_with_parent() -> None:
    try:
        sys.stdin.buffer.read()  # until the starting command's end of the pipe closes
    finally:
        os._exit(0)


async def serve(port: int) -> None:
    import anyio  # noqa: PLC0415
    from moat.lib.mqtt.async_broker import AsyncMQTTBroker  # noqa: PLC0415

    broker: Any = AsyncMQTTBroker(bind_address=("127.0.0.1", port))
    async with anyio.create_task_group() as group:
        bound = await group.start(broker.serve)
        print(f"{READY}{bound}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not args[0].isdigit():
        print("usage: python -m firmware_py.room.python_broker PORT (0: a free port)", file=sys.stderr)
        return 2
    missing = available()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    import anyio  # noqa: PLC0415

    threading.Thread(target=_exit_with_parent, name="parent watch", daemon=True).start()
    try:
        anyio.run(serve, int(args[0]))
    except OSError as exc:
        print(f"cannot listen on 127.0.0.1:{args[0]}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
