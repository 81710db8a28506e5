"""The types every sheet shares, whatever its game, and the seat rotation (docs/rules.md 1.8).

A sheet is a :class:`SheetSpec` (game, players, first dealer, typed house rules) and its stored
:class:`DealRecord` s. Scoring one deal gives a :class:`DealOutcome`; the whole pass gives a
:class:`ComputedSheet` of :class:`Row` s and :class:`Totals`. Every text in them is a
:class:`~skatcalc.rules.common.Msg`: the language is chosen when the sheet is shown
(``skatcalc/serialize.py``), not when it is computed, so one computation serves both.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol, Self, TypeAlias

from skatcalc.jsontypes import JSONObject

from ..cite import Step
from ..common import Errors, FieldError, InvalidDeal, Msg, joined, name_key
from ..contracts import ContractRow, StatColumn
from ..inputs import Reader

MAX_DEALS = 1000
MAX_NAME = 40
BAD_NAME_MSG = Msg("Namen ohne Steuerzeichen, bitte.")

#: The JSON-shaped deal body as stored and as the API takes it (docs/api.md).
Body: TypeAlias = Mapping[str, object]


def bad_name_char(name: str) -> bool:
    """A control character (C0 but tab and line breaks, DEL, C1) or a Unicode noncharacter:
    nothing a player is called, and not allowed in XML (the PDF's chart would break on it).

    >>> bad_name_char("Anna"), bad_name_char("An\\x07na")
    (False, True)
    """
    for ch in name:
        c = ord(ch)
        if (
            (c < 0x20 and ch not in "\t\n\r")
            or 0x7F <= c <= 0x9F
            or 0xFDD0 <= c <= 0xFDEF
            or (c & 0xFFFE) == 0xFFFE
        ):
            return True
    return False


def seat_name(players: Sequence[str], name: str) -> str:
    """The seat ``name`` means, matched by :func:`~skatcalc.rules.common.name_key` (case,
    spacing and Unicode form aside); the name as given when no seat, or more than one seat
    of an old sheet, matches.

    >>> seat_name(("Anna", "Dieter", "Eva"), " dieter "), seat_name(("Anna",), "Bernd")
    ('Dieter', 'Bernd')
    """
    key = name_key(name)
    found = [p for p in players if name_key(p) == key]
    return found[0] if len(found) == 1 else name


#: The fields of a deal body that name players: one name, a list of names, names as keys.
_NAME_FIELDS = frozenset({"dealer", "declarer", "durchmarsch"})
_NAME_LISTS = frozenset({"active", "declarers", "jungfrau"})
_NAME_MAPS = frozenset({"points"})


def seat_names(players: Sequence[str], body: object) -> object:
    """A deal body with every player it names spelled as the sheet's seat (:func:`seat_name`):
    dealer, players, declarer(s), Ramsch points, Jungfrau and Durchmarsch. Stored so.

    >>> seat_names(("Anna", "Dieter", "Eva"),
    ...            {"declarer": "dieter ", "ramsch": {"points": {"anna": 10}, "jungfrau": []}})
    {'declarer': 'Dieter', 'ramsch': {'points': {'Anna': 10}, 'jungfrau': []}}
    """
    if not isinstance(body, Mapping):
        return body

    def one(v: object) -> object:
        return seat_name(players, v) if isinstance(v, str) else v

    out: dict[Any, Any] = {}
    for k, v in body.items():
        if k in _NAME_FIELDS:
            out[k] = one(v)
        elif k in _NAME_LISTS and isinstance(v, list):
            out[k] = [one(x) for x in v]
        elif k in _NAME_MAPS and isinstance(v, Mapping):
            keys = [one(x) for x in v]
            # two keys for one seat stay as typed, so the refusal names what was sent
            out[k] = dict(zip(keys, v.values(), strict=True)) if len(set(keys)) == len(v) else v
        elif k == "ramsch" and isinstance(v, Mapping):
            out[k] = seat_names(players, v)
        else:
            out[k] = v
    return out


class BockTrigger(enum.StrEnum):
    """What starts a Bock round (docs/rules.md 1.10, 2.6); the values are the stored and API
    strings, so a trigger compares equal to its string.

    >>> from skatcalc.text import translate
    >>> BockTrigger("60-60") == "60-60", translate(BockTrigger.VALUE_100.label, "en")
    (True, 'a game value of 100 or more')
    """

    SIXTY_SIXTY = "60-60"
    GRAND_HAND_WON = "grand-hand-won"
    KONTRA_LOST = "kontra-lost"
    VALUE_100 = "value-100"
    # house rules of real tables (docs/rules.md 1.11)
    SCHNEIDER_LOST = "schneider-lost"
    GRAND_HAND_LOST = "grand-hand-lost"
    RE = "re"

    @property
    def label(self) -> Msg:
        return BOCK_NAMES[self]


BOCK_NAMES: dict[str, Msg] = {
    BockTrigger.SIXTY_SIXTY: Msg("verlorenes Spiel mit 60:60"),
    BockTrigger.GRAND_HAND_WON: Msg("gewonnener Grand Hand"),
    BockTrigger.KONTRA_LOST: Msg("verlorenes Spiel mit Kontra/Re"),
    BockTrigger.VALUE_100: Msg("Spielwert 100 oder mehr"),
    BockTrigger.SCHNEIDER_LOST: Msg("verlorenes Spiel, Alleinspieler Schneider"),
    BockTrigger.GRAND_HAND_LOST: Msg("verlorener Grand Hand"),
    BockTrigger.RE: Msg("Re gesagt"),
}


class DealKind(enum.StrEnum):
    GAME = "game"
    PASSED = "passed"
    RAMSCH = "ramsch"


# --- House rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HouseFlag:
    """A house rule that is on or off, declared in one row of its game's rules class
    (``FLAGS``): read from and written to the rules' JSON under ``key`` (stored only when on),
    named by ``words`` in the sheet's heading and beside its checkbox. The value functions
    ask the sheet's rules for it (:meth:`HouseRules.has`)."""

    key: str
    words: Msg


@dataclass(frozen=True)
class HouseRules:
    """The rules every game's table agrees on; each game's rules class adds its own fields.

    ``from_json`` checks a JSON object field by field (every error at once, under
    ``rules.<field>``), ``to_json`` gives the dict that is stored and shown by the API, and
    ``describe`` the rules in words for the sheet's heading and the printout."""

    ramsch: bool = False
    bock: tuple[BockTrigger, ...] = ()
    stake_cents: int = 0
    #: the keys of the ``FLAGS`` that are on (by keyword: a game's own fields follow the stake)
    flags: frozenset[str] = field(default=frozenset(), kw_only=True)

    #: the Bock triggers this game knows, in the order they are offered
    TRIGGERS: ClassVar[tuple[BockTrigger, ...]] = ()
    #: the game's on/off house rules declared as data (one row each, one place per rule)
    FLAGS: ClassVar[tuple[HouseFlag, ...]] = ()
    #: the stake when none is given
    DEFAULT_STAKE: ClassVar[int] = 0

    @property
    def written(self) -> bool:
        """Only the winners write points and nothing changes hands (a Schafkopf tournament
        "nur Gute", docs/rules.md 2.8): each deal's list is what the players write, the
        sheet's totals carry ``written`` and a club night ranks by it."""
        return False

    @classmethod
    def from_json(cls, data: object, e: Errors) -> Self:
        """The rules in ``data`` (None: all defaults); problems are added to ``e`` as
        ``rules.<field>``, and the rules returned then hold defaults in their place."""
        r = Reader({} if data is None else data, Errors())
        ramsch = r.boolean("ramsch")
        bock = r.str_list("bock")
        triggers = cls.TRIGGERS
        if bock is not None and any(b not in triggers for b in bock):
            names = ", ".join(triggers)
            r.errors.add("bock", "Bock-Auslöser: %(names)s.", names=names)
            bock = None
        stake = r.integer("stake_cents", cls.DEFAULT_STAKE)
        if stake is not None and not 0 <= stake <= 100_000:
            r.errors.add("stake_cents", "Einsatz: 0 bis 100000 Cent.")
        rules = cls._read(
            r,
            ramsch=bool(ramsch),
            bock=tuple(BockTrigger(b) for b in bock or ()),
            stake_cents=stake or 0,
        )
        on = frozenset(flag.key for flag in cls.FLAGS if r.boolean(flag.key))
        if on:
            rules = replace(rules, flags=on)
        r.reject_unknown()
        for err in r.errors.items:
            e.items.append(
                FieldError(f"rules.{err.field}" if err.field != "_" else "rules", err.msg)
            )
        return rules

    @classmethod
    def from_stored(cls, data: Mapping[str, object]) -> Self:
        """Rules as a sheet stored them (complete, from ``to_json``), or a partial mapping,
        read as a sheet always read them: what is missing is the default, the stake 0."""
        return cls.from_json({"stake_cents": 0, **data}, Errors())

    @classmethod
    def _read(cls, r: Reader, *, ramsch: bool, bock: tuple[BockTrigger, ...],
              stake_cents: int) -> Self:  # fmt: skip
        """The game's own fields, read from ``r`` after the common ones."""
        return cls(ramsch=ramsch, bock=bock, stake_cents=stake_cents)

    def _own_json(self) -> JSONObject:
        return {}

    def has(self, key: str) -> bool:
        """Whether the on/off house rule ``key`` (one of ``FLAGS``) is on."""
        return key in self.flags

    def to_json(self) -> JSONObject:
        """The stored and API form: the game's own fields first (its flags only when on, so
        a sheet without them reads as before they existed), then the common ones."""
        return {
            **self._own_json(),
            **{flag.key: True for flag in self.FLAGS if flag.key in self.flags},
            "ramsch": self.ramsch,
            "bock": [b.value for b in self.bock],
            "stake_cents": self.stake_cents,
        }

    def _own_describe(self) -> list[Msg]:
        return []

    def describe(self) -> list[Msg]:
        """The house rules in force, for the sheet's heading and the printout."""
        out = self._own_describe()
        out.extend(flag.words for flag in self.FLAGS if flag.key in self.flags)
        if self.bock:
            out.append(Msg("Bock nach: %(triggers)s",
                           triggers=joined(", ", [b.label for b in self.bock])))  # fmt: skip
        else:
            out.append(Msg("keine Bockrunden"))
        stake = self.stake_cents
        out.append(Msg("Einsatz: %(stake)s Cent je Punkt", stake=stake))
        return out


# --- A sheet and its deals --------------------------------------------------------------------


@dataclass(frozen=True)
class RuleChange:
    """A change of the house rules during the evening (docs/rules.md 1.11): ``rules`` are in
    force from deal ``from_n`` on, ``before`` were in force for the deals before it (since
    the previous change). The stake is the exception: the current one settles the evening."""

    from_n: int
    before: HouseRules
    rules: HouseRules


@dataclass(frozen=True, init=False)
class SheetSpec:
    """What a sheet is played by: its game (a registry key), players in seat order, the
    first dealer and the house rules (those in force now), with the changes of the rules
    during the evening in ``changes``, oldest first.

    The rules may be given as a mapping (as stored, or partial); they are read by the
    game's rules class.

    >>> spec = SheetSpec("skat", ("A", "B", "C"), "A", {"kontra_re": True})
    >>> spec.rules.kontra_re, spec.rules.to_json()
    (True, {'kontra_re': True, 'ramsch': False, 'bock': [], 'stake_cents': 0})
    """

    game: str
    players: tuple[str, ...]
    first_dealer: str
    rules: HouseRules
    changes: tuple[RuleChange, ...]

    def __init__(
        self,
        game: str,
        players: tuple[str, ...],
        first_dealer: str,
        rules: HouseRules | Mapping[str, object] | None = None,
        changes: Sequence[RuleChange] = (),
    ) -> None:
        if not isinstance(rules, HouseRules):
            rules = GAMES[game].rules_class.from_stored(rules or {})
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "players", tuple(players))
        object.__setattr__(self, "first_dealer", first_dealer)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "changes", tuple(sorted(changes, key=lambda c: c.from_n)))

    def rules_for(self, n: int) -> HouseRules:
        """The rules deal ``n`` is played under: a change applies from its deal on.

        >>> a, b = SheetSpec("skat", ("A", "B", "C"), "A"), SheetSpec("skat", ("A", "B", "C"), "A",
        ...                                                          {"kontra_re": True})
        >>> spec = SheetSpec("skat", ("A", "B", "C"), "A", b.rules, [RuleChange(3, a.rules, b.rules)])
        >>> spec.rules_for(2).kontra_re, spec.rules_for(3).kontra_re
        (False, True)
        """
        for c in self.changes:
            if n < c.from_n:
                return c.before
        return self.rules

    def at(self, n: int) -> SheetSpec:
        """This sheet as deal ``n`` is played: its rules those of :meth:`rules_for`."""
        rules = self.rules_for(n)
        if rules is self.rules:
            return self
        return SheetSpec(self.game, self.players, self.first_dealer, rules)


