"""Score sheets: the seed evening, long Skat evenings worked out by hand, corrections, Bock."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet, default_active
from skatcalc.serialize import computed_json
from tests.known_good import evening

SEED = evening("seed_schafkopf")
API = "/api/v1/sheets"


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    r = client.post(API, json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def add(client: FlaskClient, sid: int, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"{API}/{sid}/deals", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_seed_evening_through_the_api(client: FlaskClient) -> None:
    sheet = create(client, game="schafkopf", players=SEED["players"], first_dealer="A")
    assert sheet["rules"]["tariffs"] == {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}
    assert sheet["edit_token"]
    for deal in SEED["deals"]:
        sheet = add(client, sheet["id"], deal["body"])
        last = sheet["deals"][-1]
        assert last["result"]["value"] == deal["value"]
        assert [last["totals"][p] for p in "ABCD"] == deal["totals"]
        assert sum(last["deltas"].values()) == 0
    assert sheet["totals"]["balance"] == {"A": 360, "B": 0, "C": -560, "D": 200}
    assert [d["dealer"] for d in sheet["deals"]] == ["A", "B", "C", "D", "A"]
    assert sheet["totals"]["settlement"] == [
        {"from": "C", "to": "A", "cents": 360},
        {"from": "C", "to": "D", "cents": 200},
    ]
    assert "list" not in sheet["totals"] and "seeger_fabian" not in sheet["totals"]
    again = client.get(f"{API}/{sheet['id']}").get_json()
    assert again["totals"] == sheet["totals"]
    assert [h["action"] for h in again["history"]] == ["add"] * 5


def test_seed_evening_through_the_html_forms(client: FlaskClient) -> None:
    r = client.post("/sheets", data={"game": "schafkopf", "p1": "A", "p2": "B", "p3": "C",
                                     "p4": "D", "first_dealer": "1", "t_sauspiel": "10",
                                     "t_solo": "20", "t_bettel": "20", "t_extra": "10",
                                     "tout_counts": "y"})  # fmt: skip
    assert r.status_code in (302, 303)
    sheet_url = r.headers["Location"]
    sid = int(sheet_url.rstrip("/").split("/")[-1])
    for deal in SEED["deals"]:
        b = deal["body"]
        form: dict[str, Any] = {"kind": "game", "game": b["game"], "declarers": b["declarers"],
                                "outcome": "won" if b["won"] else "lost",
                                "gestellt": str(b.get("gestellt", 0)),
                                "kontra": str(b.get("kontra", 0)),
                                "laufende": str(b.get("laufende", 0))}  # fmt: skip
        for flag in ("schneider", "schwarz", "tout"):
            if b.get(flag):
                form[flag] = "y"
        r = client.post(f"/sheets/{sid}/deals", data=form)
        assert r.status_code in (302, 303), r.data.decode()[:2000]
    data = client.get(f"{API}/{sid}").get_json()
    assert [[d["totals"][p] for p in "ABCD"] for d in data["deals"]] == [
        d["totals"] for d in SEED["deals"]
    ]
    page = client.get(f"/sheets/{sid}").data.decode()
    for v in ("+360", "−560", "+200"):
        assert v in page


# The two Skat evenings, deal by deal, live in tests/data/ (one file, one truth); the
# assertions below work their totals out by hand. Their pattern of six deals:
# grand mit 2 +72, hearts mit 1 lost −40, passed, Null +23, diamonds overbid −54, clubs +24.
EVENING_36 = evening("skat_36_three_table")
EVENING_48 = evening("skat_48_four_table")


def test_36_deals_at_a_3_table(client: FlaskClient) -> None:
    sheet = create(client, game="skat", players=["A", "B", "C"], first_dealer="A")
    for deal in EVENING_36["deals"]:
        sheet = add(client, sheet["id"], deal["body"])
    t = sheet["totals"]
    # Per cycle of six: A +72 −54 = 18, B −40 +24 = −16, C +23. Six cycles:
    assert t["list"] == {"A": 108, "B": -96, "C": 138}
    assert t["won"] == {"A": 6, "B": 6, "C": 6} and t["lost"] == {"A": 6, "B": 6, "C": 0}
    # SF = list + 50 × (won − lost) + 40 per game lost by another player
    assert t["seeger_fabian"] == {"A": 108 + 40 * 6, "B": -96 + 40 * 6, "C": 138 + 300 + 40 * 12}
    # balance_i = 3 × list_i − 150
    assert t["balance"] == {"A": 174, "B": -438, "C": 264}
    assert all(sum(d["deltas"].values()) == 0 for d in sheet["deals"])
    assert [d["dealer"] for d in sheet["deals"][:4]] == ["A", "B", "C", "A"]


def test_48_deals_at_a_4_table(client: FlaskClient) -> None:
    players = ["A", "B", "C", "D"]
    sheet = create(client, game="skat", players=players, first_dealer="A")
    for k, deal in enumerate(EVENING_48["deals"], start=1):
        body = deal["body"]
        dealer = players[(k - 1) % 4]
        forehand = players[k % 4]
        assert body.get("declarer", forehand) == forehand
        sheet = add(client, sheet["id"], body)
        row = sheet["deals"][-1]
        assert row["dealer"] == dealer and dealer not in row["active"]
        assert row["active"][0] == forehand
    t = sheet["totals"]
    # 12 deals: A +23 −40 +24 = 7, B +72 −54 = 18, C −40 +24 +23 = 7, D +72 −54 = 18; ×4
    assert t["list"] == {"A": 28, "B": 72, "C": 28, "D": 72}
    assert t["won"] == {"A": 8, "B": 4, "C": 8, "D": 4}
    assert t["lost"] == {"A": 4, "B": 4, "C": 4, "D": 4}
    # 16 games lost, 4 by each; 30 for every one lost by another (sitting dealer included)
    assert t["seeger_fabian"] == {"A": 28 + 200 + 360, "B": 72 + 360, "C": 588, "D": 432}
    assert t["balance"] == {"A": -88, "B": 88, "C": -88, "D": 88}


def test_five_players_sit_out() -> None:
    spec = SheetSpec("skat", ("A", "B", "C", "D", "E"), "A", {})
    # dealer A and the player two seats to his right (D) sit out
    assert default_active(spec, "A") == ("B", "C", "E")


def test_correction_strike_restore_and_bock(client: FlaskClient) -> None:
    sheet = create(client, game="skat", players=["A", "B", "C"], first_dealer="A",
                   rules={"bock": ["60-60"], "kontra_re": True})  # fmt: skip
    sid = sheet["id"]
    add(client, sid, {"game": "grand", "matadors": 1, "with": True, "declarer_points": 60,
                      "declarer": "A"})  # fmt: skip
    s = add(client, sid, {"game": "hearts", "matadors": 1, "with": True,
                          "declarer_points": 70, "declarer": "B"})  # fmt: skip
    assert s["deals"][0]["list"]["A"] == -96
    assert s["deals"][1]["bock"] is True and s["deals"][1]["list"]["B"] == 40
    assert s["bock_pending"] == 2
    # Correct deal 1 to 61 points: the trigger goes, and its Bock round with it.
    r = client.put(f"{API}/{sid}/deals/1", json={"game": "grand", "matadors": 1, "with": True,
                                                 "declarer_points": 61, "declarer": "A"})  # fmt: skip
    assert r.status_code == 200
    s = r.get_json()
    assert s["deals"][0]["list"]["A"] == 48
    assert s["deals"][1]["bock"] is False and s["deals"][1]["list"]["B"] == 20
    assert s["bock_pending"] == 0
    assert s["history"][-1]["action"] == "correct"
    assert s["history"][-1]["before"]["input"]["declarer_points"] == 60
    # Strike and restore
    s = client.delete(f"{API}/{sid}/deals/2").get_json()
    assert s["deals"][1]["struck"] is True and s["totals"]["list"]["B"] == 0
    assert s["next_dealer"] == "B"
    s = client.post(f"{API}/{sid}/deals/2/restore", json={}).get_json()  # JSON only (415)
    assert s["totals"]["list"]["B"] == 20
    assert [h["action"] for h in s["history"]] == ["add", "add", "correct", "strike", "restore"]
    # Kontra allowed here; refused at a table without the house rule
    s2 = create(client, game="skat", players=["A", "B", "C"], first_dealer="A")
    r = client.post(f"{API}/{s2['id']}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                                     "declarer_points": 70, "declarer": "B",
                                                     "kontra": True})  # fmt: skip
    assert r.status_code == 422 and "kontra" in r.get_json()["errors"]


def test_ramsch_skat(client: FlaskClient) -> None:
    s = create(client, game="skat", players=["A", "B", "C"], first_dealer="A",
               rules={"ramsch": True})  # fmt: skip
    s = add(client, s["id"], {"ramsch": {"points": {"A": 70, "B": 50, "C": 0},
                                         "jungfrau": ["C"], "durchmarsch": None}})  # fmt: skip
    assert s["deals"][0]["list"] == {"A": -140, "B": 0, "C": 0}
    r = client.post(
        f"{API}/{s['id']}/deals", json={"ramsch": {"points": {"A": 70, "B": 40, "C": 0}}}
    )
    assert r.status_code == 422 and "ramsch.points" in r.get_json()["errors"]


def test_sheet_validation(client: FlaskClient) -> None:
    for body, field in [
        ({"game": "skat", "players": ["A", "B"]}, "players"),
        ({"game": "schafkopf", "players": ["A", "B", "C"]}, "players"),
        ({"game": "skat", "players": ["A", "A", "B"]}, "players"),
        ({"game": "skat", "players": ["A", "B", "C"], "first_dealer": "Z"}, "first_dealer"),
        ({"game": "skat", "players": ["A", "B", "C"], "rules": {"bock": ["x"]}}, "rules.bock"),
        ({"game": "skat", "players": ["A" * 41, "B", "C"]}, "players"),
        ({"game": "poker", "players": ["A", "B", "C"]}, "game"),
    ]:
        r = client.post(API, json=body)
        assert r.status_code == 422 and field in r.get_json()["errors"], (body, r.get_json())
    s = create(client, game="skat", players=["A", "B", "C", "D"], first_dealer="A")
    r = client.post(f"{API}/{s['id']}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                                    "declarer_points": 70, "declarer": "A"})  # fmt: skip
    assert r.status_code == 422 and "declarer" in r.get_json()["errors"]  # A deals and sits out
    r = client.post(f"{API}/{s['id']}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                                    "declarer_points": 70, "declarer": "A",
                                                    "active": ["A", "B", "C"]})  # fmt: skip
    assert r.status_code == 201
    assert client.get(f"{API}/{s['id']}").get_json()["deals"][0]["active"] == ["A", "B", "C"]


def test_export_and_import_round_trip(client: FlaskClient) -> None:
    s = create(client, game="schafkopf", players=SEED["players"], first_dealer="A")
    for d in SEED["deals"]:
        add(client, s["id"], d["body"])
    exported = client.get(f"{API}/{s['id']}/export.json")
    assert exported.status_code == 200
    r = client.post(f"{API}/import", data=exported.data, content_type="application/json")
    assert r.status_code == 201
    new = r.get_json()
    assert new["totals"] == json.loads(exported.data)["totals"]
    csv_text = client.get(f"/sheets/{s['id']}/export.csv").data.decode("utf-8-sig")
    assert "360" in csv_text and "-560" in csv_text
    bad = client.post(f"{API}/import", json={"game": "skat", "players": ["A", "B", "C"],
                                              "deals": [{"n": 1}]})  # fmt: skip
    assert bad.status_code == 422


def test_sheet_survives_a_new_app(app: Flask, client: FlaskClient) -> None:
    from skatcalc import create_app

    s = create(client, game="schafkopf", players=SEED["players"], first_dealer="A")
    add(client, s["id"], SEED["deals"][0]["body"])
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "x"})
    data = again.test_client().get(f"{API}/{s['id']}").get_json()
    assert data["totals"]["balance"]["A"] == 60


# --- Property: rows and balances sum to zero, balance = pairwise list differences -----------

skat_deal = st.one_of(
    st.just({"passed": True}),
    st.builds(
        lambda g, m, w, p: {"game": g, "matadors": m, "with": w, "declarer_points": p},
        st.sampled_from(["diamonds", "hearts", "spades", "clubs", "grand"]),
        st.integers(1, 4), st.booleans(), st.integers(0, 120),
    ),
    st.builds(lambda won: {"game": "null", "won": won}, st.booleans()),
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5), st.lists(st.tuples(skat_deal, st.integers(0, 2)), max_size=25))
def test_rows_sum_to_zero(n: int, deals: list[tuple[dict[str, Any], int]]) -> None:
    players = tuple("ABCDE"[:n])
    spec = SheetSpec("skat", players, "A", {"bock": ["60-60", "value-100"]})
    records = []
    dealer = "A"
    for i, (body, who) in enumerate(deals, start=1):
        active = default_active(spec, dealer)
        b = dict(body)
        if "game" in b:
            b["declarer"] = active[who]
        records.append(DealRecord(i, dealer, active, b))
        dealer = players[(players.index(dealer) + 1) % n]
    out = computed_json(compute_sheet(spec, records))
    for row in out["deals"]:
        assert sum(row["deltas"].values()) == 0
    bal, lst = out["totals"]["balance"], out["totals"]["list"]
    assert sum(bal.values()) == 0
    for p in players:
        assert bal[p] == sum(lst[p] - lst[q] for q in players)


def test_entry_form_offers_only_those_who_play(client: FlaskClient) -> None:
    s = create(client, game="skat", players=["A", "B", "C", "D"], first_dealer="C")
    html = client.get(f"/sheets/{s['id']}").data.decode()
    assert '<label data-player="C" hidden>' in html  # the dealer sits out
    for p in ("D", "A", "B"):  # forehand first
        assert f'<label data-player="{p}"><input type="radio" name="declarer"' in html
    assert html.index('data-player="D"') < html.index('data-player="A"')


def test_skat_rows_show_the_list_entry_and_forehand(client: FlaskClient) -> None:
    s = create(client, game="skat", players=["A", "B", "C"], first_dealer="A")
    add(client, s["id"], {"game": "diamonds", "matadors": 1, "with": True, "bid": 22,
                          "declarer_points": 70, "declarer": "C"})  # fmt: skip
    html = client.get(f"/sheets/{s['id']}").data.decode()
    row = html[html.index('<tr id="deal-1"') :]
    row = row[: row.index("</tr>")]
    assert "<td class=l>\u221254</td>" in row  # overbid: −54 on the list
    assert "Vorhand: <b>C</b>" in html  # B deals next, C leads


def test_ramsch_through_the_page(client: FlaskClient) -> None:
    s = create(client, game="skat", players=["A", "B", "C"], first_dealer="A",
               rules={"ramsch": True})  # fmt: skip
    form = {"kind": "ramsch", "r0": "70", "r1": "50", "r2": "0", "jungfrau": "C"}
    r = client.post(f"/sheets/{s['id']}/deals", data=form)
    assert r.status_code in (302, 303)
    sheet = client.get(f"{API}/{s['id']}").get_json()
    assert sheet["deals"][0]["list"] == {"A": -140, "B": 0, "C": 0}
    bad = client.post(f"/sheets/{s['id']}/deals", data={**form, "r1": "40"})
    assert bad.status_code == 422 and "120" in bad.data.decode()
    assert len(client.get(f"{API}/{s['id']}").get_json()["deals"]) == 1


def test_input_is_stored_as_sent(client: FlaskClient) -> None:
    s = create(client, game="skat", players=["A", "B", "C", "D"], first_dealer="A")
    body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70,
            "declarer": "A", "active": ["A", "B", "C"]}  # fmt: skip
    sheet = add(client, s["id"], body)
    assert sheet["deals"][0]["input"] == body
    assert sheet["deals"][0]["active"] == ["A", "B", "C"]


def test_new_sheet_form_numbers_are_checked_next_to_their_fields(client: FlaskClient) -> None:
    base = {"game": "schafkopf", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "first_dealer": "1"}
    r = client.post("/sheets", data={**base, "stake_cents": "zwei", "t_solo": "viel"})
    html = r.data.decode()
    assert r.status_code == 422 and "abgelaufen" not in html
    assert html.count("Bitte eine ganze Zahl eingeben.") == 2
    assert client.get("/sheets").data.decode().count('href="/sheets/') == 0  # nothing created
    r = client.get("/schafkopf", query_string={"submitted": "1", "game": "solo", "declarers": "A",
                                               "outcome": "won", "t_solo": "x"})  # fmt: skip
    assert "Bitte eine ganze Zahl eingeben." in r.data.decode()


def test_players_sharing_the_lead_all_get_the_star(client: FlaskClient) -> None:
    sheet = create(client, game="skat", players=["Anna", "Bernd", "Carla"], first_dealer="Carla")
    for who in ("Anna", "Bernd"):  # Karo mit 1 won by each: Anna and Bernd both +18
        sheet = add(client, sheet["id"], {"declarer": who, "game": "diamonds", "matadors": 1,
                                          "with": True, "won": True})  # fmt: skip
    assert sheet["totals"]["balance"] == {"Anna": 18, "Bernd": 18, "Carla": -36}
    html = client.get(f"/sheets/{sheet['id']}").get_data(as_text=True)
    strip = html.split('id="standings"', 1)[1].split("</div>\n<p", 1)[0]
    assert strip.count("★") == 2
    assert 'class="st lead" data-p="Anna"' in strip and 'class="st lead" data-p="Bernd"' in strip
    assert 'data-p="Carla"' in strip and 'class="st lead" data-p="Carla"' not in strip
    # the list's header marks both as well
    assert (
        '<th class="p leader">Anna</th><th class="p leader">Bernd</th><th class="p">Carla' in html
    )


def test_the_dealer_badge_is_not_read_as_a_count_in_english(client: FlaskClient) -> None:
    sheet = create(client, game="skat", players=["Anna", "Bernd", "Carla"], first_dealer="Carla")
    html = client.get(f"/sheets/{sheet['id']}?lang=en").get_data(as_text=True)
    assert '<span class="role">dealer</span>' in html and ">deals<" not in html
    de = client.get(f"/sheets/{sheet['id']}?lang=de").get_data(as_text=True)
    assert '<span class="role">gibt</span>' in de


def test_counts_say_one_evening_and_lower_case_words_in_english(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Runde", "game": "skat"}).get_json()
    sheet = create(client, game="skat", players=["A", "B", "C"], first_dealer="C",
                   group=group["id"])  # fmt: skip
    add(client, sheet["id"], {"declarer": "A", "game": "grand", "matadors": 1, "with": True,
                              "won": True})  # fmt: skip
    de = client.get("/groups?lang=de").get_data(as_text=True)
    assert "1 Abend<" in de and "1 Abende" not in de
    en = client.get("/groups?lang=en").get_data(as_text=True)
    assert "1 evening<" in en and "1 Evenings" not in en
    show = client.get(f"/groups/{group['id']}?lang=en").get_data(as_text=True)
    assert "· 1 evening</p>" in show
    page = client.get(f"/sheets/{sheet['id']}?lang=en").get_data(as_text=True)
    assert "Skat · 1 deal ·" in page
    pid = next(p["id"] for p in client.get("/api/v1/players").get_json()["players"])
    player = client.get(f"/players/{pid}?lang=en").get_data(as_text=True)
    assert f"#{sheet['id']} · 3 players · 1 deal" in player


def test_an_unknown_game_in_the_calculators_address_names_the_games_as_shown(
    client: FlaskClient,
) -> None:
    de = client.get("/skat?game=xx&lang=de").get_data(as_text=True)
    assert "Unbekanntes Spiel. Möglich: ♣ Kreuz, ♠ Pik, ♥ Herz, ♦ Karo, Grand, Null." in de
    assert "diamonds" not in de.split('id="result"')[0].split("</form>")[1]
    en = client.get("/skat?game=xx&lang=en").get_data(as_text=True)
    assert "Unknown game. Possible: ♣ Clubs, ♠ Spades, ♥ Hearts, ♦ Diamonds, Grand, Null." in en
    sk = client.get("/schafkopf?submitted=1&game=xx&lang=de").get_data(as_text=True)
    assert "Unbekanntes Spiel. Möglich: Sauspiel, Solo, Wenz" in sk


def test_the_schafkopf_save_line_names_the_party_and_a_signed_amount(client: FlaskClient) -> None:
    sheet = create(client, game="schafkopf", players=list("ABCD"), first_dealer="D",
                   rules={"tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}})  # fmt: skip
    add(client, sheet["id"], {"game": "sauspiel", "declarers": ["A", "B"], "won": True,
                              "suit": "eichel"})  # fmt: skip
    add(client, sheet["id"], {"game": "solo", "declarers": ["C"], "won": False, "suit": "gras"})
    one = client.get(f"/sheets/{sheet['id']}?saved=1").get_data(as_text=True)
    assert 'Spiel 1: <b>A+B</b> <b class="amt">+10</b>' in one
    two = client.get(f"/sheets/{sheet['id']}?saved=2").get_data(as_text=True)
    assert 'Spiel 2: <b>C</b> <b class="amt">\u221260</b>' in two


def test_new_sheet_form_gives_the_tariffs_unit_and_tout_is_a_setting(client: FlaskClient) -> None:
    de = client.get("/sheets?lang=de").get_data(as_text=True)
    assert '<fieldset class="schafkopfonly">\n      <legend>Tarife (Cent)</legend>' in de
    assert '<div class="setting"><label class="flag"' in de
    en = client.get("/sheets?lang=en").get_data(as_text=True)
    assert "<legend>Tariffs (cents)</legend>" in en
