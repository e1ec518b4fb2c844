"""The action tracker over HTTP with a real daemon: pairing, the Host/Origin guard, the core's verdict
on every press, stale presses, players, and the config."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.core import CheckIn, Draw
from firmware_py.daemon.table_config import load_table_config
from firmware_py.daemon.tracker_config import TrackerConfig, parse_tracker_config
from firmware_py.errors import ConfigError
from tests.config_mistakes import assert_mistakes
from tests.tracker_table import TrackerTable

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TrackerTable]:
    running = TrackerTable(tmp_path).start()
    yield running
    running.stop()


def _state(table: TrackerTable, cookie: str) -> dict[str, object]:
    status, state, _ = table.request("/state", cookie=cookie)
    assert status == 200
    return state


def _press(table: TrackerTable, cookie: str, name: str, **extra: object) -> tuple[int, dict[str, object]]:
    state = _state(table, cookie)
    status, body, _ = table.request("/press", {"name": name, "hand": state["hand"], "count": state["count"],
                                               **extra}, cookie=cookie)
    return status, body


def test_the_tracker_is_off_unless_configured() -> None:
    assert load_table_config(ROOT / "config" / "table.toml", with_display=False).tracker is None


def test_a_device_pairs_with_the_code_on_the_screen_and_nothing_else(table: TrackerTable,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    assert table.request("/state")[0] == 401
    assert table.request("/press", {"name": "fold", "hand": 0, "count": 0})[0] == 401
    assert table.request("/pair", {"code": "000000"})[0] == 403
    code = table.tracker.pairing.code
    cookie = table.pair()
    assert "HttpOnly" in table.request("/pair", {"code": table.tracker.pairing.code})[2]["set-cookie"]
    assert table.tracker.pairing.code != code  # a code serves once
    assert table.request("/pair", {"code": code})[0] == 403
    assert _state(table, cookie)["hand"] == 0
    token = cookie.split("=", 1)[1]
    assert token not in caplog.text and code not in caplog.text  # no secret in the log


def test_wrong_codes_are_slowed_down_and_never_change_the_code(table: TrackerTable) -> None:
    code = table.tracker.pairing.code
    for _ in range(5):
        assert table.request("/pair", {"code": "1"})[0] == 403
    status, body, headers = table.request("/pair", {"code": code})  # even the right one waits now
    assert status == 429 and "too many wrong codes" in body["error"] and int(headers["retry-after"]) >= 1
    assert table.tracker.pairing.code == code  # a guesser does not change the operator's code


def test_a_cross_site_post_and_a_foreign_host_are_refused(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()
    state = _state(table, cookie)
    press = {"name": "fold", "hand": state["hand"], "count": state["count"]}
    assert table.request("/press", press, cookie=cookie, origin="http://evil.example")[0] == 403
    assert table.request("/press", press, cookie=cookie, origin=None)[0] == 403
    assert table.request("/state", cookie=cookie, host="evil.example")[0] == 403  # DNS rebinding
    assert table.settle().actions == 0  # nothing reached the table


def test_a_press_gets_the_tables_verdict_in_words(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()  # blinds 25/50: seat 4 to act
    status, body = _press(table, cookie, "raise", amount="2,000")
    assert status == 409 and body["refused"] == [
        "raise 2,000: seat 4 has only 1,000 in all; press not taken, key the amount again (or allin)"]
    status, body = _press(table, cookie, "raise", amount="50")
    assert status == 409 and "is not above the bet of 50" in body["refused"][0]
    status, body = _press(table, cookie, "raise", amount="1,2")
    assert status == 400 and "commas go between groups of three digits" in body["refused"][0]
    status, body = _press(table, cookie, "raise", amount="0.2k")
    assert status == 200 and body["taken"]
    table.wait(lambda: table.settle().seat(4).bet == 200)  # the published snapshot follows the answer


def test_a_stale_or_duplicate_press_is_refused_never_moved_to_the_next_player(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()
    state = _state(table, cookie)
    press = {"name": "call", "hand": state["hand"], "count": state["count"]}
    assert table.request("/press", press, cookie=cookie)[0] == 200  # seat 4 calls
    status, body, _ = table.request("/press", press, cookie=cookie)  # the same press again
    assert status == 409 and "stale press" in body["refused"][0]
    table.wait(lambda: table.settle().to_act != 4)  # the call's snapshot follows the page's answer
    snapshot = table.settle()
    assert snapshot.to_act == 1 and snapshot.seat(1).bet == 0


def test_out_of_turn_press_gets_the_ruling(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()
    status, body = _press(table, cookie, "call", seat=2)  # seat 4 is to act
    assert status == 200 and body["rulings"][0]["ruling"] == "action_out_of_turn"
    table.wait(lambda: table.settle().seat(2).declared is not None)  # its snapshot follows the answer
    assert _state(table, cookie)["seats"][1]["declared"] == "call out of turn"


def test_an_in_turn_call_is_taken_when_it_makes_a_held_fold_not_binding(tmp_path: Path) -> None:
    """Robert's rules: seat 6 folds out of turn (held, a ruling); seat 4 calls, seat 5 calls in turn. The call is
    taken (its chips go in) and the page says so, with the notice that seat 6's fold no longer binds; it is not
    answered as a refusal because the table said something about another seat."""
    table = TrackerTable(tmp_path, seats=(1, 2, 3, 4, 5, 6)).start()
    try:
        cookie = table.pair()
        table.stacks(s1=10000, s2=10000, s3=10000, s4=10000, s5=10000, s6=10000)
        table.new_hand()  # blinds 25/50: seat 2 small, seat 3 big, seat 4 first to act
        status, body = _press(table, cookie, "fold", seat=6)
        assert status == 200 and body["verdict"] == "ruled"
        assert body["rulings"][0]["ruling"] == "action_out_of_turn"
        assert _press(table, cookie, "call")[1]["verdict"] == "taken"  # seat 4
        status, body = _press(table, cookie, "call")  # seat 5, in turn
        assert status == 200 and body["verdict"] == "taken" and body["refused"] == []
        assert any("seat 6's fold out of turn is not binding" in said for said in body["said"])
        table.wait(lambda: table.settle().seat(5).stack == 9950)
        assert table.settle().to_act == 6
    finally:
        table.stop()


def test_two_tablets_confirming_one_ruling_clear_it_once(table: TrackerTable) -> None:
    """Issue 34: each tablet confirms the ruling its page shows, by number; the second confirm of the same
    ruling is refused in words, and the next ruling stays shown."""
    first, second = table.pair(), table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()  # seat 4 is to act
    _press(table, first, "call", seat=2)
    _press(table, first, "call", seat=1)  # two actions out of turn: two rulings
    table.wait(lambda: len(table.settle().unconfirmed) == 2)
    shown = _state(table, second)["ruling"]
    assert shown["number"] == 1 and "Seat 2" in shown["remedy"]
    status, body = _press(table, first, "confirm", ruling=shown["number"])
    assert status == 200 and body["verdict"] == "taken"
    status, body = _press(table, second, "confirm", ruling=shown["number"])  # the other tablet, same ruling
    assert status == 409 and body["refused"] == ["confirm: ruling 1 was confirmed already (ruling 2 is shown): "
                                                 "not taken"]
    table.wait(lambda: len(table.settle().unconfirmed) == 1)
    assert table.settle().unconfirmed[0].seat == 1
    status, body = _press(table, second, "confirm")
    assert status == 400 and "names the ruling it confirms" in body["refused"][0]


def test_players_rebuy_add_on_bust_out_and_seat_between_hands_only(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=0, s3=1000, s4=1000)
    snapshot = table.new_hand()
    assert 2 not in (snapshot.small_blind, snapshot.big_blind, snapshot.button)  # no chips: not dealt in
    status, body, _ = table.request("/players", {"op": "rebuy", "seat": 2, "amount": "1k"}, cookie=cookie)
    assert status == 400 and "between hands only" in body["refused"][0]
    _press(table, cookie, "misdeal")
    table.hand_end()
    assert table.request("/players", {"op": "rebuy", "seat": 2, "amount": "1k"}, cookie=cookie)[0] == 200
    assert table.request("/players", {"op": "add_on", "seat": 3, "amount": "500"}, cookie=cookie)[0] == 200
    # The page answers once the core took the add-on; its snapshot reaches the tracker just after.
    table.wait(lambda: table.settle().seat(3).stack != 1000)
    snapshot = table.settle()
    assert snapshot.seat(2).stack == 1000 and snapshot.seat(3).stack == 1500
    assert "add-on: seat 3 1,000 to 1,500" in snapshot.notices  # on the venue screen, as journaled
    status, body, _ = table.request("/players", {"op": "bust", "seat": 1}, cookie=cookie)
    assert status == 400 and "still has 1,000 chips" in body["refused"][0]
    assert table.request("/players", {"op": "stack", "seat": 1, "amount": "1"}, cookie=cookie)[0] == 200
    assert table.request("/players", {"op": "unseat", "seat": 1}, cookie=cookie)[0] == 200
    assert table.request("/players", {"op": "seat", "seat": 5, "amount": "2,500"}, cookie=cookie)[0] == 200
    assert table.request("/players", {"op": "name", "seat": 5, "name": "Ann"}, cookie=cookie)[0] == 200
    # As above: the core took the name before the page answered; its snapshot reaches the tracker just after.
    table.wait(lambda: any(s["seat"] == 5 and s["name"] == "Ann" for s in _state(table, cookie)["seats"]))
    state = _state(table, cookie)
    assert [(s["seat"], s["name"], s["stack"]) for s in state["seats"]] == [
        (2, "", 1000), (3, "", 1500), (4, "", 1000), (5, "Ann", 2500)]


@pytest.mark.parametrize(("raw", "message"), [
    ({"listen": "0.0.0.0", "port": 8080}, "every interface"),
    ({"listen": "tablet", "port": 8080}, "not an IP address"),
    ({"listen": "192.168.4.1", "port": 80}, "1024..65535"),
    ({"listen": "192.168.4.1", "hosts": "table1.local"}, "list of host names"),
    ({"listen": "192.168.4.1", "token": "a-long-enough-test-token"}, "token: unknown key"),
])
def test_a_bad_tracker_config_names_the_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_tracker_config(raw, source="table.toml")


def test_tracker_config_reports_every_bad_value_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_tracker_config({"listen": "tablet", "port": "8080", "lisen": 1}, source="table.toml")
    assert_mistakes(caught.value, "table.toml", [
        ("[tracker] lisen", "did you mean 'listen'"), ("[tracker] listen", 'e.g. listen = "192.168.4.1"'),
        ("[tracker] port", "write port = 8080, without quotes")])


def test_tracker_config_with_every_key_right_is_still_accepted() -> None:
    config = parse_tracker_config({"listen": "192.168.4.1", "port": 8081, "hosts": ["table1.local"]},
                                  source="table.toml")
    assert config == TrackerConfig(listen="192.168.4.1", port=8081, hosts=("table1.local",))


def test_the_tracker_offers_bets_up_to_the_pot_limit_in_plo() -> None:
    """Pot-Limit Omaha: the largest raise the page offers is the core's pot-limit maximum; all in only within it."""
    from firmware_py.daemon.tracker_view import legal_actions  # noqa: PLC0415
    from tests.rules.table_driver import Table  # noqa: PLC0415

    t = Table("robert", game="omaha")
    t.level(50, 100)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    legal = legal_actions(t.core.snapshot())
    assert legal is not None
    assert (legal["max_to"], legal["allin_to"], legal["allin_ok"]) == (350, 10000, False)
    assert legal["presets"]["pot"] == 350 and "allin" not in legal["presets"]
    assert legal["limit"] == "Pot-Limit Omaha"


