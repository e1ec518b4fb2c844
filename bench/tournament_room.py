"""A whole simulated tournament through a real Mosquitto (issue 20's done-when): 5 tables, 45 players, WFP,
from the first hand to one winner; and UPT 3x24 and 8x70, RPL 3x25 beside it. The director (as the
`tournament` command runs it) and the simulated tables (the dealer bot into the rules core) talk only
through the broker; the room's chips are checked after every hand; every move, break, redraw and
elimination is checked against the book by the tests' independent checker (tests/tournament/checker.py).

    python bench/tournament_room.py [--runs 3] [--json bench/results/tournament.json]

Prints each run's hands, wall time and decisions, and the median wall time per configuration.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from _startup import ROOT

from firmware_py.commands.tournament import build
from firmware_py.profiles import load_profiles
from firmware_py.room.room_config import BrokerConfig
from firmware_py.session import load_deck
from firmware_py.simulation.export_check import check_events
from firmware_py.simulation.tournament_sim import simulate_room
from tests.room.services import Mosquitto, ensure_installed
from tests.tournament.checker import check

RUNS = [("wfp", 5, 45, 9), ("upt", 3, 24, 9), ("upt", 8, 70, 9), ("rpl", 3, 25, 10)]


def one(server: Mosquitto, profile: str, tables: int, players: int, *, seats: int, seed: int) -> dict[str, object]:
    args = argparse.Namespace(profile=profile, structure=str(ROOT / "config/tournament/wfp-nightly.toml"),
                              tables=str(tables), players=players, entrants=None, seats=seats, seed=seed,
                              payouts="50,30,20", buy_in=0)
    director = build(args, "bench", sim_clock=True)
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    broker = BrokerConfig(host="127.0.0.1", port=server.port)
    result = simulate_room(director, broker, room="bench", profile=load_profiles()[profile], decks=decks,
                           seed=seed, max_hands=100_000, director_client_id=f"director.b{seed}",
                           tables_client_id=f"tables.b{seed}")
    t = director.tournament
    problems = check(t.log, profile=profile, capacity=seats, entrants=players, starting_tables=tables,
                     break_order=t.break_order)
    profiles = load_profiles()
    exported = replayed = not_played = 0
    mismatches: list[str] = []
    refused: dict[str, int] = {}
    for events in result.sessions:  # every hand exported to PHH, replayed by pokerkit against the table's stacks
        checked = check_events(events, profiles)
        exported, replayed, not_played = (exported + checked.exported, replayed + checked.replayed_right,
                                          not_played + checked.not_played)
        mismatches += checked.mismatches
        for reason, count in checked.refused.items():
            refused[reason] = refused.get(reason, 0) + count
    problems = [*problems, *mismatches]
    kinds: dict[str, int] = {}
    for d in t.log:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    return {"profile": profile, "tables": tables, "players": players, "seed": seed, "hands": result.hands,
            "seconds": round(result.seconds, 3), "winner": result.winner, "chip_checks": result.chip_checks,
            "races": result.races, "simulated_minutes": round(result.sim_minutes, 1), "decisions": kinds,
            "problems": problems, "phh": {"exported": exported, "replayed_right": replayed,
                                          "not_played": not_played, "refused": refused}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each configuration (seeds 0..runs-1)")
    parser.add_argument("--json", default=str(ROOT / "bench/results/tournament.json"))
    args = parser.parse_args(argv)
    reason = ensure_installed("mosquitto", ["mosquitto"])
    if reason:
        print(f"no Mosquitto: {reason}")
        return 1
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as work:
        server = Mosquitto(Path(work) / "mosquitto").start()
        try:
            for profile, tables, players, seats in RUNS:
                for seed in range(args.runs):
                    row = one(server, profile, tables, players, seats=seats, seed=seed)
                    rows.append(row)
                    print(f"{profile} {tables}x{players} seed {seed}: {row['hands']} hands in {row['seconds']} s, "
                          f"winner {row['winner']}, chips checked {row['chip_checks']} times, "
                          f"{len(row['problems'])} problems, PHH {row['phh']}, {row['decisions']}", flush=True)  # type: ignore[arg-type]
        finally:
            server.stop()
    summary = {}
    for profile, tables, players, _ in RUNS:
        mine = [r for r in rows if (r["profile"], r["tables"], r["players"]) == (profile, tables, players)]
        summary[f"{profile} {tables}x{players}"] = {
            "median_seconds": statistics.median(float(r["seconds"]) for r in mine),  # type: ignore[arg-type]
            "median_hands": statistics.median(int(r["hands"]) for r in mine),  # type: ignore[call-overload]
            "all_won": all(r["winner"] for r in mine), "problems": sum(len(r["problems"]) for r in mine)}  # type: ignore[arg-type]
        print(f"{profile} {tables}x{players}: median {summary[f'{profile} {tables}x{players}']}")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({"runs": rows, "summary": summary}, indent=1))
    return 0 if all(s["all_won"] and not s["problems"] for s in summary.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
