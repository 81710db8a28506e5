"""The import and the large answers without their peaks of memory: an import file's deals
keep only what the import reads while the file is parsed, and a large sheet's JSON is packed
piece by piece, never held whole. The sheets they give are the same as before."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc import exports
from skatcalc.services import cache
from skatcalc.web.http import parse_json
from tests.deal_bodies import SKAT_NAMES, schafkopf_deal, schafkopf_rules, skat_deal, skat_rules
from tests.support import law_client

API = "/api/v1/sheets"


@pytest.fixture(scope="module")
def shared() -> Iterator[FlaskClient]:
    """One app for every example of a law (sheets per example)."""
    with law_client() as client:
        yield client


@st.composite
def sheets(draw: st.DrawFn) -> tuple[str, list[str], dict[str, Any], list[dict[str, Any]],
                                     list[tuple[str, int]]]:  # fmt: skip
    """A game, its players and rules, a few deals, and changes after them (a correction to
    another deal of the list, a strike)."""
    game = draw(st.sampled_from(["skat", "schafkopf"]))
    if game == "skat":
        players = SKAT_NAMES[: draw(st.sampled_from([3, 4, 5]))]
        rules = draw(skat_rules())
        deal = skat_deal
    else:
        players = SKAT_NAMES[: draw(st.sampled_from([4, 5]))]
        rules = draw(schafkopf_rules())
        deal = schafkopf_deal
    bodies = draw(st.lists(deal(players, rules), min_size=1, max_size=6))
    changes = draw(st.lists(st.tuples(st.sampled_from(["correct", "strike"]),
                                      st.integers(1, len(bodies))), max_size=2))  # fmt: skip
    return game, players, rules, bodies, changes


def _made(client: FlaskClient, case: tuple[str, list[str], dict[str, Any],
          list[dict[str, Any]], list[tuple[str, int]]]) -> int:  # fmt: skip
    game, players, rules, bodies, changes = case
    r = client.post(API, json={"game": game, "players": players, "rules": rules,
                               "name": "Law <1>"})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    sid: int = r.get_json()["id"]
    for body in bodies:
        client.post(f"{API}/{sid}/deals", json=body)  # a refused body is simply not there
    count = len(client.get(f"{API}/{sid}").get_json()["deals"])
    for what, n in changes:
        if n > count:
            continue
        if what == "strike":
            client.delete(f"{API}/{sid}/deals/{n}")
        else:
            client.put(f"{API}/{sid}/deals/{n}", json=bodies[-1])  # refused or stored
    return sid


def _strip(sheet: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sheet.items() if k not in ("id", "created", "updated")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets(), st.sampled_from(["de", "en"]))
def test_law_export_import_export_is_identical(
    shared: FlaskClient,
    case: tuple[str, list[str], dict[str, Any], list[dict[str, Any]], list[tuple[str, int]]],
    lang: str,
) -> None:
    sid = _made(shared, case)
    first = shared.get(f"{API}/{sid}/export.json", headers={"Accept-Language": lang})
    assert first.status_code == 200
    r = shared.post(f"{API}/import", data=first.data, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    again = r.get_json()["id"]
    second = shared.get(f"{API}/{again}/export.json", headers={"Accept-Language": lang})
    a, b = json.loads(first.data), json.loads(second.data)
    assert _strip(a) == _strip(b)
    # the import's own answer is the sheet it stored
    answered = r.get_json()
    assert {k: answered[k] for k in ("deals", "totals", "history")} == {
        k: shared.get(f"{API}/{again}").get_json()[k] for k in ("deals", "totals", "history")
    }


def test_an_import_files_deals_keep_only_what_the_import_reads() -> None:
    exported_row = {"n": 1, "dealer": "A", "active": ["A", "B", "C"], "input": {"game": "grand"},
                    "struck": False, "version": 2, "result": {"steps": ["x" * 100]},
                    "explanation": ["x"], "steps": [{"text": "x"}], "deltas": {"A": 1},
                    "totals": {"A": 1}, "title": "Grand"}  # fmt: skip
    before = {"dealer": "A", "active": ["A", "B", "C"], "input": {"game": "grand"},
              "struck": False, "version": 1, "steps": ["kept: not a row of the file"]}  # fmt: skip
    raw = json.dumps({"deals": [exported_row],
                      "history": [{"n": 1, "action": "correct", "before": before}]}).encode()  # fmt: skip
    parsed = parse_json(raw, exports.import_object)
    assert isinstance(parsed, dict)
    assert parsed["deals"] == [{"n": 1, "dealer": "A", "active": ["A", "B", "C"],
                                "input": {"game": "grand"}, "struck": False, "version": 2}]  # fmt: skip
    assert parsed["history"][0]["before"] == before  # a stored deal stays whole
    assert parse_json(raw) == json.loads(raw)  # without the hook: as json reads it


def test_a_large_answer_is_packed_piece_by_piece_never_held_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    piece = json.dumps([{"n": i, "text": "Grand mit 2, Spiel 3 × 24"} for i in range(2000)])
    chunk = piece.encode()  # ~80 KB each, 250 of them: 20 MB
    count = 250

    def pieces() -> Iterator[bytes]:
        for _ in range(count):
            yield bytes(chunk)

    tracemalloc.start()
    try:
        data, packed = cache.packed_pieces(("t", 1, "de", "law"), pieces)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        cache.clear()
    assert packed
    assert gzip.decompress(data) == chunk * count
    assert peak < 4 * 2**20, peak  # the 20 MB were never there at once (packed: well below)
    # small answers are kept as they are
    small, packed = cache.packed_pieces(("t", 1, "de", "small"), lambda: iter((b"{", b"}")))
    assert (small, packed) == (b"{}", False)
    cache.clear()
