"""The shape of a game's table of contracts: one row per contract a deal can name.

Each game keeps ONE such table (``skatcalc/games/<game>/contracts.py``); its enum, the entry
form's buttons, the statistics columns, the players' page names, the lists in the docs and the
data the entry screen's script reads (``static/app.js``) are all derived from it.

>>> row = ContractRow("wenz", Msg("Wenz"), tariff="solo", laufende=(2, 4), shows=(".soloonly",))
>>> row.key, row.partner, row.laufende_max, row.button is row.name
('wenz', False, 4, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .common import Msg


@dataclass(frozen=True)
class ContractRow:
    key: str
    """The contract's key in a deal body (``"game"``) and in the API."""
    name: Msg
    """Its name (the German msgid; English through the translations)."""
    button: Msg | None = None
    """Its button on the entry form, where it reads otherwise than :attr:`name`."""
    short: Msg | None = None
    """Its name in lists and tables (a player's page), where it reads otherwise."""
    place: int = 0
    """Its place among the entry form's buttons (0: in table order)."""
    tariff: str = ""
    """Its tariff class (Schafkopf: ``"sauspiel"``, ``"solo"``, ``"bettel"``)."""
    factor: int = 1
    """What its tariff's value is multiplied by, before the table's doublings (a Bettel
    played open, "Bettel ouvert", where a table plays it: 2)."""
    base: int | None = None
    """Its base value (Skat's suit games and Grand)."""
    partner: bool = False
    """Played with a partner (counted per partner in a player's figures)."""
    suit: str | None = None
    """The trump suit it names by itself (Skat: ``"C"`` for Kreuz)."""
    names_suit: bool = False
    """Whether a suit is named with it at the table (Schafkopf's Farbsolo, Farbwenz …)."""
    suit_title: Msg | None = None
    """Its name with the named suit, ``%(suit)s`` the suit ("%(suit)s-Farbwenz")."""
    barred_suits: tuple[str, ...] = ()
    """Suits that cannot be named with it (the Herz-Sau cannot be called)."""
    laufende: tuple[int, int] = (0, 0)
    """Laufende: counted from (by default) and at most."""
    stat: str | None = None
    """The statistics column an own game of it counts in (None: none)."""
    shows: tuple[str, ...] = ()
    """The entry form's controls (CSS selectors) shown while it is chosen."""
    rare: bool = False
    """A rarer contract: its button waits on the entry's second screen ("Mehr") until chosen."""
    red: bool = False
    """Its button is drawn in the red of its suit (Herz, Karo)."""

    @property
    def laufende_min(self) -> int:
        return self.laufende[0]

    @property
    def laufende_max(self) -> int:
        return self.laufende[1]

    def __post_init__(self) -> None:
        if self.button is None:
            object.__setattr__(self, "button", self.name)
        if self.short is None:
            object.__setattr__(self, "short", self.name)


@dataclass(frozen=True)
class StatColumn:
    """A statistics column: the own games of its contracts counted per player."""

    key: str
    label: Msg


def by_key(table: Sequence[ContractRow]) -> dict[str, ContractRow]:
    """The rows of a table by their key (a key twice is a mistake in the table).

    >>> sorted(by_key([ContractRow("a", Msg("A")), ContractRow("b", Msg("B"))]))
    ['a', 'b']
    """
    out = {row.key: row for row in table}
    if len(out) != len(table):
        raise ValueError("a contract key is in the table twice")
    return out


def buttons(table: Sequence[ContractRow]) -> tuple[ContractRow, ...]:
    """The rows in the order of the entry form's buttons."""
    return tuple(sorted(table, key=lambda row: row.place))


def button_marks(table: Sequence[ContractRow]) -> dict[str, str]:
    """The classes of the entry form's contract buttons (``templates/_macros.html`` ``seg``):
    ``red`` for a red suit; and, where some contracts are rare, ``second`` for those (their
    buttons wait on the second screen) and ``first`` for the others, the last of them also
    ``yields`` (a rare contract once chosen takes its place on the first screen;
    ``static/style.css``). Not ``rare``: the entry's box of rarer choices has that class.

    >>> rows = [ContractRow("a", Msg("A"), place=1), ContractRow("b", Msg("B"), place=2, red=True),
    ...         ContractRow("c", Msg("C"), place=3, rare=True)]
    >>> button_marks(rows)
    {'a': 'first', 'b': 'red first yields', 'c': 'second'}
    >>> button_marks(rows[:2])
    {'b': 'red'}
    """
    ordered = buttons(table)
    any_rare = any(row.rare for row in ordered)
    common = [row.key for row in ordered if not row.rare]
    marks: dict[str, str] = {}
    for row in ordered:
        words = ["red"] if row.red else []
        if any_rare:
            words.append("second" if row.rare else "first")
            if common and row.key == common[-1]:
                words.append("yields")
        if words:
            marks[row.key] = " ".join(words)
    return marks


def script_data(
    table: Sequence[ContractRow], none_shows: Sequence[str], per_deal: int
) -> dict[str, object]:
    """What the entry screen's script needs of a game's contracts (``data-contracts``):
    the controls it switches, which of them each contract (and no contract yet) shows, the
    most Laufende and the suits that cannot be named; the players of one deal; the most
    Laufende of any contract (for no contract yet).

    >>> script_data([ContractRow("x", Msg("X"), shows=(".a",), laufende=(1, 4))], (), 3)
    {'controls': ['.a'], 'none': [], 'contracts': {'x': {'shows': ['.a'], 'laufende': 4, 'barred': []}}, 'perDeal': 3, 'laufende': 4}
    """
    controls = list(dict.fromkeys([c for row in table for c in row.shows] + list(none_shows)))
    return {
        "controls": controls,
        "none": list(none_shows),
        "contracts": {
            row.key: {
                "shows": list(row.shows),
                "laufende": row.laufende_max,
                "barred": list(row.barred_suits),
            }
            for row in table
        },
        "perDeal": per_deal,
        "laufende": max((row.laufende_max for row in table), default=0),
    }


def docs_table(table: Sequence[ContractRow]) -> str:
    """The table of a game's contracts as docs/rules.md shows it (between its
    ``<!-- contracts:<game> -->`` marks; tests/games/test_game_packages.py checks it).

    >>> print(docs_table([ContractRow("wenz", Msg("Wenz"), tariff="solo", laufende=(2, 4))]))
    | key | game | parties | tariff | Laufende from | at most |
    |---|---|---|---|---|---|
    | `wenz` | Wenz | 1 vs 3 | solo | 2 | 4 |
    """
    lines = [
        "| key | game | parties | tariff | Laufende from | at most |",
        "|---|---|---|---|---|---|",
    ]
    for row in table:
        parties = "2 vs 2" if row.partner else "1 vs 3"
        frm, most = (
            (str(row.laufende_min), str(row.laufende_max)) if row.laufende_max else ("—", "—")
        )
        lines.append(f"| `{row.key}` | {row.name.de} | {parties} | {row.tariff} | {frm} | {most} |")
    return "\n".join(lines)
