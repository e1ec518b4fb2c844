"""The replay model (firmware_py/hand_replay.py), pure: journal entries in, hands street by street out. Each
row states what the journal holds (its seq and line, the card its tag is, the antenna that read it, who pressed),
each ruling the core's with its cite, and the secrecy: a hand in play shows no face-down card, a finished one
the house's rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.core import Button, ButtonName
from firmware_py.core.engine import TableCore
from firmware_py.hand_replay import HIDDEN, HandReplay, HoleCards, JournalEntry, ReplayBook, book_of, redact
from firmware_py.profiles import load_profiles
from firmware_py.session import SessionReader

SESSIONS = Path(__file__).resolve().parent / "sessions"


def entries_of(path: Path, *, by: dict[int, str] | None = None, upto: int | None = None) -> list[JournalEntry]:
    """A recorded session as journal entries (seq = line number); `by`: line number -> who pressed."""
    reader = SessionReader(source=str(path), base_dir=path.parent)
    out = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if upto is not None and number > upto:
            break
        event = reader.parse_line(text, number)
        if event is None:
            continue
        if by and number in by:
            text = json.dumps({**json.loads(text), "by": by[number]})  # noqa: PLW2901 (the line as journaled)
        out.append(JournalEntry(number, event, text))
    return out


def book(path: Path, *, end: bool = True, **kwargs: object) -> ReplayBook:
    """The session's hands; `end`: the dealer then presses hand_end (a recorded session stops at the showdown)."""
    entries = entries_of(path, **kwargs)  # type: ignore[arg-type]
    replays = book_of(entries, TableCore(load_profiles(None)))
    if end and replays.current() is not None:
        last = entries[-1]
        replays.feed(JournalEntry(last.seq + 1, Button(t=last.event.t + 1, name=ButtonName.HAND_END),
                                  '{"kind": "button", "name": "hand_end"}'))
    return replays


def all_hands(replays: ReplayBook) -> list[HandReplay]:
    return [*replays.hands, *([replays.current()] if replays.current() else [])]  # type: ignore[list-item]


def rows(replay: object) -> list[tuple[str, int, str]]:
    return [(street.name, e.seq, e.kind) for street in replay.streets for e in street.entries]  # type: ignore[attr-defined]


def test_every_journal_event_of_the_hand_is_a_row_in_order_with_its_line() -> None:
    path = SESSIONS / "clean_showdown.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    hand = book(path).hands[0]
    events = [e for street in hand.streets for e in street.entries if e.kind != "ruling" and e.seq <= len(lines)]
    assert [e.seq for e in events] == list(range(hand.first_seq, len(lines) + 1))
    assert all(e.line == lines[e.seq - 1] for e in events)  # the journal's line, verbatim


def test_card_reads_name_the_card_of_the_tag_and_the_antenna_that_read_it() -> None:
    path = SESSIONS / "clean_showdown.jsonl"
    registry = json.loads((path.parent / "../../config/decks/test-red.json").resolve().read_text())["cards"]
    hand = book(path).hands[0]
    cards = [e for street in hand.streets for e in street.entries if e.kind == "card"]
    assert cards
    for entry in cards:
        line = json.loads(entry.line)
        assert entry.card == registry[line["uid"]]
        assert entry.antenna == line["antenna"]
        assert entry.reader == ("shoe reader" if line["antenna"] == "shoe" else f"felt antenna {line['antenna']}")
    board = [e.card for e in cards if e.to == "board"]
    assert board == hand.board
    assert {e.to for e in cards if e.secret == "hole"} == {f"seat {s.seat}" for s in hand.seats}


def test_streets_follow_the_deal_then_each_betting_round_then_the_showdown() -> None:
    hand = book(SESSIONS / "clean_showdown.jsonl").hands[0]
    assert [s.name for s in hand.streets] == ["deal", "preflop", "flop", "turn", "river", "showdown"]
    flop = next(s for s in hand.streets if s.name == "flop")
    assert [e.card for e in flop.entries if e.to == "board"] == hand.board[:3]


def test_each_press_says_who_pressed_it_as_the_journal_line_has_it() -> None:
    path = SESSIONS / "clean_showdown.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    presses = [n for n, text in enumerate(lines, start=1) if '"button"' in text]
    sources = dict(zip(presses, ["panel", "tracker", "keypad"] * len(presses), strict=False))
    del sources[presses[-1]]  # a press journaled before presses were marked: not recorded, never guessed
    hand = book(path, by=sources).hands[0]
    seen = {e.seq: e.by for street in hand.streets for e in street.entries if e.kind == "press"}
    assert seen == {n: sources.get(n) for n in presses if n in seen}
    assert seen[presses[-1]] is None


def test_rulings_carry_the_cite_and_remedy_the_core_gave_at_their_event() -> None:
    path = SESSIONS / "extra_and_premature_wfp.jsonl"
    expected = [json.loads(line) for line in
                (SESSIONS / "extra_and_premature_wfp.expected.jsonl").read_text().splitlines()]
    replays = book(path)
    rulings = [e for hand in all_hands(replays) for s in hand.streets for e in s.entries if e.kind == "ruling"]
    assert [(r.ruling, r.rule, r.remedy) for r in rulings] == [(x["ruling"], x["rule"], x["remedy"]) for x in expected]
    for ruling in rulings:
        assert ruling.t == next(x["t"] for x in expected if x["rule"] == ruling.rule and x["remedy"] == ruling.remedy)


