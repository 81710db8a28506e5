"""The sheet page's frame (``sheets/show.html``) is rendered once per sheet, view and language
and kept; a save's page renders only its parts (``sheets/_parts.html``). The chart is kept
drawn per scale, size and players with its x axis and points cut out. Both give the bytes a
drawing with every cache cleared gives (tests/web/test_kept_panes.py checks whole pages after
every kind of change; here the chart over any series)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.exports.charts import ON_PAGE, running_totals_svg
from skatcalc.services import cache
from skatcalc.web import sheet_view

API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
DEAL = {"game": "grand", "with": True, "matadors": 2, "declarer_points": 75}
IDEM = re.compile(r'name="(idem|csrf_token)" value="[^"]*"')


@pytest.fixture
def frames(app: Flask) -> Iterator[list[str]]:
    """The names of the templates Flask renders (a page's frame is ``sheets/show.html``)."""
    names: list[str] = []

    def seen(_app: Flask, template: Any, context: Any, **_: Any) -> None:
        names.append(template.name)

    template_rendered.connect(seen, app)
    yield names
    template_rendered.disconnect(seen, app)


def _add(client: FlaskClient, sid: int) -> None:
    for declarer in PLAYERS:  # whoever sits in this deal
        r = client.post(f"{API}/{sid}/deals", json={**DEAL, "declarer": declarer})
        if r.status_code == 201:
            return
    raise AssertionError(r.data)


def test_a_save_renders_the_pages_parts_not_its_frame(client: FlaskClient,
                                                      frames: list[str]) -> None:  # fmt: skip
    r = client.post(API, json={"game": "skat", "players": PLAYERS})
    sid = r.get_json()["id"]
    _add(client, sid)
    first = client.get(f"/sheets/{sid}").data
    assert frames.count("sheets/show.html") == 1
    _add(client, sid)
    second = client.get(f"/sheets/{sid}").data
    assert frames.count("sheets/show.html") == 1  # the kept frame, the new parts
    assert b'id="deal-2"' in second and b'id="deal-2"' not in first
    assert b"\x00" not in second
    # another language, another name: another frame
    client.get(f"/sheets/{sid}?lang=en")
    assert frames.count("sheets/show.html") == 2
    assert client.post(f"/sheets/{sid}/rename", data={"name": "Freitag"}).status_code == 302
    assert b"<title>Freitag" in client.get(f"/sheets/{sid}?lang=de").data
    assert frames.count("sheets/show.html") == 3


def _deals(steps: list[list[int]], players: list[str]) -> list[dict[str, Any]]:
    totals = dict.fromkeys(players, 0)
    out = []
    for step in steps:
        totals = {p: totals[p] + d for p, d in zip(players, step, strict=False)}
        out.append({"totals": dict(totals)})
    return out


def test_a_save_on_the_same_scale_draws_the_charts_frame_once() -> None:
    cache.clear()
    deals = _deals([[24, -24, 0, 0], [-24, 24, 0, 0]] * 3, PLAYERS)  # between -24 and 24
    drawn = [running_totals_svg(PLAYERS, deals[:n], title="Verlauf", **ON_PAGE) for n in (4, 5)]
    assert len(cache.CHART_FRAMES) == 1  # the same scale: one frame, two charts
    cache.clear()
    assert drawn[1] == running_totals_svg(PLAYERS, deals[:5], title="Verlauf", **ON_PAGE)
    assert drawn[0] != drawn[1]


NAMES = st.lists(
    st.sampled_from(["Anna", "B<&>\"'", "Christopherus Maximilian", "Ëmil", "X\x01Y"]),
    min_size=1, max_size=5, unique=True,
)  # fmt: skip
SIZES = st.sampled_from([
    dict(title="Verlauf <x>", **ON_PAGE), {},
    dict(title="T", font="DejaVu", for_pdf=True, width=500, height=200),
])  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(players=NAMES, steps=st.lists(st.lists(st.integers(-3000, 3000), min_size=5, max_size=5),
                                     max_size=30), size=SIZES)  # fmt: skip
def test_a_kept_chart_is_the_chart_drawn_afresh(players: list[str], steps: list[list[int]],
                                                size: dict[str, Any]) -> None:  # fmt: skip
    deals = _deals(steps, players)
    # every shorter chart first, as the saves of an evening draw them, then the whole one
    kept = [running_totals_svg(players, deals[:n], **size) for n in range(len(deals) + 1)]
    cache.clear()
    assert kept[-1] == running_totals_svg(players, deals, **size)
    if len(deals) > 1:
        cache.clear()
        assert kept[-2] == running_totals_svg(players, deals[:-1], **size)


def test_a_name_that_holds_a_mark_is_shown_as_stored(client: FlaskClient) -> None:
    """A name stored before names were checked may hold a NUL: the frame's marks are NULs."""
    name = "X\x00part-rows\x00Y"
    r = client.post(API, json={"game": "skat", "players": PLAYERS, "name": name})
    sid = r.get_json()["id"]
    _add(client, sid)
    for _ in range(2):
        page = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
        assert f"<title>{name} · skatcalc</title>" in page
        assert page.count('id="deal-1"') == 1


def test_a_message_shown_once_is_in_the_kept_frames_page(client: FlaskClient) -> None:
    """The head with its messages is a part: a page with a message shown once is the page
    rendered with every cache cleared (the frame kept before the message came)."""
    r = client.post(API, json={"game": "skat", "players": PLAYERS})
    sid = r.get_json()["id"]
    _add(client, sid)
    client.get(f"/sheets/{sid}?lang=de")  # the frame kept
    pages = []
    for clear in (False, True):
        assert client.post(f"/sheets/{sid}/rename", data={"name": "Freitag"}).status_code == 302
        if clear:
            cache.clear()
        pages.append(client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True))
    assert 'class="flash' in pages[0]
    # the second rename is a revision later; the forms' keys are new for every page
    same = [re.sub(r'data-rev="\d+"|name="(idem|csrf_token)" value="[^"]*"', "", p) for p in pages]
    assert same[0] == same[1]


