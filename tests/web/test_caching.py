"""304 for an unchanged sheet page, share view and revision poll; gzip for text; caches that
keep only what can still be asked for."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app
from skatcalc.services import sheets as service

API = "/api/v1/sheets"
GRAND = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "declarer": "B"}


def new_sheet(client: FlaskClient) -> dict[str, Any]:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]})
    assert r.status_code == 201
    return r.get_json()


def add(client: FlaskClient, sid: int, body: dict[str, Any] = GRAND) -> None:
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201


def paths(sheet: dict[str, Any]) -> list[str]:
    sid = sheet["id"]
    return [f"/sheets/{sid}", f"/sheets/{sid}/share/{sheet['share_token']}", f"/sheets/{sid}/rev"]


@pytest.mark.parametrize("which", [0, 1, 2])
def test_unchanged_answers_304_until_the_sheet_changes(client: FlaskClient, which: int) -> None:
    sheet = new_sheet(client)
    add(client, sheet["id"])
    path = paths(sheet)[which]
    first = client.get(path)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    add(client, sheet["id"])  # another phone saves a deal
    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_a_304_computes_and_renders_nothing(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = new_sheet(client)
    etags = [client.get(p).headers["ETag"] for p in paths(sheet)]

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("the sheet was computed for a 304")

    monkeypatch.setattr(service, "computed_sheet", boom)
    for path, etag in zip(paths(sheet), etags, strict=True):
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304


def test_the_tag_follows_language_and_query(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    path = paths(sheet)[0]
    de = client.get(path).headers["ETag"]
    en = client.get(path + "?lang=en").headers["ETag"]
    assert de != en
    r = client.get(path, headers={"If-None-Match": de})  # the lang cookie now says English
    assert r.status_code == 200 and "Sheet" in r.data.decode()


def test_a_message_to_show_once_is_never_a_304(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    path = paths(sheet)[0]
    etag = client.get(path).headers["ETag"]
    with client.session_transaction() as s:
        s["_flashes"] = [("message", "Nachricht für einmal")]
    r = client.get(path, headers={"If-None-Match": etag})
    assert r.status_code == 200 and "Nachricht für einmal" in r.data.decode()


def test_wrong_share_token_and_unknown_sheet_stay_404(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    etag = client.get(paths(sheet)[1]).headers["ETag"]
    bad = f"/sheets/{sheet['id']}/share/nottheone"
    assert client.get(bad, headers={"If-None-Match": etag}).status_code == 404
    assert client.get("/sheets/999", headers={"If-None-Match": etag}).status_code == 404
    assert client.get("/sheets/999/rev", headers={"If-None-Match": "*"}).status_code == 404


def test_edit_rights_change_the_tag(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip
    viewer = app.test_client()
    editor = app.test_client()
    sheet = new_sheet(editor)
    path = paths(sheet)[0]
    view_tag = viewer.get(path).headers["ETag"]
    editor.get(f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}")  # sets the edit cookie
    r = editor.get(path, headers={"If-None-Match": view_tag})
    assert r.status_code == 200 and 'name="csrf_token"' in r.data.decode()
    assert r.headers["ETag"] != view_tag


# --- gzip -------------------------------------------------------------------------------------


def test_pages_and_json_are_gzipped_for_clients_that_take_it(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    for _ in range(3):
        add(client, sheet["id"])
    for path in (paths(sheet)[0], f"{API}/{sheet['id']}", "/bids"):
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert "Content-Encoding" not in plain.headers
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert "Accept-Encoding" in plain.headers["Vary"]
        body = gzip.decompress(packed.data)
        assert len(packed.data) < len(body) / 3
        assert int(packed.headers["Content-Length"]) == len(packed.data)
        if path.startswith("/api"):
            assert body == plain.data
    refused = client.get("/bids", headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers


def test_small_answers_stay_plain(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    r = client.get(paths(sheet)[2], headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in r.headers and r.get_json() == {"rev": 0}


def test_a_gzipped_page_still_answers_304(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    add(client, sheet["id"])
    path = paths(sheet)[0]
    first = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')  # the bytes differ from the plain answer's
    again = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304


def test_static_files_are_packed_once_and_stay_conditional(app: Flask) -> None:
    client = app.test_client()
    source = Path(app.static_folder or "") / "app.js"
    for _ in range(2):  # the second answer comes from the packed copy
        r = client.get("/static/app.js", headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(r.data) == source.read_bytes()
        r.close()
    etag = r.headers["ETag"]
    again = client.get("/static/app.js", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304
    again.close()


# --- Caches -----------------------------------------------------------------------------------


def test_derived_views_keep_only_the_latest_revision(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    sid = sheet["id"]
    for _ in range(6):
        add(client, sid)
        assert client.get(f"/sheets/{sid}").status_code == 200
        assert client.get(f"/sheets/{sid}?lang=en").status_code == 200
    rev, entries = service._CACHE[sheet["share_token"]]
    assert rev == client.get(f"/sheets/{sid}/rev").get_json()["rev"]
    # the computed sheet and the page pieces, per language and mode: nothing of older revisions
    assert len(entries) <= 6, list(entries)


def test_wtforms_catalogue_is_parsed_once_per_language(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from babel import support

    from skatcalc.web import caching

    caching._WTF.clear()
    loads: list[object] = []
    real = support.Translations.load

    def counting(*args: Any, **kwargs: Any) -> Any:
        loads.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(support.Translations, "load", counting)
    sheet = new_sheet(client)
    for _ in range(3):
        client.get(f"/sheets/{sheet['id']}")
        client.post("/sheets", data={"game": "skat", "p1": "A"})  # a form that fails
    wtforms = [a for a in loads if "wtforms" in str(a)]
    assert len(wtforms) <= 1, wtforms


# --- Rendered pages per revision --------------------------------------------------------------


def _idem(html: str) -> str:
    m = re.search(r'name="idem" value="([^"]*)"', html)
    assert m, "the deal form has no idempotency key"
    return m.group(1)


def test_a_rendered_page_is_reused_with_fresh_tokens(
    csrf_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = csrf_app.test_client()
    sheet = new_sheet(client)
    path = paths(sheet)[0]
    first = client.get(path).data.decode()

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("rendered again")

    monkeypatch.setattr(service, "computed_sheet", boom)
    second = client.get(path).data.decode()
    assert _idem(first) != _idem(second)  # two pages shown, two different saves
    assert re.sub(r'value="[^"]*"', "", first) == re.sub(r'value="[^"]*"', "", second)
    monkeypatch.undo()
    # The reused page's CSRF token is good for this browser's session: the save goes through.
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', second)
    assert token is not None
    form = {"csrf_token": token.group(1), "idem": _idem(second), "kind": "game",
            "declarer": "B", "game": "grand", "with": "true", "matadors": "2",
            "declarer_points": "75", "bid": "18"}  # fmt: skip
    r = client.post(f"/sheets/{sheet['id']}/deals", data=form)
    assert r.status_code in (302, 303), r.data.decode()[:500]
    assert len(client.get(f"{API}/{sheet['id']}").get_json()["deals"]) == 1


def test_links_for_other_phones_follow_the_host(client: FlaskClient) -> None:
    sheet = new_sheet(client)
    path = paths(sheet)[0]
    a = client.get(path, base_url="http://localhost").data.decode()
    b = client.get(path, base_url="http://127.0.0.1").data.decode()
    assert "http://localhost/sheets/" in a and "http://127.0.0.1/sheets/" in b


def test_the_code_fingerprint_covers_every_rules_and_games_file(tmp_path: Path) -> None:
    """Figures kept beyond the process (summaries, season figures) carry the fingerprint of the
    code that made them: any file of ``rules/`` (``rules/sheet/`` too) or ``games/`` counts."""
    import shutil

    import skatcalc
    from skatcalc.services import cache, season

    assert season.CODE_VERSION == cache.CODE_VERSION
    root = tmp_path / "skatcalc"
    shutil.copytree(Path(skatcalc.__file__).parent, root,
                    ignore=shutil.ignore_patterns("__pycache__", "fonts", "translations"))  # fmt: skip
    assert cache.code_version(root) == cache.CODE_VERSION
    before = cache.code_version(root)
    (root / "games" / "newgame").mkdir(parents=True)
    (root / "games" / "newgame" / "contracts.py").write_text("SOLO = 1\n")
    assert cache.code_version(root) != before
    for changed in ("rules/sheet/base.py", "games/newgame/contracts.py"):
        before = cache.code_version(root)
        path = root / changed
        path.write_text(path.read_text() + "\n# a changed rule\n")
        assert cache.code_version(root) != before, changed


def test_unknown_query_arguments_share_the_kept_page(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = new_sheet(client)
    add(client, sheet["id"])
    for path in paths(sheet)[:2]:
        first = client.get(path)
        assert first.status_code == 200

        def boom(*_a: object, **_k: object) -> None:
            raise AssertionError("rendered again for an argument the page does not read")

        monkeypatch.setattr(service, "computed_sheet", boom)
        for query in ("?x=1", "?x=2&y=3", "?saved=abc", "?utm_source=qr"):
            r = client.get(path + query)
            assert r.status_code == 200
            assert r.headers["ETag"] == first.headers["ETag"]
            assert "x=1" not in r.data.decode() and "utm_source" not in r.data.decode()
        monkeypatch.undo()
    # what the page reads still makes its own page: the saved line, the language
    path = paths(sheet)[0]
    plain = client.get(path).headers["ETag"]
    assert client.get(path + "?saved=1").headers["ETag"] != plain
    assert (
        client.get(path + "?saved=01").headers["ETag"]
        == client.get(path + "?saved=1").headers["ETag"]
    )
    # a page first rendered with a stray argument does not carry it in its links
    r = client.get(f"/sheets/{sheet['id']}?zz=evil&lang=de")
    assert "zz=evil" not in r.data.decode()


def test_a_page_kept_by_a_browser_is_not_reused_once_its_session_is_gone(csrf_app: Flask) -> None:
    # A phone whose session cookie was cleared (or expired) still holds the page in its cache,
    # with the form token of the session that is gone: a 304 would show it, and its save would
    # be refused as an expired form. Its tag is bound to the session: the page comes afresh.
    app = csrf_app
    phone = app.test_client()
    sheet = new_sheet(phone)
    path = paths(sheet)[0]
    first = phone.get(path)
    tag = first.headers["ETag"]
    assert phone.get(path, headers={"If-None-Match": tag}).status_code == 304  # same session
    phone.delete_cookie(app.config["SESSION_COOKIE_NAME"])
    again = phone.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 200 and again.headers["ETag"] != tag
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', again.data.decode())
    assert token is not None
    form = {"csrf_token": token.group(1), "idem": _idem(again.data.decode()), "kind": "game",
            "declarer": "B", "game": "grand", "with": "true", "matadors": "2",
            "declarer_points": "75", "bid": "18"}  # fmt: skip
    r = phone.post(f"/sheets/{sheet['id']}/deals", data=form)
    assert r.status_code in (302, 303), r.data.decode()[:500]
    # the new session's tag answers 304 again
    phone.get(path)  # the save's message, shown once (a page with it is not cached)
    now = phone.get(path).headers["ETag"]
    assert phone.get(path, headers={"If-None-Match": now}).status_code == 304