@dataclass(frozen=True)
class DealRecord:
    """A deal as stored: its number, who dealt, who played (from forehand on), the body as
    entered, and whether it was struck. ``version`` counts its corrections (None: not known)."""

    n: int
    dealer: str
    active: tuple[str, ...]
    input: Body
    struck: bool = False
    version: int | None = None


class Result(Protocol):
    """What every game's result of one deal has (each game's own result type has more)."""

    @property
    def value(self) -> int: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...

    def json_fields(self) -> dict[str, object]:
        """The result's figures as the API shows them (docs/api.md), in their order; the
        explanation's texts are put after them in the language asked for (``serialize``)."""
        ...


class PointFigure(Protocol):
    """What a page reads of one figure of the game's scale (``GameKind.point_figures``):
    its field, where it stands in the scale's JSON, its range, its words and its group."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> tuple[str, ...]: ...
    @property
    def low(self) -> int: ...
    @property
    def high(self) -> int: ...
    @property
    def label(self) -> Msg: ...
    @property
    def group(self) -> Msg: ...
    @property
    def games(self) -> tuple[str, ...]: ...
    @property
    def zero_is_none(self) -> bool: ...


# What a page and the PDF read of a game's official tournament list
# (:meth:`GameKind.tournament_list`; Skat's: ``games/skat/tournament.py``).


class ListFootView(Protocol):
    """One player's foot of the list: the columns a table checks, ``total`` the ranking's."""

    @property
    def list_points(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def won_points(self) -> int: ...
    @property
    def lost_points(self) -> int: ...
    @property
    def others_lost(self) -> int: ...
    @property
    def others_points(self) -> int: ...
    @property
    def total(self) -> int: ...


class ListLineView(Protocol):
    """One deal on the list: what it writes in each column and the running list points."""

    @property
    def n(self) -> int: ...
    @property
    def dealer(self) -> str: ...
    @property
    def declarer(self) -> str | None: ...
    @property
    def won(self) -> bool | None: ...
    @property
    def counts(self) -> bool: ...
    @property
    def passed(self) -> bool: ...
    @property
    def entries(self) -> Mapping[str, int]: ...
    @property
    def running(self) -> Mapping[str, int]: ...


class TournamentListView(Protocol):
    """The whole list: players in seat order, the points per game the others lost, the
    lines and each player's foot."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def others_bonus(self) -> int: ...
    @property
    def lines(self) -> Sequence[ListLineView]: ...
    @property
    def foot(self) -> Mapping[str, ListFootView]: ...


