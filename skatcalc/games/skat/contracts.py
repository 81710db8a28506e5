"""Skat's contracts, one row each (docs/rules.md 1.1): the one table the enum, the entry
form's buttons, the statistics columns, the players' page and the entry script read.

Rows in the order statistics list them; ``place`` orders the entry form's buttons.

>>> [row.key for row in CONTRACTS]
['grand', 'clubs', 'spades', 'hearts', 'diamonds', 'null']
"""

from __future__ import annotations

from ...rules.common import Msg, verbatim
from ...rules.contracts import ContractRow, StatColumn, by_key

# the suit games and Grand: their Spitzen above the first few and the suit-game controls
_SUIT = (".suitonly", ".more-spitzen")

CONTRACTS: tuple[ContractRow, ...] = (
    ContractRow("grand", Msg("Grand"), button=verbatim("Grand"), place=5, base=24,
                stat="grands", shows=(".suitonly",)),
    ContractRow("clubs", Msg("Kreuz"), button=Msg("♣ Kreuz"), place=1, base=12, suit="C",
                shows=_SUIT),
    ContractRow("spades", Msg("Pik"), button=Msg("♠ Pik"), place=2, base=11, suit="S",
                shows=_SUIT),
    ContractRow("hearts", Msg("Herz"), button=Msg("♥ Herz"), red=True, place=3, base=10, suit="H",
                shows=_SUIT),
    ContractRow("diamonds", Msg("Karo"), button=Msg("♦ Karo"), red=True, place=4, base=9, suit="D",
                shows=_SUIT),
    ContractRow("null", Msg("Null"), button=verbatim("Null"), place=6, stat="nulls",
                shows=(".nullonly", ".more-spitzen")),
)  # fmt: skip
BY_KEY = by_key(CONTRACTS)

#: the controls shown while no game is chosen yet
NONE_SHOWS = _SUIT

#: the statistics columns: own Grands and Nulls per player
STATS: tuple[StatColumn, ...] = (
    StatColumn("grands", verbatim("Grand")),
    StatColumn("nulls", verbatim("Null")),
)
