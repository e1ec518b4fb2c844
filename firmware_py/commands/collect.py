"""`collect --room ROOM --db URL`: every ruling and finished hand of the room into PostgreSQL or SQLite."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time

from firmware_py.commands import Watch, start_subscriber

HELP = "store every ruling and every finished hand (PHH) of a room in PostgreSQL or SQLite, once each"
DEFAULT_DB = "state/room.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from firmware_py.room.mqtt import add_broker_arguments  # noqa: PLC0415

    parser.add_argument("--room", required=True, help="the room id, or + for every room on the broker")
    add_broker_arguments(parser, user="collector")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                        help=f"postgresql://user@host/db, or a SQLite file (default {DEFAULT_DB})")
    parser.add_argument("--client-id", help="the broker session to keep (default collector-<room>); one per "
                        "collector: the broker holds its messages while it is away")
    parser.add_argument("--seconds", type=float, default=None, metavar="S", help="stop after S seconds")


def run(args: argparse.Namespace) -> int:
    from firmware_py.daemon.logs import setup_logging  # noqa: PLC0415
    from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415
    from firmware_py.room.mqtt import broker_from_args  # noqa: PLC0415
    from firmware_py.room.room_config import check_id  # noqa: PLC0415
    from firmware_py.room.subscriber import RoomSubscriber  # noqa: PLC0415

    setup_logging(verbose=False)
    try:
        room = args.room if args.room == "+" else check_id(args.room, "--room")
        broker = broker_from_args(args)
    except ValueError as exc:
        print(f"collect: {exc}", file=sys.stderr)
        return 2
    store = open_store(args.db)
    client_id = args.client_id or f"collector-{'all' if room == '+' else room}"
    collector = Collector(store)
    subscriber = RoomSubscriber(broker, [f"pokertable/{room}/+/ruling", f"pokertable/{room}/+/hand"],
                                client_id=client_id, persistent=True, manual_ack=True,
                                on_message=lambda name, body, _now, mid: collector.offer(name, body, mid))
    collector.ack = subscriber.ack
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    collector.start()
    deadline = time.monotonic() + args.seconds if args.seconds is not None else None
    status = start_subscriber(subscriber, "collect", seconds=args.seconds, stop=stop)
    if status:
        collector.stop()
        store.close()
        return status
    watch = Watch(subscriber, "collect", stop, silence_s=args.warn_silence).start()
    while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
        stop.wait(0.2)
    watch.final()
    collector.stop()  # write and acknowledge what came; anything later the broker sends again next time
    subscriber.stop()
    store.close()
    stats = collector.stats
    print(f"collect: {stats.received} messages, {stats.inserted} stored, {stats.duplicates} duplicates dropped, "
          f"{stats.rejected} rejected", flush=True)
    return watch.status