@dataclass(frozen=True)
class DealOutcome:
    """One deal scored on its sheet: the list entries (the paper list) and the zero-sum
    deltas, the title and explanation as messages, and the Bock triggers it met."""

    kind: DealKind
    declarer: str | None
    party: tuple[str, ...]
    result: Result | None
    list: Mapping[str, int]
    deltas: Mapping[str, int]
    won: bool | None
    value: int
    title: Msg
    steps: tuple[Step, ...]
    triggers: tuple[BockTrigger, ...]

    @property
    def party_won(self) -> bool | None:
        """Won (True) or lost (False) for every player of the party: a game's result. None
        for a deal that is no one's game (Ramsch, passed): it counts as neither. The one count
        of games won and lost (the sheet's totals, its statistics, the standings) reads it."""
        return self.won if self.kind is DealKind.GAME else None


UNREADABLE = Msg("?")


@dataclass(frozen=True)
class Row:
    """One computed row of the sheet.

    ``outcome`` is None when the stored deal no longer evaluates (then ``error`` says why,
    unless the deal is struck anyway). A struck row shows its deal but counts nothing: its
    entries are zero, and it met no Bock trigger (``bock_trigger`` is None)."""

    n: int
    dealer: str
    active: tuple[str, ...]
    input: Body
    struck: bool
    bock: bool
    outcome: DealOutcome | None
    list: Mapping[str, int]
    deltas: Mapping[str, int]
    totals: Mapping[str, int]
    bock_trigger: tuple[BockTrigger, ...] | None = None
    error: InvalidDeal | None = None
    version: int | None = None
    #: the deal belongs to a Bockramsch round (docs/rules.md 1.11)
    ramsch_round: bool = False
    #: who became Bierlachs with this deal (docs/rules.md 1.11): the round ended here
    bierlachs: tuple[str, ...] = ()
    #: cents the deal put into the Stock (negative: took from it); None where no Stock is kept
    stock: int | None = None
    #: the sheet writes only the winners' points ("nur Gute", docs/rules.md 2.8): ``list`` is
    #: what each player wrote with this deal
    written: bool = False
    #: on such a sheet: what each player has written up to and with this deal
    written_totals: Mapping[str, int] | None = None

    @property
    def title(self) -> Msg:
        return self.outcome.title if self.outcome else UNREADABLE

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.outcome.steps if self.outcome else ()

    @property
    def kind(self) -> DealKind:
        return self.outcome.kind if self.outcome else DealKind.GAME

    @property
    def declarer(self) -> str | None:
        return self.outcome.declarer if self.outcome else None

    @property
    def party(self) -> tuple[str, ...]:
        return self.outcome.party if self.outcome else ()

    @property
    def won(self) -> bool | None:
        return self.outcome.won if self.outcome else None

    @property
    def value(self) -> int:
        return self.outcome.value if self.outcome else 0

    @property
    def result(self) -> Result | None:
        """The game's result where it counts (not on struck rows)."""
        return None if self.struck or self.outcome is None else self.outcome.result

    @property
    def counts(self) -> bool:
        return not self.struck and self.error is None

    def own_result(self, player: str) -> bool | None:
        """``player``'s own game on this row, won (True) or lost (False); None when the row
        is not a game of ``player``'s party or counts nothing (:attr:`DealOutcome.party_won`)."""
        if not self.counts or self.outcome is None or player not in self.outcome.party:
            return None
        return self.outcome.party_won


