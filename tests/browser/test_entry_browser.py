"""The entry form's behaviour in headless Chromium on a phone: Ouvert's implied flags, the
points-field message in the page's language, the Ramsch preview at four, the new-sheet form
for Schafkopf, two phones saving the same deal, and a Stock deal at a Schafkopf table of
five."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server, reach

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("entry") / "entry.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "entry"})
    with live_server(app) as url:
        yield url, app.test_client()


def phone(kept_page: KeptPage, slot: int = 0) -> Any:
    """A 375×667 touch phone's page; ``slot=1`` a second phone."""
    return kept_page({"width": 375, "height": 667}, has_touch=True, slot=slot)


def test_ouvert_marks_hand_and_announcements_and_needs_no_points(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    base, _api = served
    pg = phone(kept_page)
    pg.goto(f"{base}/skat")
    pg.locator("#f-game").get_by_text("Grand", exact=True).tap()
    pg.locator("#f-ouvert").tap()
    for name in ("hand", "schneider_announced", "schwarz_announced"):
        box = pg.locator(f"input[name={name}]")
        assert box.is_checked() and box.is_disabled(), name
    assert pg.locator(".implied-note").is_visible()
    pg.locator("#f-spitzen").get_by_text("mit 2", exact=True).tap()
    pg.locator("#f-won").get_by_text("gewonnen", exact=True).tap()
    # with 2, game, hand, schneider, announced, schwarz, announced, ouvert = 9 × 24
    pg.locator("#result .big").filter(has_text="+216").wait_for()
    assert "gewonnen, Schneider, Schwarz" in pg.inner_text("#result")
    # taking Ouvert back gives the flags back as they were
    pg.locator("#f-ouvert").tap()
    assert not pg.locator("input[name=hand]").is_checked()
    assert not pg.locator(".implied-note").is_visible()
    pg.locator("#result .big").filter(has_text="+72").wait_for()


@pytest.mark.parametrize(("lang", "message"), [("de", "Bitte eine ganze Zahl eingeben."),
                                               ("en", "Enter a whole number.")])  # fmt: skip
def test_letters_in_the_points_field(kept_page: KeptPage, served: tuple[str, Any], lang: str,
                                     message: str) -> None:  # fmt: skip
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}).get_json()[
        "id"
    ]
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets/{sid}?lang={lang}")
    form = pg.locator("form.deal")
    form.locator("#f-declarer").get_by_text("B", exact=True).tap()
    form.locator("#f-game").get_by_text("Grand", exact=True).tap()
    form.locator("#f-spitzen").get_by_text("with 2" if lang == "en" else "mit 2", exact=True).tap()
    reach(pg.locator("input[name=declarer_points]")).fill("7x")
    pg.locator("#preview").filter(has_text=message).wait_for()
    with pg.expect_navigation():
        pg.get_by_role("button", name="Save" if lang == "en" else "Speichern").tap()
    # no browser bubble: the server answered, next to the field, in the page's language
    assert message in pg.inner_text("#f-declarer_points + .err")
    assert pg.input_value("input[name=declarer_points]") == "7x"
    assert api.get(f"/api/v1/sheets/{sid}").get_json()["deals"] == []


def test_ramsch_at_four_with_preview(kept_page: KeptPage, served: tuple[str, Any]) -> None:
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla",
                   "Dieter"], "rules": {"ramsch": True}}).get_json()["id"]  # fmt: skip
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets/{sid}")
    form = pg.locator("form.deal")
    assert form.locator("#f-kind").get_by_text("eingepasst", exact=True).count() == 0
    reach(form.locator("#f-kind").get_by_text("Ramsch", exact=True)).tap()
    # Anna deals and sits out: no points, Jungfrau or Durchmarsch for her
    assert not pg.locator("input[name=r0]").is_visible()
    assert not form.locator("#f-jungfrau").get_by_text("Anna", exact=True).is_visible()
    # two card points typed: the third is what makes 120
    for i, v in ((1, "60"), (2, "40")):
        pg.fill(f"input[name=r{i}]", v)
    assert pg.input_value("input[name=r3]") == "20"
    pg.locator("#preview").filter(has_text="Bernd hat die meisten Augen (60)").wait_for()
    # the figure the row and the list show: Bernd's list entry
    assert "Bernd −60" in pg.inner_text("#preview .big")
    pg.fill("input[name=r3]", "2o")
    pg.locator("#preview").filter(has_text="Bitte eine ganze Zahl eingeben.").wait_for()
    pg.fill("input[name=r3]", "20")
    pg.get_by_role("button", name="Speichern").tap()
    pg.wait_for_url("**saved=1*")
    deal = api.get(f"/api/v1/sheets/{sid}").get_json()["deals"][0]
    assert deal["deltas"] == {"Anna": 60, "Bernd": -180, "Carla": 60, "Dieter": 60}


