"""Write tests/data/season.json: a club's year of Skat and Schafkopf evenings.

    python tests/data/make_season.py && python tests/data/season_expected.py

Deterministic (fixed seed). The deals are API deal bodies with their dealer and players, the
way a sheet's JSON export stores them; names are sometimes typed in another case, as at a
real table, and must still meet as one player.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKAT_CLUB = ["Anna", "Bernd", "Carla", "Dieter", "Eva"]
SCHAFKOPF_CLUB = ["Anna", "Franz", "Gerti", "Hans", "Bernd"]
SUITS = ["diamonds", "hearts", "spades", "clubs"]


def typed(rng: random.Random, name: str) -> str:
    """How the name lands on the sheet: mostly as usual, sometimes lower or upper case."""
    roll = rng.random()
    if roll < 0.12:
        return name.lower()
    if roll < 0.18:
        return name.upper()
    return name


def skat_deal(rng: random.Random, active: list[str], ramsch: bool) -> dict:
    roll = rng.random()
    if roll < 0.06:
        return {"passed": True}
    if ramsch and roll < 0.12:
        cuts = sorted(rng.sample(range(1, 120), 2))
        pts = [cuts[0], cuts[1] - cuts[0], 120 - cuts[1]]
        return {"ramsch": {"points": dict(zip(active, pts, strict=True)), "jungfrau": [],
                           "durchmarsch": None}}  # fmt: skip
    declarer = rng.choice(active)
    kind = rng.random()
    if kind < 0.1:
        body = {"game": "null", "won": rng.random() < 0.7, "declarer": declarer}
        if rng.random() < 0.3:
            body["hand"] = True
        return body
    game = "grand" if kind < 0.35 else rng.choice(SUITS)
    top = 4 if game == "grand" else 5
    skill = {"anna": 2, "bernd": 0, "carla": 1, "dieter": -1, "eva": 0}.get(declarer.casefold(), 0)
    points = max(0, min(120, int(rng.gauss(72 + skill, 16))))
    if points == 120:
        points = 119  # schwarz is about tricks; the season keeps to points
    body = {"game": game, "matadors": rng.randint(1, top), "with": rng.random() < 0.6,
            "declarer_points": points, "declarer": declarer}  # fmt: skip
    if rng.random() < 0.15:
        body["hand"] = True
    return body


def schafkopf_deal(rng: random.Random, players: list[str]) -> dict:
    roll = rng.random()
    if roll < 0.05:
        return {"passed": True}
    if roll < 0.7:
        two = rng.sample(players, 2)
        return {"game": "sauspiel", "declarers": two, "player_points": rng.randint(30, 100),
                "laufende": rng.choice([0, 0, 0, 3, 4])}  # fmt: skip
    game = rng.choice(["solo", "wenz", "solo"])
    body = {"game": game, "declarers": [rng.choice(players)],
            "player_points": rng.randint(35, 110), "laufende": rng.choice([0, 0, 2, 3])}  # fmt: skip
    if game == "wenz" and body["laufende"] > 4:
        body["laufende"] = 4
    return body


def evening(
    rng: random.Random, group: str, day: date, game: str, club: list[str], exact: bool = False
) -> dict:
    if game == "skat":
        size = rng.choice([3, 4, 4])
        deals_n = rng.randint(18, 40)
        rules = {"stake_cents": rng.choice([0, 1, 2]), "ramsch": rng.random() < 0.3}
    else:
        size, deals_n = 4, rng.randint(16, 28)
        rules = {"stake_cents": 1, "ramsch": False,
                 "tariffs": {"sauspiel": 10, "solo": 20, "extra": 10}}  # fmt: skip
    seats = rng.sample(club, size)
    if game == "skat" and rng.random() < 0.15:
        seats[rng.randrange(size)] = "Fritz"  # a guest now and then: too few evenings to rank
    names = seats if exact else [typed(rng, p) for p in seats]
    deals = []
    for n in range(1, deals_n + 1):
        dealer = names[(n - 1) % size]
        active = [p for p in names if p != dealer] if size == 4 and game == "skat" else names
        if game == "skat":
            body = skat_deal(rng, active, rules["ramsch"])
        else:
            body = schafkopf_deal(rng, names)
        deals.append({"n": n, "dealer": dealer, "active": active, "input": body})
    return {"group": group, "date": day.isoformat(), "game": game, "players": names,
            "first_dealer": names[0], "rules": rules, "deals": deals}  # fmt: skip


def club_night(group: str, day: date, series: list[list[list[str]]]) -> list[dict]:
    """A club night of the group: each table of each series one sheet (an evening dict with
    ``"event"``, ``"series"`` and ``"table"``), all on the event's day. Its own random stream,
    so the evenings before it stay as they were."""
    rng = random.Random(1127)
    rules = {"stake_cents": 1, "ramsch": False}
    out = []
    for n, tables in enumerate(series, start=1):
        for t, seats in enumerate(tables, start=1):
            deals = []
            for k in range(1, rng.randint(20, 32) + 1):
                dealer = seats[(k - 1) % len(seats)]
                active = [p for p in seats if p != dealer] if len(seats) == 4 else list(seats)
                deals.append({"n": k, "dealer": dealer, "active": active,
                              "input": skat_deal(rng, active, False)})  # fmt: skip
            out.append({"group": group, "date": day.isoformat(), "game": "skat",
                        "players": seats, "first_dealer": seats[0], "rules": rules,
                        "deals": deals, "event": "clubabend", "series": n, "table": t})  # fmt: skip
    return out


def main() -> None:
    rng = random.Random(2025)
    evenings = []
    # One evening in the year before: outside the season's period.
    evenings.append(evening(rng, "hirsch", date(2024, 12, 19), "skat", SKAT_CLUB, exact=True))
    day = date(2025, 1, 9)
    for _ in range(24):
        evenings.append(evening(rng, "hirsch", day, "skat", SKAT_CLUB))
        day += timedelta(days=14)
    day = date(2025, 1, 17)
    for i in range(8):
        evenings.append(evening(rng, "freitag", day, "schafkopf", SCHAFKOPF_CLUB, exact=i == 0))
        day += timedelta(days=35)
    # A club night of the Stammtisch: two series at two tables, guests among them. Each
    # series' table is a sheet, but the night is ONE evening of every player who sat there.
    evenings += club_night("hirsch", date(2025, 11, 27), [
        [["Anna", "Bernd", "Gustav", "Helga"], ["Carla", "Dieter", "Eva", "Ilse"]],
        [["Anna", "Carla", "Gustav", "Ilse"], ["Bernd", "Dieter", "Eva", "Helga"]],
    ])  # fmt: skip
    # The correction a scorekeeper enters later on an old evening (the season's 2nd): the
    # deal was in truth a Grand ouvert won by the player in second place.
    data = {
        "period": {"from": "2025-01-01", "to": "2025-12-31"},
        "groups": {
            "hirsch": {
                "name": "Stammtisch Goldener Hirsch",
                "game": "skat",
                "rules": {"rank_by": "seeger_fabian", "min_sheets": 10, "best": 16},
            },
            "freitag": {
                "name": "Schafkopf am Freitag",
                "game": "schafkopf",
                "rules": {"rank_by": "balance", "min_sheets": 3, "best": 6},
            },
        },  # fmt: skip
        "evenings": evenings,
    }
    data["correction"] = correction(data)
    (HERE / "season.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def correction(data: dict) -> dict:
    """A lost game on an early evening becomes a won Grand ouvert, and that moves a player
    past another in the standings (checked with the independent script)."""
    import copy

    import season_expected as exp

    def order(evenings: list) -> list:
        return [(r["player"], r["rank"]) for r in exp.standings(data, evenings)["hirsch"]]

    before = order(data["evenings"])
    for i, e in enumerate(data["evenings"]):
        if e["group"] != "hirsch" or e["date"] < "2025-01-01":
            continue
        for d in e["deals"]:
            body = d["input"]
            if not body.get("declarer") or body.get("game") == "null" or body.get(
                    "declarer_points", 99) > 60:  # fmt: skip
                continue
            fix = {"evening": i, "n": d["n"], "input": {
                "game": "grand", "matadors": 4, "with": True, "ouvert": True,
                "declarer_points": 120, "all_tricks": "declarer", "declarer": body["declarer"]}}  # fmt: skip
            after = copy.deepcopy(data["evenings"])
            after[i]["deals"][d["n"] - 1]["input"] = fix["input"]
            if [p for p, _r in order(after)] != [p for p, _r in before]:
                return fix
    raise SystemExit("no correction moves the standings")


if __name__ == "__main__":
    main()
