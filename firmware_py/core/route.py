"""Each event to the handler of its concept: the one module above the handlers (engine.py calls it).

The handlers (flow.py, shoe.py, streets.py, betting.py) never call each other: where one event
concerns two of them (a player's press while the board is still being dealt, a card seen by an
antenna), the routing here decides which handler takes it, in order.
"""

from __future__ import annotations

from firmware_py.core import betting, checkin, flow, racing, retrieval, shoe, shotclock, streets, transitions
from firmware_py.core import deal as dealing
from firmware_py.core.cards import is_unknown
from firmware_py.core.events import (
    BOARD_ANTENNAS,
    BOXED,
    BURN,
    CLOCK,
    CONFIRM,
    EXPOSED,
    EXTEND,
    HAND_END,
    MISDEAL,
    NEW_HAND,
    PLAYER_ACTIONS,
    RAISE,
    RETRIEVE,
    ROUND_DONE,
    SHOE,
    Button,
    ButtonName,
    CheckIn,
    Draw,
    Event,
    Gone,
    Level,
    Name,
    Race,
    Read,
    Seat,
    Setup,
    Stacks,
    Tick,
)
from firmware_py.core.hand import Hand
from firmware_py.core.phase import BETTING, BOARD, DEALING, HAND_OVER, NO_HAND
from firmware_py.core.rulings import NoticeKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import VOID, Cause, RuleKey


def apply(table: TableState, event: Event) -> None:
    """One event, after the setup, to its handler (a street's burns are judged first, once its cards settled).
    A card read and a press go straight to `read` and `press` (engine.py calls those two itself), which
    judge the burns and ask about the rare states for their own type."""
    if type(event) is Read:
        read(table, event)
        return
    if type(event) is Button:
        press(table, event)
        return
    hand = table.hand
    if hand is not None and hand.board.settle is not None and type(event) is not Gone:
        streets.judge_burns(table, hand, hand.board.settle)
    if (table.profile is None or table.race is not None) and _rare(table, event):
        return
    if type(event) is Setup:
        flow.setup(table, event)
    elif type(event) is Gone:
        streets.gone(table, event)
    elif type(event) is Stacks or type(event) is Level:
        betting.chip_event(table, event)
        if type(event) is Level:
            shotclock.level(table, event)
    elif type(event) is Seat:
        flow.seat_change(table, event)
    elif type(event) is Name:
        flow.name(table, event)
    elif type(event) is Race:
        color_up(table, event)
    elif type(event) is Tick:
        tick(table)
    elif type(event) is CheckIn:
        checkin.check_in(table, event)
    elif type(event) is Draw:
        checkin.draw(table, event)
    else:
        raise TypeError(f"not a table event: {event!r}")


def _rare(table: TableState, event: Event) -> bool:
    """Before the setup, or in a chip race: whether the event was taken here (True) or goes on to its handler."""
    if type(event) is Setup:
        flow.setup(table, event)
        return True
    if table.profile is None:
        table.refuse("no setup yet: the session must start with a setup line")
        return True
    return (type(event) is Read or type(event) is Button) and racing.takes(table, event)  # racing.py


def read(table: TableState, event: Read) -> None:
    """A tag seen by an antenna: the shoe deals it, a board antenna places it, a seat antenna checks its seat."""
    uid, antenna = event.uid, event.antenna
    hand = table.hand
    if hand is not None and hand.board.settle is not None and antenna == SHOE:  # (not a board or seat antenna's)
        streets.judge_burns(table, hand, hand.board.settle)
        hand = table.hand
    if table.profile is None or table.race is not None:
        if _rare(table, event):
            return
        hand = table.hand  # (as the chip race left it)
    info = table.cards.get(uid)
    if info is None or (is_unknown(info.card) and antenna == SHOE and hand is not None and uid not in hand.where):
        shoe.unknown_tag(table, event)
        return
    if hand is None or hand.phase in HAND_OVER:
        return  # cards gathered, mucked or shown between hands
    if info.back != table.back:
        transitions.void(table, hand, RuleKey.FOREIGN_CARD, Cause.FOREIGN_CARD, uid=uid, fill={"back": info.back})
        return
    card, identity = info.card, hand.identity
    known = identity.get(card)
    if known is not None and known != uid:
        transitions.void(table, hand, RuleKey.DUPLICATE_CARD, Cause.DUPLICATE_CARD, uid=uid)
        return
    identity[card] = uid
    where = hand.where.get(uid)
    if antenna == SHOE:
        # A card out of play (a premature or redealt board card) comes out again only after
        # it was mixed back into the stub; any other card already out is a double read.
        # The card just drawn cannot come out again at once: that is the reader seeing it twice.
        if (where is None or where is VOID) and uid != hand.board.last_drawn:
            dealing.draw(table, hand, uid, card, where)
    elif antenna in BOARD_ANTENNAS:
        streets.board_read(table, hand, uid, where, position=int(antenna[5:]))
    elif antenna == BURN:
        if where is None or where == VOID:
            dealing.draw(table, hand, uid, card, where)
    elif antenna.startswith("seat"):
        shoe.seat_read(table, hand, int(antenna[4:]), uid, where)


