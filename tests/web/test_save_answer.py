"""The save's answer (the whole sheet as JSON) is written from rows written once each: its text
is what writing the sheet afresh gives, after every kind of change."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.services import cache
from skatcalc.services import sheets as service

API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Clara"]
GRAND = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}


def test_every_answer_is_the_sheet_written_afresh(app: Flask) -> None:
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]

    def written(lang: str) -> Any:
        """The sheet as it is now, written whole by the app's own ``dumps``."""
        with app.test_request_context():
            db = service.get_db()
            out = service.sheet_json(db, service.load_sheet(db, sid), lang)
            return json.loads(app.json.dumps(out))

    steps: list[tuple[str, str, dict[str, Any] | None]] = [
        *[("post", f"{API}/{sid}/deals", {**GRAND, "declarer": p}) for p in PLAYERS * 2],
        ("put", f"{API}/{sid}/deals/2", {**GRAND, "declarer": "Anna", "declarer_points": 30}),
        ("delete", f"{API}/{sid}/deals/3", None),
        ("post", f"{API}/{sid}/deals/3/restore", {}),
        ("post", f"{API}/{sid}/deals", {**GRAND, "declarer": "Bernd"}),
    ]
    for k, (method, url, body) in enumerate(steps):
        lang = ("de", "en")[k % 2]
        r = getattr(c, method)(url, json=body, headers={"Accept-Language": lang})
        assert r.status_code in (200, 201), (url, r.get_json())
        assert r.get_json() == written(lang), (method, url)
        for other in ("de", "en"):
            again = c.get(f"{API}/{sid}", headers={"Accept-Language": other})
            assert again.get_json() == written(other)
    cache.clear()
    for lang in ("de", "en"):  # and computed from the deals afresh, nothing kept
        assert c.get(f"{API}/{sid}", headers={"Accept-Language": lang}).get_json() == written(lang)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    rest=st.dictionaries(st.sampled_from(["id", "name", "totals", "rules", "zz"]), json_values),
    deals=st.lists(st.dictionaries(st.text(), json_values, max_size=4), max_size=5),
    sort_keys=st.booleans(),
    ascii_only=st.booleans(),
)
def test_the_spliced_text_is_the_written_text(
    rest: dict[str, Any], deals: list[dict[str, Any]], sort_keys: bool, ascii_only: bool
) -> None:
    def dumps(value: Any) -> str:
        return json.dumps(value, sort_keys=sort_keys, ensure_ascii=ascii_only)

    out = {**rest, "deals": [cache.KeptJson(d) for d in deals]}
    assert service.sheet_text(out, dumps) == dumps(out)
    assert service.sheet_text(out, dumps) == dumps(out)  # the rows' kept texts


def test_the_deals_mark_is_found_as_every_dumps_writes_it(app: Flask) -> None:
    """The mark the rows are spliced in at is written one way by any JSON writer (the app's,
    json's in both modes); a writer that wrote it otherwise gets its JSON written whole."""
    for dumps in (app.json.dumps, json.dumps, lambda v: json.dumps(v, ensure_ascii=False)):
        assert dumps(service._DEALS_MARK) == service._DEALS_MARK_JSON

    def spelled_out(value: Any) -> str:  # every letter of a string as its \\u escape
        text = json.dumps(value)
        return text.replace("deals", "".join(f"\\u{ord(c):04x}" for c in "deals"))

    out = {"name": "x", "deals": [cache.KeptJson({"n": 1})], "totals": {}}
    assert service._DEALS_MARK_JSON not in spelled_out({**out, "deals": service._DEALS_MARK})
    assert service.sheet_text(out, spelled_out) == spelled_out(out)
