"""A Schafkopf row in words: its title and the marks of Schneider, Laufende, Kontra…"""

from __future__ import annotations

from ...rules.common import Msg, verbatim
from ...rules.marks import KONTRA_WORDS, LOST, SCHNEIDER, SCHWARZ, Contract
from ...rules.sheet.base import Row
from .values import SchafkopfResult

#: the marks a Schafkopf row can carry (no announcements, no overbidding)
SCHAFKOPF_MARKS = (SCHNEIDER, SCHWARZ, LOST)


def schafkopf_contract(row: Row) -> Contract:
    """A Schafkopf game's row: its title, its marks, and its value (Bock in it)."""
    inp = row.input
    result = row.result if isinstance(row.result, SchafkopfResult) else None
    marks: list[Msg] = []
    counted = result is not None and result.schneider is not None
    schneider = result.schneider if counted and result else inp.get("schneider")
    schwarz = result.schwarz if counted and result else inp.get("schwarz")
    if schwarz:
        marks.append(SCHWARZ)
    elif schneider:
        marks.append(SCHNEIDER)
    laufende = inp.get("laufende")
    if isinstance(laufende, int) and laufende > 0:
        marks.append(Msg("%(laufende)s Laufende", laufende=laufende))
    gestellt = inp.get("gestellt")
    if isinstance(gestellt, int) and gestellt > 0:
        times = f"{gestellt}× " if gestellt > 1 else ""
        marks.append(Msg("%(times)sgestellt", times=times))
    kontra = inp.get("kontra")
    if isinstance(kontra, int) and 0 < kontra <= len(KONTRA_WORDS):
        word = KONTRA_WORDS[kontra - 1]
        marks.append(verbatim(word))
    return row.title, marks, result.value if result else None
