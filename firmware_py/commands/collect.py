"""`collect --room ROOM --db URL`: every ruling and finished hand of the room into PostgreSQL or SQLite."""

from __future__ import annotations

import argparse
import hashlib

from firmware_py.commands.room_command import RoomCommand, add_room_arguments

HELP = "store every ruling and every finished hand (PHH) of a room in PostgreSQL or SQLite, once each"
DEFAULT_DB = "state/room.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_room_arguments(parser, user="collector", room_help="the room id, or + for every room on the broker",
                       client_id_help="the broker session to keep (default <user>.<room>.<db>.<host>; it must "
                       "start with the user name); one per collector: the broker holds its messages while it is away")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                        help=f"postgresql://user@host/db, or a SQLite file (default {DEFAULT_DB})")
    parser.add_argument("--share", metavar="GROUP", help="subscribe as a member of this MQTT 5 shared-subscription "
                        "group: each message goes to one collector of the group (run two for redundancy)")


def run(args: argparse.Namespace) -> int:
    from firmware_py.room.collector import Collector, open_store  # noqa: PLC0415

    command = RoomCommand(args, "collect")
    try:
        room, broker = command.room(any_room=True), command.broker()
    except ValueError as exc:
        return command.usage(exc)
    store = open_store(args.db)
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
    status = command.run(subscriber, draining=collector.stop, closing=store.close)
    if command.watch is None:  # never connected
        return status
    stats = collector.stats
    print(f"collect: {stats.received} messages, {stats.inserted} stored, {stats.duplicates} duplicates dropped, "
          f"{stats.rejected} quarantined in dead_letters ({stats.dead_dropped} over its bounds and "
          f"{stats.dead_repeats} repeats not kept: dead_letter_drops)", flush=True)
    return status