@dataclass(frozen=True)
class Transfer:
    """One payment of the settlement."""

    frm: str
    to: str
    cents: int


@dataclass(frozen=True)
class Totals:
    """The final figures: the zero-sum balance, the game's extra figures in order (Skat: the
    list and Seeger-Fabian), games won and lost, and who pays whom."""

    balance: Mapping[str, int]
    extra: tuple[tuple[str, Mapping[str, int]], ...]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    settlement: tuple[Transfer, ...]
    #: each player's net cents (the settlement's sums); None: balance × stake
    cents: Mapping[str, int] | None = None
    #: the Bierlachs match play alongside the list (docs/rules.md 1.11), where played
    bierlachs: Bierlachs | None = None
    #: the Stock as it stands and what of it goes back to each player (None: no Stock kept)
    stock: int | None = None
    stock_back: Mapping[str, int] | None = None

    def get(self, name: str) -> Mapping[str, int] | None:
        """An extra figure by name ("list", "seeger_fabian"), None where the game has none."""
        return dict(self.extra).get(name)


@dataclass(frozen=True)
class Bierlachs:
    """Where the Bierlachs match play stands (docs/rules.md 1.11): the round (from 1), each
    player's minus points in it (positive numbers) and the Bierlachse each lost so far."""

    round: int
    minus: Mapping[str, int]
    lost: Mapping[str, int]


