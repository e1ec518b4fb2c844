"""`broadcast --room ROOM --table TABLE`: the production room's broadcast, off the table, on the secure delay.

It holds every table of the room for the delay (so the feature table can be switched live), computes
the win chances while each message waits, and serves on 127.0.0.1 the overlay page for OBS (`/`),
the producer's control page (`/control`) and the JSON feed (`/feed.json`); with a window it also
draws the pygame broadcast view. A second instance (`--instance standby`) runs side by side: the
producer's choices reach it over the broker.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
import time
from pathlib import Path
from typing import Any

import msgspec

from firmware_py.commands import NO_SCREEN, ZERO_DELAY, has_screen, number, open_window
from firmware_py.commands.room_command import RoomCommand, add_room_arguments

HELP = "render a feature table's broadcast view off the table, on the secure delay (and a delayed JSON feed)"
DEFAULT_FEED_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_room_arguments(parser, user="production", room_help="the room id",
                       client_id_help="the MQTT client id (default <user>.<room>.<instance>.<host>.<pid>, so a "
                       "standby runs beside the primary; it must start with the user name)")
    parser.add_argument("--table", required=True, help="the feature table's id at start (switch it live on /control)")
    parser.add_argument("--instance", default="primary", metavar="NAME",
                        help="this instance's name: primary (default) or standby; each has its own broker client")
    parser.add_argument("--theme", metavar="FILE.toml", help="the overlay's theme (default config/overlay/theme.toml)")
    parser.add_argument("--delay", type=number(), default=120.0, metavar="SECONDS",
                        help="the secure delay, counted from each message's arrival here (default 120)")
    parser.add_argument("--allow-zero-delay", action="store_true",
                        help="permit --delay 0 (a private game only: it shows live hole cards)")
    parser.add_argument("--feed-port", type=int, default=DEFAULT_FEED_PORT, metavar="PORT",
                        help=f"the JSON feed and OBS page on http://127.0.0.1:PORT/ (default {DEFAULT_FEED_PORT}; "
                        "0: any free port; -1: none)")
    parser.add_argument("--headless", action="store_true", help="no window (the feed only, or --snapshot)")
    parser.add_argument("--snapshot", metavar="FILE.png", help="write the broadcast picture when stopping")
    parser.add_argument("--size", default="1920x1080", metavar="WxH", help="window or picture size")
    parser.add_argument("--windowed", action="store_true",
                        help="a window instead of the full screen (Esc, q or its close button close either)")


def run(args: argparse.Namespace) -> int:
    from display.display_config import DisplayConfig  # noqa: PLC0415
    from firmware_py.room.broadcast import ChancesAhead, Production  # noqa: PLC0415
    from firmware_py.room.room_config import check_id, check_table_id  # noqa: PLC0415

    command = RoomCommand(args, "broadcast")
    try:
        room, table = command.room(), check_table_id(args.table, "--table")
        instance = check_id(args.instance, "--instance")
        broker = command.broker()
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError as exc:
        return command.usage(exc if str(exc).startswith("--") else f"{exc} (--size is e.g. 1920x1080)")
    if args.delay == 0 and not args.allow_zero_delay:
        return command.usage(ZERO_DELAY)
    from firmware_py.errors import ConfigError  # noqa: PLC0415
    from firmware_py.room.overlay_theme import DEFAULT_THEME, Theme, load_theme  # noqa: PLC0415

    try:  # the shipped theme file is in the source tree's config/; installed elsewhere, its colours are built in
        theme = load_theme(args.theme) if args.theme else load_theme() if DEFAULT_THEME.exists() else Theme()
    except ConfigError as exc:
        print(f"broadcast: {exc}", file=sys.stderr)
        return 2
    # The delay's bounds: the theme file's [delay] (the house's), else the built-in ones (firmware_py/room/bounds.py)
    bounds_from = f"[delay] in {args.theme or DEFAULT_THEME}" if args.theme or DEFAULT_THEME.exists() \
        else "firmware_py/room/bounds.py"
    if args.delay > theme.delay_ceiling_s:
        return command.usage(f"--delay {args.delay:g}: at most {theme.delay_ceiling_s:g} seconds (every table is "
                             f"held for the delay in memory; the ceiling: {bounds_from})")
    if not args.headless and not has_screen():
        return command.usage(f"{NO_SCREEN}: use --headless (the feed, and --snapshot FILE.png)")
    options = {"broadcast_delay_s": args.delay, "allow_zero_delay": args.allow_zero_delay}
    config = DisplayConfig.from_mapping(options, source="broadcast options")
    if not -1 <= args.feed_port <= 65535:
        print(f"broadcast: --feed-port {args.feed_port}: a TCP port 0..65535, or -1 for no feed", file=sys.stderr)
        return 2
    from firmware_py.room.overlay import make_app  # noqa: PLC0415
    from firmware_py.web.pairing import shown_code  # noqa: PLC0415
    from firmware_py.web.server import serve  # noqa: PLC0415

    production = Production(room=room, feature=table, delay_s=config.broadcast_delay_s,
                            allow_zero_delay=config.allow_zero_delay, chances=ChancesAhead(background=True),
                            instance=instance, delay_floor_s=theme.delay_floor_s,
                            delay_ceiling_s=theme.delay_ceiling_s, bounds_from=bounds_from)
    server = None
    if args.feed_port >= 0:
        try:
            # the pages' one web layer: Host and Origin checked, the control paired (the code on the
            # console: no venue screen here), the overlay public (OBS; only what is on air)
            app = make_app(production, theme)
            server = serve(app, port=args.feed_port, name="overlay")
        except OSError as exc:
            print(f"broadcast: cannot serve the feed on 127.0.0.1:{args.feed_port}: {exc.strerror or exc}",
                  file=sys.stderr)
            production.close()
            return 2
        print(f"broadcast: overlay page {server.url}/ (OBS), control {server.url}/control, feed {server.url}/feed.json",
              flush=True)
        app.pairing.listeners.append(
            lambda code: print(f"broadcast: next pairing code of the control page {shown_code(code)}", flush=True))
        print(f"broadcast: pair the control page with the code {shown_code(app.pairing.code)}", flush=True)
    control_topic = f"pokertable/{room}/production/control"
    director_topic = f"pokertable/{room}/director/tournament"  # a tournament's places, on the delay

    def offer(topic_name: str, payload: Any, now: float) -> None:
        if topic_name == director_topic:
            production.offer_tournament(topic_name, payload, now)
        else:
            production.offer(topic_name, payload, now)

    subscriber = command.subscriber(broker, [f"pokertable/{room}/+/broadcast", control_topic, director_topic],
                                    parts=(room, instance), per_process=True, on_message=offer)
    production.on_control = lambda control: subscriber.client.publish(
        control_topic, msgspec.json.encode(control), qos=1, retain=True)
    # The broker's answer to each control change (the client publishes nothing else): a refusal is a fault.
    subscriber.client.on_publish = lambda _c, _u, _mid, reason, _p: production.control_published(reason)
    view = functools.cache(lambda: BroadcastPicture(production, config))  # once connected: pygame's fonts

    def window(command: RoomCommand) -> int:
        shown = view().window((width, height), fullscreen=not args.windowed, stop=command.stop,
                            deadline=command.deadline)
        return 0 if shown else 2

    def closing() -> None:
        if server is not None:
            server.stop()
        if args.snapshot and command.watch is not None:
            view().picture((width, height), Path(args.snapshot), time.monotonic())
        production.close()

    return command.run(subscriber, main=None if args.headless else window, closing=closing)


def table_chances(feed: Any) -> Any:
    """The pygame view's chances from the feed's (computed during the delay, never in the frame)."""
    from firmware_py.odds.chances import SeatChance, TableChances  # noqa: PLC0415
    from firmware_py.odds.equity import Equity  # noqa: PLC0415

    chances = feed.chances
    if chances is None:
        return None
    seats = {c.seat: SeatChance(win=c.win, tie=c.tie) for c in chances.seats}
    equity = None if len(seats) < 2 else Equity(win=tuple(c.win for c in chances.seats),
                                                 tie=tuple(c.tie for c in chances.seats), exact=chances.exact,
                                                 runouts=chances.runouts, error=chances.error)
    return TableChances(seats=seats, equity=equity)


class BroadcastPicture:
    """The pygame broadcast view (display.broadcast) drawn from the feature table's delayed feed: only what
    is on air, with the chances computed during the delay (it never says "computing")."""

    def __init__(self, production: Any, config: Any) -> None:
        from display.cards import CardPainter  # noqa: PLC0415

        self.production, self.config = production, config
        self.painter = CardPainter()

    def draw(self, surface: Any, now: float) -> None:
        from display.broadcast import BroadcastFrame, render_broadcast  # noqa: PLC0415
        from firmware_py.room.broadcast import snapshot_from_broadcast  # noqa: PLC0415

        delayed = self.production.feature
        body = delayed.on_air(now)
        shown = snapshot_from_broadcast(body) if body is not None else None
        config = self.config
        if body is not None:  # the names the table sent
            from dataclasses import replace  # noqa: PLC0415

            config = replace(config, seat_names={s.seat: s.name for s in body.seats})
        frame = BroadcastFrame(now=now, shown=shown, delay_s=delayed.delay_s, next_release=None,
                               first_release=delayed.first_release(),
                               chances=table_chances(body) if body is not None else None)
        render_broadcast(surface, frame, config=config, painter=self.painter)

    def picture(self, size: tuple[int, int], path: Path, now: float) -> None:
        import pygame  # noqa: PLC0415

        from display.render import init_headless, save_png  # noqa: PLC0415

        init_headless()
        surface = pygame.Surface(size)
        self.draw(surface, now)
        save_png(surface, path)

    def window(self, size: tuple[int, int], *, fullscreen: bool, stop: threading.Event,
               deadline: float | None) -> bool:
        """Show the picture in a window until closed or stopped; False if no window opens here."""
        import pygame  # noqa: PLC0415

        from display.app import is_close_key  # noqa: PLC0415

        title = f"Broadcast: {self.production.room}/{self.production.control.feature}"
        screen = open_window(size, fullscreen=fullscreen, title=title, command="broadcast")
        if screen is None:
            return False
        try:
            while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or is_close_key(event):
                        stop.set()
                self.draw(screen, time.monotonic())
                pygame.display.flip()
                stop.wait(0.1)
        finally:
            pygame.display.quit()
        return True
