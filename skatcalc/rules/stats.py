"""Per-player statistics of a computed sheet (pure: reads what compute_sheet produced, as
``skatcalc/serialize.py`` shapes its rows)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PARTNER_GAMES = {"sauspiel", "hochzeit"}


def statistics(
    game: str, players: list[str], deals: list[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Deals taken part in, own games, won, lost, won %, best and worst deal, and game kinds.

    Skat counts Grands and Nulls among a player's own games; Schafkopf counts solos (every
    game played alone, Wenz and Bettel included) and Sauspiele (partner games)."""
    out: dict[str, dict[str, Any]] = {
        p: {"played": 0, "own": 0, "won": 0, "lost": 0, "won_pct": None,
            "best": None, "worst": None, "grands": 0, "nulls": 0, "solos": 0, "sauspiele": 0}
        for p in players
    }  # fmt: skip
    for row in deals:
        if row.get("struck") or "deltas" not in row or row.get("error"):
            continue
        for p in players:
            s = out[p]
            if p in row.get("active", ()):
                s["played"] += 1
            delta = row["deltas"].get(p, 0)
            if p in row.get("active", ()) or delta:
                if s["best"] is None or delta > s["best"]["delta"]:
                    s["best"] = {"n": row["n"], "delta": delta}
                if s["worst"] is None or delta < s["worst"]["delta"]:
                    s["worst"] = {"n": row["n"], "delta": delta}
            if row.get("kind") != "game" or p not in row.get("party", ()):
                continue
            s["own"] += 1
            s["won" if row.get("won") else "lost"] += 1
            kind = row.get("input", {}).get("game")
            if game == "skat":
                s["grands"] += kind == "grand"
                s["nulls"] += kind == "null"
            elif kind in PARTNER_GAMES:
                s["sauspiele"] += 1
            else:
                s["solos"] += 1
    for s in out.values():
        if s["own"]:
            s["won_pct"] = round(100 * s["won"] / s["own"])
    return out