def test_call_clock_by_a_seat_shows_the_countdown_and_retrieve_gives_a_folded_hand_back(table: TrackerTable) -> None:
    cookie = table.pair()
    table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    table.new_hand()  # seat 4 to act
    status, body = _press(table, cookie, "clock", seat=2)  # seat 2 calls the clock on seat 4
    assert status == 200 and body["taken"]
    table.wait(lambda: table.settle().clock is not None)
    clock = _state(table, cookie)["clock"]
    assert isinstance(clock, dict) and (clock["seat"], clock["called_by"]) == (4, 2)
    assert 0 < clock["left"] <= clock["seconds"] and clock["rule"].startswith(table.settle().profile)
    status, body = _press(table, cookie, "fold")  # seat 4 folds: the clock stops
    assert status == 200
    table.wait(lambda: table.settle().clock is None)
    status, body = _press(table, cookie, "retrieve", seat=4)
    assert status == 200 and body["rulings"][0]["ruling"] in ("hand_retrieved", "retrieval_refused")
    assert body["rulings"][0]["rule"]  # cited either way


def test_a_tracker_port_another_program_holds_is_named_with_a_free_one_to_write() -> None:
    """The tracker's environment (validate_environment): the port must be free on that address."""
    import socket  # noqa: PLC0415

    from firmware_py.daemon.tracker import EXTENSION  # noqa: PLC0415
    from firmware_py.daemon.tracker_config import check_tracker_environment  # noqa: PLC0415

    assert EXTENSION.validate_environment is not None
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        with pytest.raises(ConfigError, match=rf"^table.toml: \[tracker\] port: {taken} on 127.0.0.1 is taken by "
                                              rf"another program; choose a free one, e.g. port = {taken + 1}$"):
            check_tracker_environment(TrackerConfig(listen="127.0.0.1", port=taken), source="table.toml")
    check_tracker_environment(TrackerConfig(listen="127.0.0.1", port=taken), source="table.toml")  # free again


