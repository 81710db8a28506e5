"""A Skat row in words: the contract ("Grand mit 2") and the marks of its announcements, as
its result carries them (``values.py`` names a deal once, for every place that shows it)."""

from __future__ import annotations

from ...rules.common import Msg, verbatim
from ...rules.marks import HAND, OUVERT, SCHNEIDER_ANN, SCHWARZ_ANN, Contract
from ...rules.sheet.base import Row
from .values import GAME_NAMES, Game, SkatResult


def skat_contract(row: Row) -> Contract:
    """A Skat game's row: "Grand mit 2", its marks, and its value with Kontra and Re (the
    result as the row counts it: none on a struck row)."""
    # a struck row keeps its whole contract (matadors, Schneider …), only its value goes
    played = row.outcome.result if row.outcome is not None else None
    if isinstance(played, SkatResult):
        return played.contract, list(played.marks), None if row.struck else played.shown
    # no result (a row the rules refuse): the game's name and what the body declares
    inp = row.input
    try:
        g = Game(inp.get("game"))
    except ValueError:
        return Msg("?"), [], None
    words = [mark for mark, key in ((HAND, "hand"), (OUVERT, "ouvert")) if inp.get(key)]
    if g is not Game.NULL and not inp.get("ouvert"):
        if inp.get("schwarz_announced"):
            words.append(SCHWARZ_ANN)
        elif inp.get("schneider_announced"):
            words.append(SCHNEIDER_ANN)
    words.extend(verbatim(w) for w in ("Kontra", "Re") if inp.get(w.lower()))
    return GAME_NAMES[g], words, None