@dataclass(frozen=True)
class Tallies:
    """The running counts a pass keeps besides the balance, read by a game's extra totals."""

    list: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    lost_by_others: Mapping[str, int]


@dataclass(frozen=True)
class SheetState:
    """Where a pass over the deals stands after ``count`` of them; lets a sheet that only
    grew by appended deals go on from there instead of starting over."""

    count: int
    rows: tuple[Row, ...]
    balance: Mapping[str, int]
    list_tot: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    lost_by_others: Mapping[str, int]
    bock_queue: int
    #: Bockramsch deals still to come (docs/rules.md 1.11)
    ramsch_queue: int = 0
    bierlachs: Bierlachs | None = None
    pot: Pot | None = None


@dataclass(frozen=True)
class Pot:
    """A Stock (docs/rules.md 2.7): the cents in it and what each player paid into it since
    it was last taken (what goes back when the evening ends with a Stock)."""

    cents: int = 0
    paid: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ComputedSheet:
    """Every row, the totals, the Bock deals still to come and who deals next; ``state``
    lets an append-only change resume (see :func:`compute_sheet`)."""

    rows: tuple[Row, ...]
    totals: Totals
    bock_pending: int
    next_dealer: str
    state: SheetState = field(repr=False)
    #: Bockramsch deals still to come, and whether the next deal is one of them
    ramsch_pending: int = 0
    next_ramsch_round: bool = False
    #: the sheet plays Bockramsch (its JSON then says how many of its deals are to come)
    bockramsch: bool = False


