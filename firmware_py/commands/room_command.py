"""What every room command that subscribes to the broker shares (floor, collect, broadcast, and the next one).

The options (`--room`, the broker's address, TLS, user and password, `--client-id`, `--seconds`), the
checks of them, the client id the room's broker accepts, the signals, the first connection with its exit
statuses (REFUSED, UNREACHABLE), the `Watch` beside the running command, and the orderly end. A new
command is then its own part only:

    def add_arguments(parser):
        add_room_arguments(parser, user="director", client_id_help="the broker session to keep")

    def run(args):
        room = RoomCommand(args, "director")
        try:
            room_id, broker = room.room(), room.broker()
        except ValueError as exc:
            return room.usage(exc)
        model = DirectorModel(room_id)
        subscriber = room.subscriber(broker, [f"pokertable/{room_id}/+/hand"], parts=(room_id,),
                                     on_message=model.feed, persistent=True)
        return room.run(subscriber)

`run` connects, then waits until a signal or `--seconds` (calling `each_turn` each `interval`), or runs
`main(room)` instead (a window's loop: it checks `room.running()`), and ends in order: the Watch's last
word, `draining` (work that still needs the connection, e.g. acknowledging stored messages), the
subscriber, then `closing` (files, servers). `draining` and `closing` run too when the first connection fails.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from firmware_py.commands import Watch, start_subscriber

if TYPE_CHECKING:
    from firmware_py.room.room_config import BrokerConfig
    from firmware_py.room.subscriber import RoomSubscriber

ROOM_HELP = "the room id (the second level of the topics)"


def add_room_arguments(parser: argparse.ArgumentParser, *, user: str, client_id_help: str,
                       room_help: str = ROOM_HELP, seconds_help: str = "stop after S seconds",
                       room_required: bool = True) -> None:
    """`--room`, the broker options (address, TLS, CA, user, password file, --warn-silence), `--seconds` and
    `--client-id` (it must start with the user name: the room's broker refuses others)."""
    from firmware_py.room.mqtt import add_broker_arguments  # noqa: PLC0415 (paho only for the room's commands)

    parser.add_argument("--room", required=room_required, help=room_help)
    add_broker_arguments(parser, user=user)
    parser.add_argument("--seconds", type=float, default=None, metavar="S", help=seconds_help)
    parser.add_argument("--client-id", help=client_id_help)


class RoomCommand:
    """One run of a room command: its options, its stop event (set by SIGTERM, SIGINT or the Watch), its end."""

    def __init__(self, args: argparse.Namespace, command: str) -> None:
        from firmware_py.daemon.logs import setup_logging  # noqa: PLC0415

        setup_logging(verbose=False)
        self.args, self.command = args, command
        self.stop = threading.Event()
        self.deadline: float | None = None
        self.watch: Watch | None = None

    def usage(self, problem: object) -> int:
        """Tell stderr what is wrong with the command line; the exit status 2."""
        print(f"{self.command}: {problem}", file=sys.stderr)
        return 2

    def room(self, *, any_room: bool = False) -> str:
        """`--room`, checked (ValueError); `any_room`: `+` subscribes to every room on the broker."""
        from firmware_py.room.room_config import check_id  # noqa: PLC0415

        return "+" if any_room and self.args.room == "+" else check_id(self.args.room, "--room")

    def broker(self) -> BrokerConfig:
        """The broker options, checked (ValueError naming the option)."""
        from firmware_py.room.mqtt import broker_from_args  # noqa: PLC0415

        return broker_from_args(self.args)

    def subscriber(self, broker: BrokerConfig, topics: Sequence[str], *, on_message: Callable[..., None],
                   parts: Sequence[str] = (), per_process: bool = False, **options: Any) -> RoomSubscriber:
        """A RoomSubscriber as `--client-id`, else `<user>.<parts>.<host>` (`per_process`: `.<pid>` too);
        `options` go to RoomSubscriber (persistent, manual_ack, share...)."""
        from firmware_py.room.subscriber import RoomSubscriber, default_client_id  # noqa: PLC0415

        client_id = self.args.client_id or default_client_id(self.args.user, *parts, per_process=per_process)
        return RoomSubscriber(broker, topics, client_id=client_id, on_message=on_message, **options)

    def running(self) -> bool:
        """Neither stopped (a signal, a window closed, the Watch) nor past `--seconds`."""
        return not self.stop.is_set() and (self.deadline is None or time.monotonic() < self.deadline)

    def run(self, subscriber: RoomSubscriber, *, each_turn: Callable[[], None] | None = None,
            interval: float = 0.2, main: Callable[[RoomCommand], int | None] | None = None,
            draining: Callable[[], None] | None = None, closing: Callable[[], None] | None = None) -> int:
        """Connect, run until stopped, end in order; the exit status (see the module's docstring)."""
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *_: self.stop.set())
        seconds = self.args.seconds
        self.deadline = time.monotonic() + seconds if seconds is not None else None
        status = start_subscriber(subscriber, self.command, seconds=seconds, stop=self.stop)
        if status:
            for step in (draining, closing):
                if step is not None:
                    step()
            return status
        self.watch = Watch(subscriber, self.command, self.stop, silence_s=self.args.warn_silence).start()
        try:
            if main is not None:
                status = main(self) or 0
            else:
                while self.running():
                    if each_turn is not None:
                        each_turn()
                    self.stop.wait(interval)
        finally:
            self.watch.final()
            if draining is not None:
                draining()
            subscriber.stop()
            if closing is not None:
                closing()
        return status or self.watch.status
