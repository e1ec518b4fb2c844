"""`collect --room ROOM --db URL`: every ruling and finished hand of the room into PostgreSQL or SQLite."""

from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any

from firmware_py.commands.room_command import RoomCommand, add_room_arguments

HELP = "store every ruling and every finished hand (PHH) of a room in PostgreSQL or SQLite, once each"
DEFAULT_DB = "state/room.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_room_arguments(parser, user="collector", room_help="the room id, or + for every room on the broker",
                       client_id_help="the broker session to keep (default <user>.<room>.<db>.<host>; it must "
                       "start with the user name); one per collector: the broker holds its messages while it is away")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                        help=f"postgresql://user@host/db, or a SQLite file (default {DEFAULT_DB})")
    parser.add_argument("--listen", metavar="HOST:PORT", help="serve the floor's replay of any hand of any table "
                        "here (port 0: any free port); off unless given. Pair the floor's tablet with the code printed")
    parser.add_argument("--page-name", action="append", metavar="NAME",
                        help="a name the replay page is also reached at (e.g. floor.local; repeat for more): its "
                        "addresses are accepted anyway, any other name is refused (DNS rebinding)")
    parser.add_argument("--hole-cards", default="showdown", choices=("none", "showdown", "all"),
                        help="the house's rule for a finished hand's hole cards on the replay page: none, those "
                        "shown down (default), or all")
    parser.add_argument("--share", metavar="GROUP", help="subscribe as a member of this MQTT 5 shared-subscription "
                        "group: each message goes to one collector of the group (run two for redundancy)")


def run(args: argparse.Namespace) -> int:
    from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415

    command = RoomCommand(args, "collect")
    try:
        room, broker = command.room(any_room=True), command.broker()
        listen = _listen(args.listen) if args.listen else None
    except ValueError as exc:
        return command.usage(exc)
    store = open_store(args.db)
    page = _serve_page(args, listen) if listen is not None else None
    if listen is not None and page is None:
        store.close()
        return 1
    database = hashlib.sha256(args.db.encode()).hexdigest()[:6]  # two collectors of one host, two databases
    collector = Collector(store, name="")
    subscriber = command.subscriber(broker, [f"pokertable/{room}/+/ruling", f"pokertable/{room}/+/hand"],
                                    parts=("all" if room == "+" else room, database), persistent=True,
                                    manual_ack=True, share=args.share, on_message=collector.offer)
    collector.name = subscriber.client_id
    collector.ack = subscriber.ack
    collector.publish = lambda name, payload: subscriber.client.publish(name, payload, qos=1, retain=True)
    collector.start()
    # The collector writes and acknowledges what came before the subscriber goes (anything later the broker
    # sends again next time); the store closes last.
    def closing() -> None:
        if page:
            page.stop()
        store.close()

    status = command.run(subscriber, draining=collector.stop, closing=closing)
    if command.watch is None:  # never connected
        return status
    stats = collector.stats
    print(f"collect: {stats.received} messages, {stats.inserted} stored, {stats.duplicates} duplicates dropped, "
          f"{stats.rejected} quarantined in dead_letters ({stats.dead_dropped} over its bounds and "
          f"{stats.dead_repeats} repeats not kept: dead_letter_drops)", flush=True)
    return status


def _listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--listen {text!r}: HOST:PORT, e.g. 127.0.0.1:8097 (port 0: any free port)")
    return host or "127.0.0.1", int(port)


class _Page:
    """The floor's replay page on its own thread, and its own read connection to the archive."""

    def __init__(self, source: Any, server: Any, app: Any) -> None:
        self.source, self.server, self.app = source, server, app

    def stop(self) -> None:
        self.app.closing = True
        self.server.stop()
        self.source.close()


def _serve_page(args: argparse.Namespace, listen: tuple[str, int]) -> _Page | None:
    """Start the floor's replay page (room/replay_archive.py); None (said on stderr) if it cannot listen."""
    from firmware_py.hand_replay import HoleCards  # noqa: PLC0415
    from firmware_py.room.replay_archive import ArchiveReplays, floor_page  # noqa: PLC0415
    from firmware_py.web.pairing import shown_code  # noqa: PLC0415
    from firmware_py.web.server import WebServer  # noqa: PLC0415

    source = ArchiveReplays(args.db, hole_cards=HoleCards(args.hole_cards))
    app = floor_page(source, hosts=tuple(args.page_name or ()))
    try:
        server = WebServer(app, host=listen[0], port=listen[1], name="floor replay").start()
    except OSError as exc:
        print(f"collect: {exc}", file=sys.stderr)
        return None
    # no venue screen: the console (the unit's journal under systemd) shows the code, and each new one
    app.pairing.listeners.append(lambda code: print(f"collect: next pairing code {shown_code(code)}", flush=True))
    print(f"collect: the floor's replay is on {server.url}/replay (any address of this machine with --listen "
          f"0.0.0.0:PORT); pair a browser with the code {shown_code(app.pairing.code)}", flush=True)
    return _Page(source, server, app)
