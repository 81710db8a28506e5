"""Pure scoring rules for Skat and Schafkopf: no Flask, no database, no I/O."""

from .common import FieldError, InvalidDeal, Msg
from .skat import (
    LEGAL_BIDS,
    Game,
    Party,
    SkatDeal,
    SkatResult,
    games_with_value,
    matadors_from_cards,
    skat_value,
)

__all__ = [
    "LEGAL_BIDS",
    "FieldError",
    "Game",
    "InvalidDeal",
    "Msg",
    "Party",
    "SkatDeal",
    "SkatResult",
    "games_with_value",
    "matadors_from_cards",
    "skat_value",
]
