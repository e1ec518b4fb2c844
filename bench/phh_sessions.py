"""Public hand histories (PHH) dealt again as table sessions, for the replay benchmark.

Each hand of a PHH file becomes what the table would have recorded had it been dealt here with the
enrolled test deck: the stacks and the blind level, `new_hand`, every hole card out of the shoe in
dealing order, a burn and the board cards (out of the shoe, then onto their board antennas), each
action keyed with its amount, `hand_end`, the board cleared. PHH records no burn cards: each street's
burn is the first card of the deck not otherwise in the hand.

Only what an RFID table can deal is converted: no-limit hold'em, every hole card known, at most ten
players, no ante but a big-blind ante (the WSOP hands': pokerkit's ante of the big blind's position,
untrimmed; the table posts it as a level's `bb_ante`). Each hand starts on its own with the
stacks the PHH gives, so the table's button moves one seat a hand and the PHH players are seated
round it, first to act (the small blind) on the button's left.

    python -m bench.phh_sessions DIR_OR_FILES... --out SESSION.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerkit import HandHistory

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "config" / "decks" / "test-red.json"
# The public hand histories: shared/ beside the repository (or beside a parent of it, for a worktree).
PUBLIC_PHH = Path(os.environ.get("BENCH_PUBLIC_PHH") or next(
    (parent / "shared" / "phh" / "data" for parent in ROOT.parents if (parent / "shared" / "phh" / "data").is_dir()),
    ROOT.parent / "shared" / "phh" / "data"))
STEP_S = 0.4  # seconds between two events of a hand: about a dealer's pace
HAND_GAP_S = 10.0
CARD_ORDER = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]


@dataclass
class Converted:
    """The session lines of the hands converted, and the hands left out with the reason for each."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    hands: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    histories: list[HandHistory] = field(default_factory=list)  # the PHH of each hand converted, in order


