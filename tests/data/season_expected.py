"""Independent check of season.json: standings and player figures, worked out from the deals.

Deliberately written from the rule book alone (docs/rules.md: Skat values, Seeger-Fabian,
zero-sum balance; Schafkopf tariffs) and the issue's definition of the standings, without
importing skatcalc. Writes season_expected.json beside this file:

    python tests/data/season_expected.py
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
NULL = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def skat_score(b: dict) -> tuple[int, bool]:
    """(list score of the declarer, won) for one suit, grand or null game."""
    if b["game"] == "null":
        value = NULL[(bool(b.get("hand")), bool(b.get("ouvert")))]
        return (value if b["won"] else -2 * value), b["won"]
    pts = b["declarer_points"]
    ouvert = bool(b.get("ouvert"))
    hand = bool(b.get("hand")) or ouvert
    all_tricks = b.get("all_tricks") == "declarer"
    levels = b["matadors"] + 1 + hand
    levels += 1 if pts >= 90 or pts <= 30 or ouvert else 0  # schneider
    levels += 1 if ouvert else 0  # schneider announced
    levels += 1 if all_tricks or ouvert else 0  # schwarz
    levels += 2 if ouvert else 0  # schwarz announced, ouvert
    value = BASE[b["game"]] * levels
    won = pts >= 61 and (all_tricks or not ouvert)
    return (value if won else -2 * value), won


def schafkopf_deltas(b: dict, players: list[str]) -> tuple[dict[str, int], bool]:
    solo = b["game"] != "sauspiel"
    pts = b["player_points"]
    won = pts >= 61
    minimum = 2 if b["game"] == "wenz" else 3
    value = (20 if solo else 10) + (10 if pts >= 91 or pts <= 30 else 0)
    if b.get("laufende", 0) >= minimum:
        value += 10 * b["laufende"]
    party = b["declarers"]
    sign = 1 if won else -1
    out = {}
    for p in players:
        if p in party:
            out[p] = sign * value * (3 if solo else 1)
        else:
            out[p] = -sign * value
    return out, won


def sheet(e: dict) -> dict[str, dict]:
    """Per typed name: balance, list, seeger_fabian, won, lost, played, games, partners."""
    players = e["players"]
    n = len(players)
    f = {p: {"balance": 0, "list": 0, "won": 0, "lost": 0, "others_lost": 0, "played": 0,
             "games": {}, "partners": {}} for p in players}  # fmt: skip
    deals = 0
    for d in e["deals"]:
        b = d["input"]
        deals += 1
        for p in d["active"]:
            f[p]["played"] += 1
        if b.get("passed"):
            continue
        if e["game"] == "skat":
            entries = dict.fromkeys(players, 0)
            if "ramsch" in b:
                top = max(b["ramsch"]["points"].values())
                for p, v in b["ramsch"]["points"].items():
                    if v == top:
                        entries[p] = -top
            else:
                score, won = skat_score(b)
                who = b["declarer"]
                entries[who] = score
                f[who]["won" if won else "lost"] += 1
                g = f[who]["games"].setdefault(b["game"], [0, 0])
                g[0] += 1
                g[1] += won
                if not won:
                    for p in players:
                        if p != who:
                            f[p]["others_lost"] += 1
            total = sum(entries.values())
            for p in players:
                f[p]["list"] += entries[p]
                f[p]["balance"] += n * entries[p] - total
        else:
            deltas, won = schafkopf_deltas(b, players)
            for p in players:
                f[p]["balance"] += deltas[p]
            for p in b["declarers"]:
                f[p]["won" if won else "lost"] += 1
                g = f[p]["games"].setdefault(b["game"], [0, 0])
                g[0] += 1
                g[1] += won
                for q in b["declarers"]:
                    if q != p:
                        t = f[p]["partners"].setdefault(key(q), [0, 0])
                        t[0] += 1
                        t[1] += won
    stake = e["rules"].get("stake_cents", 0)
    for p in players:
        x = f[p]
        x["cents"] = x["balance"] * stake
        x["deals"] = deals
        x["table"] = n
        if e["game"] == "skat" and n in (3, 4):
            bonus = 40 if n == 3 else 30
            x["seeger_fabian"] = x["list"] + 50 * (x["won"] - x["lost"]) + bonus * x["others_lost"]
    return f


def evening_of(e: dict) -> str:
    """Which evening a sheet is: a club night's tables (``"event"``) are one evening."""
    return f"event {e['event']}" if "event" in e else f"sheet {id(e)}"


def summed(figs: list[dict]) -> dict:
    """One player's sheets of one evening added up (a club night's series)."""
    out = dict(figs[0])
    for x in figs[1:]:
        for k in ("balance", "list", "won", "lost", "cents", "seeger_fabian"):
            if k in out:
                out[k] += x[k]
    return out


