"""The sheet page's strip, table foot and standings take their numbers from cells written once
per page (``sheet_view.total_cells``, ``sheet_view.stat_cells``): what they show stays what the
templates wrote when they looked every number up themselves. ``tests/data/page_cells.json``
holds those parts as the earlier templates drew them, for sheets of both games, the list,
"nur Gute", Seeger-Fabian, Bierlachs, Bock and a struck deal, in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

DATA = Path(__file__).parents[1] / "data" / "page_cells.json"
API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
SKAT = [{"game": "grand", "with": True, "matadors": 2, "declarer_points": 75},
        {"game": "null", "won": False}, {"passed": True},
        {"game": "clubs", "with": False, "matadors": 1, "declarer_points": 40, "kontra": True},
        {"game": "hearts", "with": True, "matadors": 3, "declarer_points": 90}]  # fmt: skip
SCHAFKOPF = [{"game": "sauspiel", "declarers": ["Bernd", "Carla"], "player_points": 70},
             {"game": "solo", "declarers": ["Anna"], "won": True}, {"passed": True}]  # fmt: skip
SHEETS: dict[str, tuple[str, dict[str, Any], list[dict[str, Any]], int]] = {
    "skat": ("skat", {"kontra_re": True, "ramsch": True, "bock": ["60-60"], "stake_cents": 1},
             SKAT, 13),
    "nur_gute": ("schafkopf", {"scale": {"preset": "nur-gute"}}, SCHAFKOPF, 6),
    "bierlachs": ("skat", {"bierlachs": 100}, SKAT, 8),
    "schafkopf": ("schafkopf", {"ramsch": True}, SCHAFKOPF, 9),
    "empty": ("skat", {}, SKAT, 0),
}  # fmt: skip
PARTS = {
    "strip": re.compile(r'<div class="strip.*?\n</div>', re.S),
    "tail": re.compile(r"<tfoot>.*?</tfoot>", re.S),
    "standing": re.compile(r'<table class="stats.*?</table>', re.S),
}


def _sheet(client: FlaskClient, game: str, rules: dict[str, Any], deals: list[dict[str, Any]],
           n: int) -> int:  # fmt: skip
    r = client.post(API, json={"game": game, "players": PLAYERS, "rules": rules})
    assert r.status_code == 201, r.data
    sid = int(r.get_json()["id"])
    for k in range(n):
        body = deals[k % len(deals)]
        for declarer in PLAYERS:  # whoever sits in this deal
            b = {**body, "declarer": declarer} if "matadors" in body or "won" in body else body
            if "declarers" in body:
                b = body
            if client.post(f"{API}/{sid}/deals", json=b).status_code == 201:
                break
    if n:
        assert client.delete(f"{API}/{sid}/deals/2").status_code == 200  # a struck deal
    return sid


def page_parts(client: FlaskClient) -> dict[str, str]:
    out = {}
    for name, (game, rules, deals, n) in SHEETS.items():
        sid = _sheet(client, game, rules, deals, n)
        for lang in ("de", "en"):
            page = client.get(f"/sheets/{sid}?lang={lang}").get_data(as_text=True)
            for part, pattern in PARTS.items():
                found = pattern.search(page)
                assert found is not None, (name, lang, part)
                out[f"{name} {lang} {part}"] = found.group(0)
    return out


def test_the_pages_cells_are_what_the_templates_wrote(app: Flask, client: FlaskClient) -> None:
    expected = json.loads(DATA.read_text(encoding="utf-8"))
    got = page_parts(client)
    assert got.keys() == expected.keys()
    for key, html in expected.items():
        assert got[key] == html, key
