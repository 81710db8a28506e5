"""Schafkopf (docs/rules.md Part 2): everything the game is, in one package.

* ``contracts.py`` — the one table of its games (enum, tariff classes, Laufende, buttons,
  statistics, script data);
* ``values.py`` — tariffs and payments (:func:`schafkopf_value`, :func:`schafkopf_ramsch`);
* ``inputs.py`` — the JSON-shaped input read into a :class:`SchafkopfDeal`;
* ``sheet.py`` — its :class:`~skatcalc.rules.sheet.GameKind`: house rules, the Stock, Bock
  triggers at a table of four or five; registered as ``"schafkopf"``;
* ``marks.py`` — a row in words;
* ``forms.py`` — its entry, calculator and house-rule forms (Flask, not pure), with
  ``templates/games/schafkopf/``.
"""

from .contracts import CONTRACTS, STATS
from .inputs import read_schafkopf, schafkopf_deal_from_input
from .sheet import SCHAFKOPF, Schafkopf, SchafkopfHouseRules, schafkopf_title
from .values import SchafkopfDeal, SchafkopfResult, SKGame, schafkopf_ramsch, schafkopf_value

#: the Bock triggers Schafkopf offers, as their stored strings (forms list them in this order)
SCHAFKOPF_BOCK_TRIGGERS: tuple[str, ...] = tuple(t.value for t in SCHAFKOPF.bock_triggers)

__all__ = [
    "CONTRACTS",
    "SCHAFKOPF",
    "SCHAFKOPF_BOCK_TRIGGERS",
    "STATS",
    "SKGame",
    "Schafkopf",
    "SchafkopfDeal",
    "SchafkopfHouseRules",
    "SchafkopfResult",
    "read_schafkopf",
    "schafkopf_deal_from_input",
    "schafkopf_ramsch",
    "schafkopf_title",
    "schafkopf_value",
]
