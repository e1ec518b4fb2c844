"""A simulated tournament through a real Mosquitto: the director (firmware_py.room.director, as the
`tournament` command runs it) and simulated tables (the dealer bot into the rules core), from the first
hand to one winner; every decision checked by the independent checker (tests/tournament/checker.py),
the room's chips checked at every hand (the run raises ChipsNotConserved otherwise)."""

from __future__ import annotations

import argparse
import re
from typing import Any

import pytest

from firmware_py.commands.tournament import ROOT, build
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation.tournament_sim import simulate_room
from tests.room.conftest import broker_config
from tests.room.services import Mosquitto
from tests.tournament.checker import check


def _args(**overrides: object) -> argparse.Namespace:
    values: dict[str, object] = {"profile": "wfp", "structure": str(ROOT / "config/tournament/wfp-nightly.toml"),
                                 "tables": "3", "players": 24, "entrants": None, "seats": 9, "seed": 0,
                                 "payouts": "50,30,20", "buy_in": 20}
    values.update(overrides)
    return argparse.Namespace(**values)


def simulate(broker: Mosquitto, args: argparse.Namespace, room: str = "main") -> tuple[Any, Any]:
    director = build(args, room, sim_clock=True)
    decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
    result = simulate_room(director, broker_config(broker), room=room, profile=load_profiles()[args.profile],
                           decks=decks, seed=args.seed, max_hands=3000, director_client_id="director.test",
                           tables_client_id="tables.test")
    return director, result


@pytest.mark.parametrize(("profile", "tables", "players", "seats"), [
    ("wfp", "3", 24, 9), ("upt", "3", 22, 9), ("rpl", "3", 25, 10)])
def test_simulated_tournament_runs_to_one_winner_by_the_book(broker: Mosquitto, profile: str, tables: str,
                                                            players: int, seats: int) -> None:
    args = _args(profile=profile, tables=tables, players=players, seats=seats, seed=4)
    director, result = simulate(broker, args)
    t = director.tournament
    assert result.winner and t.finished
    assert result.chip_checks == result.hands > players // 2
    problems = check(t.log, profile=profile, capacity=seats, entrants=players, starting_tables=int(tables),
                     break_order=t.break_order)
    assert problems == []
    kinds = {d.kind for d in t.log}
    assert {"eliminated", "broken", "finished"} <= kinds
    assert result.races > 0 and "raced" in kinds  # the structure's color-ups raced for at the tables
    # every hand the tables played, exported to PHH, replays in pokerkit to the table's stacks
    from firmware_py.simulation.export_check import check_events  # noqa: PLC0415

    profiles = load_profiles()
    exported = replayed = 0
    for events in result.sessions:
        checked = check_events(events, profiles)
        assert checked.mismatches == [], checked.mismatches[:3]
        exported += checked.exported
        replayed += checked.replayed_right
    assert exported == replayed > result.hands * 0.9, (exported, replayed, result.hands)
    assert director.rejected == 0
    state = director.state()
    assert [p.place for p in state.places][:3] == [1, 2, 3]
    assert state.places[0].prize == players * 20 // 2 + (players * 20) % 2


