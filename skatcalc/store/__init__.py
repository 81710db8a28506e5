"""Storage: the only place with SQL (sqlite-utils 4). Connections (one per thread, WAL,
foreign keys), storage faults, the database's place on disk, and the names every store module
shares (``NotFound``, ``is_id``, ``now``, ``cache_write``).

Beside it: ``store.sheets`` (sheets, deals, history, rule changes, idempotency keys),
``store.settings`` (the admin token), ``store.records`` (the typed records and their one
decoder each), ``store.migrations`` (the schema, frozen). Only the services call ``store``;
views never import it (tests/services/test_sheet_service.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from flask import Flask, current_app
from sqlite_utils import Database

from . import migrations as schema

# --- Connections ------------------------------------------------------------------------------

BUSY_TIMEOUT = 5.0  # seconds a write waits for another writer before the player is told


def select(db: Database, sql: str, params: Sequence[object] = ()) -> list[dict[str, Any]]:
    """The rows of a ``select`` as dicts, in one statement: sqlite-utils' ``query`` runs each
    inside a savepoint (three statements) to refuse what returns no rows, which a ``select``
    never does, and the sheet and its history are read on every request."""
    cur = db.execute(sql, list(params))
    keys = [d[0] for d in cur.description]
    return [dict(zip(keys, row, strict=True)) for row in cur.fetchall()]


class WritingDatabase(Database):
    """sqlite-utils' Database whose outermost ``atomic()`` takes SQLite's write lock at once
    (``BEGIN IMMEDIATE``), waiting for it up to the busy timeout.

    A deferred ``BEGIN`` reads first and asks for the write lock at its first write; in WAL
    mode, when another writer committed in between, that upgrade fails at once with "database
    is locked" (SQLITE_BUSY_SNAPSHOT: the busy timeout cannot help a stale snapshot), and a
    table's save was refused in milliseconds. Taking the lock first, a write waits its turn.
    Nested blocks stay savepoints, as in sqlite-utils."""

    @contextmanager
    def atomic(self) -> Iterator[Database]:
        if self.conn.in_transaction:
            with super().atomic() as db:
                yield db
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.conn.rollback()
            raise
        else:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.rollback()
                raise


def connect(path: str, busy_timeout: float = BUSY_TIMEOUT, durable: bool = False) -> Database:
    """One connection with the settings every connection needs, set once per connection.

    Durability (README): WAL with ``synchronous=NORMAL`` loses nothing when the process
    dies, however it dies; a power cut or OS crash can lose the last commits unless
    ``durable`` (``synchronous=FULL``: every commit is synced to the disk)."""
    conn = sqlite3.connect(path, timeout=busy_timeout, check_same_thread=False,
                           isolation_level=None)  # fmt: skip
    db = WritingDatabase(conn, execute_plugins=False)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
    db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
    return db


class Connections:
    """One connection per thread for the life of the app: waitress keeps its threads, so
    each opens its connection once instead of once per request."""

    def __init__(self, path: str, busy_timeout: float, durable: bool) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self.durable = durable
        self._local = threading.local()
        self._all: list[Database] = []
        self._lock = threading.Lock()

    def get(self) -> Database:
        db: Database | None = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.path, self.busy_timeout, self.durable)
            self._local.db = db
            with self._lock:
                self._all.append(db)
        return db

    def release(self) -> None:
        """End of a request: a transaction left open by an error is rolled back, so the
        thread's connection never holds SQLite's write lock between requests."""
        db: Database | None = getattr(self._local, "db", None)
        if db is not None and db.conn.in_transaction:
            db.conn.rollback()

    def close_all(self) -> None:
        with self._lock:
            dbs, self._all = self._all, []
        for db in dbs:
            try:
                db.close()
            except sqlite3.Error:
                pass


def migrate(path: str) -> None:
    db = connect(path)
    try:
        schema.migrations.apply(db)
    finally:
        db.close()


class StorageUnusable(Exception):
    """The database cannot be opened or written at start: one line for the user."""

    what = "Datenbank / database"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class KeyUnusable(StorageUnusable):
    """The secret key beside the database cannot be read or made."""

    what = "Schlüssel / secret key"


def check_path(path: str) -> None:
    """Open, migrate and write-test the database at ``path``, or raise StorageUnusable with
    the reason in words (missing or read-only folder, read-only file, not a database)."""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(folder):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise StorageUnusable(
                path, f"cannot create the folder {folder} ({exc.strerror})"
            ) from None
    if os.path.isdir(path):
        raise StorageUnusable(path, "this is a folder, not a database file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageUnusable(path, f"the folder {folder} is not writable")
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        raise StorageUnusable(path, "the file is not readable and writable")
    try:
        migrate(path)
        db = connect(path)
        try:
            with db.atomic():  # a write that changes nothing proves the file can take writes
                db.execute("create table if not exists _write_check (x)")
                db.execute("drop table _write_check")
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise StorageUnusable(path, describe_fault(exc)) from None
    except OSError as exc:
        raise StorageUnusable(path, exc.strerror or str(exc)) from None


DB_NAME = "skatcalc.sqlite"


def default_location(instance_path: str) -> tuple[str, str | None]:
    """The database when none is named: ``skatcalc.sqlite`` in the user's data folder
    (``~/.local/share/skatcalc`` on Linux), where a reinstall or a new virtual environment
    finds it again; and one line for the user when an older database was found elsewhere.

    Before, the default was the app's instance folder, which for an installed package lies
    inside the virtual environment. A database found there is moved (copied with SQLite's
    backup, checked, then the old file renamed to ``….moved``); if both exist, the data
    folder's is used and the line says where the other one is."""
    import platformdirs

    folder = platformdirs.user_data_dir("skatcalc", appauthor=False)
    new = os.path.join(folder, DB_NAME)
    old = os.path.join(instance_path, DB_NAME)
    if os.path.abspath(old) == os.path.abspath(new) or not os.path.exists(old):
        return new, None
    if os.path.exists(new):
        return new, (
            f"Note: an older database is still at {old}; skatcalc uses {new} "
            f"(open the old one with --db {old})."
        )
    try:
        _move_database(old, new)
        old_key = os.path.join(instance_path, "secret_key")
        new_key = os.path.join(folder, "secret_key")
        if os.path.exists(old_key) and not os.path.exists(new_key):
            with open(old_key) as f, open(new_key, "w") as g:
                g.write(f.read())
            os.chmod(new_key, 0o600)
    except (OSError, sqlite3.Error) as exc:
        # The evenings stay where they are, and are used from there, until the move can be made.
        return (
            old,
            f"Note: could not move the database {old} to {new} ({exc}); using it where it is.",
        )
    return new, f"Moved the database from {old} to {new} (the old file is kept as {old}.moved)."


