"""Skat (docs/rules.md Part 1): everything the game is, in one package.

* ``contracts.py`` — the one table of its contracts (enum, buttons, statistics, script data);
* ``values.py`` — game values after the ISkO (:func:`skat_value`), the bid table;
* ``inputs.py`` — the JSON-shaped input read into a :class:`SkatDeal`;
* ``sheet.py`` — its :class:`~skatcalc.rules.sheet.GameKind`: house rules, a deal's list entry,
  Bock triggers, Ramsch, Seeger-Fabian; registered as ``"skat"``;
* ``marks.py`` — a row in words; ``tournament.py`` — Seeger-Fabian column by column and the
  official tournament list (the sheet's ``GameKind.tournament_list``);
* ``forms.py`` — its entry, calculator and house-rule forms (Flask, not pure), with
  ``templates/games/skat/``.
"""

from .contracts import CONTRACTS, STATS
from .inputs import read_skat, skat_deal_from_input, skat_outcome_conflict
from .sheet import SKAT, Skat, SkatHouseRules
from .tournament import ListFoot, ListLine, TournamentList, tournament_list
from .values import (
    LEGAL_BIDS,
    Game,
    Party,
    SkatDeal,
    SkatResult,
    games_with_value,
    matadors_from_cards,
    skat_value,
)

#: the Bock triggers Skat offers, as their stored strings (forms list them in this order)
SKAT_BOCK_TRIGGERS: tuple[str, ...] = tuple(t.value for t in SKAT.bock_triggers)

__all__ = [
    "CONTRACTS",
    "LEGAL_BIDS",
    "SKAT",
    "SKAT_BOCK_TRIGGERS",
    "STATS",
    "Game",
    "ListFoot",
    "ListLine",
    "Party",
    "Skat",
    "SkatDeal",
    "SkatHouseRules",
    "SkatResult",
    "TournamentList",
    "games_with_value",
    "matadors_from_cards",
    "read_skat",
    "skat_deal_from_input",
    "skat_outcome_conflict",
    "skat_value",
    "tournament_list",
]
