"""What the action tracker's page shows: the table's public state (never a hole card), what the seat to act may
do, and the core's verdict on a press in words. Pure functions of the snapshot and the core's outcome."""

from __future__ import annotations

import math
from typing import Any

from firmware_py.core import TableSnapshot, Verdict
from firmware_py.core.engine import Outcome
from firmware_py.core.game import game_named
from firmware_py.core.snapshot import IN_HAND, IN_PLAY, LIVE, Phase, PlayerState

__all__ = ["legal_actions", "merged_verdict", "public_state", "verdict"]


def legal_actions(snapshot: TableSnapshot) -> dict[str, Any] | None:
    """What the seat to act may do, with the limits: check or call, bet or raise from..to, presets."""
    seat, chips = snapshot.to_act, snapshot.chips
    if seat is None or snapshot.phase is not Phase.BETTING:
        return None
    view = snapshot.seat(seat)
    if chips is None or view.stack is None:
        return {"seat": seat, "chips": False}
    stack, bet = view.stack, view.bet or 0
    most = stack + bet  # all in: the seat's total for the round
    to_call = chips.to_call
    level = bet + to_call  # the bet faced
    least = chips.min_raise_to if chips.min_raise_to is not None else most
    may_raise = chips.may_raise and most > level
    pot_after_call = chips.pot + to_call
    # Pot limit and fixed limit: the core's largest bet or raise; all in only within it.
    top = min(most, chips.max_raise_to) if chips.max_raise_to is not None else most
    allin_ok = top == most or most <= level

    def clamp(to: int) -> int:
        return max(least, min(top, to))

    presets = {"min": min(least, most), "half_pot": clamp(level + pot_after_call // 2),
               "pot": clamp(level + pot_after_call)}
    if allin_ok:
        presets["allin"] = most
    return {
        "seat": seat, "chips": True, "to_call": to_call, "stack": stack, "bet": bet,
        "word": "raise" if level > 0 else "bet", "may_raise": may_raise, "min_to": min(least, most),
        "max_to": top, "allin_to": most, "allin_ok": allin_ok,
        "limit": game_named(snapshot.game).title if chips.max_raise_to is not None else None,
        "presets": presets if may_raise else {},
    }


def public_state(snapshot: TableSnapshot, names: dict[int, str]) -> dict[str, Any]:
    """What the operator sees: seats, names, stacks, bets, who acts, the pots, the board. No hole card.
    `names`: the table file's (`[display.seat_names]`); a name typed here (the snapshot's) goes over it."""
    names = {**names, **dict(snapshot.names)}
    chips = snapshot.chips
    between = snapshot.phase not in IN_PLAY
    seats = []
    occupied = {seat for seat, _player in snapshot.checked_in}  # seats where a player's card was read
    for view in snapshot.seats:
        if view.state is PlayerState.EMPTY:
            continue  # a seat left (or never taken): the page offers it to seat a player
        state = str(view.state)
        if view.state is PlayerState.WAITING:
            state = "no chips" if view.stack == 0 else ("seated" if between else "sitting out")
        elif view.state is PlayerState.ALLIN:  # in words, as the venue screen says it
            # All in during the hand, and given chips by the pots: no longer all in.
            state = "active" if snapshot.phase is Phase.SHOWDOWN and view.stack else "all in"
        seats.append({
            "seat": view.seat, "name": names.get(view.seat, ""), "state": state, "stack": view.stack,
            "bet": view.bet, "last_action": view.last_action, "declared": view.declared,
            "button": view.is_button, "small_blind": view.is_small_blind, "big_blind": view.is_big_blind,
            "to_act": view.to_act, "cards": len(view.cards),
            # the director's draw gives this seat a player whose card has not been read here (docs/checkin.md)
            "not_checked_in": view.seat in snapshot.not_checked_in,
            "wrong_player": view.seat in snapshot.not_checked_in and view.seat in occupied,  # another's card read
        })
    pots = chips.contested() if chips else ()
    in_hand = [v for v in snapshot.seats if v.state in IN_HAND]
    live = [v.seat for v in in_hand if v.state in LIVE]
    taken = {v.seat for v in snapshot.seats if v.state is not PlayerState.EMPTY}
    return {
        "hand": snapshot.hand_number, "count": snapshot.actions, "phase": str(snapshot.phase),
        "street": str(snapshot.street) if snapshot.street else None, "board": list(snapshot.board),
        "to_act": snapshot.to_act, "between_hands": between, "profile": snapshot.profile_title,
        "pot": (chips.pot - chips.uncalled) if chips else None, "level": chips.level if chips else None,
        "pots": [{"amount": pot.amount, "seats": list(pot.seats), "winners": list(pot.winners),
                  **({"low_winners": list(pot.low_winners)} if pot.low_winners else {})} for pot in pots],
        "uncalled": {"amount": chips.uncalled, "seat": chips.uncalled_seat} if chips and chips.uncalled else None,
        "seats": seats, "legal": legal_actions(snapshot),
        # A button on a seat nobody holds (it moved on past a player who left): shown, as a dead button.
        "dead_button": snapshot.button if snapshot.button is not None and snapshot.button not in taken
        and snapshot.phase is not Phase.IDLE else None,
        # How the hand ended: a showdown, or one hand left when every other folded (no showdown).
        "won_uncontested": live[0] if snapshot.phase is Phase.SHOWDOWN and len(live) == 1 and len(in_hand) > 1
        else None,
        "ruling": ({"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy, "number": snapshot.ruling_number}
                   if (r := snapshot.unconfirmed[0] if snapshot.unconfirmed else None) else None),
        "notices": list(snapshot.notices[-3:]),
        "clock": ({"seat": c.seat, "called_by": c.called_by, "seconds": c.seconds, "rule": c.rule,
                   "left": max(0, math.ceil(c.left(snapshot.t))), "raise_said": c.raise_said, "action": c.action,
                   "extensions_left": c.extensions_left}
                  if (c := snapshot.clock) is not None else None),
    }


def verdict(outcome: Outcome) -> dict[str, Any]:
    """The core's answer to one press in words: its verdict as the core gave it (taken, refused and why, or
    ruled), the rulings it made and what else the table said (a notice about another seat is said, never
    read as this press's refusal)."""
    refused = [outcome.refused] if outcome.verdict is Verdict.REFUSED and outcome.refused else []
    said = [n.message for n in outcome.notices if n.message not in refused]
    rulings = [{"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy} for r in outcome.rulings]
    taken = outcome.verdict is not Verdict.REFUSED
    return {"ok": taken, "taken": taken, "verdict": str(outcome.verdict), "refused": refused, "said": said,
            "rulings": rulings}


def merged_verdict(answers: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdicts of a request's events (a seat's stack, then the seat) as one: refused if any was."""
    out = {key: [item for one in answers for item in one[key]] for key in ("refused", "said", "rulings")}
    kinds = {one["verdict"] for one in answers}
    kind = next((k for k in (Verdict.REFUSED, Verdict.RULED) if k in kinds), Verdict.TAKEN)
    taken = kind is not Verdict.REFUSED
    return {"ok": taken, "taken": taken, "verdict": str(kind), **out}
