"""Bad room messages, each a sure failure of its kind's schema, made from a good one: the fuzz's poison.

Every way a consumer broke before (issue 17: `seq` = 2**70, a ruling that is not an object, JSON
nested 100,000 deep, a huge string, not JSON at all, a table's state retained with a bad field) and
more: wrong types, out-of-range numbers, unknown enum values, missing and unknown fields, NUL in text,
the topic's table differing from the message's, lists beyond their bound.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from tests.room.samples import message

DEEP = 100_000


def good(kind: str, table: str, seq: int, *, session: str = "s1") -> dict[str, Any]:
    """A valid message of each kind with some content (a ruling with its rule, a hand with a PHH)."""
    fields: dict[str, Any] = {}
    if kind == "ruling":
        fields = {"dealer": "Ana", "n": 0, "ruling": {"t": 1.5, "ruling": "exposed_card", "seat": 4, "card": "Qc",
                                                      "rule": "robert: Hold'em 1", "remedy": "Deal on."}}
    elif kind == "hand":
        fields = {"played": True, "phh": "variant = 'NT'\n", "rulings": ["exposed_card"], "hand": seq}
    elif kind == "state":
        fields = {"status": "flop", "phase": "betting", "street": "flop", "board": ["Ah", "7c", "2d"],
                  "seats": [{"seat": 1, "state": "active", "cards": 2, "button": True, "to_act": False}]}
    elif kind == "broadcast":
        fields = {"phase": "betting", "street": "preflop",
                  "seats": [{"seat": 1, "name": "Ana", "state": "active", "cards": ["Ks", "Kd"]}]}
    return message(kind, table, seq, session=session, **fields)


def _set(path: str, value: Any) -> Callable[[dict[str, Any], random.Random], Any]:
    def mutate(body: dict[str, Any], _rng: random.Random) -> Any:
        target = body
        *parents, last = path.split(".")
        for part in parents:
            target = target[part] if part in target and isinstance(target[part], dict) else target.setdefault(part, {})
        target[last] = value
        return body
    return mutate


def _drop(key: str) -> Callable[[dict[str, Any], random.Random], Any]:
    def mutate(body: dict[str, Any], _rng: random.Random) -> Any:
        body.pop(key, None)
        return body
    return mutate


def _nested(body: dict[str, Any], rng: random.Random) -> bytes:
    key = rng.choice(sorted(body))
    text = json.dumps({k: v for k, v in body.items() if k != key})
    return (text[:-1] + f', "{key}": ' + "[" * DEEP + "]" * DEEP + "}").encode()


MUTATIONS: dict[str, Callable[[dict[str, Any], random.Random], Any]] = {
    "seq 2**70": _set("seq", 2**70),
    "seq negative": _set("seq", -1),
    "seq a string": _set("seq", "7"),
    "seq a float": _set("seq", 1.5),
    "seq 1e400": lambda body, _rng: json.dumps(body).replace(f'"seq": {body["seq"]}', '"seq": 1e400').encode(),
    "version 2": _set("v", 2),
    "version missing": _drop("v"),
    "another table in the body": _set("table", "t99"),
    "another room in the body": _set("room", "elsewhere"),
    "session with a slash": _set("session", "../etc"),
    "session missing": _drop("session"),
    "unknown field": _set("surprise", 1),
    "huge string": _set("surprise_text", "x" * 150_000),
    "nesting 100,000 deep": _nested,
    "not an object": lambda body, rng: rng.choice([b"[1, 2, 3]", b"null", b'"ruling"', b"42", b"true", b"1e400"]),
    "not JSON": lambda body, rng: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) + b"\xff{",
    "truncated": lambda body, rng: (s := json.dumps(body).encode())[: rng.randrange(1, len(s) - 1)],
    "empty": lambda body, _rng: b"",
    "all nested": lambda body, _rng: b"[" * DEEP + b"]" * DEEP,
}
KIND_MUTATIONS: dict[str, dict[str, Callable[[dict[str, Any], random.Random], Any]]] = {
    "ruling": {"ruling not an object": _set("ruling", "not an object"), "ruling kind unknown": _set(
        "ruling.ruling", "bogus"), "ruling seat 0": _set("ruling.seat", 0), "n 2**70": _set("n", 2**70),
        "idx 0": _set("idx", 0), "dealer with NUL": _set("dealer", "Ana\x00"), "wall inf text": _set("wall", "inf"),
        "remedy too long": _set("ruling.remedy", "r" * 5000), "hand a list": _set("hand", [1])},
    "hand": {"played a string": _set("played", "yes"), "rulings 1,000": _set("rulings", ["x"] * 1000),
             "phh a number": _set("phh", 7), "phh too long": _set("phh", "p" * 200_001), "idx missing": _drop("idx"),
             "hand negative": _set("hand", -3)},
    "state": {"seats a dict": _set("seats", {"1": 2}), "seat cards a list": _set("seats", [
        {"seat": 1, "state": "active", "cards": ["Ks", "Kd"], "button": False, "to_act": False}]),
        "status unknown": _set("status", "on fire"), "board 6 cards": _set("board", ["2c"] * 6),
        "counts missing": _drop("counts"), "t negative": _set("t", -5.0), "seats 1,000": _set("seats", [
            {"seat": 1, "state": "active", "cards": 2, "button": False, "to_act": False}] * 1000)},
    "status": {"online a string": _set("online", "yes"), "heartbeat_s 0": _set("heartbeat_s", 0),
               "heartbeat_s huge": _set("heartbeat_s", 1e300)},
    "heartbeat": {"acked 2**70": _set("acked", 2**70), "wall a string": _set("wall", "now")},
    "broadcast": {"phase unknown": _set("phase", "dancing"), "seat state unknown": _set("seats", [
        {"seat": 1, "name": "Ana", "state": "ghost", "cards": []}]), "seat 11": _set("to_act", 11),
        "held_s negative": _set("held_s", -1.0), "showdown a string": _set("showdown", "seat 1")},
    "jackpot": {"kind unknown": _set("kind", "biggest_pot"), "seat 11": _set("seat", 11),
                "no winners": _set("winners", []), "remedy too long": _set("remedy", "r" * 5000),
                "n negative": _set("n", -1), "jackpot missing": _drop("jackpot")},
}


def poison(kind: str, table: str, seq: int, rng: random.Random) -> tuple[str, bytes]:
    """(the mutation's name, the bad payload) for a message of `kind` from `table`."""
    choices = {**MUTATIONS, **KIND_MUTATIONS[kind]}
    name = rng.choice(sorted(choices))
    body = good(kind, table, seq, session="poison")
    result = choices[name](body, rng)
    return name, result if isinstance(result, bytes) else json.dumps(result).encode()
