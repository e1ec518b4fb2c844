"""Damaged journals: bit flips and truncations in the main file and the WAL, a deleted WAL, empty files.

    python bench/journal_damage.py            # 150 cases; prints the tally and any silent loss
    python bench/journal_damage.py --cases 20 # a quick check

Each case is a journal left as a SIGKILL leaves it (events in the main file and in the WAL, the
`-ack` record beside them), then damaged one way. Opening it must either give back every event
intact or refuse with a count of what is missing; `recover` must then copy the intact events
(each equal to the original of that number) into a new journal. A silent loss is an open that
returns fewer or different events. The test suite runs a subset (tests/daemon/test_journal_damage.py).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from _startup import ROOT  # noqa: F401  (the checkout's packages, as a script too)

from firmware_py.core import Button, ButtonName, Read
from firmware_py.daemon.journal import Journal, JournalError, JournalLoss, line_of, recover

KINDS = ("flip_main", "flip_wal", "truncate_main", "truncate_wal", "delete_wal", "empty_main", "empty_wal",
         "flips_wal", "flips_main", "delete_main")
UIDS = ("04FD5DB0E8DF1D", "04A1B2C3D4E5F6", "0411223344556677")


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str
    verdict: str  # intact, refused, silent_loss
    missing: int = 0
    salvaged: int = 0
    detail: str = ""


def make_journal(folder: Path, rng: random.Random, events: int) -> tuple[Path, list[str]]:
    """A journal as a kill leaves it: part checkpointed into the main file, the rest in the WAL."""
    live = folder / "live.sqlite3"
    journal = Journal.open(live)
    lines: list[str] = []
    t = 0.0
    while len(lines) < events:
        batch = []
        for _ in range(rng.randint(1, 12)):
            t += rng.random()
            event = Read(t=t, antenna="shoe", uid=rng.choice(UIDS)) if rng.random() < 0.7 else \
                Button(t=t, name=rng.choice((ButtonName.CHECK, ButtonName.CALL, ButtonName.NEW_HAND)))
            batch.append(event)
        journal.append(batch)
        lines.extend(line_of(e) for e in batch)
        if len(lines) > events // 3 and not journal.meta("checkpointed"):
            journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            journal.set_meta("checkpointed", True)
    killed = folder / "killed.sqlite3"
    for suffix in ("", "-wal", "-ack"):
        shutil.copy(str(live) + suffix, str(killed) + suffix)
    journal.close()
    return killed, lines


def damage(path: Path, kind: str, rng: random.Random) -> None:
    main, wal = path, Path(str(path) + "-wal")
    target = wal if "wal" in kind else main
    data = bytearray(target.read_bytes())
    if kind.startswith("flip"):
        for _ in range(rng.randint(2, 8) if kind.startswith("flips") else 1):
            bit = rng.randrange(len(data) * 8)
            data[bit // 8] ^= 1 << (bit % 8)
        target.write_bytes(bytes(data))
    elif kind.startswith("truncate"):
        target.write_bytes(bytes(data[: rng.randrange(len(data))]))
    elif kind.startswith("empty"):
        target.write_bytes(b"")
    elif kind.startswith("delete"):
        target.unlink()


def run_case(index: int, folder: Path, *, seed: int = 13) -> Outcome:
    rng = random.Random(seed * 1000 + index)
    kind = KINDS[index % len(KINDS)]
    case = folder / f"case{index}"
    case.mkdir()
    path, lines = make_journal(case, rng, rng.randint(40, 700))
    damage(path, kind, rng)
    try:
        with Journal.open(path) as journal:
            got = [row.line for row in journal.rows()]
    except JournalLoss as exc:
        new = case / "recovered.sqlite3"
        salvage = recover(path, new)
        with Journal.open(new) as journal:
            kept = [row.line for row in journal.rows()]
        originals = [lines[seq - 1] for seq in range(1, len(lines) + 1) if seq not in salvage.lost]
        if kept != originals[: len(kept)] or len(kept) != salvage.kept:
            return Outcome(kind, "silent_loss", detail="recover kept events that differ from the originals")
        really_missing = len(lines) - salvage.kept
        if exc.missing < 1 and really_missing:
            return Outcome(kind, "silent_loss", detail=f"refused with 0 missing but {really_missing} are")
        return Outcome(kind, "refused", missing=exc.missing, salvaged=salvage.kept, detail=str(exc)[:160])
    except JournalError as exc:
        return Outcome(kind, "refused_without_count", detail=str(exc)[:200])
    if got == lines:
        return Outcome(kind, "intact")
    return Outcome(kind, "silent_loss", detail=f"opened with {len(got)} of {len(lines)} events")


def run(cases: int, *, seed: int = 13) -> list[Outcome]:
    with tempfile.TemporaryDirectory() as tmp:
        return [run_case(i, Path(tmp), seed=seed) for i in range(cases)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    outcomes = run(args.cases, seed=args.seed)
    tally = Counter(o.verdict for o in outcomes)
    by_kind = Counter((o.kind, o.verdict) for o in outcomes)
    for (kind, verdict), n in sorted(by_kind.items()):
        print(f"{kind:14} {verdict:22} {n}")
    for o in outcomes:
        if o.verdict not in ("intact", "refused"):
            print(f"!! {o.kind}: {o.verdict}: {o.detail}")
    missing = sum(o.missing for o in outcomes)
    print(f"{len(outcomes)} damaged journals: {tally['intact']} intact, {tally['refused']} refused with a count "
          f"({missing} events named missing), {tally['silent_loss']} silent losses, "
          f"{tally['refused_without_count']} refused without a count")
    return 0 if tally["silent_loss"] == 0 and tally["refused_without_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
