"""A Skat row in words: the contract ("Grand mit 2") and the marks of its announcements."""

from __future__ import annotations

from ...rules.common import Msg, verbatim
from ...rules.marks import (
    HAND,
    OUVERT,
    OVERBID,
    SCHNEIDER,
    SCHNEIDER_ANN,
    SCHWARZ,
    SCHWARZ_ANN,
    Contract,
)
from ...rules.sheet.base import Row
from .values import GAME_NAMES, Game, SkatResult


def skat_contract(row: Row) -> Contract:
    """A Skat game's row: "Grand mit 2", its marks, and its value with Kontra and Re (the
    result as the row counts it: none on a struck row)."""
    inp = row.input
    # a struck row keeps its whole contract (matadors, Schneider …), only its value goes
    played = row.outcome.result if row.outcome is not None else None
    result = played if isinstance(played, SkatResult) else None
    try:
        g = Game(inp.get("game"))
    except ValueError:
        return Msg("?"), [], None
    name = GAME_NAMES[g]
    marks: list[Msg] = []
    contract = name
    matadors = result.matadors if result else None
    if g is not Game.NULL and isinstance(matadors, int):
        with_ = bool(result and result.with_)
        contract = (
            Msg("%(game)s mit %(matadors)s", game=name, matadors=matadors)
            if with_
            else Msg("%(game)s ohne %(matadors)s", game=name, matadors=matadors)
        )
    if inp.get("hand"):
        marks.append(HAND)
    if inp.get("ouvert"):
        marks.append(OUVERT)
    if g is not Game.NULL:
        # Ouvert brings both announcements with it; its mark says so already.
        schwarz_ann = bool(inp.get("schwarz_announced")) and not inp.get("ouvert")
        schneider_ann = bool(inp.get("schneider_announced")) and not inp.get("ouvert")
        if schwarz_ann:
            marks.append(SCHWARZ_ANN)
        elif schneider_ann:
            marks.append(SCHNEIDER_ANN)
        if result and result.schwarz and not schwarz_ann and not inp.get("ouvert"):
            marks.append(SCHWARZ)
        elif (
            result and result.schneider and not (schneider_ann or schwarz_ann or inp.get("ouvert"))
        ):
            marks.append(SCHNEIDER)
    shown = result.value if result and not row.struck else None
    if result and result.overbid:
        marks.append(OVERBID)
    for flag, word in (("kontra", "Kontra"), ("re", "Re")):
        if inp.get(flag):
            marks.append(verbatim(word))
            if shown is not None:
                shown *= 2
    return contract, marks, shown
