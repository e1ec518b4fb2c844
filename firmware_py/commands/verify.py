"""`verify`: check a jackpot hand's evidence packet against the house's key (firmware_py/jackpots.py): its HMAC
secret (`--key`), or for a packet signed with Ed25519 its public key (`--public-key`), with which nobody can sign."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "check a jackpot hand's evidence packet: every event's signature, checksum and running checksum"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("packet", metavar="PACKET", help="the evidence packet the table wrote (jackpot-*.jsonl)")
    keys = parser.add_mutually_exclusive_group(required=True)
    keys.add_argument("--key", metavar="KEY_FILE",
                      help="the house's HMAC signing key (the table file's [jackpots] key_file, signing = \"hmac\")")
    keys.add_argument("--public-key", metavar="PUB_FILE",
                      help="the house's Ed25519 public key in PEM (signing = \"ed25519\": the table holds the "
                           "private key; this one verifies and cannot sign)")


def run(args: argparse.Namespace) -> int:
    from firmware_py.errors import ConfigError  # noqa: PLC0415
    from firmware_py.jackpots import PacketError, public_key, read_key, verify_packet  # noqa: PLC0415

    path = Path(args.packet)
    try:
        key = public_key(Path(args.public_key)) if args.public_key else read_key(Path(args.key), where="--key")
        data = path.read_bytes()
    except ConfigError as exc:
        print(f"verify: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"verify: cannot read {path} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    try:
        verified = verify_packet(data, key, source=str(path))
    except PacketError as exc:
        print(f"verify: NOT VERIFIED: {exc}", file=sys.stderr)
        return 1
    print(f"{path}: verified: {verified.jackpot}, hand {verified.hand}, events #{verified.first_seq}.."
          f"#{verified.last_seq} unchanged, {verified.cards} cards with their readers, signed by the house's key"
          + (" (Ed25519)" if args.public_key else ""))
    return 0
