"""The PHH export checked against pokerkit: every exported hand replays and pays the table's winners.

The dealer bot plays hands of every profile (with its rulebook errors at `error_rate`) through the
rules core; the session is exported to PHH as `export` does; the PHH text is read back with
pokerkit, each hand is played to its end, and the seats pokerkit pays are compared with the
winners the table ruled (the showdown ruling, or the last live hand), taken from a separate core.

With `--stack N` the bot bets amounts from stacks of N chips (blinds 50/100; chips of 25, 100, 500, 1,000
and 5,000 in play, every pot split in 25s) and the check is the stacks: pokerkit's play of each hand read
back from the file (its pots split in the file's `_smallest_chip`) must end with exactly the stacks the
table's core ended the hand with (every pot and side pot, every odd chip).

A mismatch is a hand whose file says something else than the table: the check fails on any. A
hand the exporter refused (with its reason) is counted apart: it is not in the file, so it cannot
mislead, but every one is listed.

    python -m firmware_py.simulation.export_check --hands 500
    python -m firmware_py.simulation.export_check --hands 100 --stack 10000
    python -m firmware_py.simulation.export_check --hands 40 --stack 10000 --game omaha
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from firmware_py.core import Event, Phase, RulingKind, Setup
from firmware_py.core.engine import TableCore
from firmware_py.core.game import DEFAULT as DEFAULT_GAME
from firmware_py.core.game import GAMES
from firmware_py.core.profiles import Profile
from firmware_py.daemon.export import NotExportable, hand_history, hand_records, load_history
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.dealer import CHIP, DealerBot
from firmware_py.simulation.harness import DECKS, PROFILES, TABLE_SEATS

CHIP_SET = (CHIP, 100, 500, 1000, 5000)  # the chips in play of a run with amounts (`--stack`): splits in 25s
SHORT_STACKS = 0.3  # the BB-ante run: the share of hands before which the bot cuts one seat below the forced bets


@dataclass(kw_only=True)
class CheckResult:
    hands: int = 0  # hands dealt
    not_played: int = 0  # misdeals and void hands: never played, not exported
    exported: int = 0
    replayed_right: int = 0  # exported, replayed by pokerkit from the file, the table's winners paid
    mismatches: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)  # reason (seat numbers dropped) -> hands

    def add(self, other: CheckResult) -> None:
        self.hands += other.hands
        self.not_played += other.not_played
        self.exported += other.exported
        self.replayed_right += other.replayed_right
        self.mismatches.extend(other.mismatches)
        self.refused.update(other.refused)


def table_winners(events: Sequence[Event], profiles: dict[str, Profile]) -> dict[int, tuple[int, ...]]:
    """Each hand's winners as the core ruled them: the showdown ruling, or the one hand left live."""
    core = TableCore(profiles)
    winners: dict[int, tuple[int, ...]] = {}
    for event in events:
        outcome = core.feed(event)
        snap = core.snapshot()
        for ruling in outcome.rulings:
            if ruling.ruling is RulingKind.SHOWDOWN and ruling.winners:
                winners[snap.hand_number] = tuple(sorted(ruling.winners))
        if snap.phase is Phase.SHOWDOWN and snap.hand_number not in winners:
            live = [v.seat for v in snap.seats if v.state in ("active", "allin")]
            if len(live) == 1:
                winners[snap.hand_number] = (live[0],)
    return winners


def table_stacks(events: Sequence[Event], profiles: dict[str, Profile]) -> dict[int, dict[int, int]]:
    """Each hand's stacks once its pots were pushed, as the core counted them (hands with chips only)."""
    core = TableCore(profiles)
    stacks: dict[int, dict[int, int]] = {}
    for event in events:
        core.feed(event)
        chips = core.hand_chips
        if chips is not None and chips.settled and chips.awarded:
            stacks[core.hand_number] = chips.final_stacks()
    return stacks


def session_events(profile: str, seats: tuple[int, ...], hands: int, *, seed: int, error_rate: float,
                   profiles: dict[str, Profile], stack: int = 0, bb_ante: int = 0,
                   short_stacks: float = 0.0, game: str = DEFAULT_GAME) -> list[Event]:
    """The bot's session; with `bb_ante` at 50/100 with that big-blind ante, with `short_stacks` that share
    of hands starting with one seat cut below the forced bets (short blinds and antes); `game` dealt."""
    red, blue = load_deck(DECKS / "test-red.json"), load_deck(DECKS / "test-blue.json")
    variant = f":bba{bb_ante}:short{short_stacks}" if bb_ante or short_stacks else ""
    variant += f":{game}" if game != DEFAULT_GAME else ""
    rng = random.Random(f"{seed}:{profile}:{len(seats)}{variant}")
    chips = CHIP_SET if stack else ()  # with amounts: chips of 25 and up, every split in 25s (Ties)
    bot = DealerBot(rng=rng, deck=red, profile=profiles[profile], seats=seats, button=seats[0],
                    error_rate=error_rate, other_deck=blue, stack=stack, bb_ante=bb_ante, short_stacks=short_stacks,
                    game=GAMES[game], denominations=chips)
    events: list[Event] = [Setup(t=0.0, profile=profile, seats=seats, button=seats[0], decks=(red, blue),
                                 in_play=red.name, game=game, denominations=chips)]
    for hand in bot.session(hands, t=1.0):
        events.extend(hand.events)
    return events


