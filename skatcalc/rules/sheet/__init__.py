"""The typed sheet domain: an evening's sheet of deals and what is computed from it.

* ``base.py`` — the shared types (:class:`SheetSpec`, :class:`DealRecord`, :class:`DealOutcome`,
  :class:`Row`, :class:`ComputedSheet`, :class:`Totals`, :class:`HouseRules`,
  :class:`BockTrigger`) and the seat rotation;
  and the games by key (:class:`GameKind`, :func:`game`, :data:`GAMES`, :func:`register`):
  each game's ``GameKind`` lives in its package (``skatcalc/games/<game>/sheet.py``) and
  registers itself when ``skatcalc.games`` is imported;
* ``spec.py`` — reading a new sheet (:func:`normalize_sheet`);
* ``compute.py`` — :func:`evaluate_deal`, :func:`compute_sheet`, :func:`settle`.

Everything here is language-free (texts are :class:`~skatcalc.rules.common.Msg`); the JSON
the API and the pages read is made in ``skatcalc/serialize.py``.
"""

from .base import (
    BAD_NAME_MSG,
    BOCK_NAMES,
    GAMES,
    MAX_DEALS,
    MAX_NAME,
    BockTrigger,
    ComputedSheet,
    Contract,
    DealKind,
    DealOutcome,
    DealRecord,
    GameKind,
    HouseFlag,
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
    game,
    next_dealer,
    register,
    seat_after,
    seat_name,
    seat_names,
)
from .compute import compute_sheet, continue_sheet, describe_rules, evaluate_deal, settle
from .spec import merge_rules, normalize_rules, normalize_sheet, play_rules, read_rules

__all__ = [
    "BAD_NAME_MSG",
    "BOCK_NAMES",
    "GAMES",
    "MAX_DEALS",
    "MAX_NAME",
    "BockTrigger",
    "ComputedSheet",
    "Contract",
    "DealKind",
    "DealOutcome",
    "DealRecord",
    "GameKind",
    "HouseFlag",
    "HouseRules",
    "Pot",
    "RuleChange",
    "Row",
    "SheetSpec",
    "SheetState",
    "Tallies",
    "Totals",
    "Transfer",
    "bad_name_char",
    "seat_name",
    "seat_names",
    "check_placement",
    "compute_sheet",
    "continue_sheet",
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
    "seat_after",
    "settle",
]
