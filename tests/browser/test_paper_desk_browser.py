"""The desk types paper lists' feet by keyboard alone in headless Chromium at 1366×768: the
first field has the focus, Tab walks the fields in seat order, the server's scores show as the
figures are typed, Enter saves the table and the next table's first field takes the focus."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from skatcalc import create_app
from tests.browser.pages import KeptPage, Outside
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

DATA = json.loads((Path(__file__).parent.parent / "data" / "preisskat_13_paper.json").read_text())
API = "/api/v1"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    app = create_app({"DATABASE": str(tmp_path / "paper.sqlite"), "SECRET_KEY": "paper"})
    with live_server(app) as url:
        yield app, url


def _focused(pg: Any) -> tuple[str, str]:
    """The focused field's name and its table's section id."""
    return tuple(pg.evaluate(
        "() => [document.activeElement.name || '', "
        "(document.activeElement.closest('section') || {}).id || '']"))  # fmt: skip


def test_a_tables_foot_is_typed_by_keyboard_alone(
    kept_page: KeptPage, outside: Outside, served: tuple[Flask, str]
) -> None:
    app, server = served
    setup = app.test_client()
    r = setup.post(f"{API}/events", json=DATA["event"])
    event_id = r.json["id"]
    setup.post(f"{API}/events/{event_id}/players", json={"names": DATA["players"]})
    setup.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": DATA["seed"]})
    pg = outside.watch(kept_page({"width": 1366, "height": 768}, locale="de-DE"), server)
    pg.goto(f"{server}/events/{event_id}/series/1/paper")
    assert _focused(pg) == ("p0_points", "paper-1")

    typed_in: list[float] = []
    for number, plan in enumerate(DATA["tables"][:3], start=1):
        start = time.perf_counter()
        foot = plan["foot"]
        for i, name in enumerate(plan["players"]):
            line = foot["players"][name]
            for column in ("points", "won", "lost"):
                assert _focused(pg) == (f"p{i}_{column}", f"paper-{number}")
                pg.keyboard.type(str(line[column]))
                pg.keyboard.press("Tab")
        assert _focused(pg) == ("passed", f"paper-{number}")
        pg.keyboard.type(str(foot["passed"]))
        section = pg.locator(f"#paper-{number}")
        # the server's scores, shown as typed (the check sum beside "passed")
        first = plan["players"][0]
        expected = DATA["scores"][first] + (10 if first == "Karl" else 0)
        shown = str(expected).replace("-", "−")
        section.locator("output[data-seat='0']").filter(has_text=shown).wait_for()
        n = sum(x["won"] + x["lost"] for x in foot["players"].values()) + foot["passed"]
        section.locator("output[data-check]").filter(has_text=f"{n} von {n} Spielen").wait_for()
        with pg.expect_navigation():
            pg.keyboard.press("Enter")
        typed_in.append(time.perf_counter() - start)
        assert _focused(pg) == ("p0_points", f"paper-{number + 1}")
        assert f"Tisch {number} gespeichert." in pg.content()

    for number, plan in enumerate(DATA["tables"][:3], start=1):
        t = setup.get(f"{API}/events/{event_id}/series/1/tables/{number}").json
        assert {p: {k: v for k, v in f.items() if k != "score"}
                for p, f in t["foot"]["players"].items()} == plan["foot"]["players"]  # fmt: skip
    # a table typed by keyboard takes seconds, far inside 15 minutes for 60 tables (15 s each)
    assert max(typed_in) < 15, typed_in
    assert not outside.urls


def test_a_wrong_foot_comes_back_with_the_message_by_its_field(
    kept_page: KeptPage, served: tuple[Flask, str]
) -> None:
    app, server = served
    setup = app.test_client()
    event_id = setup.post(f"{API}/events", json=DATA["event"]).json["id"]
    setup.post(f"{API}/events/{event_id}/players", json={"names": DATA["players"]})
    setup.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": DATA["seed"]})
    pg = kept_page({"width": 1366, "height": 768}, locale="de-DE")
    pg.goto(f"{server}/events/{event_id}/series/1/paper?next=2#paper-2")
    assert _focused(pg) == ("p0_points", "paper-2")
    for key in ["30", "Tab", "1", "Tab", "Tab", "72", "Tab", "2", "Tab", "Tab", "0", "Tab", "1",
                "Tab", "1", "Tab", "0"]:  # fmt: skip
        pg.keyboard.press(key) if key == "Tab" else pg.keyboard.type(key)
    pg.locator("#paper-2 output[data-check]").filter(has_text="5 von 6 Spielen").wait_for()
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    assert pg.locator("#e-2-passed").inner_text() == "Die Liste hat 5 Spiele, die Serie 6."
    assert _focused(pg) == ("p0_points", "paper-2")