def names_of(evenings: list[dict]) -> dict[str, str]:
    """A player is called as first typed (in the order the sheets were entered)."""
    out: dict[str, str] = {}
    for e in evenings:
        for p in e["players"]:
            out.setdefault(key(p), " ".join(p.split()))
    return out


def standings(data: dict, evenings: list[dict]) -> dict[str, list[dict]]:
    names = names_of(evenings)
    out = {}
    for gkey, group in data["groups"].items():
        rules = group["rules"]
        nights: dict[str, dict[str, list[dict]]] = {}  # evening -> player -> sheets' figures
        for e in evenings:
            if (
                e["group"] != gkey
                or not data["period"]["from"] <= e["date"] <= data["period"]["to"]
            ):
                continue
            for p, x in sheet(e).items():
                nights.setdefault(evening_of(e), {}).setdefault(key(p), []).append(x)
        per: dict[str, list[dict]] = {}
        for by_player in nights.values():
            for k, figs in by_player.items():
                per.setdefault(k, []).append(summed(figs))
        rows = []
        for k, figs in per.items():
            vals = sorted((x[rules["rank_by"]] for x in figs), reverse=True)
            counted = vals[: rules["best"]] if rules["best"] else vals
            score = sum(counted)
            rows.append({"player": names[k], "sheets": len(figs), "counted": len(counted),
                         "score": score, "average": round(score / len(counted), 2),
                         "won": sum(x["won"] for x in figs), "lost": sum(x["lost"] for x in figs),
                         "balance": sum(x["balance"] for x in figs),
                         "cents": sum(x["cents"] for x in figs)})  # fmt: skip
        rows.sort(key=lambda r: (-r["score"], -r["won"], r["lost"], r["player"].casefold()))
        ranked = [r for r in rows if r["sheets"] >= rules["min_sheets"]]
        others = [r for r in rows if r["sheets"] < rules["min_sheets"]]
        for i, r in enumerate(ranked):
            same = i and ranked[i - 1]["score"] == r["score"]
            r["rank"] = ranked[i - 1]["rank"] if same else i + 1
        for r in others:
            r["rank"] = None
        out[gkey] = ranked + others
    return out


def player_figures(evenings: list[dict]) -> dict[str, dict]:
    names = names_of(evenings)
    out: dict[str, dict] = {}
    seen: dict[str, set[str]] = {}  # player and game -> evenings counted
    for e in evenings:
        for p, x in sheet(e).items():
            name = names[key(p)]
            g = out.setdefault(name, {}).setdefault(e["game"], {
                "sheets": 0, "deals": 0, "won": 0, "lost": 0, "balance": 0, "cents": 0,
                "games": {}, "series": 0.0})  # fmt: skip
            nights = seen.setdefault(f"{name} {e['game']}", set())
            if evening_of(e) not in nights:  # a club night's second series: same evening
                nights.add(evening_of(e))
                g["sheets"] += 1
            g["deals"] += x["played"]
            for k in ("won", "lost", "balance", "cents"):
                g[k] += x[k]
            for c, (n, w) in x["games"].items():
                t = g["games"].setdefault(c, {"declared": 0, "won": 0, "lost": 0})
                t["declared"] += n
                t["won"] += w
                t["lost"] += n - w
            if e["game"] == "skat":
                if x["table"] in (3, 4):
                    g["list"] = g.get("list", 0) + x["list"]
                    g["seeger_fabian"] = g.get("seeger_fabian", 0) + x["seeger_fabian"]
                    g["series"] += x["deals"] / (36 if x["table"] == 3 else 48)
            else:
                for q, (n, w) in x["partners"].items():
                    t = g.setdefault("partners", {}).setdefault(names[q], {"games": 0, "won": 0})
                    t["games"] += n
                    t["won"] += w
    for games in out.values():
        if "schafkopf" in games:
            del games["schafkopf"]["series"]
        g = games.get("skat")
        if g:
            g["seeger_fabian_per_series"] = round(g["seeger_fabian"] / g["series"], 1)
            g["list_per_series"] = round(g["list"] / g["series"], 1)
            g["series"] = round(g["series"], 3)
    return out


def main() -> None:
    data = json.loads((HERE / "season.json").read_text())
    after = copy.deepcopy(data["evenings"])
    c = data["correction"]
    for d in after[c["evening"]]["deals"]:
        if d["n"] == c["n"]:
            d["input"] = c["input"]
    result = {
        "before": {"standings": standings(data, data["evenings"]),
                   "players": player_figures(data["evenings"])},
        "after": {"standings": standings(data, after), "players": player_figures(after)},
    }  # fmt: skip
    (HERE / "season_expected.json").write_text(
        json.dumps(result, ensure_ascii=False, indent=1) + "\n"
    )
    for when in ("before", "after"):
        print(when)
        for r in result[when]["standings"]["hirsch"]:
            print(f"  {r['rank']!s:>4} {r['player']:<8} {r['sheets']:>3} {r['score']:>6}")


if __name__ == "__main__":
    main()
