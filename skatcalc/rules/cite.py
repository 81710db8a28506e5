"""The rules a value's explanation rests on (docs/rules.md Part 4, "Which rule each step
cites"): every line of an explanation is a :class:`Step`, its text and the rule it follows.

A rule is cited as the user's rule book (docs/rules.md) cites it: the ISkO paragraph for Skat
("ISkO 5.4", the same in every language), the rule book's own section where the ISkO is silent
or for Schafkopf ("1.5 Verlorene Spiele"), and a house rule by the name the sheet gives it
("Hausregel: Bock"). Citations are texts like any other: translated at the edges.

>>> from skatcalc.text import translate
>>> translate(ISKO_OVERBID, "en"), translate(house(BOCK), "en"), translate(LOST, "en")
('ISkO 5.4', 'House rule: Bock', '1.5 Lost games')
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import Msg, verbatim


@dataclass(frozen=True)
class Step:
    """One line of an explanation and the rule it rests on."""

    text: Msg
    rule: Msg


def isko(paragraph: str) -> Msg:
    """An ISkO paragraph: a number, read alike in every language."""
    return verbatim(f"ISkO {paragraph}")


def house(name: Msg) -> Msg:
    """A house rule, by the name the sheet shows it under."""
    return Msg("Hausregel: %(name)s", name=name)


# --- Skat (docs/rules.md Part 1) ---------------------------------------------------------
ISKO_MATADORS = isko("2.4")
ISKO_BASE = isko("5.1")
ISKO_LEVELS = isko("5.2")
ISKO_WINNING = isko("5.2.2–5.2.4")
ISKO_NULL = isko("5.2.7")
ISKO_OVERBID = isko("5.4")
ISKO_PASSED = isko("3.2.16")
LOST = Msg("1.5 Verlorene Spiele")
KONTRA_RE = Msg("1.10 Kontra/Re")

# --- Schafkopf (docs/rules.md Part 2; no ISkO) ----------------------------------------------
SK_WINNING = Msg("2.2 Gewinnen, Schneider, Schwarz")
SK_LAUFENDE = Msg("2.3 Laufende")
SK_VALUE = Msg("2.4 Wert und Zahlung")
SK_RAMSCH = Msg("2.5 Ramsch (Schafkopf)")

# --- house rules, named as on the sheet ------------------------------------------------------
BOCK = verbatim("Bock")
RAMSCH = verbatim("Ramsch")
SCHIEBERAMSCH = verbatim("Schieberamsch")
BOCKRAMSCH = verbatim("Bockramsch")
