"""`collect --room ROOM --db URL`: every ruling and finished hand of the room into PostgreSQL or SQLite."""

from __future__ import annotations

import argparse
import hashlib
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
    parser.add_argument("--client-id", help="the broker session to keep (default <user>.<room>.<db>.<host>; it "
                        "must start with the user name); one per collector: the broker holds its messages while "
                        "it is away")
    parser.add_argument("--share", metavar="GROUP", help="subscribe as a member of this MQTT 5 shared-subscription "
                        "group: each message goes to one collector of the group (run two for redundancy)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S", help="stop after S seconds")


def run(args: argparse.Namespace) -> int:
    from firmware_py.daemon.logs import setup_logging  # noqa: PLC0415
    from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415
    from firmware_py.room.mqtt import broker_from_args  # noqa: PLC0415
    from firmware_py.room.room_config import check_id  # noqa: PLC0415
    from firmware_py.room.subscriber import RoomSubscriber, default_client_id  # noqa: PLC0415

    setup_logging(verbose=False)
    try:
        room = args.room if args.room == "+" else check_id(args.room, "--room")
        broker = broker_from_args(args)
    except ValueError as exc:
        print(f"collect: {exc}", file=sys.stderr)
        return 2
    store = open_store(args.db)
    database = hashlib.sha256(args.db.encode()).hexdigest()[:6]  # two collectors of one host, two databases
    client_id = args.client_id or default_client_id(args.user, "all" if room == "+" else room, database)
    collector = Collector(store, name=client_id)
    subscriber = RoomSubscriber(broker, [f"pokertable/{room}/+/ruling", f"pokertable/{room}/+/hand"],
                                client_id=client_id, persistent=True, manual_ack=True, share=args.share,
                                on_message=collector.offer)
    collector.ack = subscriber.ack
    collector.publish = lambda name, payload: subscriber.client.publish(name, payload, qos=1, retain=True)
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
          f"{stats.rejected} quarantined in dead_letters", flush=True)
    return watch.status
