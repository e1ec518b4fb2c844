"""Room messages for the consumers' tests: `message(kind, ...)` makes a complete one, and a room of 50 tables
as the floor would hear it."""

from __future__ import annotations

import random
from typing import Any

from firmware_py.room.floor import FloorModel

STATUSES = ["preflop", "flop", "turn", "river", "dealing", "idle", "showdown", "board"]
DEFAULTS: dict[str, dict[str, Any]] = {
    "status": {"online": True},
    "heartbeat": {"wall": 0.0, "acked": 0},
    "state": {"dealer": "", "status": "idle", "faults": [], "t": 0.0, "profile": "robert", "hand": 0,
              "counts": {"hands": 0, "misdeals": 0, "irregularities": 0, "hands_per_hour": 0.0},
              "phase": "idle", "street": None, "board": [], "burns": 0, "seats": [], "to_act": None, "button": None,
              "open_rulings": [], "digest": "0"},
    "ruling": {"n": 0, "dealer": "", "hand": 1, "wall": 0.0},
    "hand": {"hand": 1, "t": 0.0, "dealer": "", "played": False, "rulings": [], "phh": None, "phh_problem": None},
    "jackpot": {"n": 0, "dealer": "", "hand": 1, "t": 0.0, "wall": 0.0, "jackpot": "Bad beat", "kind": "bad_beat",
                "seat": 2, "winners": [3], "held": "full house, aces full of kings",
                "rule": "house (jackpots.toml): Bad Beat Jackpot 1", "remedy": "Hold the cards and call the floor."},
    "broadcast": {"held_s": 0.0, "t": 0.0, "profile": "robert", "profile_title": "Robert's Rules of Poker", "hand": 1,
                  "phase": "idle", "street": None, "board": [], "button": None, "small_blind": None,
                  "big_blind": None, "to_act": None, "in_play": "test-red", "showdown": None, "seats": []},
}


def message(kind: str, table: str = "t01", seq: int = 1, *, room: str = "main", session: str = "s1",
            **fields: Any) -> dict[str, Any]:
    """A complete v1 message of `kind` (the schema's required fields filled in), with `fields` over them."""
    body: dict[str, Any] = {"v": 1, "room": room, "table": table, "session": session, "seq": seq,
                            **DEFAULTS[kind], **fields}
    if kind in ("ruling", "hand"):
        body.setdefault("idx", seq)
    return body


DEALERS = ["Ana", "Ben", "Chloé", "Dev", "Eli", "Fatima", "Gus", "Hana", "Ivo", "Jun", "Kofi", "Lena"]
RULINGS = [
    {"ruling": "exposed_card", "seat": 4, "card": "Qc", "rule": "robert: Hold'em 1",
     "remedy": "Deal on. Seat 4 may not keep the Qc: after the deal give seat 4 the top card, and use the Qc "
               "as the burn card."},
    {"ruling": "misdeal", "cause": "exposed_first_cards", "seat": 3, "rule": "robert: Misdeals 1(a)",
     "remedy": "Misdeal: the second card of the deal was exposed. Gather all cards, reshuffle, recut and redeal."},
    {"ruling": "premature_card", "street": "flop", "rule": "wfp: Irregularities 21, 22",
     "remedy": "Premature flop: it does not play. Finish the betting, mix the flop cards into the stub (the burn "
               "stays), shuffle, cut and deal a new flop without a burn."},
]


def room_of(tables: int = 50, *, seed: int = 7, now: float = 1000.0) -> FloorModel:
    """A FloorModel fed with v1 messages for `tables` tables: some offline, one reader fault, open rulings."""
    rng = random.Random(seed)
    model = FloorModel("main")
    for index in range(1, tables + 1):
        table = f"t{index:02d}"
        dealer = DEALERS[index % len(DEALERS)]
        session = "s" + table
        model.feed(f"pokertable/main/{table}/status", message("status", table, 0, session=session, online=True,
                                                               dealer=dealer, heartbeat_s=5), now=now)
        status = STATUSES[rng.randrange(len(STATUSES))]
        open_rulings: list[dict[str, Any]] = []
        for seq in range(1, rng.randrange(1, 5)):
            ruling = RULINGS[rng.randrange(len(RULINGS))]
            model.feed(f"pokertable/main/{table}/ruling", message("ruling", table, seq * 10, session=session,
                                                                   dealer=dealer, ruling={"t": 1.0, **ruling}),
                       now=now)
        if index % 9 == 4:
            open_rulings = [{"t": 1.0, **RULINGS[(index // 9) % len(RULINGS)]}]
            status = "misdealt" if open_rulings[0]["ruling"] == "misdeal" else status
        faults = []
        if index == 17:
            status, faults = "fault", [{"component": "reader shoe", "message": "no answer from the MFRC522"}]
        hands = rng.randrange(20, 200)
        street = status if status in ("preflop", "flop", "turn", "river") else None
        phase = "betting" if street else status if status != "fault" else "dealing"
        state = message("state", table, 100, session=session, status=status, phase=phase, hand=hands + 1,
                        dealer=dealer, faults=faults, open_rulings=open_rulings, street=street,
                        counts={"hands": hands, "misdeals": rng.randrange(0, 3),
                                "irregularities": rng.randrange(0, 9),
                                "hands_per_hour": round(rng.uniform(24, 38), 1)})
        model.feed(f"pokertable/main/{table}/state", state, now=now)
        if index in (23, 41):
            model.feed(f"pokertable/main/{table}/status", message("status", table, 100, session=session,
                                                                   online=False, reason="connection lost"), now=now)
    return model
