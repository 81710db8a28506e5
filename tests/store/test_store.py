"""The store (skatcalc/store/): the only place with SQL, frozen migrations that import nothing of
the app, and no import cycle through it."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from skatcalc import store
from skatcalc.store import migrations as schema
from skatcalc.store import records, settings, sheets

PACKAGE = Path(store.__file__).parent.parent
STORE = PACKAGE / "store"

SQL_TEXT = re.compile(
    r"^\s*(select\s+(\d|.*\bfrom\b)|insert\s+(or\s+\w+\s+)?into\b|update\s+\w+\s+set\b|delete\s+from\b|"
    r"create\s+(table|index|unique\s+index)\b|alter\s+table\b|drop\s+table\b|pragma\b)",
    re.IGNORECASE | re.DOTALL,
)
SQL_CALLS = {"execute", "executemany", "executescript", "query"}


def sql_in(source: str) -> list[str]:
    """What in ``source`` talks SQL: a call of ``execute``/``query`` (any receiver), a table
    taken from a database (``db[...]``, ``db.table(...)``), or a string that is a statement."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            if node.func.attr in SQL_CALLS or (
                node.func.attr == "table"
                and isinstance(receiver, ast.Name)
                and receiver.id in {"db", "conn"}
            ):
                found.append(f"line {node.lineno}: .{node.func.attr}(")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id in {"db", "conn"}:
                found.append(f"line {node.lineno}: {node.value.id}[")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SQL_TEXT.match(node.value):
                found.append(f"line {node.lineno}: {node.value[:40]!r}")
    return found


def _modules_outside_the_store() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if STORE not in p.parents)


