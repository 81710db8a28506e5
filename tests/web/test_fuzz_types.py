"""Every field of every JSON body the API takes (docs/api.md), one at a time, with a value of
the wrong JSON type: a list, an object, null, a boolean, a float, a huge integer, a string.
Never a 5xx: a refusal is 4xx in the documented shape (``{"errors": {field: [...]}}``), and
the body as a whole of the wrong type too. The bodies start from valid ones, so each field is
reached by the reader that checks it (a wrong sibling would stop earlier)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app

API = "/api/v1"
WRONG: list[Any] = [[], {}, None, True, 1.5, 10**30, "x"]
WRONG_IDS = ["list", "dict", "null", "bool", "float", "huge int", "string"]

SKAT_GAME = {"game": "grand", "matadors": 2, "with": True, "cards": None, "hand": False,
             "schneider_announced": False, "schwarz_announced": False, "ouvert": False,
             "bid": 18, "declarer_points": 75, "all_tricks": None, "kontra": False,
             "re": False}  # fmt: skip
SKAT_WON = {"game": "clubs", "matadors": 1, "with": True, "won": True, "schneider": True}
SKAT_CARDS = {"game": "clubs", "cards": ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9",
                                          "C8"], "declarer_points": 61}  # fmt: skip
SKAT_NULL = {"game": "null", "hand": True, "ouvert": True, "won": False}
SKAT_RULES = {"kontra_re": True, "ramsch": True, "bock": ["60-60", "re"], "stake_cents": 10,
              "schieberamsch": True, "ramsch_cap": 50, "ramsch_loser": "most",
              "bockramsch": False, "bierlachs": None}  # fmt: skip
SKAT_RULES_MORE = {"bierlachs": 301, "ramsch_loser": "each", "bockramsch": True}
SKF_GAME = {"game": "sauspiel", "declarers": ["A", "B"], "player_points": 70, "schwarz": False,
            "laufende": 3, "gestellt": 1, "kontra": 1, "suit": "eichel"}  # fmt: skip
SKF_SOLO = {"game": "solo", "declarers": ["A"], "won": True, "schneider": True, "tout": True,
            "sie": False, "suit": "herz"}  # fmt: skip
SKF_CALC = {**SKF_GAME, "players": ["A", "B", "C", "D"],
            "tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10, "ramsch": 10,
                        "schneider": 10, "laufende": 10},
            "tout_counts_schneider_schwarz": True,
            "laufende_min": {"sauspiel": 3, "wenz": 2}}  # fmt: skip
SKF_RULES = {"tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10, "ramsch": 10,
                         "schneider": 10, "laufende": 10},
             "tout_counts_schneider_schwarz": True, "laufende_min": {"sauspiel": 3},
             "ramsch": True, "bock": ["60-60"], "stake_cents": 1,
             "stock": {"cents": 50, "taken_by": "any", "lost": "leave"}}  # fmt: skip
SCALE = {"rufspiel": {"plain": 1, "schneider": 2, "schwarz": 3},
         "solo": {"plain": 2, "schneider": 3, "schwarz": 4}, "bettel": 2,
         "laufender_rufspiel": 1, "laufender_solo": 1, "tout": 2, "sie": 4, "kontra": 2,
         "laufende_min": {"sauspiel": 3}}  # fmt: skip
PAYOUT = {"kind": "shares", "values": [50, 30, 20], "places": 3}
EVENT = {"name": "Preisskat", "game": "skat", "date": "2026-11-20", "group": 1,
         "group_token": "t", "deals": {"4": 12, "3": 9},
         "fees": {"entry_cents": 500, "lost_game_cents": 50, "table_cents": 100,
                  "team_cents": 200},
         "rules": {"kontra_re": True, "stake_cents": 0}, "payout": PAYOUT, "pot_cents": 1000,
         "double_entry": False, "series_prizes": {"kind": "fixed", "values": [500],
                                                   "per_players": 4},
         "categories": ["Damen"], "category_prizes": {"kind": "fixed", "values": [300]},
         "teams": [{"name": "T1", "members": ["A", "B"]}],
         "team_payout": {"kind": "shares", "values": [100]},
         "scoring": {"kind": "money"}}  # fmt: skip
EVENT_TIERS = {"game": "skat", "fees": {"lost_game_tiers": [{"from": 1, "cents": 50},
                                                            {"from": 4, "cents": 100}]}}  # fmt: skip
EVENT_POINTS = {"game": "schafkopf", "scoring": {"kind": "points", "scale": SCALE}}

# A sheet of each kind for the deal routes (ids in the order made below).
SKAT_SHEET, SKF_SHEET, SKAT4_SHEET, SMALL_SHEET = 1, 2, 3, 4


def deal_bodies() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        ("skat-game", SKAT_SHEET, {**SKAT_GAME, "declarer": "A", "dealer": "C"}),
        ("skat-won", SKAT_SHEET, {**SKAT_WON, "declarer": "B"}),
        ("skat-cards", SKAT_SHEET, {**SKAT_CARDS, "declarer": "B"}),
        ("skat-null", SKAT_SHEET, {**SKAT_NULL, "declarer": "C"}),
        (
            "skat-ramsch",
            SKAT_SHEET,
            {
                "ramsch": {
                    "points": {"A": 60, "B": 60, "C": 0},
                    "jungfrau": ["C"],
                    "durchmarsch": None,
                    "pushes": 1,
                }
            },
        ),  # fmt: skip
        ("skat-passed", SKAT_SHEET, {"passed": True}),
        (
            "skat4-active",
            SKAT4_SHEET,
            {**SKAT_GAME, "declarer": "B", "active": ["B", "C", "D"]},
        ),  # fmt: skip
        ("skf-game", SKF_SHEET, {**SKF_GAME, "active": ["A", "B", "C", "D"], "dealer": "D"}),
        ("skf-solo", SKF_SHEET, SKF_SOLO),
        (
            "skf-ramsch",
            SKF_SHEET,
            {
                "game": "ramsch",
                "points": {"A": 30, "B": 30, "C": 30, "D": 30},
                "jungfrau": [],
                "durchmarsch": None,
            },
        ),  # fmt: skip
    ]


def cases() -> Iterator[tuple[str, str, str, Any]]:
    """(id, method, path, a valid body) for every route of docs/api.md that takes a body."""
    yield "skat-value", "POST", f"{API}/skat/value", SKAT_GAME
    yield "skat-value-won", "POST", f"{API}/skat/value", SKAT_WON
    yield "skat-value-cards", "POST", f"{API}/skat/value", SKAT_CARDS
    yield "skat-value-null", "POST", f"{API}/skat/value", SKAT_NULL
    yield "schafkopf-value", "POST", f"{API}/schafkopf/value", SKF_CALC
    yield "schafkopf-value-solo", "POST", f"{API}/schafkopf/value", SKF_SOLO
    yield "new-skat-sheet", "POST", f"{API}/sheets", {
        "game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": SKAT_RULES,
        "name": "Freitag", "group": 1, "group_token": "t"}  # fmt: skip
    yield (
        "new-skat-sheet-more",
        "POST",
        f"{API}/sheets",
        {"game": "skat", "players": ["A", "B", "C", "D"], "rules": SKAT_RULES_MORE},
    )
    yield (
        "new-skf-sheet",
        "POST",
        f"{API}/sheets",
        {"game": "schafkopf", "players": ["A", "B", "C", "D", "E"], "rules": SKF_RULES},
    )
    yield (
        "new-skf-sheet-stock",
        "POST",
        f"{API}/sheets",
        {"game": "schafkopf", "players": ["A", "B", "C", "D"], "rules": {"stock": 20}},
    )
    yield (
        "new-points-sheet",
        "POST",
        f"{API}/sheets",
        {"game": "schafkopf", "players": ["A", "B", "C", "D"], "rules": {"scale": SCALE}},
    )
    yield "skat-rules", "PATCH", f"{API}/sheets/{SKAT_SHEET}", {"rules": SKAT_RULES}
    yield "skf-rules", "PATCH", f"{API}/sheets/{SKF_SHEET}", {"rules": SKF_RULES}
    for name, sheet, body in deal_bodies():
        yield f"add-{name}", "POST", f"{API}/sheets/{sheet}/deals", body
        if name in ("skat-game", "skat-ramsch", "skf-game", "skf-ramsch"):  # the same reader
            n = 3 if sheet == SKAT_SHEET else 1  # deal 3 on: Ramsch is on
            yield f"correct-{name}", "PUT", f"{API}/sheets/{sheet}/deals/{n}", body
            yield f"preview-{name}", "POST", f"{API}/sheets/{sheet}/preview", body
    yield "correct-n", "PUT", f"{API}/sheets/{SKAT4_SHEET}/deals/1", {"passed": True, "n": 1}
    for action in ("deals/1/restore", "close", "reopen"):
        yield action, "POST", f"{API}/sheets/{SKAT4_SHEET}/{action}", {}
    yield "group", "POST", f"{API}/groups", {
        "name": "Runde", "game": "skat",
        "rules": {"rank_by": "seeger_fabian", "min_sheets": 2, "best": 10}}  # fmt: skip
    yield "event", "POST", f"{API}/events", EVENT
    yield "event-tiers", "POST", f"{API}/events", EVENT_TIERS
    yield "event-points", "POST", f"{API}/events", EVENT_POINTS
    ev = f"{API}/events/1"
    yield "players", "POST", f"{ev}/players", {"names": ["E", {"name": "F", "category": "Damen"}]}
    yield "category", "POST", f"{ev}/players/category", {"player": "A", "category": "Damen"}
    yield "teams", "POST", f"{ev}/teams", {"teams": [{"name": "T1", "members": ["A", "B"]}]}
    yield "lengthen", "POST", f"{ev}/series/1/lengthen", {"deals": {"4": 16, "3": 12}}
    yield "paid", "POST", f"{ev}/fees/paid", {"player": "A", "series": 0, "paid": True}
    yield "confirm", "POST", f"{ev}/series/1/tables/1/confirm", {"player": "A", "captain": False}
    yield "confirm-captain", "POST", f"{ev}/series/1/tables/1/confirm", {"captain": True}
    yield "unlock", "POST", f"{ev}/series/1/tables/1/unlock", {}
    yield "swap", "POST", f"{ev}/series/1/swap", {"a": "A", "b": "B"}
    yield "redraw", "POST", f"{ev}/series/1/redraw", {"seed": 3}
    yield "rename", "POST", f"{ev}/players/rename", {"from": "A", "to": "Anna"}
    yield "close-event", "POST", f"{API}/events/2/close", {"payout": PAYOUT, "pot_cents": 100}
    yield "reopen-event", "POST", f"{API}/events/2/reopen", {}
    # last: a series seated by a variant that happens to be valid changes what comes after
    yield "series", "POST", f"{ev}/series", {"seating": "draw", "seed": 7, "n": 2, "force": True}


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a body: the body itself, each key of each object, each list's first
    element (the reader treats the others alike)."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list) and value:
        yield from paths(value[0], (*prefix, 0))


def replaced(body: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(body)
    inner = out
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = new
    return out


@pytest.fixture(scope="module")
def typed_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    path: Path = tmp_path_factory.mktemp("types") / "types.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "f",
                      "WTF_CSRF_ENABLED": False, "PROPAGATE_EXCEPTIONS": False})  # fmt: skip
    c = app.test_client()
    made = [
        c.post(f"{API}/groups", json={"name": "Runde", "game": "skat"}),
        c.post(
            f"{API}/sheets",
            json={
                "game": "skat",
                "players": ["A", "B", "C"],
                "rules": {**SKAT_RULES, "ramsch": False},
            },
        ),
        c.post(
            f"{API}/sheets",
            json={"game": "schafkopf", "players": ["A", "B", "C", "D"], "rules": SKF_RULES},
        ),
        c.post(f"{API}/sheets", json={"game": "skat", "players": ["A", "B", "C", "D"]}),
        c.post(
            f"{API}/sheets",
            json={
                "game": "skat",
                "players": ["A", "B", "C"],
                "first_dealer": "B",
                "rules": {"kontra_re": True},
            },
        ),
        c.post(f"{API}/sheets/{SKAT_SHEET}/deals", json={**SKAT_GAME, "declarer": "A"}),
        c.post(f"{API}/sheets/{SKAT_SHEET}/deals", json={**SKAT_WON, "declarer": "B"}),
        c.post(f"{API}/sheets/{SKF_SHEET}/deals", json=SKF_GAME),
        c.post(f"{API}/sheets/{SKAT4_SHEET}/deals", json={"passed": True}),
        c.delete(f"{API}/sheets/{SKAT4_SHEET}/deals/1"),
        c.post(f"{API}/events", json={**EVENT, "group": None, "group_token": None}),
        c.post(f"{API}/events/1/players", json={"names": ["A", "B", "C", "D", "G", "H", "I"]}),
        c.post(f"{API}/events/1/series", json={"seating": "draw", "seed": 1}),
        c.post(f"{API}/events", json={"game": "skat"}),
        c.post(f"{API}/events/2/players", json={"names": ["A", "B", "C"]}),
    ]
    assert [r.status_code for r in made] == [201] * 5 + [201] * 4 + [200] + [201, 200] + [
        201, 201, 200]  # fmt: skip
    # the sheet's rules allow Ramsch from here (the first deals were made without it)
    assert c.patch(f"{API}/sheets/{SKAT_SHEET}", json={"rules": SKAT_RULES}).status_code == 200
    r = c.post(f"{API}/sheets/{SKAT_SHEET}/deals", json={**SKAT_NULL, "declarer": "C"})
    assert r.status_code == 201  # deal 3, under the rules with Ramsch
    # a small sheet to export and import: a correction, a strike, a change of the rules
    small = f"{API}/sheets/{SMALL_SHEET}"
    assert [
        c.post(f"{small}/deals", json={**SKAT_GAME, "declarer": "A", "kontra": True}).status_code,
        c.patch(small, json={"rules": {"ramsch": True, "stake_cents": 5}}).status_code,
        c.post(f"{small}/deals", json={"ramsch": {"points": {"A": 60, "B": 60, "C": 0},
                                                  "jungfrau": ["C"]}}).status_code,
        c.put(f"{small}/deals/1", json={**SKAT_WON, "declarer": "B"}).status_code,
        c.delete(f"{small}/deals/2").status_code,
    ] == [201, 200, 201, 200, 200]  # fmt: skip
    return app


def _check(c: FlaskClient, method: str, url: str, body: Any) -> str | None:
    """None when the answer is fine, else what was wrong."""
    resp = c.open(url, method=method, json=body)
    if resp.status_code >= 500:
        return f"{resp.status_code} {resp.get_data(as_text=True)[:200]}"
    if resp.status_code == 422:
        errors = (resp.get_json() or {}).get("errors")
        if (
            not isinstance(errors, dict)
            or not errors
            or not all(
                isinstance(k, str)
                and isinstance(v, list)
                and v
                and all(isinstance(m, str) for m in v)
                for k, v in errors.items()
            )
        ):
            return f"422 not in the documented shape: {resp.get_data(as_text=True)[:200]}"
    return None


@pytest.mark.parametrize(("method", "url", "body"), [c[1:] for c in cases()],
                         ids=[c[0] for c in cases()])  # fmt: skip
def test_no_field_of_a_wrong_type_answers_500(
    typed_app: Flask, method: str, url: str, body: Any
) -> None:
    c = typed_app.test_client()
    bad: list[str] = []
    for path in paths(body):
        for value, name in zip(WRONG, WRONG_IDS, strict=True):
            problem = _check(c, method, url, replaced(body, path, value))
            if problem:
                bad.append(f"{'.'.join(map(str, path)) or '(body)'} = {name}: {problem}")
    assert not bad, "\n".join(bad)


# The export's fields in IMPORT_PARTS parts (every IMPORT_PARTS-th field each), for xdist.
IMPORT_PARTS = 3


@pytest.mark.parametrize("part", range(IMPORT_PARTS))
def test_an_import_with_any_field_of_a_wrong_type_never_answers_500(
    typed_app: Flask, part: int
) -> None:
    """The JSON export of a sheet with a correction and a strike, every field of it (each
    deal's body, the history and its ``action``, the rules) of a wrong type: 4xx, never 500."""
    c = typed_app.test_client()
    export = c.get(f"{API}/sheets/{SMALL_SHEET}/export.json").get_json()
    assert export["history"] and export["rule_changes"], export
    assert c.post(f"{API}/sheets/import", json=export).status_code == 201
    bad: list[str] = []
    for path in list(paths(export))[part::IMPORT_PARTS]:
        for value, name in zip(WRONG, WRONG_IDS, strict=True):
            problem = _check(c, "POST", f"{API}/sheets/import", replaced(export, path, value))
            if problem:
                bad.append(f"{'.'.join(map(str, path)) or '(body)'} = {name}: {problem}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("method", "url", "body", "field"),
    [
        ("POST", f"{API}/events", {"game": "schafkopf", "scoring": {"kind": ["points"]}},
         "scoring.kind"),
        ("POST", f"{API}/events", {"game": "skat", "scoring": {"kind": {"a": 1}}},
         "scoring.kind"),
    ],
)  # fmt: skip
def test_the_reported_bodies_answer_422_on_their_field(
    typed_app: Flask, method: str, url: str, body: Any, field: str
) -> None:
    resp = typed_app.test_client().open(url, method=method, json=body)
    assert resp.status_code == 422 and field in resp.get_json()["errors"], resp.get_json()


def test_an_import_whose_history_action_is_a_list_answers_422(typed_app: Flask) -> None:
    c = typed_app.test_client()
    export = c.get(f"{API}/sheets/{SMALL_SHEET}/export.json").get_json()
    assert export["history"], export
    for entry in export["history"]:
        entry["action"] = []
    resp = c.post(f"{API}/sheets/import", json=export)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    assert any(k.startswith("history") for k in resp.get_json()["errors"]), resp.get_json()
