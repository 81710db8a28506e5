"""The one door to the sheets (service.py): views never import the db module, a request reads
its sheet once, and one name policy names every new sheet."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, current_app
from flask.testing import FlaskClient

from skatcalc import store
from skatcalc.exports import formats
from skatcalc.services import sheets as service
from skatcalc.store import sheets as sheet_store

PACKAGE = Path(service.__file__).parents[1]
API = "/api/v1/sheets"
GRAND = {"game": "grand", "declarer": "A", "with": True, "matadors": 1, "declarer_points": 80}


# --- Views never import the store -------------------------------------------------------------


def _defines_blueprint(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "Blueprint")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "Blueprint")
        )
        for node in ast.walk(tree)
    )


STORAGE = ("db", "store")  # the store package (``db`` its name before)


def _is_storage(module: str) -> bool:
    return module.split(".")[0] in STORAGE


def _imports_db(tree: ast.Module) -> list[str]:
    """Every import of the store (any module of it) in ``tree``, at any depth (function-level
    ones too)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [
                a.name for a in node.names if a.name.startswith(("skatcalc.db", "skatcalc.store"))
            ]
        elif isinstance(node, ast.ImportFrom):
            relative = node.level == 1
            absolute = (node.module or "").removeprefix("skatcalc.")
            if (relative and node.module and _is_storage(node.module)) or (
                (node.module or "").startswith("skatcalc.") and _is_storage(absolute)
            ):
                found.append(f"from {'.' * node.level}{node.module} import …")
            elif (relative and node.module is None) or node.module == "skatcalc":
                found += [f"from . import {a.name}" for a in node.names if a.name in STORAGE]
    return found


def _view_modules() -> list[Path]:
    # parsed only where the word is (at collection, in every xdist worker: parsing and
    # walking the whole package took some 1.5 CPU-s)
    sources = ((p, p.read_text()) for p in PACKAGE.rglob("*.py"))
    return sorted(p for p, text in sources
                  if "Blueprint" in text and _defines_blueprint(ast.parse(text)))  # fmt: skip


def test_there_are_views_to_check() -> None:
    names = {p.name for p in _view_modules()}
    assert {"sheets.py", "api.py", "calculators.py", "events.py"} <= names


@pytest.mark.parametrize("path", _view_modules(), ids=lambda p: p.name)
def test_views_never_import_the_db_module(path: Path) -> None:
    assert _imports_db(ast.parse(path.read_text())) == [], (
        f"{path.name} defines a Blueprint: it goes through skatcalc.services.sheets, not skatcalc.store"
    )


def test_the_check_would_catch_an_import() -> None:
    for source in ("from . import db as store", "from .db import NotFound",
                   "import skatcalc.db", "from skatcalc import db",
                   "def f():\n    from . import db\n",
                   "from . import store", "from .store import NotFound", "from .store.sheets "
                   "import get_sheet", "import skatcalc.store.sheets", "from skatcalc import store",
                   "from skatcalc.store import sheets", "def f():\n    from .store import x\n"):  # fmt: skip
        assert _imports_db(ast.parse(source)), source
    assert _imports_db(ast.parse("from . import service\nfrom .service import get_db")) == []


def test_service_offers_what_views_need() -> None:
    for name in ("NotFound", "Taken", "Conflict", "KeyReused"):
        assert getattr(service, name) is getattr(sheet_store, name, getattr(store, name, None))
    for name in ("get_db", "load_sheet", "list_sheets", "sheet_summaries", "history", "get_deal",
                 "create_sheet", "add_deal", "correct_deal", "strike_deal", "restore_deal",
                 "undo_save", "rename_sheet", "delete_sheet", "import_sheet", "sheet_json"):  # fmt: skip
        assert callable(getattr(service, name)), name