@pytest.mark.parametrize(
    "path", _modules_outside_the_store(), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_sql_outside_the_store(path: Path) -> None:
    assert sql_in(path.read_text(encoding="utf-8")) == []


def test_the_sql_check_would_catch_sql() -> None:
    for source in (
        "db.execute('x')",
        "list(db.query('select 1'))",
        "db['sheets'].insert({})",
        "db.table('sheets')",
        "conn.executemany('x', [])",
        "q = 'SELECT value FROM settings'",
        "q = 'insert or replace into settings (key) values (1)'",
        "q = '  update sheets set rev = rev + 1'",
        "q = 'delete from deals where id = ?'",
    ):
        assert sql_in(source), source
    for source in ("pdf.table(col_widths=(1,))", "conn.close()", "x = 'Update the page'",
                   "METHODS = {'DELETE', 'POST'}", "x = 'Select a game'"):  # fmt: skip
        assert sql_in(source) == [], source


def test_the_store_holds_the_sheet_side_sql() -> None:
    for name in ("__init__.py", "sheets.py", "settings.py", "migrations.py"):
        assert (STORE / name).exists(), name
    assert sql_in((STORE / "sheets.py").read_text(encoding="utf-8"))
    assert sql_in((STORE / "settings.py").read_text(encoding="utf-8"))


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports (function-level ones too), relative ones resolved."""
    package = ["skatcalc", *path.parent.relative_to(PACKAGE).parts]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
                out += [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            else:
                out.append(node.module or "")
    return out


def test_migrations_import_nothing_of_the_app() -> None:
    """A shipped migration runs the same on every database, whatever the app's code is now:
    it imports no module of skatcalc (what it needs of the name rules is copied into it)."""
    imported = _imports(STORE / "migrations.py")
    assert [m for m in imported if m.startswith("skatcalc")] == []


@pytest.mark.parametrize("path", sorted(STORE.glob("*.py")), ids=lambda p: p.name)
def test_the_store_imports_only_the_store(path: Path) -> None:
    """No cycle through the store: it imports no app module above it (not the players, the
    service or the rules), only its own modules and the JSON type aliases."""
    app = [m for m in _imports(path) if m.startswith("skatcalc")]
    assert [m for m in app if not m.startswith(("skatcalc.store", "skatcalc.jsontypes"))] == []


def test_migration_names_stay() -> None:
    """Databases record the names of the migrations they had: they never change."""
    names = [m.name for m in schema.migrations._migrations]
    assert names[:19] == [
        "m001_enable_wal",
        "m002_sheets_deals_history",
        "m003_idempotency_keys",
        "m004_sheet_revision",
        "m005_players_groups",
        "m006_events",
        "m007_player_figures_cache",
        "m008_idempotency_body",
        "m009_sheet_ids_never_reused",
        "m010_sheet_summaries",
        "m011_settled",
        "m012_rights_by_link",
        "m013_sheet_day",
        "m014_name_keys",
        "m015_event_and_group_ids_never_reused",
        "m016_event_fees_prizes",
        "m017_start_numbers",
        "m018_sheet_rule_changes",
        "m019_double_entry",
    ]


@pytest.mark.parametrize(
    ("name", "key"),
    [("  Anna  Lena ", "anna lena"), ("ÄNNE", "änne"), ("Jose\u0301", "jos\u00e9"),
     ("Dora\u00a0\t Lena", "dora lena"), ("STRASSE", "strasse"), ("Straße", "strasse")],
)  # fmt: skip
def test_the_frozen_name_rule_matches_the_app_rule_of_its_time(name: str, key: str) -> None:
    from skatcalc.rules.common import clean_name, name_key

    assert schema._frozen_name_key(name) == name_key(name) == key
    assert schema._frozen_clean_name(name) == clean_name(name)


# --- Typed records: one decoder each, the same record back from every read -------------------

GRAND = {"game": "grand", "declarer": "A", "with": True, "matadors": 1, "declarer_points": 80}


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Database]:
    path = str(tmp_path / "s.sqlite")
    store.migrate(path)
    db = store.connect(path)
    yield db
    db.close()


def test_a_sheet_round_trips_as_a_record(fresh: Database) -> None:
    made = sheets.create_sheet(fresh, "Dienstag", "skat", ["Anna", "Bernd", "Carla"], "Anna",
                               {"bock": []}, day="2026-11-24")  # fmt: skip
    assert isinstance(made, records.Sheet)
    assert (made.name, made.game, made.players, made.first_dealer) == (
        "Dienstag", "skat", ["Anna", "Bernd", "Carla"], "Anna")  # fmt: skip
    assert (made.rules, made.rule_changes, made.rev, made.closed) == ({"bock": []}, [], 0, None)
    assert made.day == "2026-11-24" and made.group_id is None
    assert sheets.get_sheet(fresh, made.id) == made
    (listed,) = sheets.list_sheets(fresh)
    assert listed.deal_count == 0 and dataclasses.replace(listed, deal_count=None) == made
    # a plain record: read by attribute only, its fields as a dict where one is wanted
    with pytest.raises(TypeError):
        made["players"]  # type: ignore[index]
    assert dataclasses.asdict(made)["share_token"] == made.share_token
    assert made != dataclasses.asdict(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "x"  # type: ignore[misc]


def test_deals_and_history_round_trip_as_records(fresh: Database) -> None:
    sid = sheets.create_sheet(fresh, "D", "skat", ["A", "B", "C"], "A", {}).id
    n, stored = sheets.add_deal(fresh, sid, "A", ["B", "C", "A"], GRAND, idem_key="k1")
    assert (n, stored) == (1, True)
    assert sheets.add_deal(fresh, sid, "A", ["B", "C", "A"], GRAND, idem_key="k1") == (1, False)
    sheets.set_struck(fresh, sid, 1, True)
    deal = sheets.get_deal(fresh, sid, 1)
    assert isinstance(deal, records.Deal)
    assert (deal.n, deal.dealer, deal.active, deal.input, deal.struck, deal.version) == (
        1, "A", ["B", "C", "A"], GRAND, True, 2)  # fmt: skip
    assert sheets.get_deals(fresh, sid) == [deal]
    assert sheets.last_counting_deal(fresh, sid) is None
    assert sheets.deal_heads(fresh, sid) == [records.DealHead(1, 2, True, "A")]
    added, struck = sheets.get_history(fresh, sid)
    assert (added.action, added.n, added.before) == ("add", 1, None)
    assert struck.action == "strike" and struck.before == {
        "dealer": "A", "active": ["B", "C", "A"], "input": GRAND, "struck": False, "version": 1}  # fmt: skip


def test_one_decoder_per_record_reads_an_old_row() -> None:
    """A row of an old schema (no rule changes, no day, no closing) still decodes."""
    row = {"id": 3, "name": "Alt", "game": "skat", "players": '["A", "B", "C"]',
           "first_dealer": "A", "rules": "{}", "edit_token": "e", "share_token": "s",
           "created": "2025-01-01T18:00:00+00:00", "updated": "2025-01-01T18:00:00+00:00"}  # fmt: skip
    sheet = records.sheet_of(row)
    assert (sheet.id, sheet.players, sheet.rules, sheet.rule_changes, sheet.rev) == (
        3, ["A", "B", "C"], {}, [], 0)  # fmt: skip


def test_admin_token_lives_in_the_settings(fresh: Database) -> None:
    token = settings.admin_token(fresh)
    assert len(token) >= 32 and settings.admin_token(fresh) == token
    assert settings.served_url(fresh) is None
    settings.set_served_url(fresh, "http://192.168.1.5:5000")
    assert settings.served_url(fresh) == "http://192.168.1.5:5000"


def test_the_reads_of_every_request_are_one_statement_each(fresh: Database) -> None:
    """The sheet and its history are read on every request: one ``select`` each, not three
    statements (sqlite-utils' ``query`` wraps each in a savepoint), and the same rows."""
    sid = sheets.create_sheet(fresh, "D", "skat", ["A", "B", "C"], "A", {}).id
    sheets.add_deal(fresh, sid, "A", ["B", "C", "A"], GRAND)
    sheets.add_deal(fresh, sid, "B", ["C", "A", "B"], GRAND)
    sheets.set_struck(fresh, sid, 1, True)
    ran: list[str] = []
    fresh.conn.set_trace_callback(ran.append)
    try:
        reads = {
            "sheet": lambda: sheets.get_sheet(fresh, sid),
            "history": lambda: sheets.get_history(fresh, sid),
            "deals": lambda: sheets.get_deals(fresh, sid),
            "deal": lambda: sheets.get_deal(fresh, sid, 2),
            "last": lambda: sheets.last_counting_deal(fresh, sid),
            "before": lambda: sheets.counting_deal_before(fresh, sid, 3),
        }
        for name, read in reads.items():
            ran.clear()
            read()
            assert len(ran) == 1, (name, ran)
    finally:
        fresh.conn.set_trace_callback(None)
    for table in ("sheets", "deals", "history"):
        sql = f"select * from {table} order by rowid"
        assert store.select(fresh, sql) == list(fresh.query(sql))
    assert sheets.get_sheet(fresh, sid) == records.sheet_of(
        next(fresh.query("select * from sheets where id = ?", [sid]))
    )
    assert sheets.last_counting_deal(fresh, sid) == sheets.get_deal(fresh, sid, 2)
    assert sheets.counting_deal_before(fresh, sid, 3) == sheets.get_deal(fresh, sid, 2)
    assert sheets.counting_deal_before(fresh, sid, 2) is None  # deal 1 is struck


def test_the_lock_of_a_write_reads_once(fresh: Database) -> None:
    """A write's lock is its transaction's (``BEGIN IMMEDIATE``): what may refuse it is read
    in one statement, and a sheet that is not there is NotFound."""
    sid = sheets.create_sheet(fresh, "D", "skat", ["A", "B", "C"], "A", {}).id
    sheets.add_deal(fresh, sid, "A", ["B", "C", "A"], GRAND)
    ran: list[str] = []
    with fresh.atomic():
        fresh.conn.set_trace_callback(ran.append)
        try:
            lock = sheets.lock_sheet(fresh, sid)
        finally:
            fresh.conn.set_trace_callback(None)
        # the deals played count for a club night's table only (tests/web/test_settled.py)
        assert (lock.played, lock.players, lock.closed, lock.event) == (0, 3, None, None)
        assert len(ran) == 1, ran
        with pytest.raises(store.NotFound):
            sheets.lock_sheet(fresh, sid + 1)


def test_an_appended_deal_inside_the_write_lock_takes_no_savepoint(fresh: Database) -> None:
    """``append_deal`` inside the sheet's write transaction writes three statements and no
    savepoint; a number taken after all (``NotNext``) leaves that transaction to roll back,
    and on its own it is its own transaction, as before."""
    sid = sheets.create_sheet(fresh, "D", "skat", ["A", "B", "C"], "A", {}).id
    ran: list[str] = []
    with fresh.atomic():
        sheets.lock_sheet(fresh, sid)
        fresh.conn.set_trace_callback(ran.append)
        try:
            sheets.append_deal(fresh, sid, 1, "A", ["B", "C", "A"], GRAND, sheets.body_text(GRAND))
        finally:
            fresh.conn.set_trace_callback(None)
    assert len(ran) == 3 and not [s for s in ran if "SAVEPOINT" in s.upper()], ran
    rev = sheets.get_sheet(fresh, sid).rev
    with pytest.raises(sheets.NotNext), fresh.atomic():
        sheets.append_deal(fresh, sid, 1, "A", ["B", "C", "A"], GRAND, sheets.body_text(GRAND))
    assert sheets.get_sheet(fresh, sid).rev == rev  # the revision's bump rolled back with it
    with pytest.raises(sheets.NotNext):
        sheets.append_deal(fresh, sid, 1, "A", ["B", "C", "A"], GRAND, sheets.body_text(GRAND))
    assert sheets.get_sheet(fresh, sid).rev == rev and not fresh.conn.in_transaction
    sheets.append_deal(fresh, sid, 2, "B", ["C", "A", "B"], GRAND, sheets.body_text(GRAND))
    assert [d.n for d in sheets.get_deals(fresh, sid)] == [1, 2]
