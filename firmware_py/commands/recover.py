"""`recover`: copy every intact event of a damaged journal into a new journal (the damaged one is kept)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "copy every intact event of a damaged journal into a new journal, and name the events lost"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", help="the damaged journal (read only, never changed)")
    parser.add_argument("--out", metavar="NEW.sqlite3", required=True, help="the new journal to write")


def run(args: argparse.Namespace) -> int:
    from firmware_py.daemon.journal import recover  # noqa: PLC0415
    from firmware_py.errors import JournalError  # noqa: PLC0415

    source, target = Path(args.journal), Path(args.out)
    try:
        salvage = recover(source, target)
    except JournalError as exc:
        print(f"recover: {exc}", file=sys.stderr)
        return 3
    print(f"{target}: {salvage.kept} of {salvage.expected} events recovered (mode 0600); {source} is unchanged")
    if salvage.lost:
        shown = ", ".join(f"#{seq}" for seq in salvage.lost[:12]) + (" ..." if len(salvage.lost) > 12 else "")
        print(f"lost: {len(salvage.lost)} events ({shown}); the rulings of the hands they were in may differ "
              f"from what the table announced. Keep {source} for the record.", file=sys.stderr)
        return 1
    return 0
