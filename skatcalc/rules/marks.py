"""What a sheet row says about its deal: the contract, short marks and the value shown.

One place for the sheet page, the CSV and the PDF, so the three never disagree about why a
row's number is what it is. Works on a typed :class:`~skatcalc.rules.sheet.Row` of
:func:`~skatcalc.rules.sheet.compute_sheet` (its ``input``, ``result``, ``bock``, ``won``,
``party``), so struck rows read the same as counted ones. What is particular to a game (its
contracts' words, where a Ramsch is in the deal body, its legend) its
:class:`~skatcalc.rules.sheet.GameKind` says.

>>> from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet
>>> spec = SheetSpec("skat", ("Anna", "Bernd", "Clara"), "Clara", {"kontra_re": True})
>>> body = {"game": "grand", "matadors": 2, "with": True, "hand": True, "won": True,
...         "schneider": True, "kontra": True, "declarer": "Anna"}
>>> row = compute_sheet(spec, [DealRecord(1, "Clara", ("Anna", "Bernd", "Clara"), body)]).rows[0]
>>> d = describe_row("skat", row)
>>> d.contract.de, [m.de for m in d.marks], d.value
('Grand mit 2', ['Hand', 'Schn.', 'Kontra'], 240)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from .common import Msg, joined, pmsg, verbatim
from .schafkopf import SchafkopfResult
from .skat import GAME_NAMES, Game, SkatResult

if TYPE_CHECKING:
    from .sheet import GameKind, Row

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
BOCKRAMSCH = Msg("Bockramsch")
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
    pairs = [(text(a), text(b)) for a, b in _kind(game).legend]
    return [(short, long) for short, long in pairs if short != long]


#: a played game's row in words: the contract, its marks, the value shown
Contract: TypeAlias = "tuple[Msg, list[Msg], int | None]"


def _kind(game: str) -> GameKind:
    # imported here: the games' modules import this one for their marks
    from .sheet import game as kind

    return kind(game)


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


def describe_row(game: str, row: Row) -> RowText:
    """The contract, marks and shown value of one computed sheet row.

    The shown value is the game's value at this table with every doubling that applies to
    both sides alike: Kontra/Re (and Sub, Hirsch, gestellt in Schafkopf) and Bock. That is
    what Schafkopf's value already is; for Skat it is the game value × 2 per Kontra, Re and
    Bock. A lost Skat game counts that value twice, which the list entry shows."""
    inp: Mapping[str, Any] = row.input
    kind = row.kind
    marks: list[Msg] = []
    if kind == "passed" or inp.get("passed"):
        return RowText(Msg("eingepasst"), _tail(row, marks), None)
    ramsch = _kind(game).ramsch_body(inp)
    if kind == "ramsch" or ramsch is not None:
        return RowText(_ramsch_contract(ramsch or {}, row.party),
                       _tail(row, _ramsch_marks(ramsch or {})), None)  # fmt: skip
    contract, marks, value = _kind(game).contract(row)
    if row.ramsch_round:
        marks.append(BOCKRAMSCH)  # a Grand Hand in a Bockramsch round
    if row.bock:
        if not _kind(game).value_holds_bock and value is not None:
            value *= 2  # Schafkopf's value holds its Bock doubling already
        marks.append(BOCK)
    if row.won is False:
        marks.append(LOST)
    if row.bierlachs:
        marks.append(bierlachs_mark(row))
    if row.struck:
        marks.append(STRUCK)
    return RowText(contract, tuple(marks), value)


def bierlachs_mark(row: Row) -> Msg:
    """Who became Bierlachs with this deal (docs/rules.md 1.11)."""
    return Msg("Bierlachs: %(who)s", who=", ".join(row.bierlachs))


def _tail(row: Row, marks: list[Msg]) -> tuple[Msg, ...]:
    if row.ramsch_round:
        marks.append(BOCKRAMSCH)
    if row.bierlachs:
        marks.append(bierlachs_mark(row))
    if row.bock:
        marks.append(BOCK)
    if row.struck:
        marks.append(STRUCK)
    return tuple(marks)


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


def schafkopf_contract(row: Row) -> Contract:
    """A Schafkopf game's row: its title, its marks, and its value (Bock in it)."""
    inp = row.input
    result = row.result if isinstance(row.result, SchafkopfResult) else None
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
    return row.title, marks, result.value if result else None


def _ramsch_contract(ramsch: Mapping[str, Any], losers: Sequence[str]) -> Msg:
    durch = ramsch.get("durchmarsch")
    if isinstance(durch, str) and durch:
        return Msg("Ramsch: Durchmarsch %(durch)s", durch=durch)
    points = ramsch.get("points")
    pts = points if isinstance(points, Mapping) else {}
    if not losers:
        return Msg("Ramsch")
    top = pts.get(losers[0])
    if any(pts.get(p) != top for p in losers):
        top = None  # "each" books his own points: no one figure for all losers
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
    out = [Msg("Jungfrau %(j)s", j=j) for j in dict.fromkeys(names)]
    pushes = ramsch.get("pushes")
    if isinstance(pushes, int) and not isinstance(pushes, bool) and pushes > 0:
        out.append(Msg("%(n)s× geschoben", n=pushes))
    return out
