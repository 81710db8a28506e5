"""Small truths at the table: at a Schafkopf table of five the dealer who sits out is not
offered for the player party; a Schafkopf game won with 91 card points or more carries its
"Schn." mark as its value does; the stake is named per what the settlement counts (per
Bierlachs once Bierlachs is on) and turning Bierlachs on or off says so."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

API = "/api/v1/sheets"
FIVE = ["Anna", "Bernd", "Carla", "Dora", "Emil"]


def new_sheet(client: FlaskClient, game: str, players: list[str], **rules: Any) -> int:
    r = client.post(API, json={"game": game, "players": players, "rules": rules})
    assert r.status_code == 201
    return int(r.get_json()["id"])


def offered_party(html: str) -> list[str]:
    """The names the player party's boxes show (those not hidden)."""
    part = html[html.index('id="f-declarers"') :]
    part = part[: part.index("</fieldset>")]
    return re.findall(r'<label data-player="([^"]+)">', part)


def test_the_dealer_who_sits_out_is_not_offered_for_the_party(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", FIVE)  # Anna deals first and sits out
    assert offered_party(client.get(f"/sheets/{sid}").data.decode()) == FIVE[1:]
    body = {"game": "sauspiel", "declarers": ["Bernd", "Carla"], "won": True}
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    # the next deal: Bernd deals and sits out
    page = client.get(f"/sheets/{sid}").data.decode()
    assert offered_party(page) == ["Anna", "Carla", "Dora", "Emil"]
    # the correction of deal 1: as it was played, Anna sat out
    page = client.get(f"/sheets/{sid}/deals/1/edit").data.decode()
    assert offered_party(page) == FIVE[1:]
    assert 'value="Bernd" checked' in page and 'value="Carla" checked' in page
    # at four everybody plays: all four offered
    four = new_sheet(client, "schafkopf", FIVE[:4])
    assert offered_party(client.get(f"/sheets/{four}").data.decode()) == FIVE[:4]


def test_the_calculator_still_offers_all_four(client: FlaskClient) -> None:
    html = client.get("/schafkopf").data.decode()
    part = html[html.index('id="f-declarers"') :]
    part = part[: part.index("</fieldset>")]
    assert part.count('name="declarers"') == 4 and " hidden" not in part


def test_schafkopf_points_91_carry_the_schneider_mark(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", FIVE[:4])
    for body in ({"game": "sauspiel", "declarers": ["Bernd", "Carla"], "player_points": 95},
                 {"game": "wenz", "declarers": ["Dora"], "player_points": 25},
                 {"game": "solo", "declarers": ["Anna"], "player_points": 70}):  # fmt: skip
        assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    html = client.get(f"/sheets/{sid}").data.decode()
    rows = {n: html[html.index(f'<tr id="deal-{n}"') :].split("</tr>")[0] for n in (1, 2, 3)}
    assert "Schn." in rows[1] and "Schn." in rows[2] and "Schn." not in rows[3]
    # the saved line says it too
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "game": "sauspiel",
                    "suit": "eichel", "declarers": ["Anna", "Bernd"], "outcome": "points",
                    "player_points": "100"}, follow_redirects=True)  # fmt: skip
    saved = r.data.decode().split('id="saved"')[1].split("</p>")[0]
    assert "Schn." in saved
    # a Tout whose Schneider and Schwarz the house rule leaves out shows none
    sid = new_sheet(client, "schafkopf", FIVE[:4], tout_counts_schneider_schwarz=False)
    body = {"game": "solo", "declarers": ["Anna"], "won": True, "tout": True, "schneider": True}
    row = client.post(f"{API}/{sid}/deals", json=body).get_json()["deals"][0]
    assert row["value"] == 40
    html = client.get(f"/sheets/{sid}").data.decode()
    assert "Schn." not in html[html.index('<tr id="deal-1"') :].split("</tr>")[0]


def test_the_stake_is_named_per_bierlachs_and_the_change_is_said(client: FlaskClient) -> None:
    sid = new_sheet(client, "skat", ["A", "B", "C"], stake_cents=10)
    page = client.get(f"/sheets/{sid}/rules").data.decode()
    assert "Einsatz in Cent je Punkt" in page and "je Bierlachs, ohne je Punkt" in page
    form = {"stake_cents": "10", "bierlachs": "301"}
    r = client.post(f"/sheets/{sid}/rules", data=form, follow_redirects=True)
    assert "Bierlachs ist an: der Einsatz gilt jetzt je Bierlachs" in r.data.decode()
    page = client.get(f"/sheets/{sid}/rules").data.decode()
    assert "Einsatz in Cent je Bierlachs" in page and "Einsatz in Cent je Punkt" not in page
    r = client.post(f"/sheets/{sid}/rules", data={"stake_cents": "10", "bierlachs": ""},
                    follow_redirects=True)  # fmt: skip
    assert "Bierlachs ist aus: der Einsatz gilt wieder je Punkt." in r.data.decode()
    page = client.get(f"/sheets/{sid}/rules?lang=en").data.decode()
    assert "Stake in cents per point" in page
