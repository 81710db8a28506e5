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

from .common import Msg, joined, pmsg
from .sheet.base import Contract as Contract  # a game's row in words (GameKind.contract)
from .sheet.base import GameKind, Row, game

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


def legend(game: str, text: Callable[[Msg], str]) -> list[tuple[str, str]]:
    """The legend under a sheet's list: only the marks this game uses, and only those whose
    short form differs from its meaning in the language ``text`` translates to (English
    "lost" needs no "lost")."""
    pairs = [(text(a), text(b)) for a, b in _kind(game).legend]
    return [(short, long) for short, long in pairs if short != long]


def _kind(key: str) -> GameKind:
    return game(key)


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
    inp: Mapping[str, object] = row.input
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


def _ramsch_contract(ramsch: Mapping[str, object], losers: Sequence[str]) -> Msg:
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


def _ramsch_marks(ramsch: Mapping[str, object]) -> list[Msg]:
    jungfrau = ramsch.get("jungfrau")
    names = [j for j in jungfrau if isinstance(j, str)] if isinstance(jungfrau, list) else []
    out = [Msg("Jungfrau %(j)s", j=j) for j in dict.fromkeys(names)]
    pushes = ramsch.get("pushes")
    if isinstance(pushes, int) and not isinstance(pushes, bool) and pushes > 0:
        out.append(Msg("%(n)s× geschoben", n=pushes))
    return out
