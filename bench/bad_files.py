"""Bad files through every loader: each ends in a result or the project's own error, never a traceback.

    python bench/bad_files.py              # 10,000 generated bad files; prints the tally and each traceback
    python bench/bad_files.py --files 500  # a quick check

Each file starts as a real one (the table, hardware and profile TOML, a deck registry, a session)
and is damaged one way: a byte that is not UTF-8, nesting 1,000 deep, a 5,000-digit number,
`1e400`, out-of-range and wrong-typed values, a 300-character name, remedy templates with format
specs or stray braces, flipped, deleted and truncated bytes. Serial lines get the same treatment
(including 3-byte card IDs). A "traceback" is any exception other than the loader's own error
class, or a loader that takes more than a few seconds.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import signal
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _startup import ROOT

from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import (
    ConfigError,
    DeckFileError,
    ProtocolError,
    SessionError,
)
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck, read_session
from hardware.enrollment import Enrollment
from hardware.hardware_config import load_hardware_config
from hardware.protocol import Scan, checksum, decode, encode

CONFIG = ROOT / "config"
SESSIONS = sorted((ROOT / "tests" / "sessions").glob("*[!d].jsonl"))
TIME_LIMIT_S = 5

DEEP = ["[" * 1000 + "]" * 1000, "{a=" * 1000 + "1" + "}" * 1000, '{"a":' * 1000 + "1" + "}" * 1000]
NUMBERS = ["1" * 5000, "-" + "9" * 5000, "1e400", "-1e400", "-1", "0", "-0.0", "9223372036854775808",
           "99999999999", "nan", "inf", "0.0000001", "3.5", "1e-400", "1_000_000_000"]
STRINGS = ['"' + "x" * 300 + '"', '"' + "a/" * 200 + '"', '"{seat:>999999999}"', '"{"', '"}"', '"{seat!r}"',
           '"{card.upper}"', '"{seat[0]}"', '"{nobody}"', '"{seat:{card}}"', '""', '"\\u0000"', '"../../etc"',
           '"' + "é" * 300 + '"', "true", "[]", "{}", '["a", 1]', "[[1], [2]]"]
VALUES = DEEP + NUMBERS + STRINGS + ['"' + "x" * 300 + '"'] * 4  # long names: paths, profiles


def mutate(text: str, rng: random.Random, *, json_like: bool) -> bytes:
    """One damage to a text file (a TOML or JSON document, or JSON Lines)."""
    data = text.encode()
    how = rng.randrange(8)
    if how == 0:  # a byte that is not UTF-8
        at = rng.randrange(len(data) + 1)
        return data[:at] + bytes([rng.choice([0x80, 0xC3, 0xFF, 0xFE, 0xED])]) + data[at:]
    if how in (1, 2, 3):  # replace one value with something nasty
        pattern = r'("[^"]+"\s*:\s*)([^,}\]\n]+)' if json_like else r"(?m)^(\s*[\w.-]+\s*=\s*)(.+)$"
        matches = list(re.finditer(pattern, text))
        if matches:
            m = rng.choice(matches)
            value = rng.choice(VALUES)
            if json_like and value.startswith("{a="):
                value = DEEP[2]
            return (text[: m.start(2)] + value + text[m.end(2):]).encode()
    if how == 4:  # flipped bits
        out = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            if out:
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    if how == 5:  # truncated
        return data[: rng.randrange(len(data) + 1)]
    if how == 6:  # a block deleted or duplicated
        a = rng.randrange(len(data) + 1)
        b = min(len(data), a + rng.randint(1, 200))
        return data[:a] + data[b:] if rng.random() < 0.5 else data[:b] + data[a:b] + data[b:]
    # a new key, section or line with a nasty value
    value = rng.choice(VALUES)
    if json_like:
        return data + ('{"t": ' + value + ', "kind": "button", "name": "check"}\n').encode()
    key = rng.choice(["seconds", "first_cards", "poll_interval_s", "button", "x" * 300, "remedy", "seats"])
    return data + f"\n{key} = {value}\n".encode()


def _setup_config(tmp: Path) -> Path:
    shutil.copytree(CONFIG, tmp / "config")
    return tmp / "config"


def _check(kind: str, call: Callable[[], Any], expected: tuple[type[BaseException], ...]) -> str:
    def on_alarm(_signum: int, _frame: Any) -> None:
        raise TimeoutError(f"{kind}: more than {TIME_LIMIT_S} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(TIME_LIMIT_S)
    try:
        call()
    except expected as exc:
        text = str(exc)
        return "clear_error" if text and "Traceback" not in text else "unclear_error"
    except Exception:
        return "traceback:" + traceback.format_exc(limit=-3)
    finally:
        signal.alarm(0)
    return "accepted"


def one_file(index: int, rng: random.Random, config: Path, work: Path) -> tuple[str, str]:
    """Damage one file of one loader, run the loader, restore the file; (loader, verdict)."""
    loader = ("table", "hardware", "profile", "deck", "session", "enrollment", "serial")[index % 7]
    if loader == "serial":
        line = encode(Scan(seq=rng.randrange(65536), port=rng.randrange(16), uids=("04FD5DB0E8DF1D",)))
        body = line[1:line.rfind(b"*")].decode()
        choice = rng.randrange(3)
        if choice == 0:  # short card IDs, with separators to pass the length check
            uid = rng.choice(["1A:2B:3C", "1A2B3C", "1A 2B 3C", "12-34-56", "::::::::", "0x1A2B3C"])
            body = re.sub(r"[0-9A-F]{14}", uid, body)
            data = b"$" + body.encode() + b"*" + checksum(body.encode()).encode() + b"\n"
        else:
            data = mutate(line.decode(), rng, json_like=True)
        return loader, _check(loader, lambda: decode(data), (ProtocolError,))
    if loader == "session":
        source = rng.choice(SESSIONS)
        target = work / "session.jsonl"
        target.write_bytes(mutate(source.read_text(), rng, json_like=True))
        shutil.copytree(CONFIG / "decks", work / "decks", dirs_exist_ok=True)
        return loader, _check(loader, lambda: list(read_session(target)), (SessionError,))
    path = {"table": config / "table.toml", "hardware": config / "hardware.toml",
            "profile": config / "profiles" / rng.choice(["robert.toml", "wfp.toml", "rpl.toml", "upt.toml",
                                                         "wfp-dealer.toml"]),
            "deck": config / "decks" / "test-red.json", "enrollment": config / "decks" / "test-blue.json"}[loader]
    original = path.read_bytes()
    path.write_bytes(mutate(original.decode(), rng, json_like=path.suffix == ".json"))
    try:
        if loader == "table":
            return loader, _check(loader, lambda: load_table_config(path, with_display=True), (ConfigError,))
        if loader == "hardware":
            return loader, _check(loader, lambda: load_hardware_config(path), (ConfigError,))
        if loader == "profile":
            return loader, _check(loader, lambda: load_profiles(path.parent), (ConfigError,))
        if loader == "deck":
            return loader, _check(loader, lambda: load_deck(path), (DeckFileError,))
        return loader, _check(loader, lambda: Enrollment.open(deck="test-blue", back="blue", path=path,
                                                              others=[config / "decks" / "test-red.json"]),
                              (DeckFileError,))
    finally:
        path.write_bytes(original)


def run(files: int, *, seed: int = 12) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        config = _setup_config(Path(tmp))
        work = Path(tmp) / "work"
        work.mkdir()
        return [one_file(i, rng, config, work) for i in range(files)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    outcomes = run(args.files, seed=args.seed)
    tally = Counter((loader, verdict.split(":", 1)[0]) for loader, verdict in outcomes)
    for (loader, verdict), n in sorted(tally.items()):
        print(f"{loader:11} {verdict:14} {n}")
    seen = set()
    for loader, verdict in outcomes:
        if verdict.startswith("traceback") and verdict not in seen:
            seen.add(verdict)
            print(f"--- {loader}\n{verdict}")
    bad = sum(n for (_l, v), n in tally.items() if v in ("traceback", "unclear_error"))
    print(f"{len(outcomes)} bad files: {bad} tracebacks, "
          f"{sum(n for (_l, v), n in tally.items() if v == 'clear_error')} clear errors, "
          f"{sum(n for (_l, v), n in tally.items() if v == 'accepted')} accepted (the damage left a valid file)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
