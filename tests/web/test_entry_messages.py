"""What a save with choices missing says, and where: each message under the choice it asks for,
all of them at once, never under a field the page hides (the Schafkopf points' field is shown
only once "Augen" is the outcome); and the entry fields' attributes as written (a translated
placeholder once came out as ``placeholder="&quot;Augen"``)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


def schafkopf_sheet(client: FlaskClient) -> int:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": PLAYERS})
    assert r.status_code == 201, r.data
    body = r.get_json()
    client.get(f"/sheets/{body['id']}/edit/{body['edit_token']}")  # this browser's edit right
    return int(body["id"])


def fieldset(page: str, name: str) -> str:
    m = re.search(rf'<fieldset[^>]*id="f-{name}".*?</fieldset>', page, re.S)
    assert m, name
    return m.group(0)


def after_points_field(page: str) -> str:
    """What follows the points' field up to the next flag: its message, if it has one."""
    m = re.search(r'id="f-player_points".*?</label>(.*?)<span class="nobettel', page, re.S)
    assert m
    return m.group(1)


def messages(part: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<p class="err[^"]*"[^>]*>([^<]*)</p>', part)]


@pytest.mark.parametrize(
    ("lang", "party", "outcome"),
    [
        ("de", "Im Sauspiel spielen zwei zusammen: bitte beide nennen.",
         "Bitte die Augen der Spielerpartei eingeben oder gewonnen/verloren wählen."),
        ("en", "In a Sauspiel (partner game) two play together: name both.",
         "Enter the player party's points or choose won/lost."),
    ],
)  # fmt: skip
def test_an_empty_schafkopf_save_says_each_missing_choice_under_it(
    client: FlaskClient, lang: str, party: str, outcome: str
) -> None:
    sid = schafkopf_sheet(client)
    r = client.post(f"/sheets/{sid}/deals?lang={lang}",
                    data={"kind": "game", "game": "sauspiel", "idem": "e1"})  # fmt: skip
    assert r.status_code == 422
    page = r.data.decode()
    assert messages(fieldset(page, "declarers")) == [party]
    assert messages(fieldset(page, "outcome")) == [outcome]
    assert messages(after_points_field(page)) == []  # hidden until "Augen" is chosen
    assert client.get(f"/api/v1/sheets/{sid}").get_json()["deals"] == []


def test_points_chosen_but_not_given_is_said_under_the_points(client: FlaskClient) -> None:
    sid = schafkopf_sheet(client)
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "game": "solo", "idem": "e2",
                                                   "outcome": "points"})  # fmt: skip
    assert r.status_code == 422
    page = r.data.decode()
    assert messages(after_points_field(page)) == [
        "Bitte die Augen der Spielerpartei eingeben oder gewonnen/verloren wählen."
    ]
    assert messages(fieldset(page, "outcome")) == []
    assert messages(fieldset(page, "declarers")) == [
        "Ein Solo wird allein gespielt: bitte genau einen Spieler nennen."
    ]


def test_without_a_game_the_party_is_asked_for_in_general(client: FlaskClient) -> None:
    sid = schafkopf_sheet(client)
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "outcome": "won", "idem": "e3"})
    assert r.status_code == 422
    assert messages(fieldset(r.data.decode(), "declarers")) == ["Bitte die Spielerpartei nennen."]


def test_a_party_named_is_judged_by_the_rules_alone(client: FlaskClient) -> None:
    sid = schafkopf_sheet(client)
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "game": "sauspiel", "idem": "e4",
                                                   "declarers": ["Anna"], "outcome": "won"})  # fmt: skip
    assert r.status_code == 422
    assert messages(fieldset(r.data.decode(), "declarers")) == [
        "Im Sauspiel spielen zwei zusammen: bitte beide nennen."
    ]


@pytest.mark.parametrize(("lang", "placeholder"), [("de", "Augen 0–120"), ("en", "points 0–120")])
def test_the_points_placeholder_is_written_as_one_attribute(
    client: FlaskClient, lang: str, placeholder: str
) -> None:
    sid = schafkopf_sheet(client)
    for path in (f"/sheets/{sid}?lang={lang}", f"/schafkopf?lang={lang}"):
        page = client.get(path).data.decode()
        tag = re.search(r'<input[^>]*name="player_points"[^>]*>', page)
        assert tag, path
        assert f'placeholder="{placeholder}"' in tag.group(0), (path, tag.group(0))


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_no_entry_field_has_an_attribute_escaped_twice(client: FlaskClient, game: str) -> None:
    """An attribute written inside another's escaping shows as ``&quot;`` or ``&#34;`` in the
    tag itself, outside any quoted value."""
    players = PLAYERS[:3] if game == "skat" else PLAYERS
    r = client.post("/api/v1/sheets", json={"game": game, "players": players})
    body = r.get_json()
    client.get(f"/sheets/{body['id']}/edit/{body['edit_token']}")
    for path in (f"/sheets/{body['id']}", f"/{game}", f"/sheets/{body['id']}?lang=en"):
        page = client.get(path).data.decode()
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", page):
            outside = re.sub(r'"[^"]*"', '""', tag)  # the tag without its quoted values
            assert "&quot;" not in outside and "&#34;" not in outside, (path, tag)
