"""The pages' guards under abuse, on loopback: malformed and half-open requests leave no traceback in
the log, and a burst of presses is answered (taken, refused or "busy"), never reset."""

from __future__ import annotations

import contextlib
import http.client
import logging
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.web.amounts import parse_amount
from tests.tracker_table import TrackerTable

MALFORMED = [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"POST /press HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n\r\n{",
    b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"POST /pair HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Length: 5\r\n\r\n\xff\xfe\x00{{",
    b"POST /players HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Length: 2\r\n\r\n[]",
]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TrackerTable]:
    running = TrackerTable(Path(tmp_path_factory.mktemp("guards"))).start()
    yield running
    running.stop()


def test_a_thousand_malformed_and_half_open_requests_log_no_traceback(table: TrackerTable,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    host, port = table.tracker.address
    name = f"{host}:{port}".encode()
    half_open = []
    for index in range(1000):
        sock = socket.create_connection((host, port), timeout=5)
        if index % 4 == 0:  # half-open: a request begun and never finished, left hanging for a while
            sock.sendall(b"POST /press HTTP/1.1\r\nHost: ")
            half_open.append(sock)
            if len(half_open) >= 150:
                for held in half_open:
                    held.close()
                half_open.clear()
            continue
        sock.sendall(MALFORMED[index % len(MALFORMED)].replace(b"{host}", name))
        sock.shutdown(socket.SHUT_WR)
        with contextlib.suppress(OSError):
            sock.recv(4096)
        sock.close()
    for held in half_open:
        held.close()
    status, _body, _ = table.request("/state")
    assert status == 401  # still answering
    records = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert records == []
    assert "Traceback" not in caplog.text


def test_four_hundred_concurrent_presses_are_all_answered(table: TrackerTable) -> None:
    cookie = table.pair()
    host, port = table.tracker.address
    answers: Counter[int | str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(400)

    def press() -> None:
        start.wait()
        connection = http.client.HTTPConnection(host, port, timeout=20)
        try:
            connection.request("POST", "/press", body=b'{"name": "fold", "hand": 99, "count": 0}',
                               headers={"Content-Type": "application/json", "Cookie": cookie,
                                        "Origin": f"http://{host}:{port}"})
            status: int | str = connection.getresponse().status
        except OSError as exc:  # a reset would land here
            status = type(exc).__name__
        finally:
            connection.close()
        with lock:
            answers[status] += 1

    threads = [threading.Thread(target=press) for _ in range(400)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sum(answers.values()) == 400
    assert set(answers) <= {409, 503}, answers  # refused by the table (stale), or "busy": never reset
    assert answers[409] > 0, answers


@pytest.mark.parametrize(("typed", "chips"), [
    ("1,200", 1200), ("1.2k", 1200), ("1.25K", 1250), (" 12 000 ", 12000), ("\uff11\uff12\uff10\uff10", 1200),
    ("2m", 2_000_000), ("1\u202f500", 1500), ("600", 600),
])
def test_the_amount_parser_takes_what_people_type(typed: str, chips: int) -> None:
    assert parse_amount(typed) == chips


@pytest.mark.parametrize(("typed", "words"), [
    ("1,2", "groups of three"), ("1.5", "whole number"), ("abc", "not an amount"), ("", "no amount"),
    ("0", "more than 0"), ("1.2345k", "whole number"), ("-5", "not an amount"), ("\u0661\u0662", "not an amount"),
])
def test_the_amount_parser_refuses_in_words(typed: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_amount(typed)