def phh_files(paths: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        found += sorted(path.rglob("*.phh")) if path.is_dir() else [path]
    return found


def load_hands(files: Sequence[Path]) -> Iterator[tuple[str, HandHistory]]:
    for path in files:
        with path.open("rb") as handle:
            yield str(path), HandHistory.load(handle)


def why_not(history: HandHistory) -> str | None:
    """Why this hand cannot be dealt on the table, or None."""
    if history.variant != "NT":
        return f"variant {history.variant} (the table deals no-limit hold'em)"
    players = len(history.starting_stacks)
    if not 2 <= players <= 10:
        return f"{players} players"
    antes = list(history.antes)
    if any(antes[:1] + antes[2:]):
        return "antes other than the big blind's (per player or uneven)"
    if antes[1:2] and antes[1] and history.ante_trimming_status:
        return "a big-blind ante pokerkit trims back (ante_trimming_status true)"
    for action in history.actions:
        if action.startswith("d dh") and "?" in action:
            return "hole cards not known"
    return None


def convert(histories: Iterable[tuple[str, HandHistory]], *, deck_file: Path = DECK,
            relative_to: Path | None = None) -> Converted:
    deck = json.loads(deck_file.read_text(encoding="utf-8"))
    uid_of = {card: uid for uid, card in deck["cards"].items() if card[0] != "X"}
    out = Converted()
    seats_max = 0
    hands: list[tuple[str, HandHistory]] = []
    for source, history in histories:
        reason = why_not(history)
        if reason:
            out.skipped.append((source, reason))
            continue
        hands.append((source, history))
        seats_max = max(seats_max, len(history.starting_stacks))
    if not hands:
        return out
    seats = list(range(1, seats_max + 1))
    deck_path = str(deck_file) if relative_to is None else str(Path(_relpath(deck_file, relative_to)))
    out.lines.append({"t": 0.0, "kind": "setup", "profile": "robert", "seats": seats, "button": seats_max,
                      "decks": [deck_path], "in_play": deck["deck"]})
    t = 1.0
    level: tuple[int, int, int] | None = None
    for number, (_source, history) in enumerate(hands):
        players = len(history.starting_stacks)
        if players != seats_max:
            out.skipped.append((_source, f"{players} players at a {seats_max}-seat table"))
            continue
        button = seats[(seats_max - 1 + number) % seats_max]  # the table moves the button one seat a hand
        seat_of = [seats[(seats.index(button) + 1 + i) % seats_max] for i in range(players)]  # p1 = small blind
        blinds = [b for b in history.blinds_or_straddles if b]
        bb_ante = list(history.antes)[1] if len(history.antes) > 1 else 0
        if (blinds[0], blinds[1], bb_ante) != level:
            level = (blinds[0], blinds[1], bb_ante)
            line: dict[str, Any] = {"t": t, "kind": "level", "small": level[0], "big": level[1], "ante": 0}
            if bb_ante:
                line["bb_ante"] = bb_ante
            out.lines.append(line)
            t += STEP_S
        out.lines.append({"t": t, "kind": "stacks",
                          "stacks": {str(seat_of[i]): stack for i, stack in enumerate(history.starting_stacks)}})
        t = _hand(out.lines, history, seat_of, uid_of, t + STEP_S)
        out.hands += 1
        out.histories.append(history)
        t += HAND_GAP_S
    return out


def _relpath(path: Path, start: Path) -> str:
    return os.path.relpath(path, start)


def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _hand(lines: list[dict[str, Any]], history: HandHistory, seat_of: list[int], uid_of: dict[str, str],
          t: float) -> float:
    players = len(seat_of)
    stacks = list(history.starting_stacks)
    blinds = list(history.blinds_or_straddles) + [0] * players
    holes: list[list[str]] = [[] for _ in range(players)]
    board: list[list[str]] = []
    for action in history.actions:
        parts = action.split()
        if parts[:2] == ["d", "dh"]:
            holes[int(parts[2][1:]) - 1] = _cards(parts[3])
        elif parts[:2] == ["d", "db"]:
            board.append(_cards(parts[2]))
    used = {card for hole in holes for card in hole} | {card for street in board for card in street}
    spare = iter(card for card in CARD_ORDER if card not in used)

    def emit(**line: Any) -> None:
        nonlocal t
        lines.append({"t": round(t, 2), **line})
        t += STEP_S

    emit(kind="button", name="new_hand")
    for round_ in range(2):
        for hole in holes:
            emit(kind="read", antenna="shoe", uid=uid_of[hole[round_]])
    # The betting, street by street: chips put in this round, the bet to call, what each has left.
    street = {i: min(blinds[i], stacks[i]) for i in range(players)}
    behind = [stacks[i] - street[i] for i in range(players)]
    current = max(street.values())
    streets_dealt = 0
    for action in history.actions:
        parts = action.split()
        if parts[0] == "d":
            if parts[1] != "db":
                continue
            cards = board[streets_dealt]
            emit(kind="read", antenna="shoe", uid=uid_of[next(spare)])  # the burn
            for card in cards:
                emit(kind="read", antenna="shoe", uid=uid_of[card])
            first = 1 if streets_dealt == 0 else 3 + streets_dealt
            for offset, card in enumerate(cards):
                emit(kind="read", antenna=f"board{first + offset}", uid=uid_of[card])
            streets_dealt += 1
            street = dict.fromkeys(range(players), 0)
            current = 0
            continue
        player, verb = int(parts[0][1:]) - 1, parts[1]
        if verb == "f":
            emit(kind="button", name="fold")
        elif verb == "cc":
            put = min(current - street[player], behind[player])
            emit(kind="button", name="call" if put else "check")
            street[player] += put
            behind[player] -= put
        elif verb == "cbr":
            to = int(parts[2])
            put = to - street[player]
            if put >= behind[player]:
                emit(kind="button", name="allin")
                put = behind[player]
            else:
                emit(kind="button", name="raise" if current else "bet", amount=to)
            street[player] += put
            behind[player] -= put
            current = max(current, street[player])
        # "sm" (show or muck) and anything else: nothing pressed
    emit(kind="button", name="hand_end")
    for index, cards in enumerate(board):
        first = 1 if index == 0 else 3 + index
        for offset, card in enumerate(cards):
            emit(kind="gone", antenna=f"board{first + offset}", uid=uid_of[card])
    return t


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.phh_sessions", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="PHH files or folders of them")
    parser.add_argument("--out", type=Path, required=True, help="the session file to write")
    args = parser.parse_args(argv)
    converted = convert(load_hands(phh_files(args.paths)), relative_to=args.out.resolve().parent)
    args.out.write_text("".join(json.dumps(line) + "\n" for line in converted.lines), encoding="utf-8")
    print(f"{args.out}: {converted.hands} hands, {len(converted.lines)} events; {len(converted.skipped)} left out")
    for source, reason in converted.skipped[:20]:
        print(f"  {source}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
