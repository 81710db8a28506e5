"""Heavy reads bounded per process (web/heavy.py), large sheet answers kept gzipped
(cache.packed), a PDF rendered in a child process (exports/apart.py), malloc_trim after heavy
requests. Through the real server: tests/system/test_heavy_served.py."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app
from skatcalc.exports import apart
from skatcalc.services import cache
from skatcalc.web.heavy import is_heavy

DEAL = {"declarer": "Anna", "game": "grand", "matadors": 2, "with": True, "declarer_points": 75}


def _sheet(client: FlaskClient, deals: int = 3) -> int:
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]})
    sid: int = r.get_json()["id"]
    for _ in range(deals):
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=DEAL).status_code == 201
    return sid


@pytest.fixture
def bounded(tmp_path: Path) -> Flask:
    return create_app({"DATABASE": str(tmp_path / "h.sqlite"), "SECRET_KEY": "t", "HEAVY_SLOTS": 1})


def test_heavy_routes_are_the_files_the_json_and_the_import() -> None:
    for path in ("/sheets/1/export.json", "/api/v1/sheets/1/export.csv", "/api/v1/sheets/12"):
        assert is_heavy("GET", path), path
    assert is_heavy("POST", "/api/v1/sheets/import") and is_heavy("POST", "/sheets/import")
    # PDFs have their own bound (one render at a time, a waiting room); cheap reads none
    for path in ("/sheets/1/export.pdf", "/sheets/1", "/sheets/1/rev", "/api/v1/sheets"):
        assert not is_heavy("GET", path), path
    assert not is_heavy("POST", "/api/v1/sheets/1/deals")


def test_a_heavy_read_beyond_the_slots_is_told_to_come_back(bounded: Flask) -> None:
    client = bounded.test_client()
    sid = _sheet(client)
    slots = bounded.extensions["skatcalc_heavy"]
    assert slots.enter()  # another request is making a large answer
    try:
        for path in (f"/sheets/{sid}/export.json", f"/api/v1/sheets/{sid}"):
            r = client.get(path)
            assert r.status_code == 503, path
            assert int(r.headers["Retry-After"]) >= 1
        assert client.get(f"/api/v1/sheets/{sid}").get_json()["errors"]["_"]
        # the cheap reads of the phones still answered, and writes go on
        assert client.get(f"/sheets/{sid}").status_code == 200
        assert client.get(f"/sheets/{sid}/rev").status_code == 200
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=DEAL).status_code == 201
    finally:
        slots.leave()
    assert client.get(f"/sheets/{sid}/export.json").status_code == 200
    assert slots.busy == 0  # every slot given back, after answers and refusals alike


def test_the_refusal_is_in_the_language_asked(bounded: Flask) -> None:
    client = bounded.test_client()
    sid = _sheet(client, 0)
    slots = bounded.extensions["skatcalc_heavy"]
    assert slots.enter()
    try:
        r = client.get(f"/api/v1/sheets/{sid}", headers={"Accept-Language": "en"})
    finally:
        slots.leave()
    assert r.get_json()["errors"]["_"] == [
        "Many large files are being fetched right now – please try again in a moment."
    ]


def test_memory_is_handed_back_after_a_heavy_request(client: FlaskClient) -> None:
    sid = _sheet(client, 1)
    before = cache.TRIMS[0]
    client.get(f"/sheets/{sid}")
    assert cache.TRIMS[0] == before  # not after a cheap read
    client.get(f"/sheets/{sid}/export.json")
    if cache.MALLOC_TRIM is not None:  # glibc
        assert cache.TRIMS[0] == before + 1
    cache.hand_back_memory()  # harmless at any time, and a no-op without glibc


def test_without_glibc_nothing_is_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MALLOC_TRIM", None)
    before = cache.TRIMS[0]
    cache.hand_back_memory()
    assert cache.TRIMS[0] == before


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_large_answer_is_kept_packed_and_sent_as_kept(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    sid = _sheet(client, 20)
    plain = client.get(f"/sheets/{sid}/export.{fmt}").data
    monkeypatch.setattr(cache, "PACK_ABOVE", 1024)  # a large sheet, as far as the cache knows
    client.post(f"/api/v1/sheets/{sid}/deals", json=DEAL)  # a new revision
    plain = client.get(f"/sheets/{sid}/export.{fmt}").data
    assert len(plain) > 1024
    r = client.get(f"/sheets/{sid}/export.{fmt}", headers={"Accept-Encoding": "gzip"})
    assert r.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["Vary"]
    assert gzip.decompress(r.data) == plain
    kept = [k for k in cache.SHEET_JSON._items if k[-1] == "gz"]
    assert kept and all(k[:-1] not in cache.SHEET_JSON._items for k in kept)  # packed only


def test_a_large_sheets_json_is_kept_packed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _sheet(client, 20)
    monkeypatch.setattr(cache, "PACK_ABOVE", 1024)
    plain = client.get(f"/api/v1/sheets/{sid}")
    packed = client.get(f"/api/v1/sheets/{sid}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert plain.get_json()["id"] == sid
    # a write's answer (201) takes the same path and is whole
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=DEAL)
    assert r.status_code == 201 and len(r.get_json()["deals"]) == 21


def _undated(pdf: bytes) -> bytes:
    """The PDF without its time of making (and the file ID fpdf2 derives from it)."""
    return re.sub(rb"/CreationDate \(D:\d+Z\)|/ID \[<[0-9A-F]+><[0-9A-F]+>\]", b"", pdf)


def test_a_pdf_rendered_in_a_child_process_is_the_same(app: Flask) -> None:
    client = app.test_client()
    sid = _sheet(client, 5)
    here = client.get(f"/sheets/{sid}/export.pdf?lang=en").data
    cache.PDFS.clear()
    app.config["PDF_PROCESS"] = True
    try:
        there = client.get(f"/sheets/{sid}/export.pdf?lang=en").data
        child = apart.CHILD.proc
        assert child is not None and child.poll() is None  # it rendered, and waits for more
    finally:
        apart.CHILD.stop()
    assert there.startswith(b"%PDF") and _undated(there) == _undated(here)
    assert child.poll() is not None  # ended with its pipe


def test_a_child_that_died_is_replaced_and_the_pdf_still_comes(app: Flask) -> None:
    client = app.test_client()
    sid = _sheet(client, 2)
    app.config["PDF_PROCESS"] = True
    try:
        assert client.get(f"/sheets/{sid}/export.pdf").status_code == 200
        first = apart.CHILD.proc
        assert first is not None
        first.kill()
        first.wait()
        cache.PDFS.clear()
        r = client.get(f"/sheets/{sid}/export.pdf")
        assert r.status_code == 200 and r.data.startswith(b"%PDF")
        assert apart.CHILD.proc is not None and apart.CHILD.proc is not first
    finally:
        apart.CHILD.stop()


def test_a_large_sheet_only_read_is_not_kept_after_its_answer(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token: dict[int, str] = {}
    for _ in range(2):
        r = client.post(
            "/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]}
        )
        token[r.get_json()["id"]] = r.get_json()["share_token"]
    read_only, edited = token
    for sid in token:
        client.post(f"/api/v1/sheets/{sid}/deals", json=DEAL)
    monkeypatch.setattr(cache, "LARGE_SHEET", 1)  # every sheet is large, as far as this goes
    cache.clear()
    client.get(f"/sheets/{read_only}")
    assert token[read_only] not in cache.PER_REVISION  # its page is kept as bytes, not its rows
    assert cache.LATEST_COMPUTED.get(token[read_only]) is None
    assert not [k for k in cache.PAGE_ROWS._items if k[0] == token[read_only]]
    client.get(f"/sheets/{edited}")
    client.post(f"/api/v1/sheets/{edited}/deals", json=DEAL)  # its revision moves on
    client.get(f"/sheets/{edited}")
    assert token[edited] in cache.PER_REVISION  # edited: kept for the next write's speed
    assert cache.LATEST_COMPUTED.get(token[edited]) is not None
    r = client.get(f"/sheets/{read_only}/export.csv")  # made again when needed, the same
    assert r.status_code == 200 and r.data.count(b"\n") >= 2