def test_the_pots_are_those_the_showdown_ruled() -> None:
    path = SESSIONS / "chips_in_play_upt.jsonl"
    expected = [json.loads(line) for line in (SESSIONS / "chips_in_play_upt.expected.jsonl").read_text().splitlines()]
    showdowns = [x for x in expected if x["ruling"] == "showdown" and x.get("pots")]
    assert showdowns
    hands = [h for h in book(path).hands if h.pots and any(p.winners for p in h.pots)]
    for hand, ruled in zip(hands, showdowns, strict=False):
        assert [p.amount for p in hand.pots] == [p["amount"] for p in ruled["pots"]]
        assert [p.winners for p in hand.pots] == [p.get("winners", []) for p in ruled["pots"]]


def test_a_hand_in_play_shows_no_hole_card_nor_burn_whatever_the_house_rule() -> None:
    path = SESSIONS / "clean_showdown.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    flop = next(n for n, text in enumerate(lines, start=1) if '"board3"' in text)
    live = book(path, upto=flop, end=False).current()
    assert live is not None and not live.finished
    for rule in HoleCards:
        shown = redact(live, rule)
        assert all(c == HIDDEN for s in shown.seats for c in s.cards)
        assert all(c == HIDDEN for c in shown.burns)
        faces = [e for s in shown.streets for e in s.entries if e.kind == "card" and e.card is not None]
        assert faces and all(e.to == "board" for e in faces)  # only cards face up on the felt
        hidden = [e for s in shown.streets for e in s.entries if e.kind == "card" and e.card is None]
        assert hidden and all(e.uid is None and e.line == "" for e in hidden)  # the tag would name the card


@pytest.mark.parametrize("session", ["clean_showdown", "folds_rpl"])
@pytest.mark.parametrize("rule", list(HoleCards))
def test_a_finished_hand_shows_the_hole_cards_the_house_rule_says(rule: HoleCards, session: str) -> None:
    hand = book(SESSIONS / f"{session}.jsonl").hands[0]
    assert hand.finished and all(s.cards for s in hand.seats)
    assert any(s.shown for s in hand.seats) == (session == "clean_showdown")  # folds_rpl: won without a showdown
    shown = redact(hand, rule)
    for seat, original in zip(shown.seats, hand.seats, strict=True):
        visible = rule is HoleCards.ALL or (rule is HoleCards.SHOWDOWN and original.shown)
        assert seat.cards == (original.cards if visible else [HIDDEN] * len(original.cards))
        reads = [e for s in shown.streets for e in s.entries if e.to == f"seat {seat.seat}"]
        assert all((e.card is not None) == visible for e in reads)


def test_a_ruling_naming_a_face_down_card_is_shown_without_it_unless_the_seat_is_shown() -> None:
    path = SESSIONS / "extra_and_premature_wfp.jsonl"
    hand = book(path).hands[0]
    extra = next(e for s in hand.streets for e in s.entries if e.ruling == "extra_card")
    assert extra.card is not None and extra.public_text is not None
    hidden = next(e for s in redact(hand, HoleCards.NONE).streets for e in s.entries if e.ruling == "extra_card")
    assert hidden.card is None and extra.card not in hidden.text and extra.card not in (hidden.remedy or "")
    shown = next(e for s in redact(hand, HoleCards.ALL).streets for e in s.entries if e.ruling == "extra_card")
    assert shown.card == extra.card


def test_the_replays_bounds_are_the_rooms() -> None:
    import firmware_py.hand_replay as replay  # noqa: PLC0415
    from firmware_py.room import bounds  # noqa: PLC0415

    for name in ("Seq", "Count", "Chips", "SeatNo", "Seconds", "Name", "Text", "Card"):
        assert repr(getattr(replay, name)) == repr(getattr(bounds, name)), name


def test_a_hand_message_carries_the_replay_and_a_bad_one_is_refused_naming_the_field() -> None:
    import msgspec  # noqa: PLC0415

    from firmware_py.room.messages import BadMessage, decode, encode  # noqa: PLC0415

    hand = book(SESSIONS / "clean_showdown.jsonl").hands[0]
    body = {"v": 1, "room": "main", "table": "t01", "session": "s1", "seq": hand.last_seq, "idx": 1, "hand": 1,
            "t": hand.t, "dealer": "Dana", "played": True, "rulings": ["showdown"], "phh": None,
            "phh_problem": None, "replay": msgspec.to_builtins(hand)}
    message = decode("pokertable/main/t01/hand", encode("hand", body))
    assert message.replay == hand
    bad = json.loads(encode("hand", body))
    bad["replay"]["streets"][0]["entries"][0]["seq"] = -1
    with pytest.raises(BadMessage, match=r"\$\.replay\.streets\[0\]\.entries\[0\]\.seq"):
        decode("pokertable/main/t01/hand", json.dumps(bad).encode())


def test_a_replay_too_large_for_the_rooms_message_keeps_its_first_entries_and_counts_the_rest() -> None:
    import msgspec  # noqa: PLC0415

    from firmware_py.hand_replay import trimmed  # noqa: PLC0415

    hand = book(SESSIONS / "clean_showdown.jsonl").hands[0]
    size = len(msgspec.json.encode(hand))
    assert trimmed(hand, size) is hand
    cut = trimmed(hand, size // 2)
    assert len(msgspec.json.encode(cut)) <= size // 2
    kept = [e for s in cut.streets for e in s.entries]
    every = [e for s in hand.streets for e in s.entries]
    assert kept == every[:len(kept)] and cut.truncated == len(every) - len(kept) > 0
