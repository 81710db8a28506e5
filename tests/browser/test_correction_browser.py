"""Each deal kind's correction saved untouched in headless Chromium (the page's script on:
boxes an Ouvert implies are disabled, hidden controls stay as filled): the stored deal and
its value are the same afterwards. One sheet per game (a part each), many deals, one browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.deal_bodies import normal
from tests.support import live_server, reach

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

API = "/api/v1/sheets"
M1 = {"with": True, "matadors": 1}

SKAT_DEALS: list[dict[str, Any]] = [
    {"game": "diamonds", "with": True, "matadors": 3, "won": True, "schneider": True},
    {"game": "clubs", **M1, "won": True, "all_tricks": "declarer"},
    {"game": "grand", "with": False, "matadors": 2, "won": False, "schneider": True},
    {"game": "hearts", "with": True, "matadors": 2, "won": False, "all_tricks": "opponents"},
    {"game": "spades", **M1, "declarer_points": 0, "all_tricks": "opponents"},
    {"game": "clubs", **M1, "declarer_points": 120, "all_tricks": "declarer"},
    {"game": "grand", **M1, "hand": True, "ouvert": True, "won": True},
    {"game": "grand", **M1, "ouvert": True, "won": True},  # the API's short form
    {"game": "null", "hand": True, "ouvert": True, "won": False, "bid": 46},
    {"game": "null", "won": True, "bid": 23},
    {"game": "grand", **M1, "kontra": True, "re": True, "declarer_points": 91, "bid": 24},
    {"game": "hearts", "cards": ["CJ", "SJ", "HA", "HT", "HK", "HQ", "H9", "SA", "DA", "C7"],
     "won": True},
    {"game": "clubs", **M1, "declarer_points": 70, "bid": 30},  # overbid
    {"game": "spades", "with": False, "matadors": 4, "hand": True,
     "schneider_announced": True, "won": True, "schneider": True},
    {"ramsch": {"points": {"Anna": 0, "Bernd": 50, "Carla": 70}, "jungfrau": ["Anna"],
                "pushes": 1}},
    {"ramsch": {"points": {"Anna": 0, "Bernd": 0, "Carla": 120}, "jungfrau": ["Anna", "Bernd"],
                "durchmarsch": "Carla"}},
]  # fmt: skip

SK_DEALS: list[dict[str, Any]] = [
    {"game": "sauspiel", "suit": "eichel", "declarers": ["Carla", "Anna"],
     "player_points": 91, "laufende": 3, "kontra": 1},
    {"game": "solo", "suit": "gras", "declarers": ["Bernd"], "won": True, "tout": True,
     "laufende": 4},
    {"game": "solo", "suit": "herz", "declarers": ["Dora"], "won": True, "sie": True},
    {"game": "wenz", "declarers": ["Anna"], "won": False, "schneider": True, "schwarz": True,
     "gestellt": 1},
    {"game": "bettel", "declarers": ["Carla"], "won": True, "kontra": 2},
    {"game": "hochzeit", "declarers": ["Bernd", "Dora"], "player_points": 30},
    {"game": "farbwenz", "suit": "schellen", "declarers": ["Anna"], "player_points": 100},
    {"passed": True},
    {"game": "ramsch", "points": {"Anna": 0, "Bernd": 30, "Carla": 40, "Dora": 50},
     "jungfrau": ["Anna"]},
]  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("correction") / "correction.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "correction"})
    with live_server(app) as url:
        yield url, app.test_client()


def sheet_with(api: Any, game: str, players: list[str], rules: dict[str, Any],
               bodies: list[dict[str, Any]]) -> int:  # fmt: skip
    sid = int(api.post(API, json={"game": game, "players": players,
                                  "rules": rules}).get_json()["id"])  # fmt: skip
    for body in bodies:
        r = api.post(f"{API}/{sid}/deals", json=body)
        assert r.status_code == 201, (body, r.get_json())
    return sid


# One part per game, so that xdist runs them side by side.
@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_every_deal_kind_saved_untouched_in_the_browser(
    kept_page: KeptPage, served: tuple[str, Any], game: str
) -> None:
    base, api = served
    skat_players = ["Anna", "Bernd", "Carla"]
    if game == "skat":
        sid = sheet_with(api, "skat", skat_players,
                         {"kontra_re": True, "ramsch": True, "schieberamsch": True},
                         [{**b, "declarer": "Bernd"} if "game" in b else b for b in SKAT_DEALS])  # fmt: skip
        count = len(SKAT_DEALS)
    else:
        # Schafkopf at five, the Stock kept, Emil deals every deal and sits out
        sid = sheet_with(api, "schafkopf", [*skat_players, "Dora", "Emil"],
                         {"ramsch": True, "stock": {"cents": 20, "taken_by": "any", "lost": "leave"}},
                         [{**b, "dealer": "Emil"} for b in SK_DEALS])  # fmt: skip
        count = len(SK_DEALS)
    pg = kept_page({"width": 375, "height": 667}, has_touch=True)
    bad: list[str] = []

    def console(m: Any) -> None:
        if m.type == "error":
            bad.append(m.text)

    pg.on("console", console)
    try:
        before = api.get(f"{API}/{sid}").get_json()
        for n in range(1, count + 1):
            pg.goto(f"{base}/sheets/{sid}/deals/{n}/edit")
            with pg.expect_navigation():
                pg.get_by_role("button", name="Korrektur speichern").click()
            assert f"/sheets/{sid}" in pg.url and "/edit" not in pg.url, (game, n, pg.url)
    finally:
        pg.remove_listener("console", console)
    after = api.get(f"{API}/{sid}").get_json()
    for old, new in zip(before["deals"], after["deals"], strict=True):
        n, dealer = old["n"], old["dealer"]
        assert normal(game, new["input"], dealer) == normal(game, old["input"], dealer), n
        assert (new["dealer"], set(new["active"])) == (dealer, set(old["active"])), n
        for key in ("value", "deltas", "party", "title", "marks", "list"):
            assert new.get(key) == old.get(key), (game, n, key)
    assert after["totals"] == before["totals"]
    assert bad == []


def test_the_party_at_five_follows_who_plays(kept_page: KeptPage, served: tuple[str, Any]) -> None:
    """At five the dealer who sits out is not offered for the player party; ticking him in
    as a player (and another out) offers him and takes the other away."""
    base, api = served
    players = ["Anna", "Bernd", "Carla", "Dora", "Emil"]
    sid = sheet_with(api, "schafkopf", players, {}, [])
    pg = kept_page({"width": 375, "height": 667}, has_touch=True)
    pg.goto(f"{base}/sheets/{sid}")
    party = pg.locator("#f-declarers")

    def offered() -> list[str]:
        return [n.strip() for n in party.locator("label:visible").all_inner_texts()]

    assert offered() == players[1:]  # Anna deals and sits out
    reach(pg.locator("details.seats summary")).click()
    pg.locator("input[name=active][value=Anna]").check()
    pg.locator("input[name=active][value=Emil]").uncheck()
    reach(party)  # back on the first screen
    assert offered() == players[:4]
