"""The templates' links and texts are built once and kept (web/caching.py ``kept_url_for``,
web/i18n.py): a kept one is exactly what Flask and the catalogue give, for every request's
root, host, scheme, blueprint and value type."""

from __future__ import annotations

from flask import Flask, url_for

from skatcalc.services import cache
from skatcalc.web.caching import _url_for_here, kept_url_for
from skatcalc.web.i18n import _jinja_gettext


def test_a_kept_link_is_flasks_link_for_its_request(app: Flask) -> None:
    cases = [
        ("sheets.show", {"sheet_id": 7}),
        ("sheets.show", {"sheet_id": "7"}),
        ("sheets.preview", {"sheet_id": 7, "lang": None}),
        ("sheets.preview", {"sheet_id": 7, "lang": "en"}),
        ("sheets.show", {"sheet_id": 7, "x": True}),
        ("sheets.show", {"sheet_id": 7, "x": 1}),  # True and 1 are one key in a dict
        ("static", {"filename": "style.css"}),
        ("sheets.share", {"sheet_id": 7, "token": "a b", "_external": True}),
        ("sheets.show", {"sheet_id": 7, "_anchor": "entry"}),
    ]
    for base in ("http://localhost/", "https://skat.example.org/", "http://x.example/sub/"):
        for _ in range(2):  # built, then kept
            with app.test_request_context("/sheets/7", base_url=base):
                bound = _url_for_here()  # a render's own
                for endpoint, values in cases:
                    assert kept_url_for(endpoint, **values) == url_for(endpoint, **values)
                    assert bound(endpoint, **values) == url_for(endpoint, **values)
    with app.test_request_context("/sheets/7"):
        assert kept_url_for(".show", sheet_id=3) == url_for(".show", sheet_id=3)
        assert kept_url_for("sheets.show", sheet_id=3, ids=[1, 2]) == url_for(
            "sheets.show", sheet_id=3, ids=[1, 2]
        )
    assert 0 < len(cache.LINKS) <= cache.LINKS_KEPT
    cache.clear()
    assert not cache.LINKS


def test_a_kept_text_is_the_catalogues_in_the_requests_language(app: Flask) -> None:
    for lang, text in (("de", "Liste"), ("en", "List"), ("de", "Liste")):
        with app.test_request_context(f"/sheets?lang={lang}"):
            assert _jinja_gettext("Liste") == text
            assert _jinja_gettext("100 %%") == "100 %"  # %-formatted, as Jinja's gettext is
            saved = {"de": "Spiel 3 gespeichert.", "en": "Deal 3 saved."}[lang]
            assert _jinja_gettext("Spiel %(n)s gespeichert.", n=3) == saved


def test_fields_read_by_attribute_as_a_dict_is() -> None:
    """The sheet page's data as ``Fields``: the template reads the same from it as from the
    plain JSON (present keys, missing ones undefined, a dict's own methods)."""
    from jinja2 import Environment

    from skatcalc.web.sheet_view import Fields, fields

    data = {"totals": {"balance": {"A": -3, "B": 3}, "settlement": [{"from": "A", "to": "B"}]}}
    src = (
        "{{ d.totals.balance.A }} {{ d.totals.balance['B'] }} {{ d.totals.written is defined }}"
        " {{ d.totals.balance.values()|sum }} {{ d.totals.settlement[0].from }} {{ d.nothing }}."
    )
    env = Environment(autoescape=True)
    assert env.from_string(src).render(d=fields(data)) == env.from_string(src).render(d=data)
    assert env.from_string(src).render(d=data) == "-3 3 False 0 A ."
    view = fields(data)
    assert type(view) is Fields and view == data and type(data["totals"]) is dict
