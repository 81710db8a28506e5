"""Every text the rules produce, in German and English, for a fixed set of inputs.

``tests/data/i18n_snapshot.json`` holds what these cases answered before the rules' messages
became catalogue msgids (generated on main with ``python -m tests.i18n_snapshot``);
``tests/rules/test_message_snapshot.py`` asks again and compares. The cases are seeded random deal
bodies and sheet rules through the API (calculators, sheet previews, saved deals, sheet
JSON, CSV), so they reach the explanation steps, titles, marks, house rules in words and the
error messages of every rule table without naming them one by one.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from skatcalc import create_app

SNAPSHOT = Path(__file__).resolve().parent / "data" / "i18n_snapshot.json"
LANGS = ("de", "en")
SEED = 11

SKAT_GAMES = ["clubs", "spades", "hearts", "diamonds", "grand", "null", "nul", None]
BIDS = [18, 20, 23, 24, 30, 36, 48, 59, 96, 120, 17, 300]
POINTS = [None, 0, 15, 30, 31, 45, 59, 60, 61, 75, 89, 90, 91, 120, 121, -1]
CARDS = [["CJ", "SJ"], ["CJ", "HJ", "CA"], ["DJ"], ["XX"], [], ["CJ", "CJ"], "CJ"]
SK_GAMES = ["sauspiel", "wenz", "farbwenz", "geier", "solo", "bettel", "ramsch", "bogus", None]
SUITS = ["eichel", "gras", "herz", "schellen", "laub", None]


def pick(rng: random.Random, choices: list[Any]) -> Any:
    return choices[rng.randrange(len(choices))]


def maybe(rng: random.Random, body: dict[str, Any], key: str, choices: list[Any]) -> None:
    if rng.random() < 0.5:
        value = pick(rng, choices)
        if value is not None:
            body[key] = value


def skat_body(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.6:  # a game the table could have played, so the steps are reached
        game = pick(rng, ["clubs", "spades", "hearts", "diamonds", "grand", "grand", "null"])
        body: dict[str, Any] = {"game": game}
        if game != "null":
            body |= {"matadors": rng.randrange(1, 5), "with": rng.random() < 0.5,
                     "declarer_points": pick(rng, POINTS[1:-2])}  # fmt: skip
        else:
            body["won"] = rng.random() < 0.6
        for key in ("hand", "ouvert", "kontra", "re", "schneider_announced"):
            if rng.random() < 0.15:
                body[key] = True
        if rng.random() < 0.2:
            body["bid"] = pick(rng, BIDS[:8])
        return body
    body = {}
    maybe(rng, body, "game", SKAT_GAMES + ["grand"] * 3 + ["clubs"] * 2)
    if rng.random() < 0.15:
        maybe(rng, body, "cards", CARDS)
    else:
        maybe(rng, body, "matadors", [1, 2, 3, 4, 11, 0, 12, "x"])
        maybe(rng, body, "with", [True, False])
    for key in ("hand", "schneider_announced", "schwarz_announced", "ouvert", "schneider",
                "kontra", "re"):  # fmt: skip
        if rng.random() < 0.2:
            body[key] = pick(rng, [True, False, True, "ja"])
    maybe(rng, body, "bid", BIDS)
    maybe(rng, body, "declarer_points", POINTS)
    if rng.random() < 0.15:
        body["all_tricks"] = pick(rng, ["declarer", "defenders", "nobody"])
    if rng.random() < 0.4:
        body["won"] = pick(rng, [True, False])
    if rng.random() < 0.03:
        body["surprise"] = 1
    return body


def schafkopf_body(rng: random.Random, players: list[str]) -> dict[str, Any]:
    if rng.random() < 0.6:
        game = pick(rng, ["sauspiel", "sauspiel", "wenz", "farbwenz", "geier", "solo", "bettel"])
        two = game == "sauspiel"
        body: dict[str, Any] = {"game": game, "declarers": rng.sample(players, 2 if two else 1)}
        if game == "bettel":
            body["won"] = rng.random() < 0.5
        else:
            body["player_points"] = pick(rng, POINTS[1:-2])
        if game in ("solo", "farbwenz", "sauspiel"):
            body["suit"] = pick(rng, SUITS[:4])
        for key, values in (("laufende", [3, 4, 5]), ("kontra", [1, 2]), ("gestellt", [1])):
            if rng.random() < 0.2:
                body[key] = pick(rng, values)
        if rng.random() < 0.1:
            body["tout"] = True
        if rng.random() < 0.05:
            body["sie"] = True
        return body
    body = {}
    maybe(rng, body, "game", SK_GAMES + ["sauspiel", "solo", "wenz"] * 2)
    n = pick(rng, [1, 1, 2, 2, 0, 3, 5])
    if rng.random() < 0.9:
        body["declarers"] = rng.sample(players, min(n, len(players))) if n < 5 else players + ["Z"]
    maybe(rng, body, "player_points", POINTS)
    if rng.random() < 0.5:
        body["won"] = pick(rng, [True, False])
    for key in ("schneider", "schwarz", "tout", "sie"):
        if rng.random() < 0.15:
            body[key] = pick(rng, [True, False])
    maybe(rng, body, "laufende", [0, 2, 3, 4, 8, 9, -1])
    maybe(rng, body, "gestellt", [0, 1, 2, 5])
    maybe(rng, body, "kontra", [0, 1, 2, 3])
    maybe(rng, body, "suit", SUITS)
    return body


def ramsch_points(rng: random.Random, players: list[str]) -> dict[str, Any]:
    if rng.random() < 0.7:
        a = rng.randrange(0, 121)
        b = rng.randrange(0, 121 - a)
        parts = [a, b, 120 - a - b]
        if len(players) == 4:
            c = rng.randrange(0, parts[2] + 1)
            parts = [a, b, c, 120 - a - b - c]
        if rng.random() < 0.2:
            parts[0] += 5
        return dict(zip(players, parts, strict=True))
    return pick(rng, [{players[0]: 60}, {p: 150 for p in players}, {}])


def ramsch_body(rng: random.Random, players: list[str], schafkopf: bool) -> dict[str, Any]:
    inner: dict[str, Any] = {"points": ramsch_points(rng, players)}
    if rng.random() < 0.3:
        inner["jungfrau"] = rng.sample(players + ["Z"], 1)
    if rng.random() < 0.2:
        inner["durchmarsch"] = pick(rng, players + ["Z"])
    return {"game": "ramsch", **inner} if schafkopf else {"ramsch": inner}


SKAT_RULES: list[dict[str, Any]] = [
    {},
    {
        "kontra_re": True,
        "ramsch": True,
        "bock": ["60-60", "grand-hand-won", "kontra-lost", "value-100"],
        "stake_cents": 5,
    },  # fmt: skip
    {"ramsch": True, "bock": ["value-100"]},
]
SCHAFKOPF_RULES: list[dict[str, Any]] = [
    {},
    {
        "ramsch": True,
        "bock": ["60-60", "kontra-lost", "value-100"],
        "tariffs": {"sauspiel": 10, "solo": 50, "extra": 10, "ramsch": 20},
    },  # fmt: skip
    {"tout_counts_schneider_schwarz": False, "laufende_min": {"wenz": 2}, "stake_cents": 2},
]
BAD_RULES: list[dict[str, Any]] = [
    {"bock": ["nope"]}, {"kontra_re": "ja"}, {"stake_cents": -1}, {"tariffs": {"solo": -5}},
    {"tariffs": {"solo": 999999}}, {"laufende_min": {"wenz": 0}}, {"surprise": 1},
    {"ramsch": 1}, {"bock": "60-60"}, {"tariffs": {"bogus": 1}},
]  # fmt: skip


# Bodies that reach the messages random bodies rarely do: (method, url, body).
NAMED: list[tuple[str, str, Any]] = [
    (
        "POST",
        "/api/v1/skat/value",
        {"game": "grand", "cards": ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8"]},
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {
            "game": "grand",
            "cards": ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "SA"],
            "declarer_points": 70,
        },
    ),
    ("POST", "/api/v1/skat/value", {"game": "clubs", "cards": ["DJ", "CA"], "declarer_points": 61}),
    ("POST", "/api/v1/skat/value", {"game": "clubs", "cards": ["CJ"], "matadors": 1}),
    (
        "POST",
        "/api/v1/skat/value",
        {"game": "grand", "matadors": 1, "with": True, "declarer_points": 0},
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {"game": "grand", "matadors": 1, "with": True, "declarer_points": 0, "won": True},
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {"game": "grand", "matadors": 1, "with": True, "all_tricks": "declarer"},
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {"game": "grand", "matadors": 1, "with": True, "all_tricks": "defenders"},
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {
            "game": "grand",
            "matadors": 1,
            "with": True,
            "all_tricks": "defenders",
            "declarer_points": 30,
        },
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {
            "game": "grand",
            "matadors": 1,
            "with": True,
            "hand": True,
            "schneider_announced": True,
            "declarer_points": 80,
        },
    ),
    (
        "POST",
        "/api/v1/skat/value",
        {
            "game": "grand",
            "matadors": 1,
            "with": True,
            "hand": True,
            "schneider_announced": True,
            "all_tricks": "defenders",
        },
    ),
    ("POST", "/api/v1/skat/value", {"game": "grand", "matadors": 1, "with": True, "won": False}),
    ("POST", "/api/v1/skat/value", {"game": "grand", "matadors": 1, "with": True, "won": True}),
    ("POST", "/api/v1/skat/value", {"game": "null", "bid": 59, "won": True}),
    ("POST", "/api/v1/skat/value", {"game": "grand", "matadors": 99999999999}),
    ("POST", "/api/v1/skat/value", []),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "players": ["A", "B"], "player_points": 70},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "players": ["A", "B", "C", "C"]},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "players": ["A", "B", "C", ""]},
    ),
    ("POST", "/api/v1/schafkopf/value", {"game": "sauspiel", "declarers": ["A", "A"], "won": True}),
    ("POST", "/api/v1/schafkopf/value", {"game": "solo", "declarers": ["Q"], "won": True}),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "suit": "blau"},
    ),
    ("POST", "/api/v1/schafkopf/value", {"game": "hochzeit", "declarers": ["A"], "won": True}),
    ("POST", "/api/v1/schafkopf/value", {"game": "farbgeier", "declarers": ["A"], "won": True}),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "kontra": 9},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "tout": True},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {
            "game": "solo",
            "declarers": ["A"],
            "won": True,
            "tout": True,
            "tout_counts_schneider_schwarz": False,
        },
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "sie": True},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {
            "game": "wenz",
            "declarers": ["A"],
            "won": True,
            "laufende": 2,
            "laufende_min": {"wenz": 3},
        },
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "tariffs": {"solo": "x"}},
    ),
    (
        "POST",
        "/api/v1/schafkopf/value",
        {"game": "solo", "declarers": ["A"], "won": True, "players": ["A", "B", "C", "D" * 50]},
    ),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "B"]}),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "B", "C"] * 2}),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "A", "C"]}),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "", "C"]}),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "B\u0001", "C"]}),
    ("POST", "/api/v1/sheets", {"game": "schafkopf", "players": ["A", "B", "C"]}),
    ("POST", "/api/v1/sheets", {"game": "skat", "players": ["A", "B", "C"], "first_dealer": "Q"}),
    ("POST", "/api/v1/sheets", {"game": "skat"}),
    ("POST", "/api/v1/sheets", {"game": "doppelkopf", "players": ["A", "B", "C", "D"]}),
    (
        "POST",
        "/api/v1/events",
        {
            "game": "skat",
            "name": 5,
            "date": "22.11.2026",
            "deals": {"5": 3, "4": 0},
            "fees": {"x": 1, "entry_cents": -1},
            "pot_cents": -5,
            "payout": {"kind": "x", "values": "1"},
        },
    ),
    ("POST", "/api/v1/events", {"game": "skat", "name": "N" * 300}),
    ("POST", "/api/v1/events", {"game": "skat", "payout": {"kind": "shares", "values": [80, 30]}}),
    ("POST", "/api/v1/events", {"game": "skat", "payout": {"kind": "fixed", "values": [-1]}}),
    ("POST", "/api/v1/events", {"game": "skat", "payout": {"kind": "fixed", "values": [1] * 101}}),
    ("POST", "/api/v1/events", {"game": "skat", "payout": {"kind": "fixed", "values": [10**12]}}),
    ("POST", "/api/v1/events", {"game": "skat", "payout": 5}),
    ("POST", "/api/v1/groups", {"name": "G", "game": "skat", "rules": 5}),
    (
        "POST",
        "/api/v1/groups",
        {"name": "G", "game": "skat", "rules": {"x": 1, "rank_by": "luck", "best": 0}},
    ),
    (
        "POST",
        "/api/v1/groups",
        {"name": "G", "game": "schafkopf", "rules": {"rank_by": "list", "min_sheets": -1}},
    ),
]
SHEET_DEALS: dict[str, list[Any]] = {
    "skat": [
        {"passed": False},
        {"passed": True, "game": "grand"},
        {"dealer": "Q", "passed": True},
        {"active": ["A", "B"], "passed": True},
        {"active": ["A", "A", "B"], "passed": True},
        {
            "ramsch": {
                "points": {"A": 0, "B": 120, "C": 0},
                "jungfrau": ["A", "C"],
                "durchmarsch": "B",
            }
        },
        {"ramsch": {"points": {"A": 10, "B": 50, "C": 60}, "jungfrau": ["A"]}},
        {"ramsch": {"points": {"A": 0, "B": 50, "C": 70}, "jungfrau": ["A"]}},
        {"ramsch": {"points": {"A": 40, "B": 40, "C": 40}}},
        {
            "game": "grand",
            "matadors": 1,
            "with": True,
            "declarer_points": 61,
            "declarer": "A",
            "kontra": True,
        },
        {
            "game": "grand",
            "matadors": 4,
            "with": True,
            "declarer_points": 30,
            "declarer": "A",
            "kontra": True,
            "re": True,
            "hand": True,
        },
    ],
    "schafkopf": [
        {"game": "ramsch", "points": {"A": 0, "B": 120, "C": 0, "D": 0}, "durchmarsch": "B"},
        {"game": "ramsch", "points": {"A": 0, "B": 60, "C": 30, "D": 30}, "jungfrau": ["A"]},
        {"game": "ramsch", "points": {"A": 30, "B": 30, "C": 30, "D": 30}},
        {"game": "ramsch", "points": {"A": 10, "B": 50, "C": 50, "D": 10}},
        {"game": "solo", "declarers": ["A"], "player_points": 0, "tout": True},
        {"game": "solo", "declarers": ["A"], "won": True, "sie": True, "kontra": 1},
        {"game": "bettel", "declarers": ["A"], "won": False, "kontra": 2},
        {"game": "sauspiel", "declarers": ["A", "B"], "player_points": 60, "laufende": 3},
    ],
}


def texts(data: Any) -> str:
    """The answer without what changes from run to run (timestamps, random tokens)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    text = re.sub(r'"(\w*token)": "[^"]*"', r'"\1": ""', text)
    return re.sub(r"\d{4}-\d\d-\d\d(T[0-9:.+]+)?|\d\d\.\d\d\.\d{4}", "<date>", text)


