"""The typed sheet domain: an evening's sheet of deals and what is computed from it.

* ``base.py`` — the shared types (:class:`SheetSpec`, :class:`DealRecord`, :class:`DealOutcome`,
  :class:`Row`, :class:`ComputedSheet`, :class:`Totals`, :class:`HouseRules`,
  :class:`BockTrigger`) and the seat rotation;
* ``registry.py`` — the games by key (:func:`game`, :data:`GAMES`, :func:`register`);
* ``skat.py``, ``schafkopf.py`` — each game's house rules, deal evaluation on a sheet, titles
  and Bock triggers; importing them registers the games;
* ``spec.py`` — reading a new sheet (:func:`normalize_sheet`);
* ``compute.py`` — :func:`evaluate_deal`, :func:`compute_sheet`, :func:`settle`.

Everything here is language-free (texts are :class:`~skatcalc.rules.common.Msg`); the JSON
the API and the pages read is made in ``skatcalc/serialize.py``.
"""

from .base import (
    BAD_NAME_MSG,
    BOCK_NAMES,
    MAX_DEALS,
    MAX_NAME,
    BockTrigger,
    ComputedSheet,
    DealKind,
    DealOutcome,
    DealRecord,
    HouseRules,
    Pot,
    Row,
    RuleChange,
    SheetSpec,
    SheetState,
    Tallies,
    Totals,
    Transfer,
    bad_name_char,
    check_placement,
    dealer_after,
    default_active,
    forehand,
    next_dealer,
    seat_after,
    seat_name,
    seat_names,
)
from .registry import GAMES, GameKind, game, register

# isort: off
# The games register themselves on import, in this order (the order forms and messages list
# them in): Skat, then Schafkopf.
from .skat import SKAT, ListFoot, Skat, SkatHouseRules, skat_title
from .schafkopf import SCHAFKOPF, Schafkopf, SchafkopfHouseRules, schafkopf_title
# isort: on

from .compute import compute_sheet, describe_rules, evaluate_deal, settle
from .spec import merge_rules, normalize_rules, normalize_sheet, play_rules, read_rules
from .tournament import ListLine, TournamentList, tournament_list

#: the Bock triggers each game offers, as their stored strings (forms list them in this order)
SKAT_BOCK_TRIGGERS: tuple[str, ...] = tuple(t.value for t in SKAT.bock_triggers)
SCHAFKOPF_BOCK_TRIGGERS: tuple[str, ...] = tuple(t.value for t in SCHAFKOPF.bock_triggers)

__all__ = [
    "BAD_NAME_MSG",
    "BOCK_NAMES",
    "GAMES",
    "MAX_DEALS",
    "MAX_NAME",
    "SCHAFKOPF",
    "SCHAFKOPF_BOCK_TRIGGERS",
    "SKAT",
    "SKAT_BOCK_TRIGGERS",
    "BockTrigger",
    "ComputedSheet",
    "DealKind",
    "DealOutcome",
    "DealRecord",
    "GameKind",
    "HouseRules",
    "Pot",
    "RuleChange",
    "ListFoot",
    "ListLine",
    "Row",
    "Schafkopf",
    "SchafkopfHouseRules",
    "SheetSpec",
    "SheetState",
    "Skat",
    "SkatHouseRules",
    "Tallies",
    "TournamentList",
    "Totals",
    "Transfer",
    "bad_name_char",
    "seat_name",
    "seat_names",
    "check_placement",
    "compute_sheet",
    "dealer_after",
    "default_active",
    "describe_rules",
    "evaluate_deal",
    "forehand",
    "game",
    "next_dealer",
    "merge_rules",
    "normalize_rules",
    "play_rules",
    "normalize_sheet",
    "read_rules",
    "register",
    "schafkopf_title",
    "seat_after",
    "settle",
    "skat_title",
    "tournament_list",
]