def test_new_sheet_form_for_schafkopf(kept_page: KeptPage, served: tuple[str, Any]) -> None:
    base, api = served
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets")
    form = pg.locator("form.newsheet")
    skat_only = [form.locator("input[name=stake_cents]"),
                 form.locator("input[name=bock][value=grand-hand-won]")]  # fmt: skip
    assert all(x.is_visible() or x.locator("..").is_visible() for x in skat_only)
    pg.fill("input[name=stake_cents]", "5")
    form.locator("#f-game").get_by_text("Schafkopf", exact=True).tap()
    assert not form.locator("input[name=stake_cents]").is_visible()
    assert not form.get_by_text("gewonnener Grand Hand").is_visible()
    assert not form.locator("input[name=kontra_re]").locator("..").is_visible()
    # Schafkopf at four or five: Platz 5 stays, and only it is optional
    assert form.locator("input[name=p5]").is_visible()
    assert form.locator("fieldset.players").inner_text().count("(optional)") == 1
    for i, name in enumerate("ABCD", start=1):
        pg.fill(f"input[name=p{i}]", f"SK{name}")
    pg.get_by_role("button", name="Blatt anlegen").tap()
    pg.wait_for_url("**/sheets/*")
    sid = int(pg.url.split("/sheets/")[1].split("?")[0].split("#")[0])
    # the Skat stake typed before switching was not sent
    assert api.get(f"/api/v1/sheets/{sid}").get_json()["rules"]["stake_cents"] == 1


def test_a_new_sheet_sent_back_shows_its_first_message_in_sight(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    """The new-sheet form is long (players, house rules): sent with two names only, it comes
    back with the page scrolled to its first message, not at the top."""
    base, _api = served
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets")
    pg.fill("input[name=p1]", "Anna")
    pg.fill("input[name=p2]", "Ben")
    with pg.expect_navigation():
        pg.get_by_role("button", name="Blatt anlegen").tap()
    first = pg.locator("form.newsheet p.err").first
    first.wait_for()
    box = first.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 667, box


def test_two_phones_enter_the_same_deal(kept_page: KeptPage, served: tuple[str, Any]) -> None:
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}).get_json()[
        "id"
    ]
    pages = [phone(kept_page), phone(kept_page, 1)]
    for pg in pages:
        pg.goto(f"{base}/sheets/{sid}")
        form = pg.locator("form.deal")
        form.locator("#f-declarer").get_by_text("B", exact=True).tap()
        form.locator("#f-game").get_by_text("Grand", exact=True).tap()
        form.locator("#f-spitzen").get_by_text("mit 2", exact=True).tap()
        form.locator("#f-won").get_by_text("gewonnen", exact=True).tap()
    pages[0].get_by_role("button", name="Speichern").tap()
    pages[0].wait_for_url("**saved=1*")
    with pages[1].expect_navigation():
        pages[1].get_by_role("button", name="Speichern").tap()
    pages[1].locator("p.err").first.wait_for()
    text = pages[1].inner_text("main")
    assert "Spiel 1 ist schon eingetragen" in text and "B: Grand mit 2 (72)" in text
    assert pages[1].locator("input[name=spitzen][value=w2]").is_checked()  # entry kept
    assert len(api.get(f"/api/v1/sheets/{sid}").get_json()["deals"]) == 1


def test_points_contradicting_the_buttons_are_named_in_the_preview(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    base, _api = served
    pg = phone(kept_page)
    pg.goto(f"{base}/skat")
    pg.locator("#f-game").get_by_text("Grand", exact=True).tap()
    pg.locator("#f-spitzen").get_by_text("mit 2", exact=True).tap()
    reach(pg.locator("input[name=declarer_points]")).fill("75")
    pg.locator("#result .big").filter(has_text="+72").wait_for()
    pg.locator("#f-won").get_by_text("verloren", exact=True).tap()
    pg.locator("#result").filter(has_text="Die Augen sagen etwas anderes").wait_for()
    pg.locator("#f-won").get_by_text("gewonnen", exact=True).tap()
    pg.locator("#result .big").filter(has_text="+72").wait_for()
    pg.locator("#f-schneider").tap()
    pg.locator("#result").filter(has_text="Die Augen sagen etwas anderes").wait_for()
    reach(pg.locator("input[name=declarer_points]")).fill("95")
    pg.locator("#result .big").filter(has_text="+96").wait_for()


def test_a_stock_deal_at_five_without_scrolling_or_typing(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "schafkopf", "players": list("ABCDE"),
                                           "rules": {"stock": 20}}).get_json()["id"]  # fmt: skip
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets/{sid}")
    form = pg.locator("form.deal")
    reach(form.locator("#f-kind").get_by_text("eingepasst", exact=True)).tap()  # one tap on Mehr
    pg.get_by_role("button", name="Speichern").tap()
    pg.wait_for_url("**saved=1*")
    assert pg.evaluate("window.scrollY") == 0
    deal = api.get(f"/api/v1/sheets/{sid}").get_json()["deals"][0]
    # A deals and sits out: the four who play pay 20 each into the Stock
    assert deal["deltas"] == {"A": 0, "B": -20, "C": -20, "D": -20, "E": -20}
    assert deal["stock"] == 80


