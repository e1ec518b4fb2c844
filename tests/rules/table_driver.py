"""A test table: drives the real rules core with the events a shoe, antennas and panel would send."""

from __future__ import annotations

from pathlib import Path

from firmware_py.core import (
    Button,
    ButtonName,
    CheckIn,
    Draw,
    Gone,
    Level,
    Race,
    Read,
    Ruling,
    RulingKind,
    Seat,
    SeatStatus,
    Setup,
    Stacks,
    Tick,
)
from firmware_py.core.engine import TableCore
from firmware_py.core.game import GAMES
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck

ROOT = Path(__file__).resolve().parents[2]
PROFILES = load_profiles()
RED = load_deck(ROOT / "config" / "decks" / "test-red.json")
BLUE = load_deck(ROOT / "config" / "decks" / "test-blue.json")
ALL_PROFILES = ("robert", "upt", "rpl", "wfp", "wfp-dealer")
ROBERT_FAMILY = ("robert", "upt", "rpl")
# Cards handed out when a test does not care which: none of them make a pair with the next.
POOL = ("2d", "7c", "Ts", "4h", "9d", "Kc", "3s", "8s", "Jd", "5h", "Ad", "6s", "Qh", "2h", "7d",
        "Tc", "4s", "9h", "Qd", "6h", "2c", "7s", "Th", "9c", "5s", "8d", "Qc", "3h", "Ks", "5c",
        "2s", "7h", "Td", "4c", "9s", "Kh", "3d", "8c", "Js", "Ac", "6c", "Qs", "Jh", "Jc", "As",
        "Kd", "4d", "5d", "Ah", "3c", "6d", "8h")


