"""What the pages carry for every player (the browser tests measure the rest): a skip link, the
"Größere Schrift" setting in every page's menu, the strip's names out of the Tab order, the
Stock's level in the strip at Schafkopf."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def test_every_page_has_a_skip_link_and_the_larger_text_setting(client: FlaskClient) -> None:
    sid = client.post(
        "/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}
    ).get_json()["id"]
    for path, target in (("/", "#main"), ("/sheets", "#main"), (f"/sheets/{sid}", "#entry")):
        html = client.get(path).get_data(as_text=True)
        skip = re.search(r'<a class="skip" href="([^"]+)">', html)
        assert skip and skip.group(1) == target, path
        assert html.index('class="skip"') < html.index("<header"), path  # the first stop
        assert html.count('class="bigtext"') == 2, path  # the wide header's and the menu's
    en = client.get(f"/sheets/{sid}?lang=en").get_data(as_text=True)
    assert ">Skip to entry<" in en and ">Larger text<" in en


def test_the_strips_names_are_no_tab_stops(client: FlaskClient) -> None:
    sid = client.post(
        "/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}
    ).get_json()["id"]
    html = client.get(f"/sheets/{sid}").get_data(as_text=True)
    strip = html[html.index('id="standings"') : html.index('id="newdeal"')]
    assert 'tabindex="0"' not in strip and strip.count('tabindex="-1"') == 3


def test_the_stocks_level_is_in_the_strip(client: FlaskClient) -> None:
    sheet = client.post("/api/v1/sheets", json={
        "game": "schafkopf", "players": list("ABCDE"), "rules": {"stock": 20}}).get_json()  # fmt: skip
    html = client.get(f"/sheets/{sheet['id']}").get_data(as_text=True)
    assert "stockline" not in html  # nothing in it yet
    r = client.post(f"/api/v1/sheets/{sheet['id']}/deals", json={"passed": True})
    assert r.status_code == 201, r.get_json()
    html = client.get(f"/sheets/{sheet['id']}").get_data(as_text=True)
    strip = html[html.index('id="standings"') : html.index('id="newdeal"')]
    assert '<p class="stockline">Im Stock: 80</p>' in strip


def test_the_list_rules_off_each_round(client: FlaskClient) -> None:
    sid = client.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C", "D"],
                                              "first_dealer": "A"}).get_json()["id"]  # fmt: skip
    for _ in range(5):
        assert client.post(f"/api/v1/sheets/{sid}/deals", json={"passed": True}).status_code == 201
    html = client.get(f"/sheets/{sid}").get_data(as_text=True)
    ends = re.findall(r'<tr id="deal-(\d+)" class="([^"]*)"', html)
    assert [n for n, cls in ends if "rend" in cls.split()] == ["4"]  # four dealt: one round


def test_strike_and_undo_say_what_can_be_restored(client: FlaskClient) -> None:
    sheet = client.post(
        "/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}
    ).get_json()
    sid = sheet["id"]
    for _ in range(2):
        client.post(f"/api/v1/sheets/{sid}/deals", json={"passed": True})
    page = client.get(f"/sheets/{sid}/edit/{sheet['edit_token']}", follow_redirects=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    r = client.post(
        f"/sheets/{sid}/undo", data={"csrf_token": token, "n": "2"}, follow_redirects=True
    )
    assert (
        "Spiel 2 gestrichen (rückgängig): es bleibt durchgestrichen in der Liste; „Wiederherstellen“"
        in r.get_data(as_text=True)
    )
    r = client.post(
        f"/sheets/{sid}/deals/1/strike", data={"csrf_token": token}, follow_redirects=True
    )
    assert "Spiel 1 gestrichen: es zählt nicht mehr" in r.get_data(as_text=True)
    r = client.post(
        f"/sheets/{sid}/deals/1/restore", data={"csrf_token": token}, follow_redirects=True
    )
    assert "Spiel 1 wiederhergestellt: es zählt wieder." in r.get_data(as_text=True)
