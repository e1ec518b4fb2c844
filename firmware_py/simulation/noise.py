"""A seeded model of RFID noise that survives the hardware layer's debounce: a transform of an event stream.

The hardware layer turns raw polls into arrivals and departures (`hardware.presence`), so what
reaches the rules core is not raw flicker but its residue: a shoe card read twice as it lingers
at the mouth of the shoe, a board card that drops out of the field long enough to be reported
gone and read again, a card also seen by the neighbouring board antenna, a board read that comes
in after the next event, and a board reader that stops answering for a moment and, on recovery,
reads again the tags still on its antenna. Every choice comes from the `random.Random` passed in.

>>> import random
>>> from firmware_py.core import Read
>>> hand = [Read(t=1.0, antenna="shoe", uid="04AA"), Read(t=1.2, antenna="board1", uid="04AA")]
>>> noisy = NoiseModel(rates={NoiseKind.DOUBLE_READ: 1.0}).apply(hand, rng=random.Random(1))
>>> [(e.antenna, e.uid) for e in noisy.events], dict(noisy.injected)
([('shoe', '04AA'), ('shoe', '04AA'), ('board1', '04AA')], {<NoiseKind.DOUBLE_READ: 'double_read'>: 1})
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from firmware_py.core import BOARD_ANTENNAS, Event, Gone, Read

SHOE = "shoe"
DOUBLE_READ_GAP_S = (0.03, 0.15)  # the second sighting of a lingering card, before the next card comes out
NEIGHBOUR_GAP_S = (0.01, 0.12)
FLICKER_GAP_S = (0.1, 1.0)  # how long the card stays out of the field after it is reported gone
LATE_MAX_S = 1.0  # a late read lands at most this long after the read it should have been
DROPOUT_S = (0.2, 1.5)  # how long a reader is out before it answers again
ORDER_EPSILON_S = 0.001


class NoiseKind(StrEnum):
    """Kinds of sensing noise that pass the hardware layer's debounce and presence logic."""

    DOUBLE_READ = "double_read"  # the shoe reads one card twice
    FLICKER = "flicker"  # a board card is reported gone, then read again (it never moved)
    NEIGHBOUR = "neighbour"  # a board card is also read by the next board antenna
    LATE_READ = "late_read"  # a board read arrives after the event that followed it
    DROPOUT = "dropout"  # a board reader stops for a moment; its reads come when it is back


# Rates of a noisy table, per eligible event (per hand for dropouts): every kind shows up often
# enough in a few hundred hands to be exercised, far more often than a working table shows it.
DEFAULT_RATES: Mapping[NoiseKind, float] = {
    NoiseKind.DOUBLE_READ: 0.05,
    NoiseKind.FLICKER: 0.03,
    NoiseKind.NEIGHBOUR: 0.05,
    NoiseKind.LATE_READ: 0.05,
    NoiseKind.DROPOUT: 0.1,
}


_Entry = tuple[float, float, Event, "NoiseKind | str | None"]
_DROPPED = "dropped"


