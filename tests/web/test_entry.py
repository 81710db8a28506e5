"""Entering a deal: outcome by buttons, one deal one entry (n, 409), undo by number,
the stale-form dealer, and the entry form's messages."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.games.skat import LEGAL_BIDS, Game, Party, SkatDeal, skat_value
from skatcalc.games.skat.values import won_in_play
from skatcalc.rules import InvalidDeal
from skatcalc.text import field_errors
from tests.support import explanation

G, H, S, C, D = Game.GRAND, Game.HEARTS, Game.SPADES, Game.CLUBS, Game.DIAMONDS
SKAT = "/api/v1/skat/value"
API = "/api/v1/sheets"

# (description, deal by buttons, value, score, won, overbid, outcome line of the explanation)
BUTTONS = [
    ("grand mit 2 gewonnen", SkatDeal(G, 2, True, won=True), 72, 72, True, False, "gewonnen"),
    ("grand mit 2 gewonnen, Schneider", SkatDeal(G, 2, True, won=True, schneider=True), 96, 96, True, False, "gewonnen, Schneider"),
    ("grand mit 2 gewonnen, schwarz", SkatDeal(G, 2, True, won=True, all_tricks=Party.DECLARER), 120, 120, True, False, "gewonnen, Schneider, Schwarz"),
    ("herz ohne 1 verloren", SkatDeal(H, 1, False, won=False), 20, -40, False, False, "verloren"),
    ("herz ohne 1 verloren, Schneider", SkatDeal(H, 1, False, won=False, schneider=True), 30, -60, False, False, "verloren, Schneider"),
    ("herz mit 1 verloren, kein Stich", SkatDeal(H, 1, True, won=False, all_tricks=Party.OPPONENTS), 40, -80, False, False, "verloren, Schneider, Schwarz"),
    # ouvert: hand, schneider/schwarz announced and (won) every trick come with it
    ("kreuz ouvert mit 2 gewonnen", SkatDeal(C, 2, True, ouvert=True, won=True), 108, 108, True, False, "gewonnen, Schneider, Schwarz"),
    ("grand ouvert mit 4 gewonnen", SkatDeal(G, 4, True, ouvert=True, won=True), 264, 264, True, False, "gewonnen, Schneider, Schwarz"),
    ("grand ouvert mit 1 verloren", SkatDeal(G, 1, True, ouvert=True, won=False), 192, -384, False, False, "verloren"),
    # announced schneider, won: the schneider level counts twice over (played and announced)
    ("pik hand schneider angesagt gewonnen", SkatDeal(S, 1, True, hand=True, schneider_announced=True, won=True), 55, 55, True, False, "gewonnen, Schneider"),
    ("pik hand schneider angesagt verloren", SkatDeal(S, 1, True, hand=True, schneider_announced=True, won=False), 55, -110, False, False, "verloren"),
    # overbid is still judged: value 18 < bid 22 → 27 charged, lost
    ("karo mit 1 gewonnen, bid 22", SkatDeal(D, 1, True, won=True, bid=22), 27, -54, False, True, "gewonnen"),
    ("karo mit 1 gewonnen Schneider, bid 27", SkatDeal(D, 1, True, won=True, schneider=True, bid=27), 27, 27, True, False, "gewonnen, Schneider"),
    ("kontra", SkatDeal(H, 2, True, hand=True, won=True, kontra=True), 40, 80, True, False, "gewonnen"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("deal", "value", "score", "won", "overbid", "line"),
    [b[1:] for b in BUTTONS],
    ids=[b[0] for b in BUTTONS],
)
def test_outcome_by_buttons(
    deal: SkatDeal, value: int, score: int, won: bool, overbid: bool, line: str
) -> None:
    r = skat_value(deal)
    assert (r.value, r.score, r.won, r.overbid) == (value, score, won, overbid)
    assert line in explanation(r)
    assert not any("Augen (mit Skat)" in s for s in explanation(r))


@pytest.mark.parametrize(
    ("points_deal", "buttons_deal"),
    [
        (SkatDeal(G, 2, True, declarer_points=75), SkatDeal(G, 2, True, won=True)),
        (SkatDeal(G, 2, True, declarer_points=95), SkatDeal(G, 2, True, won=True, schneider=True)),
        (SkatDeal(H, 3, False, declarer_points=40), SkatDeal(H, 3, False, won=False)),
        (SkatDeal(H, 3, False, declarer_points=20), SkatDeal(H, 3, False, won=False, schneider=True)),
        (SkatDeal(C, 1, True, hand=True, declarer_points=120, all_tricks=Party.DECLARER),
         SkatDeal(C, 1, True, hand=True, won=True, all_tricks=Party.DECLARER)),
        (SkatDeal(D, 1, True, bid=22, declarer_points=70), SkatDeal(D, 1, True, bid=22, won=True)),
        (SkatDeal(S, 1, True, hand=True, bid=72, declarer_points=70), SkatDeal(S, 1, True, hand=True, bid=72, won=True)),
    ],
)  # fmt: skip
def test_buttons_and_points_agree(points_deal: SkatDeal, buttons_deal: SkatDeal) -> None:
    a, b = skat_value(points_deal), skat_value(buttons_deal)
    assert (a.value, a.score, a.won, a.overbid, a.multiplier) == (
        b.value, b.score, b.won, b.overbid, b.multiplier,
    )  # fmt: skip


@st.composite
def points_deals(draw: st.DrawFn) -> SkatDeal:
    game = draw(st.sampled_from([D, H, S, C, G]))
    ouvert = draw(st.booleans())
    hand = ouvert or draw(st.booleans())
    at = draw(st.sampled_from([None, Party.DECLARER, Party.OPPONENTS]))
    pts = 120 if at is Party.DECLARER else draw(st.integers(0, 22 if at else 120))
    kontra = draw(st.booleans())
    return SkatDeal(
        game, draw(st.integers(1, game.max_matadors)), draw(st.booleans()), hand=hand,
        schneider_announced=hand and draw(st.booleans()),
        schwarz_announced=hand and draw(st.booleans()), ouvert=ouvert,
        bid=draw(st.sampled_from(LEGAL_BIDS)), declarer_points=pts, all_tricks=at,
        kontra=kontra, re=kontra and draw(st.booleans()),
    )  # fmt: skip


@settings(deadline=None)  # a shared, loaded machine must not make a law fail
@given(points_deals())
def test_the_buttons_say_what_the_points_say(deal: SkatDeal) -> None:
    """Law: any deal entered by its card points comes out the same when entered by the
    buttons the table would tap for it (gewonnen/verloren, Schneider, who was schwarz)."""
    pts = deal.declarer_points
    assert pts is not None
    tapped = replace(deal, declarer_points=None, won=won_in_play(deal),
                     schneider=pts >= 90 or pts <= 30)  # fmt: skip
    a, b = skat_value(deal), skat_value(tapped)
    assert (a.value, a.score, a.won, a.overbid, a.multiplier, a.schneider, a.schwarz) == (
        b.value, b.score, b.won, b.overbid, b.multiplier, b.schneider, b.schwarz,
    )  # fmt: skip


def test_english_outcome_line() -> None:
    r = skat_value(SkatDeal(G, 2, True, won=True, schneider=True))
    assert "won, schneider" in explanation(r, "en")


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        (SkatDeal(G, 2, True, won=True, declarer_points=80), "won"),
        (SkatDeal(G, 2, True), "declarer_points"),
        (SkatDeal(G, 2, True, declarer_points=95, schneider=True), "schneider"),
        (SkatDeal(G, 2, True, won=True, all_tricks=Party.OPPONENTS), "all_tricks"),
        (SkatDeal(G, 2, True, won=False, all_tricks=Party.DECLARER), "all_tricks"),
        (SkatDeal(Game.NULL, won=True, schneider=True), "schneider"),
    ],
)
def test_outcome_input_refused(deal: SkatDeal, field: str) -> None:
    with pytest.raises(InvalidDeal) as info:
        skat_value(deal)
    assert field in field_errors(info.value, "de")


# --- API ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "value", "score", "line"),
    [
        ({"game": "grand", "matadors": 2, "with": True, "won": True}, 72, 72, "gewonnen"),
        ({"game": "grand", "matadors": 2, "with": True, "won": True, "schneider": True}, 96, 96,
         "gewonnen, Schneider"),
        ({"game": "clubs", "matadors": 2, "with": True, "ouvert": True, "won": True}, 108, 108,
         "gewonnen, Schneider, Schwarz"),
        ({"game": "hearts", "matadors": 1, "with": False, "won": False}, 20, -40, "verloren"),
        ({"game": "spades", "matadors": 1, "with": True, "won": False, "all_tricks": "opponents"},
         44, -88, "verloren, Schneider, Schwarz"),
    ],
)  # fmt: skip
def test_api_value_with_won(client: FlaskClient, body: dict[str, Any], value: int, score: int,
                            line: str) -> None:  # fmt: skip
    r = client.post(SKAT, json=body)
    assert r.status_code == 200, r.get_json()
    d = r.get_json()
    assert (d["value"], d["score"]) == (value, score)
    assert line in d["explanation"]


def test_api_value_won_and_points_is_one_clear_message(client: FlaskClient) -> None:
    both = client.post(SKAT, json={"game": "grand", "matadors": 2, "with": True, "won": True,
                                   "declarer_points": 75})  # fmt: skip
    assert both.status_code == 422
    assert list(both.get_json()["errors"]) == ["won"]
    assert "nicht beides" in both.get_json()["errors"]["won"][0]
    neither = client.post(SKAT, json={"game": "grand", "matadors": 2, "with": True},
                          headers={"Accept-Language": "en"})  # fmt: skip
    assert neither.status_code == 422
    assert list(neither.get_json()["errors"]) == ["declarer_points"]
    assert "won" in neither.get_json()["errors"]["declarer_points"][0]


def test_api_missing_game_and_spitzen(client: FlaskClient) -> None:
    r = client.post(SKAT, json={"won": True})
    assert r.get_json()["errors"]["game"] == ["Bitte ein Spiel wählen."]
    r = client.post(SKAT, json={"game": "grand", "won": True})
    assert list(r.get_json()["errors"]) == ["matadors"]


def new_sheet(client: FlaskClient, players: list[str], game: str = "skat",
              **rules: Any) -> int:  # fmt: skip
    r = client.post(API, json={"game": game, "players": players, "rules": rules})
    assert r.status_code == 201
    return int(r.get_json()["id"])


GRAND = {"game": "grand", "matadors": 2, "with": True, "won": True}


def test_skat_deal_with_won_on_a_sheet(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    r = client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "B"})
    assert r.status_code == 201
    assert r.get_json()["totals"]["balance"] == {"A": -72, "B": 144, "C": -72}


def test_deal_number_n_and_409(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    assert (
        client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "B", "n": 1}).status_code
        == 201
    )
    # the second phone sends the same deal 1: nothing stored, the sheet as it is
    r = client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "C", "n": 1})
    assert r.status_code == 409
    d = r.get_json()
    assert "n" in d["errors"] and "B: Grand mit 2 (72)" in d["errors"]["n"][0]
    assert len(d["sheet"]["deals"]) == 1 and d["sheet"]["deals"][0]["declarer"] == "B"
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1
    # the next number works, and "n" is not part of the stored input
    r = client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "C", "n": 2})
    assert r.status_code == 201 and "n" not in r.get_json()["deals"][1]["input"]
    # a number nobody has seen yet, and a number that is not one
    for bad in (5, 0, "3", True):
        r = client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "C", "n": bad})
        assert r.status_code == 422 and "n" in r.get_json()["errors"], bad
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 2
    # a struck deal keeps its number
    client.delete(f"{API}/{sid}/deals/2")
    assert client.post(f"{API}/{sid}/deals", json={"passed": True, "n": 2}).status_code == 409
    assert client.post(f"{API}/{sid}/deals", json={"passed": True, "n": 3}).status_code == 201


def test_409_is_english_on_request(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})
    r = client.post(f"{API}/{sid}/deals", json={"passed": True, "n": 1},
                    headers={"Accept-Language": "en"})  # fmt: skip
    assert r.status_code == 409 and "already" in r.get_json()["errors"]["n"][0]


def test_idempotent_replay_wins_over_the_number(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    body = {**GRAND, "declarer": "B", "n": 1}
    h = {"Idempotency-Key": "k1"}
    assert client.post(f"{API}/{sid}/deals", json=body, headers=h).status_code == 201
    again = client.post(f"{API}/{sid}/deals", json=body, headers=h)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"


def test_correction_takes_n_only_as_its_own_number(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "B"})
    assert (
        client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer": "A", "n": 1}).status_code
        == 200
    )
    r = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer": "A", "n": 2})
    assert r.status_code == 422 and "n" in r.get_json()["errors"]


# --- The entry form ---------------------------------------------------------------------------


def form_deal(**fields: Any) -> dict[str, Any]:
    return {"kind": "game", "bid": "18", **fields}


def test_grand_mit_2_gewonnen_by_taps(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla"])
    r = client.post(f"/sheets/{sid}/deals", data=form_deal(
        declarer="Bernd", game="grand", spitzen="w2", won="true", n="1", dealer_shown="Anna",
        dealer="Anna"))  # fmt: skip
    assert r.status_code in (302, 303)
    assert r.headers["Location"].endswith(f"/sheets/{sid}?saved=1")
    d = client.get(f"{API}/{sid}").get_json()["deals"][0]
    assert d["input"] == {"game": "grand", "matadors": 2, "with": True, "won": True,
                          "declarer": "Bernd", "bid": 18}  # fmt: skip
    assert d["result"]["value"] == 72


@pytest.mark.parametrize(
    ("fields", "stored"),
    [
        ({"won": "true", "schneider": "y"}, {"won": True, "schneider": True}),
        ({"won": "true", "schwarz": "y"}, {"won": True, "all_tricks": "declarer"}),
        ({"won": "false", "schwarz": "y"}, {"won": False, "all_tricks": "opponents"}),
        ({"won": "true", "declarer_points": "75"}, {"declarer_points": 75}),
        ({"declarer_points": "120", "schwarz": "y"}, {"declarer_points": 120, "all_tricks": "declarer"}),
        ({"declarer_points": "0", "schwarz": "y"}, {"declarer_points": 0, "all_tricks": "opponents"}),
    ],
)  # fmt: skip
def test_form_outcome_fields(client: FlaskClient, fields: dict[str, str],
                             stored: dict[str, Any]) -> None:  # fmt: skip
    sid = new_sheet(client, ["Anna", "Bernd", "Carla"])
    r = client.post(f"/sheets/{sid}/deals",
                    data=form_deal(declarer="Bernd", game="grand", spitzen="w2", **fields))  # fmt: skip
    assert r.status_code in (302, 303), r.data.decode()[-3000:]
    inp = client.get(f"{API}/{sid}").get_json()["deals"][0]["input"]
    assert {k: inp[k] for k in stored} == stored
    assert ("won" in inp) != ("declarer_points" in inp)


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"won": "false", "declarer_points": "75"}, "Mit 75 Augen ist das Spiel gewonnen"),
        ({"won": "true", "declarer_points": "40"}, "Mit 40 Augen ist das Spiel verloren"),
        (
            {"won": "true", "schneider": "y", "declarer_points": "75"},
            "75 Augen sind kein Schneider",
        ),
        ({"declarer_points": "7x"}, "Bitte eine ganze Zahl eingeben."),
        ({}, "Bitte „gewonnen“ oder „verloren“ wählen"),
    ],
)
def test_form_outcome_contradictions_are_named_at_the_points(
    client: FlaskClient, fields: dict[str, str], needle: str
) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla"])
    r = client.post(f"/sheets/{sid}/deals",
                    data=form_deal(declarer="Bernd", game="grand", spitzen="w2", **fields))  # fmt: skip
    assert r.status_code == 422
    page = r.data.decode()
    assert needle in page
    # next to the points field, and the typed entry is kept
    field_html = page.split('id="f-declarer_points"')[1]
    assert needle.split("„")[0] in field_html[:1500]
    assert client.get(f"{API}/{sid}").get_json()["deals"] == []


def test_form_missing_game_and_spitzen_say_it_once(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla"])
    r = client.post(f"/sheets/{sid}/deals", data=form_deal(declarer="Bernd", won="true"))
    page = r.data.decode()
    assert "Bitte ein Spiel wählen." in page and "Dieses Feld fehlt" not in page
    r = client.post(f"/sheets/{sid}/deals", data=form_deal(declarer="Bernd", game="hearts",
                                                         won="true"))  # fmt: skip
    page = r.data.decode()
    spitzen = page.split('id="f-spitzen"')[1].split("</fieldset>")[0]
    assert spitzen.count('class="err"') == 1


def test_two_phones_one_deal(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla"])
    entry = form_deal(declarer="Bernd", game="grand", spitzen="w2", won="true", n="1",
                      dealer="Anna", dealer_shown="Anna")  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals", data=entry).status_code in (302, 303)
    other = {**entry, "declarer": "Carla", "spitzen": "w3"}
    r = client.post(f"/sheets/{sid}/deals", data=other)
    assert r.status_code == 409
    page = r.data.decode()
    assert "Spiel 1 ist schon eingetragen" in page and "Bernd: Grand mit 2 (72)" in page
    # the typed entry is kept, now meaning deal 2 with the dealer the rotation has now
    assert 'name="spitzen" value="w3" checked' in page
    assert 'name="n" value="2"' in page and 'name="dealer_shown" value="Bernd"' in page
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1
    # saving it again really is a second deal, dealt by Bernd
    resend = {**other, "n": "2", "dealer": "Bernd", "dealer_shown": "Bernd"}
    assert client.post(f"/sheets/{sid}/deals", data=resend).status_code in (302, 303)
    deals = client.get(f"{API}/{sid}").get_json()["deals"]
    assert [(d["dealer"], d["declarer"]) for d in deals] == [("Anna", "Bernd"), ("Bernd", "Carla")]


def test_stale_form_does_not_fix_a_stale_dealer(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C", "D"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})  # A dealt
    client.post(f"{API}/{sid}/deals", json={"passed": True})  # B dealt
    client.delete(f"{API}/{sid}/deals/2")  # another phone struck deal 2: B deals again
    # this phone's form was opened before the strike: it showed deal 3, dealer C, C sits out
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "passed", "n": "3", "dealer": "C",
                                                  "dealer_shown": "C",
                                                  "active": ["A", "B", "D"]})  # fmt: skip
    assert r.status_code in (302, 303)
    last = client.get(f"{API}/{sid}").get_json()["deals"][-1]
    assert last["dealer"] == "B" and last["active"] == ["C", "D", "A"]
    # a dealer changed on the form is kept
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "passed", "n": "4", "dealer": "A",
                                                  "dealer_shown": "C"})  # fmt: skip
    assert client.get(f"{API}/{sid}").get_json()["deals"][-1]["dealer"] == "A"


def test_undo_strikes_the_named_deal_once(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    for _ in range(3):
        client.post(f"{API}/{sid}/deals", json={"passed": True})
    r = client.post(f"/sheets/{sid}/undo", data={"n": "2"}, follow_redirects=True)
    assert "Spiel 2 gestrichen" in r.data.decode()
    r = client.post(f"/sheets/{sid}/undo", data={"n": "2"}, follow_redirects=True)
    assert "Spiel 2 war schon gestrichen" in r.data.decode()
    struck = [d["struck"] for d in client.get(f"{API}/{sid}").get_json()["deals"]]
    assert struck == [False, True, False]
    for data in ({}, {"n": "x"}, {"n": "99"}):
        r = client.post(f"/sheets/{sid}/undo", data=data)
        assert r.status_code in (302, 303)
    assert [d["struck"] for d in client.get(f"{API}/{sid}").get_json()["deals"]] == struck


def test_sheet_page_form_names_its_deal(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})
    page = client.get(f"/sheets/{sid}").data.decode()
    assert 'name="n" value="2"' in page and 'name="dealer_shown" value="B"' in page
    for label in ("gewonnen", "verloren", "Schneider", "Schwarz"):
        assert f"<span>{label}</span>" in page


def test_correction_page_shows_the_deals_vorhand(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla", "Dieter"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})  # Anna deals: Bernd is Vorhand
    # Bernd deals and plays, Dieter sits out; the list is given in table order: Carla leads
    client.post(f"{API}/{sid}/deals",
                json={"passed": True, "active": ["Anna", "Bernd", "Carla"]})  # fmt: skip
    client.post(f"{API}/{sid}/deals", json={"passed": True})  # Carla deals: Dieter
    for n, vorhand in ((1, "Bernd"), (2, "Carla"), (3, "Dieter")):
        page = client.get(f"/sheets/{sid}/deals/{n}/edit").data.decode()
        assert f"Vorhand: <b>{vorhand}</b>" in page, n


# --- Ramsch at four, the new-sheet form, import --------------------------------------------


def test_ramsch_at_four_only_the_three_who_played(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla", "Dieter"], ramsch=True)
    page = client.get(f"/sheets/{sid}").data.decode()
    # no "eingepasst" under the Ramsch rule; Anna deals and sits out: no Ramsch fields for her
    assert ">eingepasst<" not in page and ">Ramsch<" in page
    ramsch = page.split('class="kind-ramsch"')[1].split('class="seats"')[0]
    assert '<label class="num" data-player="Anna" hidden>' in ramsch
    assert '<label class="num" data-player="Bernd">' in ramsch
    assert '<label data-player="Anna" hidden><input type="checkbox" name="jungfrau"' in ramsch
    # a value left in the sitting-out dealer's field does not count
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "ramsch", "r0": "99", "r1": "60",
                                                  "r2": "40", "r3": "20", "dealer": "Anna",
                                                  "dealer_shown": "Anna", "n": "1"})  # fmt: skip
    assert r.status_code in (302, 303), r.data.decode()[-2000:]
    d = client.get(f"{API}/{sid}").get_json()["deals"][0]
    assert d["input"]["ramsch"]["points"] == {"Bernd": 60, "Carla": 40, "Dieter": 20}
    assert d["deltas"] == {"Anna": 60, "Bernd": -180, "Carla": 60, "Dieter": 60}


def test_ramsch_messages_sit_at_the_points(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla", "Dieter"], ramsch=True)
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "ramsch", "r1": "60", "r2": "4o",
                                                  "r3": "20"})  # fmt: skip
    page = r.data.decode()
    assert r.status_code == 422
    assert "Bitte eine ganze Zahl eingeben." in page.split('id="f-ramsch_points"')[1][:3000]
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "ramsch", "r1": "60", "r2": "40",
                                                  "r3": "10"})  # fmt: skip
    page = r.data.decode()
    assert "es müssen 120 sein" in page.split('id="f-ramsch_points"')[1][:3000]


def test_preview_route_counts_the_next_deal_without_storing(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Carla", "Dieter"], ramsch=True)
    body = {"ramsch": {"points": {"Bernd": 60, "Carla": 40, "Dieter": 20}, "jungfrau": [],
                       "durchmarsch": None}}  # fmt: skip
    r = client.post(f"{API}/{sid}/preview", json=body)
    assert r.status_code == 200
    deal = r.get_json()["deal"]
    assert deal["n"] == 1 and deal["dealer"] == "Anna" and deal["deltas"]["Bernd"] == -180
    assert "Bernd" in deal["explanation"][0]
    r = client.post(f"{API}/{sid}/preview", json={"ramsch": {"points": {"Anna": 60,
                                                   "Carla": 40, "Dieter": 20}}})  # fmt: skip
    assert r.status_code == 422 and "ramsch.points" in r.get_json()["errors"]
    r = client.post(f"{API}/{sid}/preview", json={**GRAND, "declarer": "Bernd"})
    assert r.status_code == 200 and r.get_json()["deal"]["deltas"]["Bernd"] == 216
    assert client.get(f"{API}/{sid}").get_json()["deals"] == []
    assert client.post(f"{API}/999/preview", json=body).status_code == 404
    # as the correction of a stored deal: its dealer and its place in the sheet
    client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "Bernd"})
    client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "Carla"})
    r = client.post(f"{API}/{sid}/preview", json={**GRAND, "declarer": "Anna", "n": 1})
    assert r.status_code == 422 and "declarer" in r.get_json()["errors"]  # Anna dealt deal 1
    r = client.post(f"{API}/{sid}/preview", json={**body, "n": 1})
    deal = r.get_json()["deal"]
    assert deal["n"] == 1 and deal["dealer"] == "Anna" and deal["totals"]["Bernd"] == -180
    r = client.post(f"{API}/{sid}/preview", json={**body, "n": 5})
    assert r.status_code == 422 and "n" in r.get_json()["errors"]
    stored = client.get(f"{API}/{sid}").get_json()["deals"]
    assert [d["input"].get("declarer") for d in stored] == ["Bernd", "Carla"]


def test_new_sheet_form_marks_what_is_skat_only(client: FlaskClient) -> None:
    page = client.get("/sheets").data.decode()
    form = page.split('class="newsheet"')[1].split("</form>")[0]
    # Platz 5 for both games (Schafkopf at five: the dealer sits out); Platz 4 is optional
    # at Skat only
    assert '<label class="num"><span>Platz 5 (optional)' in form
    assert '<span>Platz 4<span class="skatonly"> (optional)' in form
    assert 'class="skatonly"><input type="checkbox" name="bock" value="grand-hand-won"' in form
    assert 'class="skatonly"><input type="checkbox" name="bock" value="60-60"' not in form
    stake = form.split('name="stake_cents"')[0].rsplit("<div", 1)[1]
    assert 'class="skatonly"' in stake and "Skat;" not in form


def test_import_errors_at_the_import_form_and_the_copy_is_named(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})
    client.post(f"/sheets/{sid}/rename", data={"name": "Freitag"})
    data = client.get(f"{API}/{sid}/export.json").data
    r = client.post("/sheets/import", data={"file": (io.BytesIO(data), "f.json")},
                    content_type="multipart/form-data")  # fmt: skip
    assert r.status_code in (302, 303)
    page = client.get("/sheets").data.decode()
    assert ">Freitag (Import)</a>" in page and ">Freitag</a>" in page
    r = client.post("/sheets/import", data={"file": (io.BytesIO(b"{nope"), "x.json")},
                    content_type="multipart/form-data")  # fmt: skip
    page = r.data.decode()
    assert r.status_code == 422
    import_form = page.split('class="import"')[1].split("</form>")[0]
    assert "kein gültiges JSON" in import_form
    assert "kein gültiges JSON" not in page.split('class="import"')[0]


def test_calculator_page_takes_the_buttons_too(client: FlaskClient) -> None:
    page = client.get("/skat?game=grand&spitzen=w2&won=true&schneider=y").data.decode()
    assert "+96" in page and "gewonnen, Schneider" in page
    page = client.get("/skat?game=grand&spitzen=w2&won=false&declarer_points=75").data.decode()
    assert "Mit 75 Augen ist das Spiel gewonnen" in page


def test_api_undo_by_number_strikes_that_deal_only(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C"])
    for _ in range(3):
        client.post(f"{API}/{sid}/deals", json={"passed": True})
    for _ in range(2):  # a double tap
        r = client.delete(f"{API}/{sid}/deals/2")
        assert r.status_code == 200
    sheet = client.get(f"{API}/{sid}").get_json()
    assert [d["struck"] for d in sheet["deals"]] == [False, True, False]
    assert [h["action"] for h in sheet["history"]].count("strike") == 1
    assert client.delete(f"{API}/{sid}/deals/9").status_code == 404


def test_schafkopf_letters_in_the_points_give_one_message(client: FlaskClient) -> None:
    sid = new_sheet(client, ["A", "B", "C", "D"], game="schafkopf")
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "game": "sauspiel",
                                                  "declarers": ["A", "B"], "outcome": "points",
                                                  "player_points": "sechzig"})  # fmt: skip
    page = r.data.decode()
    assert r.status_code == 422
    field = page.split('id="f-player_points"')[1].split("</label>")[1][:600]
    assert field.count('class="err"') == 1 and "Bitte eine ganze Zahl eingeben." in field
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "declarers": ["A", "B"],
                                                  "outcome": "won"})  # fmt: skip
    assert "Bitte ein Spiel wählen." in r.data.decode()
