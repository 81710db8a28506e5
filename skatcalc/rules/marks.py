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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import Msg
from .skat import GAME_NAMES, Game

HAND = Msg("Hand", "hand")
OUVERT = Msg("ouvert", "ouvert")
SCHNEIDER = Msg("Schn.", "schn.")
SCHWARZ = Msg("Schw.", "schw.")
SCHNEIDER_ANN = Msg("Schn. ang.", "schn. ann.")
SCHWARZ_ANN = Msg("Schw. ang.", "schw. ann.")
OVERBID = Msg("überr.", "overbid")
BOCK = Msg("Bock", "Bock")
LOST = Msg("verl.", "lost")
STRUCK = Msg("gestrichen", "struck")
KONTRA_WORDS = ("Kontra", "Re", "Sub", "Hirsch")

#: every short mark with its long meaning, for the legend under the list
LEGEND: tuple[tuple[Msg, Msg], ...] = (
    (SCHNEIDER, Msg("Schneider", "schneider")),
    (SCHWARZ, Msg("Schwarz", "schwarz")),
    (SCHNEIDER_ANN, Msg("Schneider angesagt", "schneider announced")),
    (SCHWARZ_ANN, Msg("Schwarz angesagt", "schwarz announced")),
    (OVERBID, Msg("überreizt", "overbid")),
    (LOST, Msg("verloren", "lost")),
)
#: the marks a Schafkopf row can carry (no announcements, no overbidding)
SCHAFKOPF_MARKS = (SCHNEIDER, SCHWARZ, LOST)


def legend(game: str, lang: str = "de") -> list[tuple[str, str]]:
    """The legend under a sheet's list: only the marks this game uses, and only those whose
    short form differs from its meaning in this language (English "lost" needs no "lost")."""
    pairs = [(a.text(lang), b.text(lang)) for a, b in LEGEND
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

    def line(self, lang: str = "de") -> str:
        """Contract and marks in one line, for the CSV and the PDF."""
        marks = ", ".join(m.text(lang) for m in self.marks)
        return f"{self.contract.text(lang)} ({marks})" if marks else self.contract.text(lang)


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
        return RowText(Msg("eingepasst", "passed"), _tail(row, marks), None)
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
    text = title if isinstance(title, str) else "?"
    return Msg(text, text)


def _skat(inp: Mapping[str, Any], result: Mapping[str, Any]) -> tuple[Msg, list[Msg], int | None]:
    try:
        g = Game(inp.get("game"))
    except ValueError:
        return Msg("?", "?"), [], None
    name = GAME_NAMES[g]
    marks: list[Msg] = []
    contract = name
    matadors = result.get("matadors")
    if g is not Game.NULL and isinstance(matadors, int):
        with_ = bool(result.get("with"))
        contract = Msg(
            f"{name.de} {'mit' if with_ else 'ohne'} {matadors}",
            f"{name.en} {'with' if with_ else 'without'} {matadors}",
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
            marks.append(Msg(word, word))
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
        marks.append(Msg(f"{laufende} Laufende", f"{laufende} Laufende"))
    gestellt = inp.get("gestellt")
    if isinstance(gestellt, int) and gestellt > 0:
        times = f"{gestellt}× " if gestellt > 1 else ""
        marks.append(Msg(f"{times}gestellt", f"{times}gestellt"))
    kontra = inp.get("kontra")
    if isinstance(kontra, int) and 0 < kontra <= len(KONTRA_WORDS):
        word = KONTRA_WORDS[kontra - 1]
        marks.append(Msg(word, word))
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
        return Msg(f"Ramsch: Durchmarsch {durch}", f"Ramsch: Durchmarsch {durch}")
    points = ramsch.get("points")
    pts = points if isinstance(points, Mapping) else {}
    if not losers:
        return Msg("Ramsch", "Ramsch")
    top = pts.get(losers[0])
    who = ", ".join(losers)
    verb_de = "verliert" if len(losers) == 1 else "verlieren"
    verb_en = "loses" if len(losers) == 1 else "lose"
    if isinstance(top, int):
        return Msg(
            f"Ramsch: {who} {verb_de} ({top} Augen)", f"Ramsch: {who} {verb_en} ({top} points)"
        )
    return Msg(f"Ramsch: {who} {verb_de}", f"Ramsch: {who} {verb_en}")


def _ramsch_marks(ramsch: Mapping[str, Any]) -> list[Msg]:
    jungfrau = ramsch.get("jungfrau")
    names = [j for j in jungfrau if isinstance(j, str)] if isinstance(jungfrau, list) else []
    return [Msg(f"Jungfrau {j}", f"Jungfrau {j}") for j in dict.fromkeys(names)]