# --- Rotation (docs/rules.md 1.8) -------------------------------------------------------------


def seat_after(players: Sequence[str], name: str, step: int = 1) -> str:
    """
    >>> seat_after(("A", "B", "C"), "C"), seat_after(("A", "B", "C"), "A", -1)
    ('A', 'C')
    """
    return players[(players.index(name) + step) % len(players)]


def default_active(spec: SheetSpec, dealer: str) -> tuple[str, ...]:
    """Who plays when ``dealer`` deals: when the table has more players than a deal needs,
    the dealer sits out, at Skat at 5 also the one two seats to his right; listed from
    forehand on.

    >>> default_active(SheetSpec("skat", ("A", "B", "C", "D"), "A", {}), "A")
    ('B', 'C', 'D')
    >>> default_active(SheetSpec("skat", ("A", "B", "C", "D", "E"), "A", {}), "A")
    ('B', 'C', 'E')
    >>> default_active(SheetSpec("schafkopf", ("A", "B", "C", "D"), "A", {}), "A")
    ('B', 'C', 'D', 'A')
    >>> default_active(SheetSpec("schafkopf", ("A", "B", "C", "D", "E"), "A", {}), "A")
    ('B', 'C', 'D', 'E')
    """
    p = spec.players
    n = len(p)
    per_deal = game(spec.game).players_per_deal
    if n <= per_deal:
        return tuple(seat_after(p, dealer, k) for k in range(1, n + 1))
    out = {dealer}
    if n - per_deal >= 2:  # Skat at 5; Schafkopf at 5 lets only the dealer sit out
        out.add(seat_after(p, dealer, -2))
    return tuple(
        seat_after(p, dealer, k) for k in range(1, n) if seat_after(p, dealer, k) not in out
    )


