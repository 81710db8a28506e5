"""The new-event page's tournament scales (docs/rules.md 2.8): money or a preset by name with
its source, every figure editable (an empty one keeps the preset's), bad figures named next to
their field; and the fair draw's ``repeated_pairs`` in the API's answers."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc.games.schafkopf.tournament import PRESETS

FORM = {"name": "Preisschafkopf", "game": "schafkopf", "entry": "", "lost_fee": "",
        "table_fee": "", "tier_fee": ""}  # fmt: skip


def created(client: FlaskClient, **fields: str) -> dict[str, Any]:
    r = client.post("/events", data={**FORM, **fields})
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    return dict(client.get(f"/api/v1/events/{event_id}").json)


def test_the_page_names_each_preset_with_its_source(client: FlaskClient) -> None:
    page = client.get("/events").get_data(as_text=True)
    for words in ("Grossreuth", "SELF (Schafkopfturnier 2022)", "Donauries-Schafkopfcup",
                  "Turnierregeln 2019/2020", "TSG Niederfüllbach"):  # fmt: skip
        assert words in page
    for name in PRESETS:
        assert f'name="scoring" value="{name}"' in page
    assert 'name="scoring" value="money" checked' in page
    # the default's figures as the fields' placeholders, every figure a field
    assert 'name="sc_solo_plain" value="" placeholder="2"' in page
    assert 'name="sc_tout" value="" placeholder="2"' in page


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_picked_on_the_page_counts_as_its_source_writes(
    client: FlaskClient, name: str
) -> None:
    event = created(client, scoring=name)
    assert event["scoring"] == {"kind": "points", "preset": name,
                                "scale": PRESETS[name].to_json()}  # fmt: skip


def test_money_stays_money_and_the_old_tick_box_is_the_default_scale(
    client: FlaskClient,
) -> None:
    assert created(client)["scoring"] == {"kind": "money"}
    assert created(client, scoring="money")["scoring"] == {"kind": "money"}
    assert created(client, points="y")["scoring"]["preset"] == "default"


def test_every_figure_typed_on_the_page_overrides_the_preset(client: FlaskClient) -> None:
    typed = {"sc_ruf_plain": "2", "sc_ruf_schneider": "4", "sc_ruf_schwarz": "6",
             "sc_solo_plain": "4", "sc_solo_schneider": "5", "sc_solo_schwarz": "6",
             "sc_bettel": "3", "sc_herz_solo": "7", "sc_lauf_ruf": "2", "sc_lauf_solo": "3",
             "sc_lauf_from": "4", "sc_lauf_from_wenz": "3", "sc_lauf_max": "5", "sc_tout": "3",
             "sc_sie": "5", "sc_kontra": "1", "sc_tout_level": "plain",
             "sc_written": "yes"}  # fmt: skip
    scale = created(client, scoring="self", **typed)["scoring"]["scale"]
    assert scale == {
        "rufspiel": {"plain": 2, "schneider": 4, "schwarz": 6},
        "solo": {"plain": 4, "schneider": 5, "schwarz": 6},
        "bettel": 3, "herz_solo": 7, "laufender_rufspiel": 2, "laufender_solo": 3,
        "laufende_min": {"sauspiel": 4, "hochzeit": 4, "solo": 4, "farbwenz": 4,
                         "farbgeier": 4, "wenz": 3, "geier": 3},
        "laufende_max": 5, "tout": 3, "sie": 5, "kontra": 1, "tout_level": "plain",
        "written": True, "preset": "self",
    }  # fmt: skip
    # 0 on the page: no Herz-Solo of its own, no cap on the Laufende
    scale = created(client, scoring="nur-gute", sc_herz_solo="0", sc_lauf_max="0")
    assert scale["scoring"]["scale"]["herz_solo"] is None
    assert scale["scoring"]["scale"]["laufende_max"] is None
    assert scale["scoring"]["scale"]["solo"]["plain"] == 20


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"sc_solo_plain": "viel"}, "sc_solo_plain", "Ganze Zahl von 0 bis 1000."),
        ({"sc_tout": "11"}, "sc_tout", "Ganze Zahl von 1 bis 10."),
        ({"sc_lauf_from_wenz": "5"}, "sc_lauf_from_wenz", "Ganze Zahl von 1 bis 4."),
        ({"sc_lauf_from": "12"}, "sc_lauf_from", "Laufende ab 1 bis 11."),
        ({"scoring": "skat"}, "scoring", "Bitte eine Wertung aus der Liste wählen."),
        ({"ramsch": "y"}, "ramsch", "Auf der Turnierwertung wird kein Ramsch gespielt."),
    ],
)  # fmt: skip
def test_a_bad_figure_is_named_next_to_its_field_and_nothing_is_made(
    client: FlaskClient, fields: dict[str, str], field: str, message: str
) -> None:
    r = client.post("/events", data={**FORM, "scoring": "self", **fields})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    at = page.index(f'id="f-{field}"')
    assert message in page[at : at + 3000], page[at : at + 3000]
    assert client.get("/api/v1/events").json["events"] == []
    if "scoring" not in fields:  # what was picked stays on the page
        assert 'name="scoring" value="self" checked' in page


def test_a_series_answer_says_how_many_pairs_repeat(client: FlaskClient) -> None:
    eid = client.post("/api/v1/events", json={"game": "schafkopf", "deals": {"4": 1}}).json["id"]
    client.post(f"/api/v1/events/{eid}/players", json={"names": list("ABCDEFGH")})
    first = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw", "seed": 3}).json
    assert first["repeated_pairs"] == 0
    for t in first["tables"]:
        client.post(f"/api/v1/sheets/{t['sheet']}/deals", json={"passed": True})
    second = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw", "seed": 3}).json
    assert second["repeated_pairs"] == 4  # two tables of four after two: the fewest
    old = [set(t["players"]) for t in first["tables"]]
    for t in second["tables"]:  # two of each table of series 1 at each table
        assert sorted(len(set(t["players"]) & o) for o in old) == [2, 2]
    # the desk's re-draw draws as fairly
    redrawn = client.post(f"/api/v1/events/{eid}/series/2/redraw", json={"seed": 11})
    assert redrawn.status_code == 200, redrawn.json
    assert redrawn.json["repeated_pairs"] == 4


def test_the_series_page_says_how_many_pairs_sit_together_again(client: FlaskClient) -> None:
    eid = client.post("/api/v1/events", json={"game": "schafkopf", "deals": {"4": 1}}).json["id"]
    client.post(f"/api/v1/events/{eid}/players", json={"names": list("ABCDEFGH")})
    first = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw"}).json
    page = client.get(f"/events/{eid}/series/1").get_data(as_text=True)
    assert "schon zusammen" not in page  # series 1: nobody has met
    for t in first["tables"]:
        client.post(f"/api/v1/sheets/{t['sheet']}/deals", json={"passed": True})
    r = client.post(f"/events/{eid}/series", data={"seating": "draw", "seed": "5", "n": "2"})
    assert r.status_code == 302, r.get_data(as_text=True)
    page = client.get(f"/events/{eid}/series/2").get_data(as_text=True)
    assert "4 Paare saßen schon zusammen an einem Tisch" in page
    page = client.get(f"/events/{eid}/series/2?lang=en").get_data(as_text=True)
    assert "4 pairs already shared a table" in page