def _move_database(old: str, new: str) -> None:
    os.makedirs(os.path.dirname(new), exist_ok=True)
    tmp = new + ".moving"
    src = sqlite3.connect(old)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)  # consistent, WAL included, even while another process writes
            (ok,) = dst.execute("pragma integrity_check").fetchone()
            if ok != "ok":
                raise sqlite3.DatabaseError(f"copy failed its integrity check: {ok}")
        finally:
            dst.close()
    finally:
        src.close()
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, new)
    os.replace(old, old + ".moved")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(old + suffix):
            os.remove(old + suffix)


def fault_of(exc: BaseException) -> str | None:
    """What kind of storage fault ``exc`` is: "busy", "full", "readonly", "io", or None."""
    if not isinstance(exc, sqlite3.Error):
        return None
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "busy"
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")) or "readonly" in text:
        return "readonly"
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_CORRUPT", "SQLITE_NOTADB")) or (
        "disk i/o" in text or "unable to open" in text
    ):
        return "io"
    return None


def describe_fault(exc: BaseException) -> str:
    kind = fault_of(exc)
    return {
        "busy": "the database is locked by another program",
        "full": "the disk is full",
        "readonly": "the database is read-only",
        "io": "the file cannot be read or written (" + str(exc) + ")",
    }.get(kind or "", str(exc))


def get_db() -> Database:
    pool: Connections = current_app.extensions["skatcalc_db"]
    return pool.get()


def close_db(_exc: BaseException | None = None) -> None:
    pool = current_app.extensions.get("skatcalc_db")
    if pool is not None:
        pool.release()


def init_app(app: Flask) -> None:
    pool = Connections(
        app.config["DATABASE"],
        float(app.config.get("DB_BUSY_TIMEOUT", BUSY_TIMEOUT)),
        bool(app.config.get("DB_DURABLE")),
    )
    app.extensions["skatcalc_db"] = pool
    # The connections go with the app (tests make many apps; a server makes one).
    weakref.finalize(app, pool.close_all)
    # No ``flask init-db`` here: the one ``init-db`` is the ``skatcalc`` command (cli.py),
    # and every start of the app migrates anyway (check_path).
    app.teardown_appcontext(close_db)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class NotFound(Exception):
    pass


# SQLite stores signed 64-bit integers; binding a larger Python int raises OverflowError.
# An id beyond this names nothing: routes do not match it (http.BoundedIntConverter), and ids
# from bodies and forms are checked with ``is_id`` before they reach a query.
MAX_ID = 2**63 - 1


def is_id(value: object) -> bool:
    """A whole number (not a bool) a row id can be: 0 … 2^63−1."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID


@contextmanager
def cache_write(db: Database) -> Iterator[None]:
    """A write of derived data on a read, in one transaction that never waits: while another
    writer (a save, another program) holds the database, the read goes on without writing
    (busy timeout 0) and the next read writes it. A storage fault of any kind is swallowed so;
    what was to be kept can always be computed again."""
    (timeout,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute("PRAGMA busy_timeout=0")
    try:
        # sqlite-utils' deferred BEGIN, not WritingDatabase's IMMEDIATE: a lock refused at
        # BEGIN would raise before the caller's block runs, which a context manager cannot skip
        with Database.atomic(db):
            yield
    except sqlite3.Error:
        pass  # only a cache
    finally:
        db.execute(f"PRAGMA busy_timeout={int(timeout)}")


def body_hash(body: object) -> str:
    """What an Idempotency-Key is stored with: the hash of the body it came with."""
    return hashlib.sha256(
        json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