SHEETS: list[tuple[str, int, list[dict[str, Any]]]] = [
    ("skat", 3, SKAT_RULES), ("skat", 4, SKAT_RULES), ("schafkopf", 4, SCHAFKOPF_RULES),
]  # fmt: skip
# The cases come in parts that can be asked for one by one (the test runs them side by side):
# the calculators', the named bodies' and each sheet's.
PARTS = ["skat", "schafkopf", "named"] + [
    f"sheet/{game}{players_n}/{k}" for game, players_n, rules in SHEETS for k in range(len(rules))
]


def part_of(case: str) -> str:
    """The part a case name belongs to (see ``PARTS``)."""
    head = case.split("/")
    if head[0] == "sheet":
        return "/".join(head[:3])
    return "named" if head[0] == "bad-rules" else head[0]


def cases(client: FlaskClient, part: str | None = None) -> Iterator[tuple[str, str]]:
    """(case name, what the app answered in that language), German and English each; of one
    part only if ``part`` is given. The parts skipped still draw their random bodies and create
    their sheets, so that a part's bodies and sheet ids are those of the whole run."""
    rng = random.Random(SEED)

    def wanted(name: str) -> bool:
        return part is None or part == name

    def ask(method: str, url: str, body: Any = None) -> dict[str, str]:
        out = {}
        for lang in LANGS:
            r = client.open(url, method=method, json=body, headers={"Accept-Language": lang})
            out[lang] = f"{r.status_code} {texts(r.get_json())}"
        return out

    for i in range(600):
        body = skat_body(rng)
        if not wanted("skat"):
            continue
        for lang, text in ask("POST", "/api/v1/skat/value", body).items():
            yield f"skat/{i}/{lang}", text
    for i in range(500):
        body = schafkopf_body(rng, ["A", "B", "C", "D"])
        if rng.random() < 0.2:
            body["tariffs"] = pick(rng, [{"solo": 50}, {"bettel": 5}, {"x": 1}, {"solo": -1}])
        if not wanted("schafkopf"):
            continue
        for lang, text in ask("POST", "/api/v1/schafkopf/value", body).items():
            yield f"schafkopf/{i}/{lang}", text
    if wanted("named"):
        yield from named_cases(ask)
    for game, players_n, rule_sets in SHEETS:
        for k, rules in enumerate(rule_sets):
            players = ["A", "B", "C", "D"][:players_n]
            made = client.post("/api/v1/sheets",
                               json={"game": game, "players": players, "rules": rules})  # fmt: skip
            sid = made.get_json()["id"]
            where = f"sheet/{game}{players_n}/{k}"
            here = wanted(where)
            for n in range(60):
                r = rng.random()
                if r < 0.1:
                    body: dict[str, Any] = {"passed": True}
                elif r < 0.3:
                    body = ramsch_body(rng, players[:3] if game == "skat" else players,
                                       game == "schafkopf")  # fmt: skip
                elif game == "skat":
                    body = skat_body(rng)
                    body["declarer"] = pick(rng, players + ["Z"])
                    if rng.random() < 0.5:
                        body.setdefault("game", "grand")
                        body.setdefault("declarer_points", pick(rng, POINTS[1:]))
                else:
                    body = schafkopf_body(rng, players)
                if not here:
                    continue
                for lang, text in ask("POST", f"/api/v1/sheets/{sid}/preview", body).items():
                    yield f"{where}/preview/{n}/{lang}", text
                client.post(f"/api/v1/sheets/{sid}/deals", json=body)
            if not here:
                continue
            for n, body in enumerate(SHEET_DEALS[game]):
                for lang, text in ask("POST", f"/api/v1/sheets/{sid}/preview", body).items():
                    yield f"{where}/named/{n}/{lang}", text
                client.post(f"/api/v1/sheets/{sid}/deals", json=body)
            sheet = ask("GET", f"/api/v1/sheets/{sid}")
            for lang, text in sheet.items():
                yield f"{where}/json/{lang}", text
            for lang in LANGS:
                csv = client.get(f"/api/v1/sheets/{sid}/export.csv",
                                 headers={"Accept-Language": lang})  # fmt: skip
                yield f"{where}/csv/{lang}", csv.data.decode("utf-8-sig")
                page = client.get(f"/sheets/{sid}?lang={lang}").data.decode()
                yield f"{where}/page-rules/{lang}", " | ".join(page_rules(page))


def named_cases(ask: Callable[..., dict[str, str]]) -> Iterator[tuple[str, str]]:
    for j, (method, url, body) in enumerate(NAMED):
        for lang, text in ask(method, url, body).items():
            yield f"named/{j}/{lang}", text
    for j, rules in enumerate(BAD_RULES):
        for game in ("skat", "schafkopf"):
            body = {"game": game, "players": ["A", "B", "C", "D"], "rules": rules}
            for lang, text in ask("POST", "/api/v1/sheets", body).items():
                yield f"bad-rules/{game}/{j}/{lang}", text


def page_rules(page: str) -> list[str]:
    """The sheet page's house rules in words (the list under the sheet's title)."""
    found = re.search(r'<ul class="rules[^"]*">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1), re.S) if found else []


def collect(part: str | None = None) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "snap.sqlite"),
                          "SECRET_KEY": "snapshot", "WTF_CSRF_ENABLED": False})  # fmt: skip
        return dict(cases(app.test_client(), part))


if __name__ == "__main__":
    snap = collect()
    SNAPSHOT.write_text(json.dumps(snap, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    print(len(snap), "cases written to", SNAPSHOT, file=sys.stderr)