def forehand(players: Sequence[str], dealer: str, active: Sequence[str]) -> str | None:
    """Vorhand: the first player on the dealer's left who plays this deal (the stored list
    of who played need not start with him).

    >>> forehand(("A", "B", "C", "D"), "A", ("C", "D", "B"))
    'B'
    """
    if dealer not in players:
        return active[0] if active else None
    return next(
        (seat_after(players, dealer, k) for k in range(1, len(players) + 1)
         if seat_after(players, dealer, k) in active),
        None,
    )  # fmt: skip


def dealer_after(spec: SheetSpec, last_dealer: str | None) -> str:
    """Who deals next: the seat after whoever dealt the last deal that counts, else the first
    dealer."""
    return seat_after(spec.players, last_dealer) if last_dealer else spec.first_dealer


def next_dealer(spec: SheetSpec, deals: Sequence[DealRecord]) -> str:
    """The seat after the last deal that counts; struck deals were never really dealt."""
    last = next((d.dealer for d in reversed(deals) if not d.struck), None)
    return dealer_after(spec, last)


def zero_sum(players: Sequence[str], entries: Mapping[str, int]) -> dict[str, int]:
    """docs/rules.md 1.9: delta_i = n × list_i − sum of the deal's list entries.

    >>> zero_sum(("A", "B", "C"), {"A": 24})
    {'A': 48, 'B': -24, 'C': -24}
    """
    total = sum(entries.values())
    n = len(players)
    return {p: n * entries.get(p, 0) - total for p in players}


def check_placement(
    spec: SheetSpec, body: Mapping[str, object], e: Errors
) -> tuple[str | None, tuple[str, ...] | None]:
    """The optional ``dealer`` and ``active`` fields of a deal body."""
    dealer = body.get("dealer")
    if dealer is not None and (not isinstance(dealer, str) or dealer not in spec.players):
        e.add("dealer", "Der Geber muss am Tisch sitzen.")
        dealer = None
    active = body.get("active")
    if active is not None:
        need = game(spec.game).players_per_deal
        if (
            not isinstance(active, list)
            or len(active) != need
            or not all(isinstance(a, str) and a in spec.players for a in active)
            or len(set(active)) != need
        ):
            e.add(
                "active", "Es spielen genau %(need)s verschiedene Spieler vom Tisch mit.", need=need
            )
            active = None
        else:
            active = tuple(active)
    return dealer, active


# --- The games by key ---------------------------------------------------------------------
# Each game (``skatcalc/games/<game>/``) registers its GameKind here when ``skatcalc.games`` is
# imported; the sheet types above and the computation ask for a game by its key.

#: a played game's row in words: the contract, its marks, the value shown
Contract: TypeAlias = "tuple[Msg, list[Msg], int | None]"


