"""Every cache of a sheet's derived data is bounded by the bytes it holds, not by a count of
sheets: many large imported sheets cannot fill a server process's memory."""

from __future__ import annotations

import gc
import gzip
import json
import tracemalloc
from typing import Any

import pytest
from flask import Flask

from skatcalc.services import cache
from skatcalc.services import sheets as service

API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Clara"]
GRAND = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "declarer": "Bernd"}


def _big_sheet(app: Flask, deals: int) -> dict[str, Any]:
    c = app.test_client()
    sheet = c.post(API, json={"game": "skat", "players": PLAYERS}).get_json()
    body = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}
    c.post(f"{API}/{sheet['id']}/deals", json={**body, "declarer": "Bernd"})
    one = c.get(f"{API}/{sheet['id']}/export.json").get_json()
    deal = one["deals"][0]
    one["deals"] = [{**deal, "n": n} for n in range(1, deals + 1)]
    one["history"] = []
    r = c.post(f"{API}/import", json=one)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_approx_size_is_near_what_the_allocator_holds(app: Flask) -> None:
    sheet = _big_sheet(app, 300)
    cache.clear()
    db = app.extensions["skatcalc_db"].get()
    loaded = service.load_sheet(db, sheet["id"])
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    out = service.sheet_json(db, loaded, "en")
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    guess = cache.approx_size((out, service._LATEST.get(loaded.share_token)))
    assert 0.5 * held < guess < 2 * held, (guess, held)


def test_the_per_revision_entries_stay_within_their_bytes(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "DERIVED_BYTES", 2 * cache.MB)
    c = app.test_client()
    ids = [_big_sheet(app, 200)["id"] for _ in range(6)]
    cache.clear()
    for sid in ids:
        for lang in ("de", "en"):
            assert c.get(f"{API}/{sid}", headers={"Accept-Language": lang}).status_code == 200
            assert c.get(f"/sheets/{sid}?lang={lang}").status_code == 200
        sizes = dict(cache.PER_REVISION_BYTES)
        newest = sizes[next(reversed(cache.PER_REVISION))]
        # within the bound, but for the sheet used last (kept whatever its size)
        assert cache.derived_bytes() <= max(cache.DERIVED_BYTES, newest)
    assert len(cache.PER_REVISION) < len(ids)  # the count bound (128) was not what bit
    for held in (cache.LATEST_COMPUTED, cache.LATEST_JSON, cache.SHEET_JSON, cache.PAGES,
                 cache.PAGE_ROWS, cache.PDFS, cache.ENTRY_FORMS):  # fmt: skip
        assert held.bytes <= held.max_bytes or len(held) == 1


def test_a_sheets_json_is_built_once_per_revision(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app.test_client()
    sheet = _big_sheet(app, 100)
    sid = sheet["id"]
    first = c.get(f"{API}/{sid}")
    packed = c.get(f"{API}/{sid}", headers={"Accept-Encoding": "gzip"})
    export = c.get(f"{API}/{sid}/export.json")

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("the sheet's JSON was built again")

    monkeypatch.setattr(service, "sheet_json", boom)
    assert c.get(f"{API}/{sid}").data == first.data
    again = c.get(f"{API}/{sid}", headers={"Accept-Encoding": "gzip"})
    assert again.headers["Content-Encoding"] == "gzip" and again.data == packed.data
    assert "Accept-Encoding" in again.headers["Vary"]
    assert gzip.decompress(again.data) == first.data
    assert json.loads(first.data)["id"] == sid and len(json.loads(first.data)["deals"]) == 100
    assert c.get(f"{API}/{sid}/export.json").data == export.data
    monkeypatch.undo()
    # a write is a new revision: the answer follows it
    assert c.post(f"{API}/{sid}/deals", json=GRAND).status_code == 201
    assert len(c.get(f"{API}/{sid}").get_json()["deals"]) == 101
    assert len(json.loads(c.get(f"{API}/{sid}/export.json").data)["deals"]) == 101
