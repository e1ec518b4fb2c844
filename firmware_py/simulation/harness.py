"""A reliability harness: the seeded dealer and noise models play hands through the rules core, and score it.

For each profile it plays clean hands and hands with one rulebook error, mixed in a seeded order,
at tables of several sizes, every hand through the noise model. It counts:

- false rulings: a clean hand that drew any ruling but the showdown, or whose showdown differs from
  the one the same hand gets without noise;
- irregularities ruled right: an error hand whose rulings (showdown aside) are all of the kind
  `expected_ruling(profile, error)` says, and at least one.

After a scoring failure the table is set up again, so one failure cannot cascade into the next
hands. Failing hands are kept (profile, seats, button, events) so each can be replayed alone.

    python -m firmware_py.simulation.harness --clean 10000 --errors 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from firmware_py.core import Deck, Event, Level, Ruling, RulingKind, Setup, Stacks
from firmware_py.core.engine import TableCore
from firmware_py.core.game import DEFAULT as DEFAULT_GAME
from firmware_py.core.game import GAMES
from firmware_py.core.profiles import Profile
from firmware_py.profiles import load_profiles
from firmware_py.session import event_to_json, load_deck
from firmware_py.simulation.dealer import DealerBot, DealerMistake, expected_ruling
from firmware_py.simulation.noise import DEFAULT_RATES, NoiseKind, NoiseModel

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "config" / "decks"
PROFILES = ("robert", "upt", "rpl", "wfp", "wfp-dealer")
TABLE_SEATS: tuple[tuple[int, ...], ...] = ((1, 2), (1, 3, 5, 7), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6, 7, 8, 9))
KEEP_FAILURES = 5


@dataclass(frozen=True, kw_only=True)
class Failure:
    """One hand the core got wrong, with all it takes to replay it on a fresh core."""

    profile: str
    seats: tuple[int, ...]
    button: int
    error: DealerMistake | None
    expected: RulingKind | None
    got: tuple[str, ...]
    noise: tuple[str, ...]
    events: tuple[Event, ...]
    marks: tuple[NoiseKind | None, ...]  # the noise behind each event (None: the dealer's own)
    quiet: tuple[Event, ...]  # the hand without noise
    game: str = DEFAULT_GAME

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "game": self.game, "seats": list(self.seats), "button": self.button,
                "error": self.error, "expected": self.expected, "got": list(self.got), "noise": list(self.noise),
                "events": [{**event_to_json(e), **({"noise": str(m)} if m else {})}
                           for e, m in zip(self.events, self.marks, strict=True)]}


@dataclass(kw_only=True)
class ProfileScore:
    """The harness's counts for one profile."""

    profile: str
    clean_hands: int = 0
    false_rulings: int = 0
    error_hands: int = 0
    ruled_right: int = 0
    crashes: int = 0  # hands (clean or not) where the core raised instead of ruling
    by_error: dict[str, list[int]] = field(default_factory=dict)  # error -> [right, played]
    noise: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)

    @property
    def right_share(self) -> float:
        return self.ruled_right / self.error_hands if self.error_hands else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "clean_hands": self.clean_hands, "false_rulings": self.false_rulings,
                "error_hands": self.error_hands, "ruled_right": self.ruled_right, "crashes": self.crashes,
                "by_error": {k: {"right": v[0], "played": v[1]} for k, v in sorted(self.by_error.items())},
                "noise": dict(sorted(self.noise.items())), "failures": [f.to_json() for f in self.failures]}


def _schedule(rng: random.Random, clean: int, errors: int) -> list[bool]:
    """Which hands carry a dealer error: exactly `errors` of them, spread at random."""
    plan = [False] * clean + [True] * errors
    rng.shuffle(plan)
    return plan


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


@dataclass(frozen=True, kw_only=True, slots=True)
class Played:
    """What the core made of one hand: its rulings, and the exception if it crashed."""

    rulings: tuple[Ruling, ...]
    crash: str | None = None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(str(r.ruling) for r in self.rulings) + ((f"CRASH {self.crash}",) if self.crash else ())


def _outcome(core: TableCore, events: Iterable[Event]) -> Played:
    rulings: list[Ruling] = []
    try:
        for event in events:
            rulings.extend(core.feed(event).rulings)
    except Exception as exc:  # a crash is a finding to score and report, not a reason to stop
        return Played(rulings=tuple(rulings), crash=f"{type(exc).__name__}: {exc}")
    return Played(rulings=tuple(rulings))