def test_tournament_command_simulates_and_serves(broker: Mosquitto, tmp_path: Any) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from tests.room.conftest import Listener  # noqa: PLC0415

    base = [sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--broker",
            f"127.0.0.1:{broker.port}", "--seed", "2"]
    done = subprocess.run([*base, "--simulate", "--no-page", "--tables", "2", "--players", "12", "--profile", "rpl",
                           "--seats", "10"], check=False, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "winner Player" in done.stdout and "eliminated 11" in done.stdout
    # the director's station itself: its page, its retained state for the room
    listener = Listener(broker_config(broker), "pokertable/main/director/tournament", client_id="watch")
    try:
        assert listener.wait_connected()
        served = subprocess.run([*base, "--tables", "3", "--players", "20", "--listen", "127.0.0.1:0", "--seconds",
                                 "3", "--journal", str(tmp_path / "director.sqlite3")], check=False,
                                capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert served.returncode == 0, served.stderr[-2000:]
        assert "the director's page is on http://127.0.0.1:" in served.stdout
        assert re.search(r"clock screen is on http://127\.0\.0\.1:\d+/screen .*open without pairing", served.stdout)
        assert listener.wait_for(lambda: any(isinstance(b, dict) and b.get("entrants") == 20
                                             for _t, b, _r in listener.messages))
    finally:
        listener.close()


def test_simulate_needs_no_broker_it_starts_its_own_on_loopback() -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    done = subprocess.run([sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--simulate",
                           "--no-page", "--tables", "2", "--players", "12", "--profile", "rpl", "--seats", "10",
                           "--seed", "2"], check=False, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "no --broker given: a Mosquitto of its own on 127.0.0.1:" in done.stdout
    assert "set_tcp_nodelay on" in done.stdout and "winner Player" in done.stdout


def test_without_mosquitto_simulate_reaches_a_winner_through_the_pure_python_broker(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A bare machine (no Mosquitto anywhere): `tournament --simulate`, no option given (the room is `main`; no
    page, which would stay up until closed), runs to one winner through the pure-Python MQTT 5 broker the command
    starts on loopback, and stops it."""
    from firmware_py.cli import main  # noqa: PLC0415
    from firmware_py.room import embedded_broker  # noqa: PLC0415

    monkeypatch.setattr(embedded_broker, "mosquitto_path", lambda: None)
    started: list[embedded_broker.EmbeddedBroker] = []
    start = embedded_broker.EmbeddedBroker.start

    def keep(self: embedded_broker.EmbeddedBroker) -> embedded_broker.EmbeddedBroker:
        started.append(self)
        return start(self)

    monkeypatch.setattr(embedded_broker.EmbeddedBroker, "start", keep)
    assert main(["tournament", "--simulate", "--no-page"]) == 0
    out = capsys.readouterr().out
    assert "no --broker given: a pure-Python MQTT broker of its own on 127.0.0.1:" in out
    assert "Mosquitto is not installed" in out and re.search(r"\d+ hands in .* winner Player \d+", out), out
    broker = started[0]
    assert broker.process is None and broker.directory is None  # stopped with the command, its directory gone
    assert not embedded_broker._listening(broker.port)


def test_with_no_broker_to_start_simulate_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_py.room import embedded_broker, python_broker  # noqa: PLC0415

    monkeypatch.setattr(embedded_broker, "mosquitto_path", lambda: None)
    monkeypatch.setattr(python_broker, "available", lambda: "the pure-Python broker is not installed (test)")
    with pytest.raises(embedded_broker.BrokerMissing, match=r"Mosquitto is not installed.*the pure-Python broker is "
                                                             r"not installed.*apt-get install mosquitto.*pip install "
                                                             r"-e \..*--broker HOST"):
        embedded_broker.EmbeddedBroker().start()


def test_the_simulated_page_stays_until_closed_and_shows_the_end(broker: Mosquitto) -> None:
    import json  # noqa: PLC0415
    import re  # noqa: PLC0415
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415
    import urllib.request  # noqa: PLC0415

    from tests.tracker_table import http_pair  # noqa: PLC0415

    process = subprocess.Popen([sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--broker",
                                f"127.0.0.1:{broker.port}", "--simulate", "--listen", "127.0.0.1:0", "--tables", "2",
                                "--players", "12", "--seed", "2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, cwd=ROOT)
    lines: list[str] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 120
        while not any("the page stays on" in line for line in lines):
            assert time.monotonic() < deadline and process.poll() is None, "".join(lines)[-2000:]
            lines.append(process.stdout.readline())
        url = re.search(r"page is on (http://[0-9.:]+)/", "".join(lines))
        assert url, lines
        code = re.search(r"pair a browser with the code ([0-9 ]+)", "".join(lines))
        assert code, lines
        cookie = http_pair(url.group(1), code.group(1))  # the page answers a paired client only
        time.sleep(3)  # well past the 8-15 s the page used to vanish in, counting from the winner
        request = urllib.request.Request(url.group(1) + "/state", headers={"Cookie": cookie})
        state = json.loads(urllib.request.urlopen(request, timeout=5).read())
        assert state["over"] and state["winner"] and not state["running"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_speed_paces_the_tables_and_a_broker_with_nagle_on_is_named(tmp_path: Any) -> None:
    import time  # noqa: PLC0415

    server = Mosquitto(tmp_path / "nagle")  # as a stock Mosquitto: without the shipped set_tcp_nodelay
    server.conf.write_text(server.conf.read_text().replace("set_tcp_nodelay true\n", ""))
    server.start()
    try:
        director = build(_args(tables="2", players=12, seed=2), "main", sim_clock=True)
        decks = (load_deck(ROOT / "config/decks/test-red.json"), load_deck(ROOT / "config/decks/test-blue.json"))
        said: list[str] = []
        began = time.monotonic()
        result = simulate_room(director, broker_config(server), room="main", profile=load_profiles()["wfp"],
                               decks=decks, seed=2, max_hands=40, speed=2000.0, log=said.append)
        assert time.monotonic() - began >= result.sim_minutes * 60.0 / 2000.0 > 0.5
        assert result.slow_broker and any("set_tcp_nodelay" in line for line in said)
    finally:
        server.stop()


def test_a_real_tournament_still_needs_its_room_named(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_py.cli import main  # noqa: PLC0415

    assert main(["tournament", "--no-page"]) == 2  # not simulated: the tables' and the floor's room, never guessed
    assert "--room is required" in capsys.readouterr().err