def test_a_save_draws_its_own_history_line_only(client: FlaskClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    drawn: list[int] = []
    real = sheet_view.history_rows

    def counted(sheet: Any, history: list[Any]) -> Any:
        drawn.append(len(history))
        return real(sheet, history)

    monkeypatch.setattr(sheet_view, "history_rows", counted)
    sid = client.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]
    for _ in range(3):
        _add(client, sid)
    client.get(f"/sheets/{sid}?lang=de")
    drawn.clear()
    _add(client, sid)
    page = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    assert drawn == [1]  # the new entry's line; the three before it as kept
    assert page.count("<li><time>") == 4


def test_an_entry_changed_in_place_is_drawn_again(app: Flask, client: FlaskClient) -> None:
    """The event desk corrects a name in the history's entries in place: the kept lines of
    the entries from the changed one on are drawn again."""
    sid = client.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]
    for _ in range(2):
        _add(client, sid)
    client.put(f"{API}/{sid}/deals/1", json={"passed": True})
    _add(client, sid)
    old = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        (before,) = conn.execute("select before from history where sheet_id = ? and "
                                 "action = 'correct'", [sid]).fetchone()  # fmt: skip
        conn.execute("update history set before = ? where sheet_id = ? and action = 'correct'",
                     [before.replace('"declarer": "Bernd"', '"declarer": "Carla"'), sid])  # fmt: skip
        conn.execute("update sheets set rev = rev + 1 where id = ?", [sid])
    conn.close()
    kept = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    cache.clear()
    fresh = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    assert IDEM.sub("", kept) == IDEM.sub("", fresh)

    def lines(page: str) -> str:
        start = page.index('class="history"')
        return page[start : page.index("</details>", start)]

    assert lines(kept) != lines(old)  # the corrected deal before, as it reads now


def test_the_kept_history_goes_on_from_its_joined_lines(client: FlaskClient) -> None:
    """The history's lines are kept joined, newest first: a save puts its own line before
    them, and the history shown is the one drawn with every cache cleared."""

    def history(page: str) -> str:
        start = page.index('class="history"')
        return page[start : page.index("</details>", start)]

    sid = client.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]
    shown = []
    for k in range(4):
        _add(client, sid)
        if k == 2:
            client.put(f"{API}/{sid}/deals/1", json={"passed": True})
        shown.append(history(client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)))
    cache.clear()
    assert shown[-1] == history(client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True))
    assert "(5)" in shown[-1]  # four deals and a correction
    lines = re.findall(r"<li>.*?</li>", shown[-1])
    assert len(lines) == 5 and "korrigiert" in lines[1] and "Spiel 4" in lines[0]


def test_the_rules_in_words_follow_a_rules_change(client: FlaskClient) -> None:
    """The house rules in words and the seat rotation are kept per rules spec: a change of
    the rules during the evening shows at once, as with every cache cleared."""
    sid = client.post(API, json={"game": "skat", "players": PLAYERS,
                                 "rules": {"stake_cents": 1}}).get_json()["id"]  # fmt: skip
    _add(client, sid)
    before = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    assert client.patch(f"{API}/{sid}", json={"rules": {"stake_cents": 5}}).status_code == 200
    _add(client, sid)
    after = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    cache.clear()
    fresh = client.get(f"/sheets/{sid}?lang=de").get_data(as_text=True)
    assert IDEM.sub("", after) == IDEM.sub("", fresh)

    def pane(page: str) -> str:
        return page[page.index('id="sheet-more"') : page.index('id="entry"')]

    assert pane(before) != pane(after)
