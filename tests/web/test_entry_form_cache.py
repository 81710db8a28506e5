"""The sheet page's blank entry form is rendered once per sheet, language and dealer and kept
with its per-page values cut out (deal number, CSRF token, idempotency key): the page built
with the kept form is the page that rendering a fresh form gives, for both games, three to
five players at Skat and four at Schafkopf, both languages and every dealer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from skatcalc.rules.sheet import default_active
from skatcalc.services import sheets as service
from skatcalc.web import sheet_view
from skatcalc.web.deal_forms import deal_form

API = "/api/v1/sheets"
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil"]
RULES = {
    "skat": {"kontra_re": True, "ramsch": True, "bock": ["60-60"]},
    "schafkopf": {"ramsch": True},
}
IDEM = re.compile(r'(name="idem" value=")[^"]*(")')


def pages(app: Flask, sid: int, lang: str) -> tuple[str, str, str]:
    """The page with the kept form (first render and taken from the cache) and with a fresh
    form rendered by the template, in one request (one CSRF token)."""
    with app.test_request_context(f"/sheets/{sid}?lang={lang}"):
        sheet = service.load_sheet(service.get_db(), sid)
        kept_first = sheet_view.render_sheet(sheet).get_data(as_text=True)
        kept_again = sheet_view.render_sheet(sheet).get_data(as_text=True)
        proposed = service.computed_sheet(service.get_db(), sheet, lang)["next_dealer"]
        form: Any = deal_form(sheet)
        form.dealer.data = proposed
        if sheet.game == "schafkopf":
            form.game.data = "sauspiel"  # a fresh Schafkopf entry offers the Sauspiel chosen
        form.active.data = list(default_active(service.spec_of(sheet), proposed))
        fresh = sheet_view.render_sheet(sheet, form).get_data(as_text=True)
    return tuple(IDEM.sub(r"\1-\2", p) for p in (kept_first, kept_again, fresh))  # type: ignore[return-value]


# Schafkopf is played by four only (a fifth or third is refused when the sheet is made).
@pytest.mark.parametrize(
    ("game", "count"), [("skat", 3), ("skat", 4), ("skat", 5), ("schafkopf", 4)]
)
def test_kept_entry_form_equals_a_fresh_render(csrf_app: Flask, game: str, count: int) -> None:
    client = csrf_app.test_client()
    players = NAMES[:count]
    for dealer in players:
        r = client.post(API, json={"game": game, "players": players, "first_dealer": dealer,
                                   "rules": RULES[game]})  # fmt: skip
        assert r.status_code == 201, r.data
        sid = r.get_json()["id"]
        for lang in ("de", "en"):
            kept_first, kept_again, fresh = pages(csrf_app, sid, lang)
            assert 'name="csrf_token"' in fresh and 'name="idem" value="-"' in fresh
            assert kept_first == fresh
            assert kept_again == fresh


def test_kept_entry_form_carries_this_pages_values(csrf_app: Flask) -> None:
    """Deal number, CSRF token and a new idempotency key on every page; the next deal's
    number as it grows."""
    client = csrf_app.test_client()
    r = client.post(API, json={"game": "skat", "players": NAMES[:3]})
    sid = r.get_json()["id"]
    keys = set()
    for n in range(1, 4):
        page = client.get(f"/sheets/{sid}").data.decode()
        entry = page[page.index('id="entry"') :]
        assert f'name="n" value="{n}"' in entry
        assert "\x00" not in page
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', entry)
        assert token is not None and token.group(1) in page.split('id="entry"')[0]
        keys.add(re.search(r'name="idem" value="([^"]+)"', entry).group(1))  # type: ignore[union-attr]
        assert client.post(f"{API}/{sid}/deals", json={"passed": True}).status_code == 201
    assert len(keys) == 3
