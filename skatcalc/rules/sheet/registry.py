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
from typing import TYPE_CHECKING, Any, ClassVar

from ..common import Msg
from ..inputs import Reader
from .base import BockTrigger, DealOutcome, HouseRules, Pot, Row, SheetSpec, Tallies

if TYPE_CHECKING:
    from ..marks import Contract


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
    #: the names of the figures :meth:`extra_totals` gives besides the balance
    extra_figures: ClassVar[tuple[str, ...]] = ()
    #: the figures a group's standings may rank by; the first is the default, and what a
    #: club night ranks by
    rank_figures: ClassVar[tuple[str, ...]] = ("balance",)
    #: whether the sheet keeps the classic list (one declarer's entry per deal) and names the
    #: declarer before the contract
    keeps_list: ClassVar[bool] = False
    #: contracts played with a partner (counted per partner in a player's figures)
    partner_contracts: ClassVar[frozenset[str]] = frozenset()
    #: whether a player's games with and against each other player are counted (partners
    #: change from deal to deal)
    counts_opponents: ClassVar[bool] = False
    #: every contract a deal body can name (``"game"``), in the order statistics list them
    contracts: ClassVar[tuple[str, ...]] = ()
    #: the kinds of own games a sheet's statistics count per player, in column order
    stat_kinds: ClassVar[tuple[str, ...]] = ()
    #: a club night's table sizes, largest first
    event_tables: ClassVar[tuple[int, ...]] = (4,)
    #: deals per series at a club night, by table size
    series_deals: ClassVar[Mapping[int, int]] = {}
    #: the short marks of the legend under the list: (short, meaning)
    legend: ClassVar[tuple[tuple[Msg, Msg], ...]] = ()
    #: whether the game's value already holds the Bock doubling (the row shows it as it is)
    value_holds_bock: ClassVar[bool] = False

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

    def evaluate_round(self, spec: SheetSpec, r: Reader, active: tuple[str, ...]) -> DealOutcome:
        """Score a deal of a Bockramsch round (docs/rules.md 1.11), where the game's house
        rules have one; InvalidDeal like :meth:`evaluate`."""
        raise NotImplementedError

    def feed_pot(
        self, rules: HouseRules, out: DealOutcome, active: tuple[str, ...], pot: Pot | None
    ) -> tuple[Mapping[str, int] | None, Pot | None]:
        """A pot kept beside the list (Schafkopf's Stock): what the deal, played under
        ``rules``, changes for each player besides its deltas (paid in negative, taken
        positive), and the pot after it. (None, pot): the deal keeps no pot."""
        return None, pot

    def stat_kind(self, contract: str) -> str | None:
        """Which of :attr:`stat_kinds` an own game of this contract counts for, if any."""
        return None

    def ramsch_body(self, body: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The part of a deal body that describes a Ramsch (None: the deal is no Ramsch)."""
        return None

    def ramsch_deal(self, ramsch: Mapping[str, Any]) -> dict[str, Any]:
        """A deal body of a Ramsch (points, Jungfrau, Durchmarsch): the inverse of
        :meth:`ramsch_body`."""
        raise NotImplementedError

    def contract(self, row: Row) -> Contract:
        """A played game's row in words: the contract, its short marks and the value shown
        (see :func:`skatcalc.rules.marks.describe_row`)."""
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
