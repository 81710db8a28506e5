"""The games a sheet can be kept for, by key: what the sheet computation asks of a game.

Each game is a :class:`GameKind` in its own module (``skat.py``, ``schafkopf.py``) that
registers itself when the package is imported; nothing outside that module says
``game == "skat"``. A new game is a new module with a ``GameKind`` subclass and one
``register(...)`` call, imported from ``__init__.py``.

>>> from skatcalc.i18n import translate
>>> [k for k in GAMES], game("skat").players_per_deal, translate(game("schafkopf").label, "en")
(['skat', 'schafkopf'], 3, 'Schafkopf')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..common import Msg
from ..inputs import Reader
from .base import BockTrigger, DealOutcome, HouseRules, SheetSpec, Tallies


class GameKind:
    """What a game brings to a sheet. Subclasses set the class attributes and implement
    :meth:`evaluate` (a deal body that is not "all passed") and, where the game has any,
    :meth:`extra_totals`."""

    key: ClassVar[str]
    label: ClassVar[Msg]
    #: players a table of this game may have
    player_counts: ClassVar[tuple[int, ...]]
    #: the message when a table has another number of players
    player_count_msg: ClassVar[Msg]
    #: players in one deal (more at the table sit out by the rotation)
    players_per_deal: ClassVar[int]
    rules_class: ClassVar[type[HouseRules]]
    #: whether a lost game counts for every other player of the table (Seeger-Fabian)
    counts_lost_by_others: ClassVar[bool] = False

    @property
    def bock_triggers(self) -> tuple[BockTrigger, ...]:
        return self.rules_class.TRIGGERS

    def bock_round(self, players: int) -> int:
        """How many deals one Bock round lasts: one round of the table."""
        return players

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        """Score one deal body (read through ``r``, errors collected in ``r.errors``, raising
        InvalidDeal) with ``bock`` doublings in force."""
        raise NotImplementedError

    def extra_totals(
        self, players: Sequence[str], tallies: Tallies
    ) -> tuple[tuple[str, Mapping[str, int]], ...]:
        """Figures besides the balance, in the order the totals show them."""
        return ()


GAMES: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Make a game known by its key (a second game with the same key is refused)."""
    if kind.key in GAMES:
        raise ValueError(f"game {kind.key!r} is registered already")
    GAMES[kind.key] = kind
    return kind


def game(key: str) -> GameKind:
    """The game of this key; KeyError for one that is not registered."""
    return GAMES[key]
