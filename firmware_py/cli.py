"""The `python -m firmware_py <command>` entry point: one module per command under `commands/`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from firmware_py.errors import ConfigError

# Each module defines `HELP`, `add_arguments(parser)` and `run(args) -> int` (the exit status).
COMMANDS = {
    "replay": "firmware_py.commands.replay",
    "snapshot": "firmware_py.commands.snapshot",
    "enroll": "firmware_py.commands.enroll",
    "doctor": "firmware_py.commands.doctor",
    "run": "firmware_py.commands.run",
    "export": "firmware_py.commands.export",
    "recover": "firmware_py.commands.recover",
    "floor": "firmware_py.commands.floor",
    "collect": "firmware_py.commands.collect",
    "broadcast": "firmware_py.commands.broadcast",
    "profile": "firmware_py.commands.profile",
    "tournament": "firmware_py.commands.tournament",
    "verify": "firmware_py.commands.verify",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m firmware_py",
        description="Poker-table appliance: RFID dealing shoe, board antennas and a rules core.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = {}
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
    args = parser.parse_args(argv)
    try:
        status: int = modules[args.command].run(args)
    except ConfigError as exc:  # a bad file or option: the message names what and where, no traceback
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    return status