SHOWN_DECLARERS = """() => [...document.querySelectorAll('#entry #f-declarer label')]
  .filter((l) => l.checkVisibility()).map((l) => l.innerText.trim())"""


def enter(pg: Any, declarer: str, outcome: str) -> None:
    form = pg.locator("#entry form.deal")
    for fid, text in (("f-declarer", declarer), ("f-game", "Grand"), ("f-spitzen", "mit 2"),
                      ("f-won", outcome)):  # fmt: skip
        form.locator(f"#{fid}").get_by_text(text, exact=True).tap()


def test_two_phones_same_deal_forehand_declarer(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    """The second phone's save of a deal already there, its declarer the forehand (who deals
    the next one): "Spiel 1 ist schon eingetragen …", and the entry shows deal 2's players."""
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla",
                   "Dieter"], "first_dealer": "Anna"}).get_json()["id"]  # fmt: skip
    a, b = phone(kept_page), phone(kept_page, 1)
    for pg in (a, b):
        pg.goto(f"{base}/sheets/{sid}")
    # both typed the deal in; the first phone saves it, then the second
    enter(b, "Bernd", "verloren")
    enter(a, "Bernd", "gewonnen")
    a.get_by_role("button", name="Speichern").tap()
    a.wait_for_url("**saved=1*")
    with b.expect_navigation():
        b.get_by_role("button", name="Speichern").tap()
    assert "Spiel 1 ist schon eingetragen" in b.inner_text("#entry")
    assert "Bitte den Alleinspieler" not in b.inner_text("main")
    assert b.evaluate(SHOWN_DECLARERS) == ["Carla", "Dieter", "Anna"]
    assert b.locator("input[name=declarer]:checked").count() == 0
    assert len(api.get(f"/api/v1/sheets/{sid}").get_json()["deals"]) == 1


def test_two_phones_saving_at_once(kept_page: KeptPage, served: tuple[str, Any]) -> None:
    """Both phones tap Save for the same deal at the same moment: one is stored, the other
    phone is told so and shows the next deal's players."""
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla",
                   "Dieter"], "first_dealer": "Anna"}).get_json()["id"]  # fmt: skip
    a, b = phone(kept_page), phone(kept_page, 1)
    for pg in (a, b):
        pg.goto(f"{base}/sheets/{sid}")
        enter(pg, "Bernd", "gewonnen" if pg is a else "verloren")
    submit = "document.querySelector('#entry form.deal').requestSubmit()"
    with a.expect_navigation(), b.expect_navigation():
        a.evaluate(submit)
        b.evaluate(submit)
    saved = [pg for pg in (a, b) if "saved=1" in pg.url]
    told = [pg for pg in (a, b) if "Spiel 1 ist schon eingetragen" in pg.inner_text("main")]
    assert len(saved) == 1 and len(told) == 1 and saved[0] is not told[0], [
        (pg.url, pg.inner_text("main")[:300]) for pg in (a, b)
    ]
    assert told[0].evaluate(SHOWN_DECLARERS) == ["Carla", "Dieter", "Anna"]
    assert len(api.get(f"/api/v1/sheets/{sid}").get_json()["deals"]) == 1


@pytest.mark.parametrize(
    ("game", "players", "asked"),
    [
        ("skat", ["A", "B", "C"], ["Bitte den Alleinspieler wählen", "Bitte ein Spiel wählen."]),
        ("schafkopf", ["A", "B", "C", "D"],
         ["Im Sauspiel spielen zwei zusammen", "Bitte die Augen der Spielerpartei eingeben"]),
    ],
)  # fmt: skip
def test_a_save_with_nothing_chosen_shows_every_message_on_screen(
    kept_page: KeptPage, served: tuple[str, Any], game: str, players: list[str], asked: list[str]
) -> None:
    """Saved untouched, the form comes back with a message under each choice still to make,
    each one shown: none under a field the page hides (the Schafkopf points' field is shown
    only once "Augen" is the outcome), nothing stored."""
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": game, "players": players}).get_json()["id"]
    pg = phone(kept_page)
    pg.goto(f"{base}/sheets/{sid}")
    with pg.expect_navigation():
        pg.get_by_role("button", name="Speichern").tap()
    errs = pg.locator("form.deal p.err")
    errs.first.wait_for()
    texts = errs.all_inner_texts()
    assert all(any(text.startswith(a) for text in texts) for a in asked), texts
    hidden = [t for i, t in enumerate(texts) if not errs.nth(i).is_visible()]
    assert hidden == [], f"messages the page hides: {hidden}"
    assert api.get(f"/api/v1/sheets/{sid}").get_json()["deals"] == []
