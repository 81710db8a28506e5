"""The storage layer on its own: a fresh database file, every write and its history."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from sqlite_utils import Database

from skatcalc import store
from skatcalc.store import sheets as sheet_store
from skatcalc.store.records import Sheet

GRAND = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "declarer": "B"}
HEARTS = {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50, "declarer": "C"}


@pytest.fixture
def fresh_db(tmp_path: Path) -> Iterator[Database]:
    path = str(tmp_path / "fresh.sqlite")
    store.migrate(path)
    db = store.connect(path)
    yield db
    db.close()


@pytest.fixture
def sheet(fresh_db: Database) -> Sheet:
    return sheet_store.create_sheet(
        fresh_db, "Dienstag", "skat", ["A", "B", "C"], "A", {"bock": []}
    )


def rev(db: Database, sheet_id: int) -> int:
    return int(sheet_store.get_sheet(db, sheet_id).rev)


def test_migrations_make_the_schema_and_are_idempotent(tmp_path: Path) -> None:
    path = str(tmp_path / "m.sqlite")
    store.migrate(path)
    db = store.connect(path)
    schema = db.schema
    assert {"sheets", "deals", "history"} <= set(db.table_names())
    assert db.journal_mode == "wal"
    db.close()
    store.migrate(path)  # a second run (every start does one) changes nothing
    store.migrate(path)
    db = store.connect(path)
    assert db.schema == schema
    db.close()


def test_every_connection_enforces_foreign_keys(fresh_db: Database) -> None:
    assert fresh_db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        fresh_db.execute(
            "insert into deals (sheet_id, n, dealer, active, input) values (999, 1, 'A', '[]', '{}')"
        )


def test_create_sheet(fresh_db: Database, sheet: Sheet) -> None:
    assert sheet.players == ["A", "B", "C"] and sheet.rules == {"bock": []}
    assert sheet.name == "Dienstag" and sheet.first_dealer == "A"
    assert sheet.edit_token and sheet.share_token
    assert sheet.edit_token != sheet.share_token
    assert sheet.created == sheet.updated and sheet.rev == 0
    assert sheet_store.get_sheet(fresh_db, sheet.id) == sheet
    assert [s.id for s in sheet_store.list_sheets(fresh_db)] == [sheet.id]
    with pytest.raises(store.NotFound):
        sheet_store.get_sheet(fresh_db, sheet.id + 1)


def test_add_numbers_deals_and_keeps_input_as_sent(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    assert sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND) == (1, True)
    assert sheet_store.add_deal(fresh_db, sid, "B", ["C", "A", "B"], {"passed": True}) == (2, True)
    deals = sheet_store.get_deals(fresh_db, sid)
    assert [d.n for d in deals] == [1, 2]
    assert deals[0].input == GRAND and deals[0].active == ["B", "C", "A"]
    assert deals[0].version == 1 and deals[0].struck is False
    assert sheet_store.deal_count(fresh_db, sid) == 2
    assert rev(fresh_db, sid) == 2
    assert [(h.action, h.n, h.before) for h in sheet_store.get_history(fresh_db, sid)] == [
        ("add", 1, None),
        ("add", 2, None),
    ]
    with pytest.raises(store.NotFound):
        sheet_store.add_deal(fresh_db, sid + 1, "A", ["B", "C", "A"], GRAND)


def test_an_idempotency_key_stores_a_deal_once(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    assert sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND, "k1") == (1, True)
    assert sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND, "k1") == (1, False)
    assert sheet_store.add_deal(fresh_db, sid, "B", ["C", "A", "B"], HEARTS, "k2") == (2, True)
    assert sheet_store.deal_count(fresh_db, sid) == 2
    assert len(sheet_store.get_history(fresh_db, sid)) == 2


def test_correct_keeps_the_old_version_in_history(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND)
    fixed = dict(GRAND, declarer_points=80)
    sheet_store.correct_deal(fresh_db, sid, 1, "A", ["B", "C", "A"], fixed, expected_version=1)
    deal = sheet_store.get_deal(fresh_db, sid, 1)
    assert deal.input == fixed and deal.version == 2
    last = sheet_store.get_history(fresh_db, sid)[-1]
    assert last.action == "correct" and last.n == 1
    assert last.before == {"dealer": "A", "active": ["B", "C", "A"], "input": GRAND,
                              "struck": False, "version": 1}  # fmt: skip
    # A correction made from an older version is refused, and nothing changes.
    with pytest.raises(sheet_store.Conflict) as info:
        sheet_store.correct_deal(fresh_db, sid, 1, "A", ["B", "C", "A"], GRAND, expected_version=1)
    assert info.value.current.version == 2
    assert sheet_store.get_deal(fresh_db, sid, 1).input == fixed
    assert len(sheet_store.get_history(fresh_db, sid)) == 2
    with pytest.raises(store.NotFound):
        sheet_store.correct_deal(fresh_db, sid, 7, "A", ["B", "C", "A"], GRAND)


def test_strike_restore_and_undo(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND)
    sheet_store.add_deal(fresh_db, sid, "B", ["C", "A", "B"], HEARTS)
    assert sheet_store.set_struck(fresh_db, sid, 2, True) is True
    assert sheet_store.set_struck(fresh_db, sid, 2, True) is False  # already struck: no new history
    d2 = sheet_store.get_deal(fresh_db, sid, 2)
    assert d2.struck is True and d2.version == 2
    # The last deal that counts skips struck deals: the next dealer and undo follow it.
    last = sheet_store.last_counting_deal(fresh_db, sid)
    assert last is not None and last.n == 1
    assert sheet_store.set_struck(fresh_db, sid, 2, False) is True
    assert sheet_store.get_deal(fresh_db, sid, 2).version == 3
    # Undo = strike the last deal that counts.
    last = sheet_store.last_counting_deal(fresh_db, sid)
    assert last is not None and last.n == 2
    sheet_store.set_struck(fresh_db, sid, last.n, True)
    last = sheet_store.last_counting_deal(fresh_db, sid)
    assert last is not None and last.n == 1
    sheet_store.set_struck(fresh_db, sid, 1, True)
    assert sheet_store.last_counting_deal(fresh_db, sid) is None
    history = sheet_store.get_history(fresh_db, sid)
    assert [(h.action, h.n) for h in history] == [
        ("add", 1), ("add", 2), ("strike", 2), ("restore", 2), ("strike", 2), ("strike", 1)
    ]  # fmt: skip
    assert history[3].before["struck"] is True
    with pytest.raises(store.NotFound):
        sheet_store.set_struck(fresh_db, sid, 9, True)


def test_every_write_bumps_the_revision(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    seen = [rev(fresh_db, sid)]
    sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND)
    seen.append(rev(fresh_db, sid))
    sheet_store.correct_deal(fresh_db, sid, 1, "A", ["B", "C", "A"], HEARTS | {"declarer": "B"})
    seen.append(rev(fresh_db, sid))
    sheet_store.set_struck(fresh_db, sid, 1, True)
    seen.append(rev(fresh_db, sid))
    sheet_store.rename_sheet(fresh_db, sid, "Mittwoch")
    seen.append(rev(fresh_db, sid))
    assert seen == sorted(set(seen)), seen  # strictly increasing
    assert sheet_store.get_sheet(fresh_db, sid).name == "Mittwoch"


def test_delete_takes_deals_and_history_along(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    sheet_store.add_deal(fresh_db, sid, "A", ["B", "C", "A"], GRAND)
    sheet_store.delete_sheet(fresh_db, sid)
    with pytest.raises(store.NotFound):
        sheet_store.get_sheet(fresh_db, sid)
    assert (
        sheet_store.get_deals(fresh_db, sid) == [] and sheet_store.get_history(fresh_db, sid) == []
    )


def test_import_is_all_or_nothing(fresh_db: Database) -> None:
    deals = [
        {"n": 1, "dealer": "A", "active": ["B", "C", "A"], "input": GRAND, "struck": False},
        {"n": 2, "dealer": "B", "active": ["C", "A", "B"], "input": HEARTS, "struck": True,
         "version": 3},
    ]  # fmt: skip
    history = [{"at": "2026-11-22T20:00:00+00:00", "action": "add", "n": 1, "before": None}]
    sid = sheet_store.import_sheet(
        fresh_db, "Import", "skat", ["A", "B", "C"], "A", {}, deals, history
    )
    stored = sheet_store.get_deals(fresh_db, sid)
    assert [(d.n, d.struck, d.version) for d in stored] == [(1, False, 1), (2, True, 3)]
    assert [asdict(h) for h in sheet_store.get_history(fresh_db, sid)] == history
    before = len(sheet_store.list_sheets(fresh_db))
    with pytest.raises(sqlite3.IntegrityError):  # deal 1 twice: the whole import goes
        sheet_store.import_sheet(fresh_db, "Kaputt", "skat", ["A", "B", "C"], "A", {},
                           [deals[0], deals[0]], [])  # fmt: skip
    assert len(sheet_store.list_sheets(fresh_db)) == before


def test_deal_heads_and_deals_after(fresh_db: Database, sheet: Sheet) -> None:
    sid = sheet.id
    for dealer, active in (("A", ["B", "C", "A"]), ("B", ["C", "A", "B"]), ("C", ["A", "B", "C"])):
        sheet_store.add_deal(fresh_db, sid, dealer, active, {"passed": True})
    sheet_store.set_struck(fresh_db, sid, 2, True)
    assert [asdict(h) for h in sheet_store.deal_heads(fresh_db, sid)] == [
        {"n": 1, "version": 1, "struck": False, "dealer": "A"},
        {"n": 2, "version": 2, "struck": True, "dealer": "B"},
        {"n": 3, "version": 1, "struck": False, "dealer": "C"},
    ]
    assert [d.n for d in sheet_store.get_deals(fresh_db, sid, after=1)] == [2, 3]
    assert sheet_store.get_deals(fresh_db, sid, after=3) == []