# --- The sheet is read once per request -------------------------------------------------------


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The ids every ``db.get_sheet`` call of the test read, in order."""
    seen: list[int] = []
    real = sheet_store.get_sheet

    def counting(db: Any, sheet_id: int) -> dict[str, Any]:
        seen.append(sheet_id)
        return real(db, sheet_id)

    monkeypatch.setattr(sheet_store, "get_sheet", counting)
    yield seen


def _sheet(client: FlaskClient, deals: int = 2) -> int:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A"})
    sid = int(r.get_json()["id"])
    for _ in range(deals):
        assert client.post(f"{API}/{sid}/deals", json={"passed": True}).status_code == 201
    return sid


def test_form_post_reads_the_sheet_once(client: FlaskClient, reads: list[int]) -> None:
    sid = _sheet(client)
    reads.clear()
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "passed"})
    assert r.status_code in (302, 303), r.data.decode()[:500]
    assert reads == [sid]
    reads.clear()  # a bad entry comes back with its messages: still one read
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "game": "grand"})
    assert r.status_code == 422
    assert reads == [sid]


def test_form_post_works_out_the_dealer_once(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _sheet(client)
    calls: list[int] = []
    real = service.proposed_dealer

    def counting(db: Any, sheet: service.Sheet) -> str:
        calls.append(sheet.id)
        return real(db, sheet)

    monkeypatch.setattr(service, "proposed_dealer", counting)
    assert client.post(f"/sheets/{sid}/deals", data={"kind": "passed"}).status_code in (302, 303)
    assert calls == [sid]
    deals = client.get(f"{API}/{sid}").get_json()["deals"]
    assert [d["dealer"] for d in deals] == ["A", "B", "C"]


def test_api_add_reads_the_sheet_once(client: FlaskClient, reads: list[int]) -> None:
    sid = _sheet(client)
    reads.clear()
    r = client.post(f"{API}/{sid}/deals", json=GRAND)
    assert r.status_code == 201
    assert reads == [sid]
    # the reply is the sheet after the save: the new deal, the new time of change
    body = r.get_json()
    assert len(body["deals"]) == 3 and body["deals"][-1]["result"]["value"] == 48
    fresh = client.get(f"{API}/{sid}").get_json()
    assert body["updated"] == fresh["updated"] and body["deals"] == fresh["deals"]


@pytest.mark.parametrize("method, path, kwargs", [
    ("put", "/deals/1", {"json": {"passed": True}}),
    ("delete", "/deals/1", {}),
    ("post", "/deals/1/restore", {"json": {}}),
    ("get", "", {}),
])  # fmt: skip
def test_api_writes_and_reads_read_the_sheet_once(
    client: FlaskClient, reads: list[int], method: str, path: str, kwargs: dict[str, Any]
) -> None:
    sid = _sheet(client)
    reads.clear()
    r = getattr(client, method)(f"{API}/{sid}{path}", **kwargs)
    assert r.status_code == 200, r.get_json()
    assert reads == [sid]


@pytest.mark.parametrize("fmt", [f.extension for f in formats()])
def test_download_reads_the_sheet_once(client: FlaskClient, reads: list[int], fmt: str) -> None:
    sid = _sheet(client)
    for url in (f"/sheets/{sid}/export.{fmt}", f"{API}/{sid}/export.{fmt}"):
        reads.clear()
        r = client.get(url)
        assert r.status_code == 200, url
        assert reads == [sid], url


def test_page_buttons_read_the_sheet_once(client: FlaskClient, reads: list[int]) -> None:
    sid = _sheet(client)
    for path, data in (("/deals/1/strike", {}), ("/deals/1/restore", {}), ("/undo", {"n": "2"}),
                       ("/rename", {"name": "Freitag"})):  # fmt: skip
        reads.clear()
        r = client.post(f"/sheets/{sid}{path}", data=data)
        assert r.status_code in (302, 303), path
        assert reads == [sid], path
    reads.clear()
    assert client.get(f"/sheets/{sid}").status_code == 200
    assert reads == [sid]  # read for the ETag, handed to the view


def test_a_write_hands_back_the_sheet_as_it_left_it(app: Flask, client: FlaskClient) -> None:
    sid = _sheet(client, deals=0)
    with app.app_context():
        db = service.get_db()
        sheet = service.load_sheet(db, sid)
        saved = service.add_deal(db, sheet, {"passed": True})
        assert (saved.n, saved.stored) == (1, True)
        assert saved.sheet == service.load_sheet(db, sid)
        assert saved.sheet.rev == sheet.rev + 1
        struck = service.strike_deal(db, saved.sheet, 1)
        assert struck.changed and struck.sheet == service.load_sheet(db, sid)
        again = service.undo_save(db, struck.sheet, 1)  # the undo strikes deal 1, only it
        assert not again.changed
        renamed = service.rename_sheet(db, again.sheet, "  Freitag  ")
        assert renamed == service.load_sheet(db, sid) and renamed.name == "Freitag"
        with pytest.raises(service.BadName):
            service.rename_sheet(db, renamed, " ")
        with pytest.raises(service.BadName):
            service.rename_sheet(db, renamed, "x" * 81)
        assert service.load_sheet(db, sid) == renamed  # a refused name changes nothing
        with pytest.raises(service.NotFound):
            service.strike_deal(db, renamed, 7)
        assert [h.action for h in service.history(db, renamed)] == ["add", "strike"]


# --- One name policy --------------------------------------------------------------------------


def test_the_name_policy() -> None:
    today = f"{date.today():%d.%m.%Y}"
    assert service.sheet_name("  Freitag  ", "skat") == "Freitag"
    assert service.sheet_name("x" * 100, "skat") == "x" * 80
    for none in (None, "", "   ", 7, ["Freitag"]):
        assert service.sheet_name(none, "skat") == f"Skat {today}"
        assert service.sheet_name(none, "schafkopf") == f"Schafkopf {today}"
    assert service.sheet_name("x" * 100, "skat", " (Import)") == "x" * 71 + " (Import)"
    assert service.sheet_name(" ", "skat", " (Import)", "Import") == "Import"
    assert service.new_name("  Freitag ") == "Freitag"


def test_page_api_and_import_name_alike(client: FlaskClient) -> None:
    today = f"{date.today():%d.%m.%Y}"
    long = "  " + "Ä" * 90 + "  "
    api = client.post(API, json={"game": "skat", "players": ["A", "B", "C"],
                                 "first_dealer": "A", "name": long}).get_json()  # fmt: skip
    assert api["name"] == "Ä" * 80
    r = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                     "first_dealer": "1", "name": long})  # fmt: skip
    page_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    assert client.get(f"{API}/{page_id}").get_json()["name"] == "Ä" * 80
    bare = client.post(API, json={"game": "skat", "players": ["A", "B", "C"],
                                  "first_dealer": "A", "name": " "}).get_json()  # fmt: skip
    assert bare["name"] == f"Skat {today}"
    exported = client.get(f"{API}/{api['id']}/export.json").data
    copy = client.post(f"{API}/import", json=json.loads(exported)).get_json()
    assert copy["name"] == "Ä" * 80


def _other_phone_saves_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next save finds that another phone stored a deal after this request read the sheet
    and before its own write (the race the 409 is for): just before the write begins its
    transaction (service.sheet_write, which takes SQLite's write lock at once: BEGIN
    IMMEDIATE), the last moment another phone can come first."""
    real = service.sheet_write
    done: list[bool] = []

    def racing(db: Any, sheet: Any) -> Any:
        if not done:
            done.append(True)
            other = store.connect(current_app.config["DATABASE"])  # the other phone's request
            try:
                sheet_store.add_deal(other, sheet.id, "C", ["A", "B", "C"], {"passed": True})
            finally:
                other.close()
        return real(db, sheet)

    monkeypatch.setattr(service, "sheet_write", racing)