def test_a_tracker_address_this_machine_does_not_have_is_named() -> None:
    from firmware_py.daemon.tracker_config import check_tracker_environment  # noqa: PLC0415

    with pytest.raises(ConfigError, match=r"^table.toml: \[tracker\] listen: 192.0.2.7 is not an address of this "
                                          r"machine; .*`ip -brief address`"):
        check_tracker_environment(TrackerConfig(listen="192.0.2.7", port=8080), source="table.toml")


def test_a_drawn_seat_whose_player_card_was_not_read_is_marked_not_checked_in(table: TrackerTable) -> None:
    """docs/checkin.md: the director's draw names each seat's player; until that player's card is read at the
    seat the operator's page says so (the deal to it is ruled by the book: tests/rules/test_checkin.py)."""
    cookie = table.pair()
    table.post(Draw(t=table._clock(), seats=((1, "P1"), (2, "P2"))))
    table.post(CheckIn(t=table._clock(), player="P1", name="Ann", seat=1))
    table.settle()
    seats = {v["seat"]: v for v in _state(table, cookie)["seats"]}
    assert seats[1]["not_checked_in"] is False and seats[1]["name"] == "Ann"
    assert seats[2]["not_checked_in"] is True and seats[2]["wrong_player"] is False
    table.post(CheckIn(t=table._clock(), player="P1", name="Ann", seat=2))  # Ann's card read at seat 2
    table.settle()
    seats = {v["seat"]: v for v in _state(table, cookie)["seats"]}
    assert seats[2]["wrong_player"] is True and seats[1]["not_checked_in"] is True
    assert all(v["not_checked_in"] is False for n, v in seats.items() if n not in (1, 2))  # no player drawn there
