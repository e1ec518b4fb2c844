"""`floor --room ROOM`: every table of the room on one screen (or, headless, a PNG and a JSON dump)."""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_py.commands import NO_SCREEN, has_screen, number, open_window
from firmware_py.commands.room_command import RoomCommand, add_room_arguments

HELP = "show every table of a room on one screen: status, open rulings, misdeals, hands per hour"
REFRESH_S = 0.5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_room_arguments(parser, user="floor", seconds_help="stop after S seconds (default: run until closed or "
                       "signalled)", client_id_help="the broker session to keep, so no ruling is missed while the "
                       "floor reconnects (default <user>.<room>.<host>; it must start with the user name; one per "
                       "floor screen)")
    parser.add_argument("--headless", action="store_true", help="no window: only --dump (every second) and "
                        "--snapshot (when stopping)")
    parser.add_argument("--snapshot", metavar="FILE.png", help="write the floor picture when stopping")
    parser.add_argument("--dump", metavar="FILE.json", help="write each table's last state as JSON (every "
                        "second, and when stopping)")
    parser.add_argument("--retire-after", type=number(), default=None, metavar="S",
                        help="take a table off the floor once it has been offline S seconds (default: keep it; in "
                        "the window, R takes every offline table off now); a table heard from again comes back")
    parser.add_argument("--size", default="1920x1080", metavar="WxH", help="window or picture size")
    parser.add_argument("--windowed", action="store_true",
                        help="a window instead of the full screen (Esc, q or its close button close either; R "
                        "retires offline tables)")


def dump(model: Any, path: Path, now: float) -> None:
    tables = {}
    for view in model.tables():
        tables[view.table] = {"status": view.status(now), "session": view.state.get("session"),
                              "seq": view.state.get("seq"), "digest": view.state.get("digest"),
                              "counts": view.counts, "online": view.online,
                              "open_rulings": len(view.open_rulings)}
    body = {"room": model.room, "tables": tables, "messages": model.messages, "duplicates": model.duplicates,
            "quarantined": model.quarantined,
            "dealers": {k: vars(v) for k, v in model.dealers().items()},
            "ruling_latencies": [[round(at, 3), round(seconds, 4)] for at, seconds in list(model.latencies)],
            "jackpots": model.latest_jackpots(), "leaderboard": model.leaderboard()}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(body, indent=1, sort_keys=True))
    tmp.replace(path)


def run(args: argparse.Namespace) -> int:
    from firmware_py.room.floor import KINDS, FloorModel  # noqa: PLC0415

    command = RoomCommand(args, "floor")
    try:
        room, broker = command.room(), command.broker()
    except ValueError as exc:
        return command.usage(exc)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        return command.usage(f"--size {args.size!r} is not a size such as 1920x1080")
    if args.headless and not (args.snapshot or args.dump):
        return command.usage("--headless needs --snapshot FILE.png or --dump FILE.json")
    if not args.headless and not has_screen():
        return command.usage(f"{NO_SCREEN}: use --headless with --snapshot FILE.png or --dump FILE.json")
    model = FloorModel(room)
    topics = [f"pokertable/{room}/+/{kind}" for kind in KINDS]  # status, heartbeat, state, ruling, jackpot
    topics.append(f"pokertable/{room}/director/tournament")  # a tournament's director, when one runs
    subscriber = command.subscriber(broker, topics, parts=(room,), persistent=True,
                                    on_message=lambda name, payload, now: model.feed(name, payload, now=now))
    next_dump = 0.0

    def housekeeping() -> None:
        """Each turn of the loop, window or headless: retire long-offline tables, write the dump each second."""
        nonlocal next_dump
        now = time.monotonic()
        if args.retire_after is not None:
            model.retire(now, offline_for_s=args.retire_after)
        if args.dump and now >= next_dump:
            dump(model, Path(args.dump), now)
            next_dump = now + 1.0

    def window(command: RoomCommand) -> int:
        return _window(model, room, (width, height), args, stop=command.stop, deadline=command.deadline,
                       every_frame=housekeeping)

    def closing() -> None:
        if command.watch is None:  # never connected: nothing to write
            return
        if args.dump:
            dump(model, Path(args.dump), time.monotonic())
        if args.snapshot:
            _picture(model, room, (width, height), Path(args.snapshot))

    return command.run(subscriber, each_turn=housekeeping, interval=0.1, main=None if args.headless else window,
                       closing=closing)


def _picture(model: Any, room: str, size: tuple[int, int], path: Path) -> None:
    import pygame  # noqa: PLC0415

    from display.floor import render_floor  # noqa: PLC0415
    from display.render import init_headless, save_png  # noqa: PLC0415

    init_headless()
    surface = pygame.Surface(size)
    render_floor(surface, model, now=time.monotonic(), title=f"Room {room}")
    save_png(surface, path)


def _window(model: Any, room: str, size: tuple[int, int], args: argparse.Namespace, *, stop: threading.Event,
            deadline: float | None, every_frame: Callable[[], None]) -> int:
    import pygame  # noqa: PLC0415

    from display.app import is_close_key  # noqa: PLC0415
    from display.floor import render_floor  # noqa: PLC0415

    screen = open_window(size, fullscreen=not args.windowed, title=f"Floor: room {room}", command="floor")
    if screen is None:
        return 2
    while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
        for event in pygame.event.get():
            if event.type == pygame.QUIT or is_close_key(event):
                stop.set()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_r:
                model.retire(time.monotonic())  # every offline table: the floor staff know they are closed
        every_frame()
        render_floor(screen, model, now=time.monotonic(), title=f"Room {room}")
        pygame.display.flip()
        stop.wait(REFRESH_S)
    pygame.display.quit()
    return 0