def check_events(events: Sequence[Event], profiles: dict[str, Profile]) -> CheckResult:
    """Export the session's hands to PHH text, read it back with pokerkit and compare the payouts."""
    from pokerkit import ChipsPushing, HandHistory  # noqa: PLC0415

    result = CheckResult()
    truth = table_winners(events, profiles)
    counted = table_stacks(events, profiles)
    for record in hand_records(events, profiles):
        result.hands += 1
        if not record.played:
            result.not_played += 1
            continue
        try:
            history = hand_history(record)
        except NotExportable as exc:
            if str(exc).startswith("stacks differ"):  # the exporter caught it, but it is a mismatch all the same
                result.mismatches.append(f"hand {record.number}: {exc}")
                continue
            result.refused[" ".join(w if not w.strip("(),'").isdigit() else "N" for w in str(exc).split())] += 1
            continue
        result.exported += 1
        text = history.dumps()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(load_history(text))  # pots split in the file's smallest chip (`_smallest_chip`)
        final = states[-1]
        seats = list(HandHistory.loads(text).seats or [])
        if record.stacks:  # chips: the stacks pokerkit ends with must be the table's, seat by seat
            want_stacks = [counted.get(record.number, {}).get(seat) for seat in seats]
            if final.status or list(final.stacks) != want_stacks:
                result.mismatches.append(f"hand {record.number}: the table's stacks {want_stacks}, the PHH "
                                         f"file ends with {list(final.stacks)} (seats {seats})")
            else:
                result.replayed_right += 1
            continue
        paid = sorted({seats[i] for op in final.operations if isinstance(op, ChipsPushing)
                       for i, amount in enumerate(op.amounts) if amount > 0})
        want = list(truth.get(record.number, ()))
        if final.status or paid != want:
            result.mismatches.append(f"hand {record.number}: the table ruled {want}, the PHH file pays {paid}"
                                     + (" (the hand does not end)" if final.status else ""))
        else:
            result.replayed_right += 1
    return result


def run(hands: int, *, seed: int = 0, error_rate: float = 0.3, profile_names: Sequence[str] = PROFILES,
        tables: Sequence[tuple[int, ...]] = TABLE_SEATS, stack: int = 0, bb_ante: int = 0,
        short_stacks: float = 0.0, game: str = DEFAULT_GAME) -> CheckResult:
    """`hands` hands per profile, spread over the table sizes."""
    profiles = load_profiles()
    total = CheckResult()
    for name in profile_names:
        fits = [seats for seats in tables if len(seats) <= GAMES[game].max_players]  # five-card PLO: 8 at most
        for index, seats in enumerate(fits):
            count = hands // len(fits) + (1 if index < hands % len(fits) else 0)
            if count:
                events = session_events(name, seats, count, seed=seed, error_rate=error_rate, profiles=profiles,
                                        stack=stack, bb_ante=bb_ante, short_stacks=short_stacks, game=game)
                total.add(check_events(events, profiles))
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.simulation.export_check",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--hands", type=int, default=100, help="hands per profile (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--error-rate", type=float, default=0.3, help="share of hands with a dealer error")
    parser.add_argument("--stack", type=int, default=0, help="starting stack: the bot bets amounts and the "
                        "check compares final stacks (default 0: nominal amounts, winners compared)")
    parser.add_argument("--bba-hands", type=int, default=None, help="with --stack: hands per profile of a second "
                        "run at 50/100 with a big-blind ante of 100 and short stacks (default: half of --hands)")
    parser.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME, help="the game dealt "
                        "(default holdem; omaha5 has no PHH variant in pokerkit: its hands are refused)")
    args = parser.parse_args(argv)
    print(f"{GAMES[args.game].title}; profiles {', '.join(PROFILES)}; "
          f"tables of {', '.join(str(len(t)) for t in TABLE_SEATS)} seats")
    runs = [("", run(args.hands, seed=args.seed, error_rate=args.error_rate, stack=args.stack, game=args.game))]
    bba_hands = args.hands // 2 if args.bba_hands is None else args.bba_hands
    if args.stack and bba_hands:  # the big-blind ante, short blinds and antes: pokerkit must end with the stacks too
        runs.append((f"big-blind ante 100, a seat cut short before {SHORT_STACKS:.0%} of hands: ",
                     run(bba_hands, seed=args.seed, error_rate=args.error_rate, stack=args.stack, bb_ante=100,
                         short_stacks=SHORT_STACKS, game=args.game)))
    mismatched = 0
    for label, result in runs:
        print(f"{label}hands dealt {result.hands}, misdealt or void {result.not_played}, exported {result.exported}, "
              f"replayed by pokerkit {'ending with the table stacks' if args.stack else 'paying the table winners'} "
              f"{result.replayed_right}, "
              f"mismatches {len(result.mismatches)}, refused {sum(result.refused.values())}")
        for reason, count in result.refused.most_common():
            print(f"  refused x{count}: {reason}")
        for line in result.mismatches[:20]:
            print(f"  MISMATCH {line}")
        mismatched += len(result.mismatches)
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