def play_profile(profile_name: str, *, clean: int, errors: int, seed: int = 0,
                 noise: NoiseModel | None = None, profiles: dict[str, Profile] | None = None,
                 tables: Sequence[tuple[int, ...]] = TABLE_SEATS, stack: int = 0,
                 game: str = DEFAULT_GAME) -> ProfileScore:
    """Play `clean` clean hands and `errors` error hands of one profile (of `game`); score the core.

    With `stack` the bot bets amounts from stacks of that many chips (all-ins and board run-outs).
    """
    profiles = profiles or load_profiles()
    profile = profiles[profile_name]
    red, blue = load_deck(DECKS / "test-red.json"), load_deck(DECKS / "test-blue.json")
    noise = noise if noise is not None else NoiseModel()
    score = ProfileScore(profile=profile_name)
    tables = [seats for seats in tables if len(seats) <= GAMES[game].max_players]  # five-card PLO: 8 at most
    for table, (n_clean, n_errors) in enumerate(zip(_split(clean, len(tables)), _split(errors, len(tables)),
                                                    strict=True)):
        seats = tables[table]
        rng = random.Random(f"{seed}:{profile_name}:{len(seats)}" + (f":{game}" if game != DEFAULT_GAME else ""))
        _play_table(score, profile=profile, profiles=profiles, decks=(red, blue), seats=seats, rng=rng,
                    plan=_schedule(rng, n_clean, n_errors), noise=noise, stack=stack, game=game)
    return score


def _setup(profiles: dict[str, Profile], profile: str, seats: tuple[int, ...], button: int,
           decks: tuple[Deck, Deck], *, game: str = DEFAULT_GAME) -> tuple[TableCore, TableCore]:
    setup = Setup(t=0.0, profile=profile, seats=seats, button=button, decks=decks, in_play=decks[0].name,
                  game=game)
    cores = TableCore(profiles), TableCore(profiles)
    for core in cores:
        core.feed(setup)
    return cores


def _play_table(score: ProfileScore, *, profile: Profile, profiles: dict[str, Profile], decks: tuple[Deck, Deck],
                seats: tuple[int, ...], rng: random.Random, plan: list[bool], noise: NoiseModel,
                stack: int = 0, game: str = DEFAULT_GAME) -> None:
    bot = DealerBot(rng=random.Random(rng.random()), deck=decks[0], profile=profile, seats=seats,
                    button=seats[0], other_deck=decks[1], stack=stack, game=GAMES[game])
    noise_rng = random.Random(rng.random())
    noisy_core, quiet_core = _setup(profiles, profile.name, seats, bot.button, decks, game=game)
    t = 1.0
    for with_error in plan:
        button = bot.button
        bot.error_rate = 1.0 if with_error else 0.0
        hand = bot.hand(t=t)
        t = hand.t_end + 5.0
        noisy = noise.apply(hand.events, rng=noise_rng)
        score.noise.update(str(kind) for kind in noisy.injected.elements())
        got = _outcome(noisy_core, noisy.events)
        quiet = _outcome(quiet_core, hand.events)
        expected = expected_ruling(profile.name, hand.error) if hand.error is not None else None
        ok = ruled_right(got, quiet, expected)
        if hand.error is None:
            score.clean_hands += 1
            if not ok:
                score.false_rulings += 1
        else:
            score.error_hands += 1
            tally = score.by_error.setdefault(str(hand.error), [0, 0])
            tally[1] += 1
            if ok:
                score.ruled_right += 1
                tally[0] += 1
        if got.crash:
            score.crashes += 1
        if not ok:
            if len(score.failures) < KEEP_FAILURES:
                score.failures.append(Failure(
                    profile=profile.name, seats=seats, button=button, error=hand.error, expected=expected,
                    got=got.kinds, noise=tuple(str(k) for k in noisy.injected.elements()),
                    events=noisy.events, marks=noisy.marks, quiet=hand.events, game=game))
            # Start the table afresh, so one failure does not make the next hands fail too.
            noisy_core, quiet_core = _setup(profiles, profile.name, seats, bot.button, decks, game=game)
            _carry_chips(bot, (noisy_core, quiet_core))


def _carry_chips(bot: DealerBot, cores: Sequence[TableCore]) -> None:
    """Fresh cores learn the level and stacks the bot's table had (the floor would enter them again)."""
    seen = bot._core
    if seen is None or seen.level is None:
        return
    level = seen.level
    stacks = tuple((v.seat, v.stack) for v in seen.snapshot().seats if v.stack is not None)
    for core in cores:
        core.feed(Level(t=0.0, small=level.small, big=level.big, ante=level.ante, bb_ante=level.bb_ante))
        core.feed(Stacks(t=0.0, stacks=stacks))


def ruled_right(got: Played, quiet: Played, expected: RulingKind | None) -> bool:
    """Whether a hand's rulings are right: none but the showdown of the noise-free hand when the hand
    is clean, else only (and at least one) the kind the dealer's error calls for. A crash is wrong."""
    if got.crash:
        return False
    kinds = [r.ruling for r in got.rulings if r.ruling is not RulingKind.SHOWDOWN]
    if expected is None:
        shown = [(r.winners, r.hand) for r in got.rulings if r.ruling is RulingKind.SHOWDOWN]
        quiet_shown = [(r.winners, r.hand) for r in quiet.rulings if r.ruling is RulingKind.SHOWDOWN]
        return not kinds and shown == quiet_shown
    return bool(kinds) and all(kind is expected for kind in kinds)


