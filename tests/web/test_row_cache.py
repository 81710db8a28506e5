"""The sheet page's rows are rendered once per deal: a save renders one new row, a correction
the rows from the corrected deal on, and the page built from kept rows is the page a fresh
render gives."""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc.web import caching, sheet_view, sheets

API = "/api/v1/sheets"
PLAYERS = ["A", "B", "C"]
DEALS: list[dict[str, Any]] = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "declarer": "B"},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50, "declarer": "C"},
    {"passed": True},
    {"game": "null", "won": True, "declarer": "A"},
    {"game": "clubs", "matadors": 3, "with": False, "declarer_points": 95, "declarer": "A"},
]


def sheet_with(client: FlaskClient, n: int) -> dict[str, Any]:
    deals = [{"n": k + 1, "dealer": PLAYERS[k % 3], "active": PLAYERS,
              "input": DEALS[k % len(DEALS)]} for k in range(n)]  # fmt: skip
    r = client.post(f"{API}/import", json={"name": "Abend", "game": "skat", "players": PLAYERS,
                                           "first_dealer": "A", "rules": {"bock": ["60-60"]},
                                           "deals": deals})  # fmt: skip
    assert r.status_code == 201, r.data
    sid = r.get_json()["id"]
    sheet: dict[str, Any] = client.get(f"{API}/{sid}").get_json()
    sheet["share_token"] = re.search(  # type: ignore[union-attr]
        r"/share/([^\"'<]+)", client.get(f"/sheets/{sid}").data.decode()
    ).group(1)
    return sheet


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the rows rendered, in order."""
    calls: list[int] = []
    real = sheet_view.table_row_html

    def counting(ctx: Any, d: Any) -> str:
        calls.append(d["n"])
        return real(ctx, d)

    monkeypatch.setattr(sheet_view, "table_row_html", counting)
    return calls


def test_a_save_renders_one_new_row(client: FlaskClient, rendered: list[int]) -> None:
    sid = sheet_with(client, 48)["id"]
    assert client.get(f"/sheets/{sid}").status_code == 200
    assert rendered == list(range(1, 49))
    rendered.clear()
    assert client.post(f"{API}/{sid}/deals", json=DEALS[0]).status_code == 201
    page = client.get(f"/sheets/{sid}").data.decode()
    assert rendered == [49]
    assert page.count('<tr id="deal-') == 49


def test_a_correction_renders_from_that_row_on(client: FlaskClient, rendered: list[int]) -> None:
    sid = sheet_with(client, 49)["id"]
    client.get(f"/sheets/{sid}")
    rendered.clear()
    r = client.put(f"{API}/{sid}/deals/3", json=DEALS[1])
    assert r.status_code == 200, r.data
    client.get(f"/sheets/{sid}")
    assert rendered == list(range(3, 50))
    rendered.clear()
    assert client.delete(f"{API}/{sid}/deals/10").status_code == 200  # struck
    client.get(f"/sheets/{sid}")
    assert rendered == list(range(10, 50))


def test_a_rename_or_another_view_renders_no_row_again(
    client: FlaskClient, rendered: list[int]
) -> None:
    sheet = sheet_with(client, 12)
    sid = sheet["id"]
    client.get(f"/sheets/{sid}")
    rendered.clear()
    assert client.post(f"/sheets/{sid}/rename", data={"name": "Neu"}).status_code in (302, 303)
    assert "Neu" in client.get(f"/sheets/{sid}").data.decode()
    assert rendered == []
    client.get(f"/sheets/{sid}?lang=en")  # another language: rows of its own
    assert rendered == list(range(1, 13))


def _clear_caches() -> None:
    """Forget everything kept between requests, so the next page is rendered from scratch."""
    sheet_view._ROWS.clear()
    caching._PAGES.clear()
    for name in ("skatcalc.model", "skatcalc.services.sheets"):
        module = sys.modules.get(name)
        for attr in ("_CACHE", "_LATEST"):
            held = getattr(module, attr, None)
            if held is not None:
                held.clear()


def _rows(html: str) -> str:
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", html, re.S)
    assert body is not None, "no table body"
    return body.group(1)


def _page(client: FlaskClient, path: str) -> str:
    html = client.get(path).data.decode()
    # new per page shown, and signed with the time
    html = re.sub(r'name="idem" value="[^"]*"', "", html)
    return re.sub(r'(name="csrf_token"[^>]*value=")[^"]*"', r"\1", html)


CHANGES: list[tuple[str, Any]] = [
    ("append", DEALS[3]),
    ("correct", DEALS[4]),
    ("strike", None),
    ("restore", {}),
    ("rename", {"name": "Umbenannt"}),
]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("view", ["edit", "share"])
def test_the_page_from_kept_rows_is_the_freshly_rendered_page(
    client: FlaskClient, lang: str, view: str
) -> None:
    sheet = sheet_with(client, 20)
    sid = sheet["id"]
    base = f"/sheets/{sid}" if view == "edit" else f"/sheets/{sid}/share/{sheet['share_token']}"
    path = f"{base}?lang={lang}"
    client.get(f"{base}?lang={'en' if lang == 'de' else 'de'}")  # the other language first
    client.get(path)
    for what, body in CHANGES:
        if what == "append":
            r = client.post(f"{API}/{sid}/deals", json=body)
        elif what == "correct":
            r = client.put(f"{API}/{sid}/deals/5", json=body)
        elif what == "strike":
            r = client.delete(f"{API}/{sid}/deals/7")
        elif what == "restore":
            r = client.post(f"{API}/{sid}/deals/7/restore", json=body)
        else:
            r = client.post(f"/sheets/{sid}/rename", data=body)
            client.get(f"/sheets/{sid}")  # the redirect's page, with its message shown once
        assert r.status_code < 400, (what, r.data)
        kept = _page(client, path)
        again = _page(client, path)  # from the page cache
        _clear_caches()
        fresh = _page(client, path)
        assert _rows(kept) == _rows(fresh), what
        assert kept == fresh, what
        assert again == fresh, what


def test_a_kept_page_is_sent_gzipped_from_its_packed_pieces(client: FlaskClient) -> None:
    import gzip
    import zlib

    sheet = sheet_with(client, 30)
    path = f"/sheets/{sheet['id']}"
    plain = _page(client, path)
    caching_before = len(caching._PAGES)
    r = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert len(caching._PAGES) == caching_before  # from the cache, not rendered again
    assert r.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["Vary"]
    assert r.headers["ETag"].startswith('W/"')
    assert int(r.headers["Content-Length"]) == len(r.data)
    one = zlib.decompressobj(31)  # one gzip member, nothing after it
    text = one.decompress(r.data)
    assert one.eof and not one.unused_data
    assert text == gzip.decompress(r.data)
    again = re.sub(r'name="idem" value="[^"]*"', "", text.decode())
    assert re.sub(r'(name="csrf_token"[^>]*value=")[^"]*"', r"\1", again) == plain
    # and it is revalidated like any other answer
    etag = r.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304


def test_phones_asking_at_once_after_a_save_share_one_render(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    client = app.test_client()
    sid = sheet_with(client, 10)["id"]
    assert client.post(f"{API}/{sid}/deals", json=DEALS[0]).status_code == 201
    renders: list[int] = []
    real = sheets.render_sheet

    def slow(*args: Any, **kwargs: Any) -> Any:
        renders.append(1)
        time.sleep(0.3)  # the others arrive while the first renders
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "render_sheet", slow)
    pages: list[str] = []

    def phone() -> None:
        pages.append(_page(app.test_client(), f"/sheets/{sid}"))

    phones = [threading.Thread(target=phone) for _ in range(4)]
    for t in phones:
        t.start()
    for t in phones:
        t.join(10)
    assert len(pages) == 4 and len(set(pages)) == 1
    assert len(renders) == 1


def test_a_kept_page_is_deflated_at_its_first_gzipped_answer_not_at_its_render(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The render after a save keeps the page as it is; the first answer that asks for gzip
    deflates its pieces once and keeps them for the next ones."""
    import gzip

    sheet = sheet_with(client, 30)
    path = f"/sheets/{sheet['id']}"
    assert client.post(f"{API}/{sheet['id']}/deals", json=DEALS[0]).status_code == 201
    calls: list[int] = []
    real = caching.deflate_piece

    def counting(data: bytes) -> bytes:
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(caching, "deflate_piece", counting)
    plain = _page(client, path)
    assert calls == []  # the render deflated nothing
    first = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert calls  # the first gzipped answer did
    n_first = len(calls)
    second = client.get(path, headers={"Accept-Encoding": "gzip"})
    # the second deflates only the per-request tokens (CSRF token, idempotency key)
    assert all(n < 200 for n in calls[n_first:])
    assert any(n > 1000 for n in calls[:n_first])
    for r in (first, second):
        text = gzip.decompress(r.data).decode()
        text = re.sub(r'name="idem" value="[^"]*"', "", text)
        assert re.sub(r'(name="csrf_token"[^>]*value=")[^"]*"', r"\1", text) == plain
