"""The live previews are drawn by the server: ``/skat?…&part=result`` and
``/schafkopf?…&part=result`` answer the calculators' result alone (the same template as the
page below the form), ``POST /sheets/<id>/preview`` and ``/sheets/<id>/deals/<n>/preview`` the
row an entry or a correction would become (Bock included). An unfinished form gets an empty
200, a wrong one its messages with 422; app.js only sends the form and puts the answer in place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app

API = "/api/v1/sheets"
ROOT = Path(__file__).resolve().parents[2]
GRAND = {"game": "grand", "spitzen": "w2", "bid": "18"}
ENTRY = {"kind": "game", "declarer": "B", **GRAND}


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def new_sheet(client: FlaskClient, game: str = "skat", **kw: Any) -> int:
    players = ["A", "B", "C"] if game == "skat" else ["A", "B", "C", "D"]
    r = client.post(API, json={"game": game, "players": players, **kw})
    assert r.status_code == 201, r.data
    return int(r.get_json()["id"])


# --- the calculators ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "big", "words"),
    [
        ({"won": "true"}, "+72", "gewonnen · Spielwert 72"),
        ({"won": "false"}, "−144", "verloren · Spielwert 72"),
        ({"declarer_points": "95", "won": "true", "schneider": "y"}, "+96", "Spielwert 96"),
        ({"won": "true", "lang": "en"}, "+72", "won · game value 72"),
    ],
)
def test_skat_result_part_is_the_result_of_the_page(
    client: FlaskClient, query: dict[str, str], big: str, words: str
) -> None:
    args = {**GRAND, **query}
    r = client.get("/skat", query_string={**args, "part": "result"})
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    part = r.get_data(as_text=True)
    assert f'<span class="big">{big}</span>' in part
    assert words in text(part)
    assert '<ol class="steps">' in part and "<html" not in part
    # the same markup as the result below the form after "Berechnen"
    page = client.get("/skat", query_string=args).get_data(as_text=True)
    assert part.strip() in page


def test_skat_part_names_the_spitzen_the_cards_gave(client: FlaskClient) -> None:
    cards = ["SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7"]  # ohne 1 (no ♣J)
    r = client.get("/skat", query_string={"game": "clubs", "cards": cards, "won": "true",
                                          "bid": "18", "part": "result"})  # fmt: skip
    assert r.status_code == 200
    assert 'data-spitzen="o1"' in r.get_data(as_text=True)


@pytest.mark.parametrize(
    "query",
    [
        {},  # nothing tapped yet
        {"game": "grand"},
        {"game": "grand", "spitzen": "w2"},  # no outcome yet
        {"game": "grand", "won": "true"},  # no Spitzen yet
        {"game": "grand", "cards": ["CJ", "SJ"], "won": "true"},  # still tapping the cards
        {"game": "null"},
    ],
)
def test_an_unfinished_calculator_gets_an_empty_answer(
    client: FlaskClient, query: dict[str, Any]
) -> None:
    r = client.get("/skat", query_string={**query, "part": "result"})
    assert (r.status_code, r.data) == (200, b"")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"declarer_points": "7x"}, "Bitte eine ganze Zahl eingeben."),
        ({"declarer_points": "7x", "lang": "en"}, "Enter a whole number."),
        ({"declarer_points": "75", "won": "false"}, "Die Augen sagen etwas anderes als die Knöpfe"),
        (
            {"declarer_points": "75", "won": "true", "schneider": "y"},
            "Die Augen sagen etwas anderes",
        ),
        ({"declarer_points": "75", "won": "false", "lang": "en"}, "The points say something else"),
        ({"won": "true", "bid": "96"}, "überreizt"),
    ],
)
def test_skat_part_messages(client: FlaskClient, query: dict[str, str], message: str) -> None:
    r = client.get("/skat", query_string={**GRAND, **query, "part": "result"})
    part = r.get_data(as_text=True)
    if "überreizt" in message:  # overbid is a result, not an error
        assert r.status_code == 200 and "verloren — überreizt" in part
        return
    assert r.status_code == 422
    assert part.startswith('<div class="verdict lost"><span class="err">')
    assert message in part


def test_letters_in_the_points_are_told_before_the_form_is_finished(client: FlaskClient) -> None:
    r = client.get("/skat", query_string={"game": "grand", "declarer_points": "2o",
                                          "part": "result"})  # fmt: skip
    assert r.status_code == 422 and "Bitte eine ganze Zahl eingeben." in r.get_data(as_text=True)


SK = {"submitted": "1", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "t_sauspiel": "10",
      "t_solo": "50", "t_bettel": "50", "t_extra": "10"}  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "en"])
def test_schafkopf_result_part(client: FlaskClient, lang: str) -> None:
    args = {**SK, "game": "solo", "suit": "eichel", "declarers": "A", "outcome": "won",
            "lang": lang}  # fmt: skip
    r = client.get("/schafkopf", query_string={**args, "part": "result"})
    assert r.status_code == 200
    part = r.get_data(as_text=True)
    assert '<span class="big">50</span>' in part
    assert '<td class="pos">+150</td>' in part and '<td class="neg">−50</td>' in part
    assert ("gewonnen" if lang == "de" else "won") in part
    page = client.get("/schafkopf", query_string=args).get_data(as_text=True)
    assert part.strip() in page


@pytest.mark.parametrize(
    ("extra", "status", "message"),
    [
        ({"game": "sauspiel", "suit": "eichel", "declarers": "A", "outcome": "won"}, 200, ""),
        ({"game": "solo", "declarers": "A"}, 200, ""),  # no outcome yet
        ({"game": "solo", "declarers": "A", "player_points": "x"}, 422, "Bitte eine ganze Zahl"),
        (
            {
                "game": "solo",
                "suit": "eichel",
                "declarers": "A",
                "outcome": "won",
                "t_solo": "fünf",
            },
            422,
            "Bitte eine ganze Zahl",
        ),  # fmt: skip
    ],
)
def test_schafkopf_part_unfinished_and_wrong(
    client: FlaskClient, extra: dict[str, str], status: int, message: str
) -> None:
    r = client.get("/schafkopf", query_string={**SK, **extra, "part": "result"})
    assert r.status_code == status
    assert message in r.get_data(as_text=True)
    if not message:
        assert r.data == b""


# --- the sheet's entry and correction ---------------------------------------------------------


def test_entry_preview_is_the_next_row_with_bock(client: FlaskClient) -> None:
    sid = new_sheet(client, rules={"bock": ["grand-hand-won"]})
    r = client.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"})
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert '<span class="big">+72</span>' in r.get_data(as_text=True)
    # a Grand Hand won sets off Bock: the next deal counts double
    played = {"game": "grand", "with": True, "matadors": 1, "hand": True, "won": True,
              "declarer": "A"}  # fmt: skip
    assert client.post(f"{API}/{sid}/deals", json=played).status_code == 201
    r = client.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"})
    part = r.get_data(as_text=True)
    assert '<span class="big">+144</span>' in part
    assert client.get(f"{API}/{sid}").get_json()["deals"][-1]["n"] == 1  # nothing stored


def test_entry_preview_number_of_a_stale_form_is_still_the_next_deal(client: FlaskClient) -> None:
    sid = new_sheet(client)
    deal = {"game": "grand", "with": True, "matadors": 2, "won": True, "declarer": "A"}
    assert client.post(f"{API}/{sid}/deals", json=deal).status_code == 201
    # the form still says deal 1 (another phone saved meanwhile): not a correction of 1
    r = client.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "false", "n": "1"})
    assert r.status_code == 200 and "−144" in r.get_data(as_text=True)
    assert client.get(f"{API}/{sid}").get_json()["deals"][0]["won"] is True


def test_entry_preview_of_a_ramsch_at_four(client: FlaskClient) -> None:
    sid = client.post(API, json={"game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter"],
                                 "rules": {"ramsch": True}}).get_json()["id"]  # fmt: skip
    form = {"kind": "ramsch", "r1": "60", "r2": "40", "r3": "20", "dealer": "Anna",
            "dealer_shown": "Anna"}  # fmt: skip
    r = client.post(f"/sheets/{sid}/preview", data=form)
    part = r.get_data(as_text=True)
    assert r.status_code == 200
    # the figure the row and the list show: Bernd's list entry (the balance changes below)
    assert '<span class="big who">Bernd −60</span>' in part  # whole, on a line of its own
    assert "Bernd hat die meisten Augen (60)" in part
    assert (
        '<td class="neg">Bernd<br>−180</td>' in part and '<td class="pos">Anna<br>+60</td>' in part
    )
    r = client.post(f"/sheets/{sid}/preview", data={**form, "r3": "2o"})
    assert r.status_code == 422 and "Bitte eine ganze Zahl eingeben." in r.get_data(as_text=True)
    r = client.post(f"/sheets/{sid}/preview", data={"kind": "ramsch", "dealer": "Anna"})
    assert (r.status_code, r.data) == (200, b"")  # no points typed yet


@pytest.mark.parametrize(
    "form",
    [
        {"kind": "passed"},
        {"kind": "game"},
        {"kind": "game", "declarer": "B", "game": "grand"},
        {"kind": "game", **GRAND, "won": "true"},  # no declarer tapped yet
    ],
)
def test_unfinished_entry_gets_an_empty_answer(client: FlaskClient, form: dict[str, str]) -> None:
    sid = new_sheet(client)
    r = client.post(f"/sheets/{sid}/preview", data=form)
    assert (r.status_code, r.data) == (200, b"")


@pytest.mark.parametrize(("lang", "message"), [("de", "Bitte eine ganze Zahl eingeben."),
                                               ("en", "Enter a whole number.")])  # fmt: skip
def test_entry_preview_messages_in_the_page_language(
    client: FlaskClient, lang: str, message: str
) -> None:
    sid = new_sheet(client)
    r = client.post(f"/sheets/{sid}/preview?lang={lang}", data={**ENTRY, "declarer_points": "7x"})
    assert r.status_code == 422 and message in r.get_data(as_text=True)


def test_entry_preview_of_a_rules_error(client: FlaskClient) -> None:
    sid = new_sheet(client)
    r = client.post(f"/sheets/{sid}/preview", data={**ENTRY, "game": "grand", "spitzen": "w5",
                                                     "won": "true"})  # fmt: skip
    assert r.status_code == 422
    assert 'class="err"' in r.get_data(as_text=True)


def test_schafkopf_entry_preview(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf")
    form = {"kind": "game", "game": "sauspiel", "suit": "eichel", "declarers": ["A", "B"],
            "outcome": "won"}  # fmt: skip
    r = client.post(f"/sheets/{sid}/preview?lang=en", data=form)
    part = r.get_data(as_text=True)
    assert r.status_code == 200 and '<div class="verdict won">' in part and "won" in part
    assert '<td class="pos">A<br>+10</td>' in part and '<td class="neg">D<br>−10</td>' in part
    r = client.post(f"/sheets/{sid}/preview", data={**form, "declarers": ["A"]})
    assert (r.status_code, r.data) == (200, b"")  # the partner not tapped yet


def test_correction_preview_is_deal_n_as_corrected(client: FlaskClient) -> None:
    sid = new_sheet(client)
    deal = {"game": "grand", "with": True, "matadors": 2, "won": True, "declarer": "A"}
    for _ in range(2):
        assert client.post(f"{API}/{sid}/deals", json=deal).status_code == 201
    r = client.post(f"/sheets/{sid}/deals/1/preview", data={**ENTRY, "won": "false"})
    part = r.get_data(as_text=True)
    assert r.status_code == 200 and '<span class="big">−144</span>' in part
    assert [d["won"] for d in client.get(f"{API}/{sid}").get_json()["deals"]] == [True, True]
    assert client.post(f"/sheets/{sid}/deals/9/preview", data=ENTRY).status_code == 404
    assert client.post("/sheets/999/preview", data=ENTRY).status_code == 404


def test_pages_point_their_forms_at_the_fragment_routes(client: FlaskClient) -> None:
    sid = new_sheet(client)
    client.post(f"{API}/{sid}/deals", json={"passed": True})
    assert f'data-preview="/sheets/{sid}/preview"' in client.get(f"/sheets/{sid}").get_data(
        as_text=True
    )
    edit = client.get(f"/sheets/{sid}/deals/1/edit").get_data(as_text=True)
    assert f'data-preview="/sheets/{sid}/deals/1/preview"' in edit
    assert 'data-preview="/skat?part=result"' in client.get("/skat").get_data(as_text=True)
    assert 'data-preview="/schafkopf?part=result"' in client.get("/schafkopf").get_data(
        as_text=True
    )


def test_preview_needs_the_csrf_token(csrf_app: Flask) -> None:
    c = csrf_app.test_client()
    sid = new_sheet(c)
    assert c.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"}).status_code == 400
    page = c.get(f"/sheets/{sid}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    r = c.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true", "csrf_token": token[1]})
    assert r.status_code == 200 and "+72" in r.get_data(as_text=True)


def test_preview_needs_the_edit_right(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"),
                      "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip
    c = app.test_client()
    sheet = c.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()
    sid = sheet["id"]
    assert c.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"}).status_code == 403
    c.set_cookie(f"edit_{sid}", sheet["edit_token"])
    r = c.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"})
    assert r.status_code == 200 and "+72" in r.get_data(as_text=True)


# --- app.js neither formats numbers nor builds deal bodies -------------------------------------


def test_app_js_leaves_numbers_and_bodies_to_the_server() -> None:
    js = (ROOT / "static" / "app.js").read_text(encoding="utf-8")
    for banned in ("\\u2212", "\u2212", "toLocale", "signed(", "Intl.", "toFixed"):
        assert banned not in js, banned
    for banned in ("body.declarer", "body.game", "body.won", "body.cards", "body.matadors",
                   "body.tariffs", "body.ramsch", "declarer_points =",
                   "application/json", "/api/"):  # fmt: skip
        assert banned not in js, banned
    # JSON is made only to keep things on the phone (the offline queue's tapped fields, the
    # messages already told), never as a body sent to the server
    for line in js.splitlines():
        if "JSON.stringify" in line:
            assert re.search(
                r"(localStorage|sessionStorage)\.setItem\([^;]*JSON\.stringify", line
            ), line
    assert re.search(r"\bbody\s*[.\[]", js) is None  # no deal body put together field by field


def test_the_live_preview_is_never_limited_and_takes_only_forms(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "lim.sqlite"),
                      "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "WRITE_LIMIT": 2})  # fmt: skip
    c = app.test_client()
    sid = new_sheet(c)
    codes = {c.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true"}).status_code
             for _ in range(6)}  # fmt: skip
    assert codes == {200}
    r = c.post(f"/sheets/{sid}/preview", json={**ENTRY, "won": "true"})
    assert r.status_code == 415


@pytest.mark.parametrize(
    ("extra", "shown"),
    [({"kontra": "y"}, "Kontra ×2"), ({"kontra": "y", "re": "y"}, "Re ×4"), ({}, "")],
)
def test_entry_preview_names_its_doublings(
    client: FlaskClient, extra: dict[str, str], shown: str
) -> None:
    sid = new_sheet(client, first_dealer="A", rules={"kontra_re": True})
    r = client.post(f"/sheets/{sid}/preview", data={**ENTRY, "won": "true", **extra})
    part = text(r.get_data(as_text=True))
    assert r.status_code == 200 and "Spielwert 72" in part
    if shown:
        assert shown in part
    else:
        assert "×2" not in part and "×4" not in part


def test_schafkopf_entry_preview_names_kontra_and_bock(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", first_dealer="A")
    form = {"kind": "game", "game": "sauspiel", "declarers": ["A", "B"], "outcome": "won",
            "kontra": "2"}  # fmt: skip
    part = text(client.post(f"/sheets/{sid}/preview", data=form).get_data(as_text=True))
    assert "Re ×4" in part
