"""What a sheet row says about its deal: the contract, short marks and the value shown.

One place for the sheet page, the CSV and the PDF, so the three never disagree about why a
row's number is what it is. Works on a computed row of :func:`compute_sheet` as
``skatcalc/serialize.py`` shapes it (its ``input``, ``result``, ``bock``, ``won``, ``party``),
so struck rows read the same as counted ones.

>>> row = {"kind": "game", "declarer": "Anna", "won": True, "bock": False,
...        "input": {"game": "grand", "hand": True, "kontra": True},
...        "result": {"matadors": 2, "with": True, "value": 96, "schneider": True,
...                   "schwarz": False, "overbid": False}}
>>> d = describe_row("skat", row)
>>> d.contract.de, [m.de for m in d.marks], d.value
('Grand mit 2', ['Hand', 'Schn.', 'Kontra'], 192)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import Msg, joined, pmsg, verbatim
from .skat import GAME_NAMES, Game

HAND = Msg("Hand")
OUVERT = Msg("ouvert")
SCHNEIDER = Msg("Schn.")
SCHWARZ = Msg("Schw.")
SCHNEIDER_ANN = Msg("Schn. ang.")
SCHWARZ_ANN = Msg("Schw. ang.")
OVERBID = Msg("überr.")
BOCK = Msg("Bock")
LOST = Msg("verl.")
STRUCK = Msg("gestrichen")
KONTRA_WORDS = ("Kontra", "Re", "Sub", "Hirsch")

#: every short mark with its long meaning, for the legend under the list
LEGEND: tuple[tuple[Msg, Msg], ...] = (
    (SCHNEIDER, Msg("Schneider")),
    (SCHWARZ, Msg("Schwarz")),
    (SCHNEIDER_ANN, pmsg("mark", "Schneider angesagt")),
    (SCHWARZ_ANN, pmsg("mark", "Schwarz angesagt")),
    (OVERBID, Msg("überreizt")),
    (LOST, Msg("verloren")),
)
#: the marks a Schafkopf row can carry (no announcements, no overbidding)
SCHAFKOPF_MARKS = (SCHNEIDER, SCHWARZ, LOST)


def legend(game: str, text: Callable[[Msg], str]) -> list[tuple[str, str]]:
    """The legend under a sheet's list: only the marks this game uses, and only those whose
    short form differs from its meaning in the language ``text`` translates to (English
    "lost" needs no "lost")."""
    pairs = [(text(a), text(b)) for a, b in LEGEND
             if game == "skat" or a in SCHAFKOPF_MARKS]  # fmt: skip
    return [(short, long) for short, long in pairs if short != long]


@dataclass(frozen=True)
class RowText:
    contract: Msg
    """The game in a few words: "Grand mit 2", "Sauspiel A+D (Eichel-Sau)", "Ramsch: Anna 62"."""
    marks: tuple[Msg, ...]
    """Why the number is what it is, in short form: Hand, Schn., Kontra, überr., Bock …"""
    value: int | None
    """The value shown in the row ("Wert"), None for Ramsch and passed deals."""

    def line(self) -> Msg:
        """Contract and marks in one line, for the CSV and the PDF."""
        if not self.marks:
            return self.contract
        return Msg("%(contract)s (%(marks)s)", contract=self.contract,
                   marks=joined(", ", self.marks))  # fmt: skip


def describe_row(game: str, row: Mapping[str, Any]) -> RowText:
    """The contract, marks and shown value of one computed sheet row.

    The shown value is the game's value at this table with every doubling that applies to
    both sides alike: Kontra/Re (and Sub, Hirsch, gestellt in Schafkopf) and Bock. That is
    what Schafkopf's value already is; for Skat it is the game value × 2 per Kontra, Re and
    Bock. A lost Skat game counts that value twice, which the list entry shows."""
    inp: Mapping[str, Any] = row.get("input") or {}
    kind = row.get("kind")
    marks: list[Msg] = []
    if kind == "passed" or inp.get("passed"):
        return RowText(Msg("eingepasst"), _tail(row, marks), None)
    ramsch = _ramsch_input(game, inp)
    if kind == "ramsch" or ramsch is not None:
        return RowText(_ramsch_contract(ramsch or {}, row.get("party") or ()),
                       _tail(row, _ramsch_marks(ramsch or {})), None)  # fmt: skip
    result: Mapping[str, Any] = row.get("result") or {}
    if game == "skat":
        contract, marks, value = _skat(inp, result)
    else:
        contract = _as_msg(row.get("title"))
        marks, value = _schafkopf(inp, result)
    if row.get("bock"):
        if game == "skat" and value is not None:
            value *= 2  # Schafkopf's value holds its Bock doubling already
        marks.append(BOCK)
    if row.get("won") is False:
        marks.append(LOST)
    if row.get("struck"):
        marks.append(STRUCK)
    return RowText(contract, tuple(marks), value)


def _tail(row: Mapping[str, Any], marks: list[Msg]) -> tuple[Msg, ...]:
    if row.get("bock"):
        marks.append(BOCK)
    if row.get("struck"):
        marks.append(STRUCK)
    return tuple(marks)


def _as_msg(title: object) -> Msg:
    return verbatim(title if isinstance(title, str) else "?")


def _skat(inp: Mapping[str, Any], result: Mapping[str, Any]) -> tuple[Msg, list[Msg], int | None]:
    try:
        g = Game(inp.get("game"))
    except ValueError:
        return Msg("?"), [], None
    name = GAME_NAMES[g]
    marks: list[Msg] = []
    contract = name
    matadors = result.get("matadors")
    if g is not Game.NULL and isinstance(matadors, int):
        with_ = bool(result.get("with"))
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
        if result.get("schwarz") and not schwarz_ann and not inp.get("ouvert"):
            marks.append(SCHWARZ)
        elif result.get("schneider") and not (schneider_ann or schwarz_ann or inp.get("ouvert")):
            marks.append(SCHNEIDER)
    value = result.get("value")
    shown = value if isinstance(value, int) else None
    if result.get("overbid"):
        marks.append(OVERBID)
    for flag, word in (("kontra", "Kontra"), ("re", "Re")):
        if inp.get(flag):
            marks.append(verbatim(word))
            if shown is not None:
                shown *= 2
    return contract, marks, shown


def _schafkopf(inp: Mapping[str, Any], result: Mapping[str, Any]) -> tuple[list[Msg], int | None]:
    marks: list[Msg] = []
    if inp.get("schwarz"):
        marks.append(SCHWARZ)
    elif inp.get("schneider"):
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
    value = result.get("value")
    return marks, value if isinstance(value, int) else None


def _ramsch_input(game: str, inp: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if game == "skat":
        r = inp.get("ramsch")
        return r if isinstance(r, Mapping) else None
    return inp if inp.get("game") == "ramsch" else None


def _ramsch_contract(ramsch: Mapping[str, Any], losers: Sequence[str]) -> Msg:
    durch = ramsch.get("durchmarsch")
    if isinstance(durch, str) and durch:
        return Msg("Ramsch: Durchmarsch %(durch)s", durch=durch)
    points = ramsch.get("points")
    pts = points if isinstance(points, Mapping) else {}
    if not losers:
        return Msg("Ramsch")
    top = pts.get(losers[0])
    who = ", ".join(losers)
    one = len(losers) == 1
    if isinstance(top, int):
        if one:
            return Msg("Ramsch: %(who)s verliert (%(top)s Augen)", who=who, top=top)
        return Msg("Ramsch: %(who)s verlieren (%(top)s Augen)", who=who, top=top)
    if one:
        return Msg("Ramsch: %(who)s verliert", who=who)
    return Msg("Ramsch: %(who)s verlieren", who=who)


def _ramsch_marks(ramsch: Mapping[str, Any]) -> list[Msg]:
    jungfrau = ramsch.get("jungfrau")
    names = [j for j in jungfrau if isinstance(j, str)] if isinstance(jungfrau, list) else []
    return [Msg("Jungfrau %(j)s", j=j) for j in dict.fromkeys(names)]
