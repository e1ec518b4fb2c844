"""`replay SESSION.jsonl`: run a recorded session through the rules core and print the rulings."""

from __future__ import annotations

import argparse
import json
import sys

from firmware_py.core.engine import TableCore
from firmware_py.errors import SessionError
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

HELP = "replay a recorded session (JSON Lines) and print the rulings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", help="session file in the table-events.md format")
    parser.add_argument("--explain", action="store_true", help="print one line per ruling for people")
    parser.add_argument("--notices", action="store_true",
                        help="also print operator notices (unknown tags, ignored presses) to stderr")
    parser.add_argument("--profiles", metavar="DIR", help="profile directory (default: config/profiles)")


def run(args: argparse.Namespace) -> int:
    profiles = load_profiles(args.profiles)
    core = TableCore(profiles)
    out = sys.stdout
    try:
        for line, event in read_session(args.session):
            try:
                outcome = core.feed(event)
            except ValueError as exc:
                raise SessionError(str(exc), source=args.session, line=line) from None
            for ruling in outcome.rulings:
                out.write((ruling.explain() if args.explain else json.dumps(ruling.to_json())) + "\n")
            if args.notices:
                for notice in outcome.notices:
                    print(f"notice: line {line}: {notice.message}", file=sys.stderr)
    except SessionError as exc:
        out.flush()
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    return 0