@dataclass(frozen=True, kw_only=True, slots=True)
class Noisy:
    """The events after noise, in time order, and how many of each kind of noise went in.

    `marks[i]` names the noise that added or moved `events[i]` (None: the event as it was).
    """

    events: tuple[Event, ...]
    injected: Counter[NoiseKind] = field(default_factory=Counter)
    marks: tuple[NoiseKind | None, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class NoiseModel:
    """Noise at `rates` (probability per eligible event; per hand for `DROPOUT`).

    Apply it to one hand at a time: noise never spills past the hand's last event, because the
    dealer gathers the cards before the next shuffle.
    """

    rates: Mapping[NoiseKind, float] = field(default_factory=lambda: dict(DEFAULT_RATES))
    late_max_s: float = LATE_MAX_S
    dropout_s: tuple[float, float] = DROPOUT_S

    def __post_init__(self) -> None:
        for kind, rate in self.rates.items():
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"noise rate for {kind} must be within 0..1, not {rate}")

    def apply(self, events: Sequence[Event], *, rng: random.Random) -> Noisy:
        """The events of one hand with noise added; the input is left as it is."""
        if not events:
            return Noisy(events=())
        end = events[-1].t
        # Each entry: (time, rank, event, noise). The rank keeps the original order among equal times.
        timed: list[_Entry] = [
            (e.t, float(i), e, None) for i, e in enumerate(events)]
        injected: Counter[NoiseKind] = Counter()
        rate = self.rates.get

        def add(t: float, rank: float, event: Event, kind: NoiseKind) -> None:
            timed.append((t, rank, replace(event, t=round(t, 4)), kind))
            injected[kind] += 1

        on_board = _board_spans(events, end)
        for index, event in enumerate(events):
            if not isinstance(event, Read):
                continue
            after = events[index + 1].t if index + 1 < len(events) else end
            if event.antenna == SHOE and rng.random() < rate(NoiseKind.DOUBLE_READ, 0.0):
                gap = min(rng.uniform(*DOUBLE_READ_GAP_S), (after - event.t) / 2)
                add(event.t + gap, index + 0.5, event, NoiseKind.DOUBLE_READ)
            if event.antenna not in BOARD_ANTENNAS:
                continue
            # Noise can only come from a card still on the antenna: until the dealer lifts it.
            lifted = on_board[index]
            if rng.random() < rate(NoiseKind.NEIGHBOUR, 0.0):
                position = BOARD_ANTENNAS.index(event.antenna)
                neighbours = [BOARD_ANTENNAS[p] for p in (position - 1, position + 1) if 0 <= p < len(BOARD_ANTENNAS)]
                gap = min(rng.uniform(*NEIGHBOUR_GAP_S), (min(after, lifted) - event.t) / 2)
                add(event.t + gap, index + 0.4, Read(t=event.t, antenna=rng.choice(neighbours), uid=event.uid),
                    NoiseKind.NEIGHBOUR)
            if rng.random() < rate(NoiseKind.FLICKER, 0.0) and lifted - event.t > 0.5:
                gone_at = rng.uniform(event.t + 0.1, lifted - 0.2)
                back_at = min(gone_at + rng.uniform(*FLICKER_GAP_S), lifted - 0.1)
                add(gone_at, len(events) + gone_at, Gone(t=gone_at, antenna=event.antenna, uid=event.uid),
                    NoiseKind.FLICKER)
                add(back_at, len(events) + back_at, event, NoiseKind.FLICKER)
                injected[NoiseKind.FLICKER] -= 1  # one flicker, two events
            if (index + 1 < len(events) and after - event.t <= self.late_max_s and after < lifted
                    and rng.random() < rate(NoiseKind.LATE_READ, 0.0)):
                # Past the next event, and before the one after it.
                limit = events[index + 2].t if index + 2 < len(events) else after + self.late_max_s
                late = after + min(rng.uniform(0.01, 0.1), (limit - after) / 2)
                self._move(timed, index, late, index + 1.5)
                injected[NoiseKind.LATE_READ] += 1

        if rng.random() < rate(NoiseKind.DROPOUT, 0.0):
            self._dropout(timed, rng, injected, end)

        timed.sort(key=lambda entry: (entry[0], entry[1]))
        out: list[Event] = []
        last = 0.0
        for when, _rank, event, _kind in timed:
            last = max(when, last)  # monotonic, as a recorded session must be
            out.append(event if event.t == last else replace(event, t=round(last, 4)))
        marks = tuple(entry[3] if isinstance(entry[3], NoiseKind) else None for entry in timed)
        return Noisy(events=tuple(out), injected=injected, marks=marks)

    @staticmethod
    def _move(timed: list[_Entry], index: int, t: float, rank: float) -> None:
        for position, (_t, old_rank, event, _kind) in enumerate(timed):
            if old_rank == float(index):
                timed[position] = (t, rank, replace(event, t=round(t, 4)), NoiseKind.LATE_READ)
                return

    def _dropout(self, timed: list[_Entry], rng: random.Random,
                 injected: Counter[NoiseKind], end: float) -> None:
        board = [(t, e) for t, _r, e, _k in timed if isinstance(e, Read) and e.antenna in BOARD_ANTENNAS]
        if not board:
            return
        hit_t, hit = rng.choice(board)
        length = rng.uniform(*self.dropout_s)
        start = hit_t - rng.uniform(0.0, length)
        back = min(start + length, end - 0.05)
        if back <= hit_t:
            return
        during = [i for i, (t, _r, e, _k) in enumerate(timed)
                  if isinstance(e, Read | Gone) and e.antenna == hit.antenna and start <= t < back]
        # A card that came and went while the reader was out was never seen at all.
        uid_of = {i: e.uid for i in during if isinstance(e := timed[i][2], Read | Gone)}
        came = {uid_of[i] for i in during if isinstance(timed[i][2], Read)}
        went = {uid_of[i] for i in during if isinstance(timed[i][2], Gone)}
        unseen = {uid for uid in came & went
                  if max(i for i in during if uid_of[i] == uid and isinstance(timed[i][2], Read))
                  < max(i for i in during if uid_of[i] == uid and isinstance(timed[i][2], Gone))}
        step = 0
        for i in during:
            t, rank, event, _kind = timed[i]
            if uid_of[i] in unseen:
                timed[i] = (t, rank, event, _DROPPED)
                continue
            # Re-read in order on recovery, as the reader layer would on its first poll.
            step += 1
            timed[i] = (back + step * ORDER_EPSILON_S, rank, replace(event, t=round(back, 4)), NoiseKind.DROPOUT)
        timed[:] = [entry for entry in timed if entry[3] is not _DROPPED]
        injected[NoiseKind.DROPOUT] += 1


def _board_spans(events: Sequence[Event], end: float) -> dict[int, float]:
    """For each board read, when the card leaves that antenna (its next `gone`, or the hand's end)."""
    spans: dict[int, float] = {}
    open_reads: dict[tuple[str, str], list[int]] = {}
    for index, event in enumerate(events):
        if event.__class__ is Read and event.antenna in BOARD_ANTENNAS:
            open_reads.setdefault((event.antenna, event.uid), []).append(index)
            spans[index] = end
        elif isinstance(event, Gone):
            for opened in open_reads.pop((event.antenna, event.uid), []):
                spans[opened] = event.t
    return spans
