"""`broadcast --room ROOM --table TABLE`: the feature table's broadcast view on the production machine,
on the secure delay, and the same delayed data as a JSON feed and an OBS page on 127.0.0.1."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from firmware_py.commands import start_subscriber

HELP = "render a feature table's broadcast view off the table, on the secure delay (and a delayed JSON feed)"
DEFAULT_FEED_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from firmware_py.room.mqtt import add_broker_arguments  # noqa: PLC0415

    parser.add_argument("--room", required=True, help="the room id")
    parser.add_argument("--table", required=True, help="the feature table's id")
    add_broker_arguments(parser, user="production")
    parser.add_argument("--delay", type=float, default=120.0, metavar="SECONDS",
                        help="the secure delay, counted from each message's arrival here (default 120)")
    parser.add_argument("--allow-zero-delay", action="store_true",
                        help="permit --delay 0 (a private game only: it shows live hole cards)")
    parser.add_argument("--feed-port", type=int, default=DEFAULT_FEED_PORT, metavar="PORT",
                        help=f"the JSON feed and OBS page on http://127.0.0.1:PORT/ (default {DEFAULT_FEED_PORT}; "
                        "0: any free port; -1: none)")
    parser.add_argument("--headless", action="store_true", help="no window (the feed only, or --snapshot)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S", help="stop after S seconds")
    parser.add_argument("--snapshot", metavar="FILE.png", help="write the broadcast picture when stopping")
    parser.add_argument("--size", default="1920x1080", metavar="WxH", help="window or picture size")
    parser.add_argument("--windowed", action="store_true", help="a window instead of the full screen")
    parser.add_argument("--client-id", help="the MQTT client id (default <user>.<room>.<table>.<host>.<pid>, so a "
                        "standby runs beside the primary; it must start with the user name)")


def run(args: argparse.Namespace) -> int:
    from display.display_config import DisplayConfig  # noqa: PLC0415
    from firmware_py.daemon.logs import setup_logging  # noqa: PLC0415
    from firmware_py.room.broadcast import DelayedFeed, FeedServer  # noqa: PLC0415
    from firmware_py.room.mqtt import broker_from_args  # noqa: PLC0415
    from firmware_py.room.room_config import check_id  # noqa: PLC0415
    from firmware_py.room.subscriber import RoomSubscriber, default_client_id  # noqa: PLC0415

    setup_logging(verbose=False)
    try:
        room, table = check_id(args.room, "--room"), check_id(args.table, "--table")
        broker = broker_from_args(args)
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError as exc:
        print(f"broadcast: {exc}" if str(exc).startswith("--") else f"broadcast: {exc} (--size is e.g. 1920x1080)",
              file=sys.stderr)
        return 2
    options = {"broadcast_delay_s": args.delay, "allow_zero_delay": args.allow_zero_delay}
    config = DisplayConfig.from_mapping(options, source="broadcast options")
    if not -1 <= args.feed_port <= 65535:
        print(f"broadcast: --feed-port {args.feed_port}: a TCP port 0..65535, or -1 for no feed", file=sys.stderr)
        return 2
    feed = DelayedFeed(delay_s=config.broadcast_delay_s, room=room, table=table)
    server = None
    if args.feed_port >= 0:
        try:
            server = FeedServer(feed, port=args.feed_port)
        except OSError as exc:
            print(f"broadcast: cannot serve the feed on 127.0.0.1:{args.feed_port}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        server.start()
        print(f"broadcast: delayed feed on http://127.0.0.1:{server.port}/ (page) and /feed.json", flush=True)
    subscriber = RoomSubscriber(broker, [f"pokertable/{room}/{table}/broadcast"],
                                client_id=args.client_id or default_client_id(args.user, room, table,
                                                                              per_process=True),
                                on_message=feed.offer)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if not start_subscriber(subscriber, "broadcast"):
        if server is not None:
            server.stop()
        return 2
    deadline = time.monotonic() + args.seconds if args.seconds is not None else None
    view = BroadcastPicture(feed, config)
    try:
        if args.headless:
            while not stop.is_set() and not subscriber.taken_over and (deadline is None
                                                                      or time.monotonic() < deadline):
                stop.wait(0.2)
        else:
            view.window((width, height), fullscreen=not args.windowed, stop=stop, deadline=deadline)
    finally:
        subscriber.stop()
        if server is not None:
            server.stop()
        if args.snapshot:
            view.picture((width, height), Path(args.snapshot), time.monotonic())
    if subscriber.taken_over:
        print(f"broadcast: another client connected as {subscriber.client_id}; give each its own --client-id",
              file=sys.stderr)
        return 2
    return 0


class BroadcastPicture:
    """Today's broadcast view (display.broadcast) drawn from the delayed feed: only what is on air."""

    def __init__(self, feed: Any, config: Any) -> None:
        from display.cards import CardPainter  # noqa: PLC0415
        from display.chances import ChancesCache  # noqa: PLC0415

        self.feed, self.config = feed, config
        self.painter, self.chances = CardPainter(), ChancesCache()

    def draw(self, surface: Any, now: float) -> None:
        from display.broadcast import BroadcastFrame, render_broadcast  # noqa: PLC0415
        from firmware_py.room.broadcast import snapshot_from_broadcast  # noqa: PLC0415

        body = self.feed.on_air(now)
        shown = snapshot_from_broadcast(body) if body is not None else None
        delayed = self.feed.delayed
        odds = self.chances.lookup(shown) if shown is not None else None
        frame = BroadcastFrame(now=now, shown=shown, delay_s=delayed.delay_s,
                               next_release=delayed.next_release(now), first_release=delayed.first_release(),
                               chances=odds.chances if odds is not None else None,
                               computing=odds is not None and odds.computing)
        render_broadcast(surface, frame, config=self.config, painter=self.painter)

    def picture(self, size: tuple[int, int], path: Path, now: float) -> None:
        import pygame  # noqa: PLC0415

        from display.render import init_headless, save_png  # noqa: PLC0415

        init_headless()
        surface = pygame.Surface(size)
        self.draw(surface, now)
        save_png(surface, path)

    def window(self, size: tuple[int, int], *, fullscreen: bool, stop: threading.Event,
               deadline: float | None) -> None:
        import pygame  # noqa: PLC0415

        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
        pygame.display.set_caption(f"Broadcast: {self.feed.room}/{self.feed.table}")
        from display.chances import ChancesCache  # noqa: PLC0415

        # On screen the chances come from a worker process, as on the table's own broadcast screen: a
        # nine-handed pre-flop calculation never holds up a frame; the picture says "computing" meanwhile.
        self.chances = ChancesCache(background=True)
        try:
            while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                        stop.set()
                self.draw(screen, time.monotonic())
                pygame.display.flip()
                stop.wait(0.25)
        finally:
            self.chances.close()
            pygame.display.quit()
