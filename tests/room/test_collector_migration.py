"""The collector's start-up schema change never waits behind a reader (a real PostgreSQL).

A report left idle in a transaction (the bench's own `PostgresStore.query` did) holds its tables' shared
locks; `ALTER TABLE ... ADD COLUMN IF NOT EXISTS` takes the exclusive lock even when the column is there, so a
collector restarted behind such a reader hung silently. Now a column that is there is not altered, a missing
one waits at most SCHEMA_LOCK_S and the refusal names the session in the way, and `query` ends its own
transaction."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_py.errors import ConfigError
from firmware_py.room import collector
from firmware_py.room.collector import PostgresStore, open_store
from tests.room.services import Postgres

psycopg = pytest.importorskip("psycopg")


def _open_within(url: str, seconds: float) -> object:
    """open_store(url) on a thread: what it returned or raised, or TimeoutError if it still waits."""
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(_attempt(url)), daemon=True)
    thread.start()
    thread.join(seconds)
    return out[0] if out else TimeoutError(f"open_store still waiting after {seconds} s")


def _attempt(url: str) -> object:
    try:
        return open_store(url)
    except ConfigError as exc:
        return exc


def test_a_reader_idle_in_a_transaction_does_not_hold_up_the_collectors_start(postgres_server: Postgres) -> None:
    open_store(postgres_server.url).close()  # the schema, as a running room has it
    with psycopg.connect(postgres_server.url, application_name="a report") as reader:
        reader.execute("SELECT count(*) FROM hands").fetchall()  # and left idle in its transaction
        started = time.monotonic()
        store = _open_within(postgres_server.url, 4 * collector.SCHEMA_LOCK_S)
        assert isinstance(store, PostgresStore), store
        assert time.monotonic() - started < collector.SCHEMA_LOCK_S  # no lock waited for: nothing to change
        store.close()


def test_a_missing_column_behind_a_reader_is_refused_naming_the_reader(postgres_server: Postgres,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "SCHEMA_LOCK_S", 1.0)
    open_store(postgres_server.url).close()
    with psycopg.connect(postgres_server.url, autocommit=True) as admin:
        admin.execute("ALTER TABLE hands DROP COLUMN phh_problem")  # a database from before that column
    try:
        with psycopg.connect(postgres_server.url, application_name="a report") as reader:
            reader.execute("SELECT count(*) FROM rulings").fetchall()
            reader.execute("SELECT count(*) FROM hands").fetchall()
            refused = _open_within(postgres_server.url, 20.0)
            assert isinstance(refused, ConfigError), refused
            message = str(refused)
            assert "waited 1 s" in message and "(a report)" in message and "idle in transaction" in message
        store = open_store(postgres_server.url)  # the reader gone, the column is added
        assert store.query("SELECT count(phh_problem) FROM hands")[0][0] >= 0
        store.close()
    finally:
        open_store(postgres_server.url).close()


def test_a_query_leaves_no_transaction_open(postgres_server: Postgres) -> None:
    store = open_store(postgres_server.url)
    assert isinstance(store, PostgresStore)
    store.query("SELECT (SELECT count(*) FROM rulings) + (SELECT count(*) FROM hands)")
    assert store.db.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    store.close()