def press(table: TableState, event: Button) -> None:
    """A press on the dealer's panel, to the handler of what it is about (`apply`'s first steps written out,
    as for `read`)."""
    name, hand = event.name, table.hand
    if hand is not None and hand.board.settle is not None:
        streets.judge_burns(table, hand, hand.board.settle)
        hand = table.hand
    if table.profile is None or table.race is not None:
        if _rare(table, event):
            return
        hand = table.hand  # (as the chip race left it)
    if name in PLAYER_ACTIONS and hand is not None and hand.phase not in NO_HAND:  # the common press first
        if hand.clock is not None and _clocked(table, hand, name, event.seat, event.amount):
            return
        if hand.phase is BETTING:  # (the commonest: to the betting round, as `action` would send it)
            _in_the_round(table, hand, name, event.seat, event.amount)
        else:
            action(table, hand, name, event.seat, event.amount)
    elif name is NEW_HAND:
        flow.new_hand(table)
    elif name is HAND_END:
        flow.hand_end(table)
    elif name is CONFIRM:
        flow.confirm(table, event.ruling)
    elif hand is None or hand.phase in NO_HAND:
        table.refuse(f"{name} pressed with no hand in progress")
    elif name is ROUND_DONE:
        flow.round_done(table, hand)
    elif name is EXPOSED:
        shoe.exposed_button(table, hand)
    elif name is BOXED:
        shoe.boxed_button(table, hand)
    elif name is MISDEAL:
        flow.misdeal_called(table, hand)
    elif name is CLOCK:
        shotclock.call(table, hand, event.seat)
    elif name is RETRIEVE:
        retrieval.retrieve(table, hand, event.seat)
    elif name is EXTEND:
        shotclock.extend(table, hand, event.seat)


def _clocked(table: TableState, hand: Hand, name: ButtonName, seat: int | None, amount: int | None) -> bool:
    """A press while a shot clock runs: True when the clock took it (time had run out on the seat, whose hand is
    then ruled as the profile says; or "raise" said with no amount, which does not stop the clock)."""
    if shotclock.expired(table, hand, seat):
        table.notice(NoticeKind.IGNORED, f"{name}: time had run out on seat {hand.clock.seat if hand.clock else seat}"
                     " before the press")
        tick(table)
        return True
    clock = hand.clock
    if (name is RAISE and amount is None and clock is not None and seat in (None, clock.seat)
            and hand.phase is BETTING):
        return shotclock.said_raise(table, hand)
    return False


def follow(table: TableState) -> None:
    """After each event (engine.py), with a house's action clock: the clock on the decision now due."""
    shotclock.follow(table)


def seats_checked(table: TableState) -> None:
    """After each event, with a director's draw: a deal just complete is judged seat by seat (once a hand), and with
    the book's dead_at_turn, a turn that reaches a seat whose player is not at it (checkin.py)."""
    hand = table.hand
    if hand is None or hand.phase is not BETTING:
        return
    if table.judged != hand.number:
        checkin.judge_deal(table, hand)
    elif table.rule(RuleKey.ABSENT).procedure == checkin.AT_TURN:
        checkin.at_turn(table, hand)


def tick(table: TableState) -> None:
    """A `tick`: the shot clock's warnings, count and expiry; an expiry that is an action goes to the betting."""
    hand = table.hand
    if hand is None or hand.clock is None:
        return
    action = shotclock.tick(table, hand)
    if action is not None and hand.phase is BETTING:
        name, amount = action
        betting.action(table, hand, name, None, amount or None)


def action(table: TableState, hand: Hand, name: ButtonName, seat: int | None, amount: int | None) -> None:
    """A player's action: in the deal it may complete the deal (or misdeal); while the board is dealt, the
    street is taken as complete; then the betting round takes it."""
    phase = hand.phase
    if phase is not BETTING:  # (one test for the common press)
        if phase is DEALING and not shoe.deal_interrupted(table, hand):
            return
        if phase is BOARD:
            table.notice(NoticeKind.IGNORED, f"{name} pressed while the {hand.street} was still being dealt")
            street_deal = hand.board.deal
            if street_deal is not None:
                streets.complete_street(table, hand, street_deal)
        if hand.phase is not BETTING:
            table.refuse(f"{name} pressed with no betting round open")
            return
    _in_the_round(table, hand, name, seat, amount)


def _in_the_round(table: TableState, hand: Hand, name: ButtonName, seat: int | None, amount: int | None) -> None:
    """A player's press to the betting round, and its verdict when a ruling refused it: a press that took no
    action, held none and made no hand dead, but drew a ruling (a raise the betting was not reopened to, a
    bet over the pot limit, a raise past the cap, a refusal the book names), is refused with that ruling's
    words; the ruling is told as well."""
    round_ = hand.betting
    before = len(round_.taken), len(round_.declared), len(round_.dead)
    betting.action(table, hand, name, seat, amount)
    if table.out_rulings and table.out_refused is None and before == (
            len(round_.taken), len(round_.declared), len(round_.dead)):
        ruled = table.out_rulings[-1]
        table.out_refused = f"{name}: {ruled.remedy} ({ruled.rule})"


def color_up(table: TableState, event: Race) -> None:
    """A `race` event: a chip race is held between hands (racing.py deals it, race.py rules it)."""
    if table.hand is not None and table.hand.phase not in HAND_OVER:
        table.refuse("race: a chip race is held between hands; finish the hand first: not taken")
        return
    racing.start(table, event)