class Table:
    def __init__(self, profile: str = "robert", seats: tuple[int, ...] = (1, 2, 3, 4), button: int = 1,
                 *, decks: tuple[object, ...] = (RED, BLUE), in_play: str = "test-red",
                 profiles: dict[str, object] | None = None, game: str = "holdem",
                 denominations: tuple[int, ...] = ()) -> None:
        self.core = TableCore(profiles or PROFILES)  # type: ignore[arg-type]
        self.t = 0.0
        self.rulings: list[Ruling] = []
        self.notices: list[str] = []
        self.fed: list[object] = []  # every event fed, in order (a session of the test's table)
        self._uid = {card: uid for uid, card in RED.cards.items()}
        self._blue = {card: uid for uid, card in BLUE.cards.items()}
        self._pool = list(POOL)
        self.reserved: set[str] = set()  # named later by the test: not handed out by default
        self.hole_cards = GAMES[game].hole_cards
        self._feed(Setup(t=0.0, profile=profile, seats=tuple(sorted(seats)), button=button,
                         decks=decks, in_play=in_play, game=game,  # type: ignore[arg-type]
                         denominations=denominations))

    # plumbing
    def _feed(self, event: object) -> list[Ruling]:
        self.fed.append(event)
        outcome = self.core.feed(event)  # type: ignore[arg-type]
        self.rulings.extend(outcome.rulings)
        self.notices.extend(n.message for n in outcome.notices)
        return list(outcome.rulings)

    def tick(self) -> float:
        self.t = round(self.t + 0.5, 3)
        return self.t

    def take(self, card: str | None = None) -> str:
        if card is None:
            card = next(c for c in self._pool if c not in self.reserved)
        if card not in self._pool and not card.startswith("X"):
            raise AssertionError(f"test bug: {card} was already dealt in this test")
        if card in self._pool:
            self._pool.remove(card)
        return card

    def fresh_deck(self) -> None:
        """A new hand with the whole deck again (a session of several hands deals the same cards again)."""
        self._pool = list(POOL)
        self.reserved = set()

    def uid(self, card: str, *, blue: bool = False) -> str:
        return (self._blue if blue else self._uid)[card]

    # the panel
    def press(self, name: str, seat: int | None = None, amount: int | None = None) -> list[Ruling]:
        return self._feed(Button(t=self.tick(), name=ButtonName(name), seat=seat, amount=amount))

    def bet(self, name: str, amount: int | None = None) -> list[Ruling]:
        """An action with an amount keyed (a total for the round), by the seat to act."""
        return self.press(name, amount=amount)

    # chips
    def stacks(self, **chips: int) -> list[Ruling]:
        """Stacks by seat: stacks(s1=1000, s2=300)."""
        pairs = tuple(sorted((int(key[1:]), value) for key, value in chips.items()))
        return self._feed(Stacks(t=self.tick(), stacks=pairs))

    def level(self, small: int, big: int, ante: int = 0, bb_ante: int = 0) -> list[Ruling]:
        return self._feed(Level(t=self.tick(), small=small, big=big, ante=ante, bb_ante=bb_ante))

    def race(self, chip: int, to: int, odd: dict[int, int] | None = None) -> list[Ruling]:
        """A color-up with a chip race: race(25, 100, {1: 3, 4: 1}); no odd: from the counted stacks."""
        return self._feed(Race(t=self.tick(), chip=chip, to=to,
                               odd=tuple(sorted(odd.items())) if odd is not None else None))

    # the shot clock and a hand folded in error
    def clock(self, caller: int | None = None) -> list[Ruling]:
        """The clock called on the player to act, by seat `caller` (None: the dealer)."""
        return self.press("clock", seat=caller)

    def wait(self, seconds: float) -> list[Ruling]:
        """Time passing while a clock runs: a `tick` each whole second, as the daemon posts them."""
        out: list[Ruling] = []
        end = self.t + seconds
        while self.t < end:
            self.t = round(min(end, float(int(self.t) + 1)), 3)
            out += self._feed(Tick(t=self.t))
        return out

    # players checked in by card (checkin.py)
    def draw(self, **players: str) -> list[Ruling]:
        """The director's draw: draw(s1="P1", s2="P2")."""
        pairs = tuple(sorted((int(key[1:]), player) for key, player in players.items()))
        return self._feed(Draw(t=self.tick(), seats=pairs))

    def check_in(self, player: str, seat: int | None = None, *, name: str | None = None,
                 table: str | None = None) -> list[Ruling]:
        """A player card read at `seat` (None: at the shoe), or a check-in at another `table`."""
        return self._feed(CheckIn(t=self.tick(), player=player, name=name or f"Player {player}", seat=seat,
                                  table=table))

    def retrieve(self, seat: int) -> list[Ruling]:
        return self.press("retrieve", seat=seat)

    def act(self, *names: str) -> list[Ruling]:
        out: list[Ruling] = []
        for name in names:
            out += self.press(name)
        return out

    def seat(self, seat: int, status: str) -> list[Ruling]:
        return self._feed(Seat(t=self.tick(), seat=seat, status=SeatStatus(status)))

    # the antennas
    def read(self, antenna: str, card: str, *, blue: bool = False) -> list[Ruling]:
        return self._feed(Read(t=self.tick(), antenna=antenna, uid=self.uid(card, blue=blue)))

    def gone(self, antenna: str, card: str) -> list[Ruling]:
        return self._feed(Gone(t=self.tick(), antenna=antenna, uid=self.uid(card)))

    def shoe(self, card: str | None = None, *, blue: bool = False) -> list[Ruling]:
        return self.read("shoe", self.take(card), blue=blue)

    # dealing
    def new_hand(self) -> list[Ruling]:
        return self.press("new_hand")

    def deal(self, cards: list[str] | None = None, *, count: int | None = None) -> list[Ruling]:
        """Deal hole cards from the shoe: all of them, or the first `count`."""
        n = len(self.core.snapshot().seats)
        total = count if count is not None else self.hole_cards * n
        out: list[Ruling] = []
        for i in range(total):
            out += self.shoe(cards[i] if cards else None)
        return out

    def street(self, cards: list[str] | None = None, *, burns: int = 1, first_position: int = 1,
               count: int | None = None) -> list[Ruling]:
        """Burn and deal a street: `burns` cards out of the shoe, then each board card via shoe and board antenna."""
        out: list[Ruling] = []
        for _ in range(burns):
            out += self.shoe()
        number = count if count is not None else (len(cards) if cards else 1)
        for i in range(number):
            card = self.take(cards[i] if cards else None)
            out += self.read("shoe", card)
            out += self.read(f"board{first_position + i}", card)
        return out

    def flop(self, cards: list[str] | None = None, **kw: object) -> list[Ruling]:
        return self.street(cards, count=None if cards else 3, **kw)  # type: ignore[arg-type]

    def turn(self, card: str | None = None, **kw: object) -> list[Ruling]:
        return self.street([card] if card else None, first_position=4, **kw)  # type: ignore[arg-type]

    def river(self, card: str | None = None, **kw: object) -> list[Ruling]:
        return self.street([card] if card else None, first_position=5, **kw)  # type: ignore[arg-type]

    def clean_preflop(self) -> None:
        """new_hand, the deal, and everyone calling round to the big blind's check."""
        self.new_hand()
        self.deal()
        live = len(self.core.snapshot().seats)
        self.act(*["call"] * (live - 1), "check")


def kinds(rulings: list[Ruling]) -> list[RulingKind]:
    return [r.ruling for r in rulings]


def only(rulings: list[Ruling]) -> Ruling:
    assert len(rulings) == 1, rulings
    return rulings[0]