class GameKind:
    """What a game brings to a sheet. Subclasses set the class attributes and implement
    :meth:`evaluate` (a deal body that is not "all passed") and, where the game has any,
    :meth:`extra_totals`."""

    key: ClassVar[str]
    label: ClassVar[Msg]
    #: the rule a deal all players passed rests on (it scores nothing), as a step cites it
    passed_rule: ClassVar[Msg]
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
    #: whether a player's games with and against each other player are counted (partners
    #: change from deal to deal)
    counts_opponents: ClassVar[bool] = False
    #: the game's table of contracts (``skatcalc/games/<game>/contracts.py``), in the order
    #: statistics list them: the contracts, partners and statistics are read from it
    contract_table: ClassVar[tuple[ContractRow, ...]] = ()
    #: the statistics columns of own games per player, in column order
    stat_columns: ClassVar[tuple[StatColumn, ...]] = ()
    #: the entry form's controls shown while no contract is chosen yet
    none_shows: ClassVar[tuple[str, ...]] = ()
    #: the game's own controls on a sheet's house rules form (drawn by the game's
    #: ``templates/games/<game>/_rules.html``; ``"stake"``: the Hausregeln page reads a stake)
    rule_controls: ClassVar[frozenset[str]] = frozenset()
    #: a club night's table sizes, largest first
    event_tables: ClassVar[tuple[int, ...]] = (4,)
    #: deals per series at a club night, by table size
    series_deals: ClassVar[Mapping[int, int]] = {}
    #: whether a club night's series must let every player of a table deal equally often
    #: (its deals a multiple of the table size; rules.events.check_series_deals)
    deal_equally: ClassVar[bool] = False
    #: the short marks of the legend under the list: (short, meaning)
    legend: ClassVar[tuple[tuple[Msg, Msg], ...]] = ()
    #: whether the game's value already holds the Bock doubling (the row shows it as it is)
    value_holds_bock: ClassVar[bool] = False

    #: the contract a fresh entry form starts on (the most frequent one), None: none chosen
    fresh_contract: ClassVar[str | None] = None
    #: a club night may count points on the game's scale instead of money (read_point_scale)
    has_point_scale: ClassVar[bool] = False
    #: the scales by name a tournament in points may start from (docs/rules.md 2.8)
    point_presets: ClassVar[tuple[str, ...]] = ()
    #: every figure of the scale as a form shows it (``games/<game>/tournament.py``)
    point_figures: ClassVar[tuple[PointFigure, ...]] = ()

    def read_point_scale(self, data: object, e: Errors, field: str) -> Mapping[str, object] | None:
        """A tournament in points instead of money: the scale read from ``data`` (stored in
        every table's rules), or an error on ``field`` if the game has none (docs/rules.md 2.8).
        """
        e.add(field.rsplit(".", 1)[0] + ".kind",
              "Die Turnierwertung in Punkten gibt es für Schafkopf.")  # fmt: skip
        return None

    def point_preset(self, name: str) -> Mapping[str, object]:
        """The figures of the scale ``name`` (one of :attr:`point_presets`) as the API
        answers a scale; KeyError for another name."""
        raise KeyError(name)

    def point_preset_source(self, name: str) -> Msg:
        """The preset ``name`` and the tournaments whose rules it follows, in words."""
        raise KeyError(name)

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

    def deal_value(self, body: object) -> Result:
        """One deal's value from a JSON body (the calculators and ``POST /api/v1/<game>/value``),
        raising InvalidDeal with every reason."""
        raise NotImplementedError

    def tournament_list(
        self, spec: SheetSpec, computed: ComputedSheet
    ) -> TournamentListView | None:
        """The official tournament list kept beside the sheet (Skat's Spielliste with the
        columns of Seeger-Fabian), None where the game keeps none or the table has none; a
        sheet's page and its PDF show it when the sheet is ranked by it."""
        return None

    def feed_pot(
        self, rules: HouseRules, out: DealOutcome, active: tuple[str, ...], pot: Pot | None
    ) -> tuple[Mapping[str, int] | None, Pot | None]:
        """A pot kept beside the list (Schafkopf's Stock): what the deal, played under
        ``rules``, changes for each player besides its deltas (paid in negative, taken
        positive), and the pot after it. (None, pot): the deal keeps no pot."""
        return None, pot

    @property
    def contracts(self) -> tuple[str, ...]:
        """Every contract a deal body can name (``"game"``), in the order statistics list them."""
        return tuple(row.key for row in self.contract_table)

    @property
    def partner_contracts(self) -> frozenset[str]:
        """Contracts played with a partner (counted per partner in a player's figures)."""
        return frozenset(row.key for row in self.contract_table if row.partner)

    @property
    def stat_kinds(self) -> tuple[str, ...]:
        """The kinds of own games a sheet's statistics count per player, in column order."""
        return tuple(col.key for col in self.stat_columns)

    def stat_kind(self, contract: str) -> str | None:
        """Which of :attr:`stat_kinds` an own game of this contract counts for, if any."""
        row = next((row for row in self.contract_table if row.key == contract), None)
        return row.stat if row is not None else None

    def ramsch_body(self, body: Mapping[str, object]) -> Mapping[str, Any] | None:
        """The part of a deal body that describes a Ramsch (None: the deal is no Ramsch)."""
        return None

    def ramsch_deal(self, ramsch: Mapping[str, object]) -> dict[str, object]:
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