def replay_failure(failure: Failure, events: Sequence[Event] | None = None,
                   profiles: dict[str, Profile] | None = None) -> Played:
    """The rulings a fresh core makes for a failing hand (or other `events`), set up as it was."""
    profiles = profiles or load_profiles()
    red, blue = load_deck(DECKS / "test-red.json"), load_deck(DECKS / "test-blue.json")
    core, _ = _setup(profiles, failure.profile, failure.seats, failure.button, (red, blue), game=failure.game)
    return _outcome(core, failure.events if events is None else events)


def minimise(failure: Failure, profiles: dict[str, Profile] | None = None) -> Failure:
    """The failing hand with as little noise as still makes it fail: the dealer's events stay."""
    profiles = profiles or load_profiles()
    quiet = replay_failure(failure, failure.quiet, profiles)
    pairs = list(zip(failure.events, failure.marks, strict=True))
    for index in range(len(pairs) - 1, -1, -1):
        if pairs[index][1] in (None, NoiseKind.LATE_READ, NoiseKind.DROPOUT):
            continue  # the dealer's own events, or ones the noise only moved
        trial = pairs[:index] + pairs[index + 1:]
        if not ruled_right(replay_failure(failure, [e for e, _ in trial], profiles), quiet, failure.expected):
            pairs = trial
    events = tuple(e for e, _ in pairs)
    got = replay_failure(failure, events, profiles).kinds
    return replace(failure, events=events, marks=tuple(m for _, m in pairs), got=got,
                   noise=tuple(str(m) for _, m in pairs if m is not None))


def _play_one(args: tuple[str, int, int, int, dict[NoiseKind, float], int, str]) -> ProfileScore:
    name, clean, errors, seed, rates, stack, game = args
    return play_profile(name, clean=clean, errors=errors, seed=seed, noise=NoiseModel(rates=rates), stack=stack,
                        game=game)


def run(*, clean: int, errors: int, seed: int = 0, profiles: Sequence[str] = PROFILES,
        rates: dict[NoiseKind, float] | None = None, jobs: int = 1, stack: int = 0,
        game: str = DEFAULT_GAME) -> list[ProfileScore]:
    """Score every profile (dealing `game`); `jobs` > 1 plays profiles in parallel processes (same results)."""
    rates = dict(DEFAULT_RATES if rates is None else rates)
    work = [(name, clean, errors, seed, rates, stack, game) for name in profiles]
    if jobs <= 1:
        return [_play_one(item) for item in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_play_one, work))


def format_table(scores: Sequence[ProfileScore]) -> str:
    """The scores as a plain-text table, one row per profile."""
    lines = [f"{'profile':<11} {'clean hands':>11} {'false rulings':>13} {'error hands':>11} {'ruled right':>15}"
             f" {'crashes':>7}", "-" * 73]
    for s in scores:
        lines.append(f"{s.profile:<11} {s.clean_hands:>11} {s.false_rulings:>13} {s.error_hands:>11} "
                     f"{s.ruled_right:>6} ({s.right_share:6.1%}) {s.crashes:>7}")
    noise: Counter[str] = Counter()
    for s in scores:
        noise.update(s.noise)
    lines.append("noise injected: " + ", ".join(f"{k} {v}" for k, v in sorted(noise.items())))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.simulation.harness",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--clean", type=int, default=10_000, help="clean hands per profile (default 10000)")
    parser.add_argument("--errors", type=int, default=1_000, help="hands with a dealer error per profile (1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="profiles played in parallel processes")
    parser.add_argument("--no-noise", action="store_true", help="play without sensing noise")
    parser.add_argument("--json", type=Path, help="write the scores (and failing hands) here")
    parser.add_argument("--stack", type=int, default=0, help="the bot bets amounts from stacks of this many "
                        "chips (all-ins, side pots, board run-outs with no betting); default 0: no amounts")
    parser.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME, help="the game dealt (default holdem)")
    args = parser.parse_args(argv)
    rates = dict.fromkeys(NoiseKind, 0.0) if args.no_noise else None
    scores = run(clean=args.clean, errors=args.errors, seed=args.seed, rates=rates, jobs=args.jobs,
                 stack=args.stack, game=args.game)
    print(format_table(scores))
    if args.json:
        args.json.write_text(json.dumps([s.to_json() for s in scores], indent=1) + "\n", encoding="utf-8")
    failed = any(s.false_rulings or s.ruled_right < s.error_hands for s in scores)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
