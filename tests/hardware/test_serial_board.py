"""The serial antenna board: protocol, corrupted lines, and a USB cable pulled and plugged back."""

from __future__ import annotations

import queue
import random
import threading
import time

import pytest
import serial

from firmware_py.core.events import Gone, Read
from firmware_py.errors import ProtocolError
from hardware.emulation.serial_board import EmulatedBoard
from hardware.hardware_config import PresenceTiming, SerialBoardConfig
from hardware.protocol import Scan, decode, encode
from hardware.reader_health import ReaderFault, ReaderRecovered
from hardware.serial_board import SerialBoardReader

ANTENNAS = ("board1", "board2", "board3", "muck")
TIMING = PresenceTiming(debounce_s=0.0, removal_delay_s=0.5)


def config(port: str = "loop://", **overrides: object) -> SerialBoardConfig:
    values: dict[str, object] = {"name": "felt", "port": port, "antennas": ANTENNAS, "reconnect_s": 0.05}
    values.update(overrides)
    return SerialBoardConfig(**values)  # type: ignore[arg-type]


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_line_round_trips():
    line = encode(Scan(seq=65535, port=3, uids=("04A1B2C3D4E5F6", "DEADBEEF")))
    assert decode(line) == Scan(seq=65535, port=3, uids=("04A1B2C3D4E5F6", "DEADBEEF"))


@pytest.mark.parametrize(("line", "reason"), [
    (b"S,1,0,DEADBEEF*0000", "does not start with '\\$'"),
    (b"$S,1,0,DEADBEEF", "no '\\*'"),
    (b"$S,1,0,DEADBEEF*0000", "checksum 0000 does not match"),
    (encode(Scan(seq=1, port=0, uids=("DEADBEEF",))).replace(b"DEADBEEF", b"DEADBEEE"), "corrupted"),
])
def test_a_broken_line_is_rejected_with_the_reason(line, reason):
    with pytest.raises(ProtocolError, match=reason):
        decode(line)


def test_a_scan_line_becomes_a_read_on_the_configured_antenna(events, drain):
    clock = FakeClock()
    reader = SerialBoardReader(config(), queue=events, clock=clock, timing_for=lambda _: TIMING)
    reader.feed(encode(Scan(seq=0, port=1, uids=("DEADBEEF",))))
    clock.t = 1.0
    reader.feed(encode(Scan(seq=1, port=1, uids=())))
    assert drain(events) == [Read(t=0.0, antenna="board2", uid="DEADBEEF"),
                             Gone(t=1.0, antenna="board2", uid="DEADBEEF")]


def test_lines_split_across_reads_are_joined(events, drain):
    reader = SerialBoardReader(config(), queue=events, clock=FakeClock(), timing_for=lambda _: TIMING)
    line = encode(Scan(seq=0, port=0, uids=("DEADBEEF",)))
    for i in range(len(line)):
        reader.feed(line[i:i + 1])
    assert [e.uid for e in drain(events)] == ["DEADBEEF"]
    assert reader.lines_bad == 0


def test_a_port_the_config_does_not_know_is_counted_not_fatal(events, drain):
    reader = SerialBoardReader(config(), queue=events, clock=FakeClock(), timing_for=lambda _: TIMING)
    reader.feed(encode(Scan(seq=0, port=9, uids=("DEADBEEF",))))
    assert reader.lines_bad == 1
    assert "port 9 is not in [serial] antennas" in reader.last_error
    assert drain(events) == []


def test_lost_lines_are_counted_from_sequence_gaps(events):
    reader = SerialBoardReader(config(), queue=events, clock=FakeClock(), timing_for=lambda _: TIMING)
    for seq in (65534, 65535, 0, 4):
        reader.feed(encode(Scan(seq=seq, port=0, uids=())))
    assert reader.lines_lost == 3


