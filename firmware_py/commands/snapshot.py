"""`snapshot SESSION.jsonl --view venue|broadcast|operator --at T --out FILE.png`: a picture, headless."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from display.display_config import View
from firmware_py.commands import ZERO_DELAY, number
from firmware_py.core.engine import TableCore
from firmware_py.errors import ConfigError, SessionError
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

HELP = "render the venue, broadcast or operator view of a session at a moment to a PNG (no screen needed)"


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 800x480") from None
    if not (100 <= width <= 8000 and 100 <= height <= 8000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 100..8000 pixels")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", help="session file in the table-events.md format")
    parser.add_argument("--view", choices=tuple(View), default=View.VENUE,
                        help="venue (players and dealer), broadcast (stream, delayed) or operator (live "
                             "status for the stream's operator, never on air)")
    parser.add_argument("--at", type=float, metavar="T",
                        help="session time in seconds (default: the last event)")
    parser.add_argument("--out", required=True, metavar="FILE.png", help="picture to write")
    parser.add_argument("--size", type=_size, default=(800, 480), metavar="WxH",
                        help="picture size in pixels (default 800x480)")
    parser.add_argument("--config", metavar="FILE.toml",
                        help="the table file (config/table.toml): its [display] names, blinds and delay")
    parser.add_argument("--delay", type=number(), metavar="SECONDS",
                        help="broadcast delay (overrides the config; default 120)")
    parser.add_argument("--allow-zero-delay", action="store_true",
                        help="permit --delay 0 (a private game only: it shows live hole cards)")
    parser.add_argument("--profiles", metavar="DIR",
                        help="profile directory (default: config/profiles)")


def run(args: argparse.Namespace) -> int:
    # The CLI imports every command at start: pygame is loaded only when this one runs.
    from display.display_config import DisplayConfig  # noqa: PLC0415
    from display.render import render_view, save_png  # noqa: PLC0415

    try:
        config = DisplayConfig()
        if args.config:
            # The one table file every command reads (config/table.toml): its [display] section.
            from firmware_py.daemon.table_config import load_table_config  # noqa: PLC0415

            display = load_table_config(args.config, with_display=True).screen.display
            assert display is not None  # with_display=True reads the views' part too
            config = display
        overrides: dict[str, Any] = {}
        if args.delay == 0 and not (args.allow_zero_delay or config.allow_zero_delay):
            print(f"snapshot: {ZERO_DELAY}", file=sys.stderr)
            return 2
        if args.delay is not None:
            overrides["broadcast_delay_s"] = args.delay
        if args.allow_zero_delay:
            overrides["allow_zero_delay"] = True
        if overrides:
            try:
                config = dataclasses.replace(config, **overrides)  # validated again
            except ConfigError as exc:
                raise ConfigError(f"snapshot options: {exc}") from None
        core = TableCore(load_profiles(args.profiles))
        history = []
        for line, event in read_session(args.session):
            if args.at is not None and event.t > args.at:
                break
            try:
                core.feed(event)
            except ValueError as exc:
                raise SessionError(str(exc), source=args.session, line=line) from None
            history.append((event.t, core.snapshot()))
    except (ConfigError, SessionError) as exc:
        print(f"snapshot: {exc}", file=sys.stderr)
        return 2
    at = args.at if args.at is not None else (history[-1][0] if history else 0.0)
    surface = render_view(View(args.view), history, at=at, size=args.size, config=config)
    try:
        save_png(surface, args.out, private=args.view == "broadcast")  # every hole card is in it
    except (OSError, ValueError) as exc:
        print(f"snapshot: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: {args.view} view at t={at:g}s, {args.size[0]}x{args.size[1]}")
    return 0
