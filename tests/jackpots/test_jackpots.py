"""Jackpot hands: the house file read with its mistakes named, a hand qualified as it ends, and the evidence packet
the daemon writes, which `verify` accepts as written and refuses, naming the event, with any one byte changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.core import RulingKind
from firmware_py.errors import ConfigError
from firmware_py.extensions import Where
from firmware_py.jackpots import JackpotWatch, load_jackpots, parse_jackpots_config, qualify
from tests.jackpots.bad_beat import HOUSE, SESSION, play_bad_beat
from tests.rules.table_driver import Table

ROOT = Path(__file__).resolve().parents[2]


def _showdown(holes: dict[int, list[str]], board: list[str], *, fold_first: int = 0) -> Table:
    """Four seats; `fold_first` of seats 4 and 1 fold, the rest check it down to the showdown."""
    t = Table("wfp")
    t.reserved = set(board)
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    order = [2, 3, 4, 1]
    t.deal([holes[s][0] for s in order] + [holes[s][1] for s in order])
    t.act(*(["fold"] * fold_first), *(["call"] * (3 - fold_first)), "check")
    t.flop(board[:3])
    live = 4 - fold_first
    t.act(*(["check"] * live))
    t.turn(board[3])
    t.act(*(["check"] * live))
    t.river(board[4])
    t.act(*(["check"] * live))
    return t


def _qualified(t: Table) -> list[tuple[str, int]]:
    snapshot = t.core.snapshot()
    assert snapshot.showdown is not None
    return [(q.jackpot.name, q.seat) for q in qualify(load_jackpots(HOUSE), snapshot, snapshot.showdown)]


def test_bad_beat_aces_full_beaten_by_four_of_a_kind_both_hole_cards_playing_qualifies() -> None:
    t = _showdown({2: ["As", "Ad"], 3: ["9h", "9d"], 4: ["2d", "7c"], 1: ["Ts", "4h"]},
                  ["Ac", "Kh", "Kd", "9s", "9c"], fold_first=2)
    assert _qualified(t) == [("Bad beat", 2), ("High hand", 3)]


def test_bad_beat_not_when_a_hole_card_does_not_play() -> None:
    # Seat 2's aces full uses one hole card (Ad with Ac Ah on the board): both must play.
    t = _showdown({2: ["Ad", "3c"], 3: ["Kh", "Kc"], 4: ["2d", "7c"], 1: ["Ts", "4h"]},
                  ["Ac", "Ah", "Ks", "Qd", "Jd"], fold_first=2)
    assert _qualified(t) == []


def test_bad_beat_not_below_the_minimum_players_dealt_in() -> None:
    t = Table("wfp", seats=(1, 2, 3))
    t.reserved = {"Ac", "Kh", "Kd", "9s", "9c"}
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000)
    t.new_hand()
    t.deal(["As", "9h", "2d", "Ad", "9d", "7c"])  # seats 2, 3, 1
    t.act("fold", "call", "check")
    for street in (["Ac", "Kh", "Kd"], ["9s"], ["9c"]):
        (t.flop if len(street) == 3 else t.turn if street == ["9s"] else t.river)(*(
            [street] if len(street) == 3 else street))
        t.act("check", "check")
    assert [name for name, _ in _qualified(t)] == ["High hand"]  # three dealt in: the bad beat wants four


@pytest.mark.parametrize(("text", "message"), [
    ('[[jackpot]]\nname = "B"\nkind = "bad_beet"\nrule = "1"\nminimum = "As Ah Ad 2c 2d"\n',
     "[jackpot #1] kind: must be one of bad_beat, high_hand, not 'bad_beet' (did you mean 'bad_beat'?)"),
    ('[[jackpot]]\nname = "B"\nkind = "bad_beat"\nrule = "1"\nminimum = "As Ah Ad 2c"\n',
     "[jackpot #1] minimum: must be five different cards, not 'As Ah Ad 2c' (e.g. minimum = \"As Ah Ad 2c 2d\""),
    ('[[jackpot]]\nname = "B"\nkind = "bad_beat"\nrule = "1"\nminimum = "As Ah Ad 2c 2d"\nmin_player = 4\n',
     "[jackpot #1] min_player: unknown key (did you mean 'min_players'?)"),
    ('[[jackpot]]\nname = "B"\nkind = "bad_beat"\nrule = "1"\nminimum = "As Ah Ad 2c 2d"\ngames = ["holdam"]\n',
     "[jackpot #1] games: 'holdam' is not a game (did you mean 'holdem'?)"),
])
def test_a_bad_house_file_names_the_file_the_entry_the_key_and_a_fix(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "jackpots.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_jackpots(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_a_short_signing_key_is_refused_with_how_to_make_one(tmp_path: Path) -> None:
    (tmp_path / "jackpot.key").write_bytes(b"short")
    raw = {"file": str(HOUSE), "key_file": "jackpot.key", "packets": "packets"}
    with pytest.raises(ConfigError, match=r"table.toml: \[jackpots\] key_file: .* fewer than 32; make one with"):
        parse_jackpots_config(raw, Where(source="table.toml", base_dir=tmp_path))


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, JackpotWatch]:
    """The bad-beat session through the real daemon with the [jackpots] extension: the packet it writes."""
    tmp = tmp_path_factory.mktemp("jackpot")
    (tmp / "jackpot.key").write_bytes(bytes(range(32)) * 2)
    config = parse_jackpots_config({"file": str(HOUSE), "key_file": "jackpot.key", "packets": "packets"},
                                   Where(source="table.toml", base_dir=tmp))
    watch = play_bad_beat(tmp / "journal.sqlite3", config)
    assert len(watch.written) == 2, watch.written  # the bad beat (seat 2) and the high hand (seat 3)
    return next(p for p in watch.written if "bad-beat" in p.name), tmp / "jackpot.key", watch


def test_the_jackpot_is_ruled_as_the_hand_ends_with_the_house_files_rule_cited(packet) -> None:
    _path, _key, watch = packet
    bad_beat = next(r for r in watch.rulings if r["jackpot"] == "Bad beat")
    assert bad_beat["ruling"] == "jackpot" and bad_beat["seat"] == 2 and bad_beat["winners"] == [3]
    assert bad_beat["rule"].startswith("house (jackpots.toml): Bad Beat Jackpot 1")
    assert "aces full of kings (As Ad) lost to seat 3's four of a kind, nines (9h 9d)" in bad_beat["remedy"]


def test_the_evidence_packet_holds_the_hands_events_checksums_chain_cards_readers_and_times(packet) -> None:
    path, _key, _watch = packet
    lines = path.read_bytes().splitlines()
    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:-1]]
    assert json.loads(events[0]["line"])["name"] == "new_hand" and header["events"] == len(events)
    assert all({"seq", "line", "crc", "chain"} <= set(e) for e in events)
    assert {c["card"] for c in header["cards"]} >= {"As", "Ad", "9h", "9d", "Ac", "Kh", "Kd", "9s", "9c"}
    assert {c["reader"] for c in header["cards"]} >= {"shoe", "board1", "board5"}
    assert all(isinstance(c["t"], float) for c in header["cards"]) and header["written_utc"].endswith("Z")
    assert header["ruling"]["ruling"] == "jackpot" and header["showdown"]["winners"] == [3]
    assert path.stat().st_mode & 0o777 == 0o600


def test_verify_accepts_the_packet_as_written(packet, capsys: pytest.CaptureFixture[str]) -> None:
    path, key, _watch = packet
    assert main(["verify", str(path), "--key", str(key)]) == 0
    assert "verified: Bad beat" in capsys.readouterr().out


def _changed(path: Path, tmp_path: Path, at: int) -> Path:
    data = bytearray(path.read_bytes())
    data[at] = data[at] ^ 0x01 if data[at] not in (0x0A, 0x0B) else 0x20
    copy = tmp_path / "changed.jsonl"
    copy.write_bytes(bytes(data))
    return copy


def test_verify_refuses_a_copy_with_one_byte_changed_naming_the_event(packet, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, key, _watch = packet
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    first_seq = json.loads(lines[0])["first_seq"]
    starts = [sum(len(line) for line in lines[:i]) for i in range(len(lines))]
    for index in range(1, len(lines) - 1):  # each event line: a byte in its text, its checksum, its chain
        event = json.loads(lines[index])
        for offset in (2, len(lines[index]) // 2, len(lines[index]) - 3, len(lines[index]) - 1):
            copy = _changed(path, tmp_path, starts[index] + offset)
            assert main(["verify", str(copy), "--key", str(key)]) == 1
            err = capsys.readouterr().err
            assert f"event #{event['seq']} (line {index + 1}) was changed" in err, (index, offset, err)
    copy = _changed(path, tmp_path, 40)  # the header
    assert main(["verify", str(copy), "--key", str(key)]) == 1
    assert "the header (line 1) was changed" in capsys.readouterr().err
    assert first_seq > 1  # the hand's events, not the whole session's


def test_verify_refuses_another_key(packet, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _key, _watch = packet
    other = tmp_path / "other.key"
    other.write_bytes(b"x" * 32)
    assert main(["verify", str(path), "--key", str(other)]) == 1
    assert "signed with another key" in capsys.readouterr().err


def test_the_showdown_ruling_itself_is_the_books(packet) -> None:
    """The core rules the showdown as before; the jackpot is the house file's, beside it."""
    expected = SESSION.with_name(SESSION.stem + ".expected.jsonl").read_text().splitlines()
    assert [json.loads(line)["ruling"] for line in expected] == [RulingKind.SHOWDOWN.value]


def test_the_table_file_takes_a_jackpots_section_and_names_a_misspelled_key(tmp_path: Path) -> None:
    from firmware_py.config_toolkit import read_toml  # noqa: PLC0415
    from firmware_py.daemon.table_config import parse_table_config  # noqa: PLC0415
    from firmware_py.jackpots import JackpotsConfig  # noqa: PLC0415

    (tmp_path / "jackpot.key").write_bytes(b"k" * 32)
    data = read_toml(ROOT / "config" / "table.toml", what="table file")
    data["jackpots"] = {"file": "jackpots.toml", "key_file": str(tmp_path / "jackpot.key"),
                        "packets": str(tmp_path / "packets")}
    config = parse_table_config(data, source="table.toml", base_dir=ROOT / "config", with_display=False)
    jackpots = config.extensions["jackpots"]
    assert isinstance(jackpots, JackpotsConfig) and [j.name for j in jackpots.jackpots] == ["Bad beat", "High hand"]
    data["jackpots"] = {"file": "jackpots.toml", "key_fil": "x", "packets": "p"}
    with pytest.raises(ConfigError, match=r"table.toml: \[jackpots\] key_fil: unknown key"):
        parse_table_config(data, source="table.toml", base_dir=ROOT / "config", with_display=False)