def test_100000_random_and_corrupted_lines_cause_no_crash(events, drain):
    rng = random.Random(2024)
    clock = FakeClock()
    reader = SerialBoardReader(config(), queue=events, clock=clock, timing_for=lambda _: TIMING)
    good = [encode(Scan(seq=i % 65536, port=i % 4, uids=("04A1B2C3D4E5F6",) if i % 4 == 0 else ()))
            for i in range(1000)]
    for i in range(100_000):
        clock.t = i * 0.001
        kind = i % 4
        if kind == 0:  # random bytes, newlines included
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120)))
        elif kind == 1:  # a good line with bits flipped
            line = bytearray(rng.choice(good))
            for _ in range(rng.randrange(1, 4)):
                line[rng.randrange(len(line) - 1)] ^= 1 << rng.randrange(8)
            data = bytes(line)
        elif kind == 2:  # a good line cut short, or two glued
            line = rng.choice(good)
            data = line[: rng.randrange(len(line))] if rng.random() < 0.5 else line[:-1] + rng.choice(good)
        else:  # printable junk that looks like the protocol
            data = ("$" + "".join(rng.choice("SIE,;*0123456789ABCDEF$") for _ in range(rng.randrange(40))) +
                    "\n").encode()
        reader.feed(data)
    assert reader.lines_bad > 50_000
    assert all(isinstance(e, Read | Gone) and e.antenna in ANTENNAS for e in drain(events))
    # A valid line still works after all that noise.
    reader.feed(b"\n" + encode(Scan(seq=1, port=3, uids=("0A0B0C0D",))))
    assert "0A0B0C0D" in reader.presence[3].present


def test_a_board_on_a_loop_port_reaches_events(events, drain):
    port = serial.serial_for_url("loop://", timeout=0.01)
    board = EmulatedBoard(4, port=port)
    reader = SerialBoardReader(config(), queue=events, clock=time.monotonic, timing_for=lambda _: TIMING,
                               open_port=lambda *_a, **_k: port)
    reader.step()  # opens; the first bytes after opening are taken as mid-line
    board.write_raw(b"\n")
    board.place(2, "04A1B2C3D4E5F6")
    board.scan()
    for _ in range(10):
        reader.step()
    assert [(e.antenna, e.uid) for e in drain(events)] == [("board3", "04A1B2C3D4E5F6")]


def _wait_for(q: queue.Queue[object], predicate, timeout: float) -> tuple[object | None, list[object]]:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = q.get(timeout=0.05)
        except queue.Empty:
            continue
        seen.append(item)
        if predicate(item):
            return item, seen
    return None, seen


def test_a_board_unplugged_and_replugged_is_back_within_2_seconds_with_no_lost_card(tmp_path):
    link = tmp_path / "usb-pokertable_felt-board-if00"
    board = EmulatedBoard(4, link=link)
    events: queue.Queue[object] = queue.Queue()
    reader = SerialBoardReader(config(str(link), reconnect_s=0.1), queue=events, clock=time.monotonic,
                               timing_for=lambda _: PresenceTiming(debounce_s=0.0, removal_delay_s=0.5))
    reader.start()
    board.start(interval_s=0.02)
    try:
        board.place(0, "04A1B2C3D4E5F6")
        first, _ = _wait_for(events, lambda e: isinstance(e, Read), timeout=5.0)
        assert first is not None, "the board was never read before the unplug"

        board.unplug()
        fault, _ = _wait_for(events, lambda e: isinstance(e, ReaderFault), timeout=5.0)
        assert fault is not None and "disappeared" in fault.message
        board.place(1, "DEADBEEF")  # placed while the cable is out
        time.sleep(1.0)  # longer than the removal delay: the first card must not be reported gone

        plugged_at = time.monotonic()
        board.plug_in()
        read, seen = _wait_for(events, lambda e: isinstance(e, Read) and e.uid == "DEADBEEF", timeout=2.0)
        back_after = time.monotonic() - plugged_at
    finally:
        reader.stop()
        board.stop()
    assert read is not None, f"no read within 2 s of the replug; saw {seen}"
    assert back_after <= 2.0
    assert any(isinstance(e, ReaderRecovered) for e in seen)
    assert not any(isinstance(e, Gone) for e in seen), "a card was reported gone because of the cable"
    assert not any(isinstance(e, Read) and e.uid == "04A1B2C3D4E5F6" for e in seen), "a resting card read twice"


def test_a_port_that_never_existed_faults_once_and_keeps_trying(tmp_path, events, drain):
    clock = FakeClock()
    reader = SerialBoardReader(config(str(tmp_path / "nothing")), queue=events, clock=clock)
    for i in range(10):
        clock.t = i * 0.1
        reader.step()
    records = drain(events)
    assert len(records) == 1 and isinstance(records[0], ReaderFault)
    assert "cannot open" in records[0].message and "nothing" in records[0].message


def test_the_reader_thread_survives_an_unexpected_error(events):
    calls = threading.Event()

    def broken_open(*_a, **_k):
        calls.set()
        raise RuntimeError("driver bug")

    reader = SerialBoardReader(config(), queue=events, clock=time.monotonic, open_port=broken_open)
    reader.start()
    assert calls.wait(2.0)
    time.sleep(0.2)
    assert reader._thread is not None and reader._thread.is_alive()
    reader.stop()