def test_a_number_taken_meanwhile_answers_with_the_sheet_as_it_is(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _sheet(client)
    client.get(f"{API}/{sid}")  # the sheet as read is computed and kept
    _other_phone_saves_first(monkeypatch)
    r = client.post(f"{API}/{sid}/deals", json={"n": 3, "passed": True})
    assert r.status_code == 409
    assert len(r.get_json()["sheet"]["deals"]) == 3
    assert "Spiel 3 ist schon eingetragen" in r.get_json()["errors"]["n"][0]


def test_a_number_taken_meanwhile_on_the_page(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _sheet(client)
    client.get(f"/sheets/{sid}")
    _other_phone_saves_first(monkeypatch)
    # as the page sends it: deal 3, dealt by C (A and B dealt the first two)
    form = {"kind": "passed", "n": "3", "dealer": "C", "dealer_shown": "C",
            "active": ["A", "B", "C"]}  # fmt: skip
    r = client.post(f"/sheets/{sid}/deals", data=form)
    assert r.status_code == 409
    page = r.data.decode()
    assert "Spiel 3 ist schon eingetragen" in page
    assert '<input type="hidden" name="n" value="4">' in page
    assert '<tr id="deal-3"' in page  # the sheet as it is now, the other phone's deal on it
    # the same without the form's dealer fields (not the page's own post): 409, not 500
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "passed", "n": "3"})
    assert r.status_code == 409


def test_statistics_after_a_save_count_the_new_row_only(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save's statistics go on from the last ones; a correction counts them afresh. Either
    way they are the statistics of all the sheet's rows."""
    from skatcalc.rules.stats import statistics

    sid = _sheet(client, deals=0)
    for _ in range(4):
        assert client.post(f"{API}/{sid}/deals", json=GRAND).status_code == 201
    counted: list[int] = []

    def counting(game: str, players: Any, rows: Any, before: Any = None) -> Any:
        counted.append(len(rows))
        return statistics(game, players, rows, before)

    monkeypatch.setattr(service, "statistics", counting)
    with app.app_context():
        db = service.get_db()

        def stats() -> Any:
            sheet = service.load_sheet(db, sid)
            out = service.sheet_statistics(db, sheet)
            assert out == statistics(sheet.game, sheet.players, service.computed(db, sheet).rows)
            return out

        stats()
        assert client.post(f"{API}/{sid}/deals", json={"passed": True}).status_code == 201
        stats()
        assert counted[-1] == 1  # the new row
        assert client.put(f"{API}/{sid}/deals/2", json={"passed": True}).status_code == 200
        stats()
        assert counted[-1] == 5  # from deal 1 on
        assert client.delete(f"{API}/{sid}/deals/5").status_code == 200
        assert stats()["A"]["own"] == 3  # four Grands, deal 2 now passed; 5 was passed
