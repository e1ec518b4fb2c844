"""`export`: the journal as a replayable session (table-events.md) and its hands in PHH (pokerkit)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_py.errors import SessionError

HELP = "write the journal as a session file (replays) and the hand histories in PHH, both mode 0600"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE.toml", help="the table file (default: config/table.toml)")
    parser.add_argument("--journal", metavar="FILE", help="the journal (default: the config's)")
    parser.add_argument("--simulated", action="store_true", help="the simulated table's journal")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write session.jsonl and hands.phhs")


def run(args: argparse.Namespace) -> int:
    from firmware_py.daemon.app import journal_events  # noqa: PLC0415
    from firmware_py.daemon.export import export  # noqa: PLC0415
    from firmware_py.daemon.journal import Journal  # noqa: PLC0415
    from firmware_py.daemon.table_config import DEFAULT_PATH, load_table_config  # noqa: PLC0415
    from firmware_py.errors import JournalError  # noqa: PLC0415
    from firmware_py.simulation.wiring import SIM_JOURNAL  # noqa: PLC0415

    config = load_table_config(args.config or DEFAULT_PATH, with_display=False)
    if args.journal:
        path = Path(args.journal)
    else:
        path = config.journal_path.with_name(SIM_JOURNAL) if args.simulated else config.journal_path
    if not path.exists():
        print(f"export: {path}: no journal there", file=sys.stderr)
        return 2
    try:
        with Journal.read_only(path) as journal:  # the table may be running: it holds the journal
            events = journal_events(journal, base_dir=config.hardware_file.parent)
            # The PHH's table: its id in the room, else the table file's name (never a path of this machine).
            table = config.room.table if config.room is not None else Path(config.source).stem
            summary = export(journal, events, profiles=dict(config.profiles), out_dir=Path(args.out),
                             table=table, names=config.seat_names, base_dir=config.hardware_file.parent)
    except (JournalError, SessionError) as exc:
        print(f"export: {exc}", file=sys.stderr)
        return 3
    except OSError as exc:
        print(f"export: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"{summary.session}: {summary.events} events")
    print(f"{summary.histories}: {summary.hands} hands"
          + (f" ({summary.not_played} misdealt or void left out)" if summary.not_played else "")
          + (f" ({summary.skipped} left out, each with its reason below)" if summary.skipped else ""))
    for number, reason in summary.refused:
        print(f"  hand {number} left out: {reason}")
    return 0
