"""The games a sheet can be kept for, each in its own package, registered by key.

As python-chess keeps its variants and Datasette its registered renderers: a game is a
package (``skat/``, ``schafkopf/``) holding its contracts table, value rules, input reading,
sheet behaviour (its :class:`~skatcalc.rules.sheet.GameKind`), row marks and forms, with its
templates' parts in ``templates/games/<game>/``. Importing this package registers every game,
in the order forms and messages list them; code outside the games asks the registry (and the
game's ``GameKind``) instead of naming a game or a contract.

>>> from skatcalc.text import translate
>>> keys(), game("skat").players_per_deal, translate(game("schafkopf").label, "en")
(('skat', 'schafkopf'), 3, 'Schafkopf')
>>> [row.key for row in contract_rows() if row.partner]
['sauspiel', 'hochzeit']
"""

from __future__ import annotations

import json

from ..rules.contracts import ContractRow, StatColumn, button_marks, script_data
from ..rules.sheet.base import GAMES, GameKind, game

# isort: off
# The games register themselves on import, in this order: Skat, then Schafkopf.
from . import skat as skat
from . import schafkopf as schafkopf
# isort: on


def keys() -> tuple[str, ...]:
    """The registered games' keys, in registration order."""
    return tuple(GAMES)


def kinds() -> tuple[GameKind, ...]:
    """The registered games, in registration order."""
    return tuple(GAMES.values())


def choices() -> list[tuple[str, str]]:
    """The games to choose from (a new sheet, a group, a club night): key and name."""
    return [(kind.key, kind.label.de) for kind in GAMES.values()]


def first() -> str:
    """The game chosen when none is: the first registered."""
    return next(iter(GAMES))


def contract_rows() -> tuple[ContractRow, ...]:
    """Every game's contracts, game by game, each in its table's order."""
    return tuple(row for kind in GAMES.values() for row in kind.contract_table)


def stat_columns() -> tuple[StatColumn, ...]:
    """Every game's statistics columns, game by game."""
    return tuple(col for kind in GAMES.values() for col in kind.stat_columns)


def bock_triggers() -> dict[str, tuple[str, ...]]:
    """Every game's Bock triggers (docs/rules.md 1.10, 1.11, 2.6), the first game's first,
    each with the keys of the games that know it (the house rules' checkboxes).

    >>> triggers = bock_triggers()
    >>> triggers["60-60"], triggers["re"]
    (('skat', 'schafkopf'), ('skat',))
    """
    out: dict[str, tuple[str, ...]] = {}
    for kind in GAMES.values():
        for trigger in kind.bock_triggers:
            out[trigger.value] = (*out.get(trigger.value, ()), kind.key)
    return out


def contract_marks(key: str) -> dict[str, str]:
    """The classes of this game's contract buttons on the entry form (rare, red …).

    >>> contract_marks("skat")["hearts"], contract_marks("schafkopf")["geier"]
    ('red', 'second')
    """
    return button_marks(game(key).contract_table)


def script_json(key: str) -> str:
    """What the entry screen's script needs of this game's contracts, as JSON (the entry
    forms' ``data-contracts``; see :func:`skatcalc.rules.contracts.script_data`).

    >>> json.loads(script_json("schafkopf"))["contracts"]["wenz"]
    {'shows': ['.soloonly', '.nobettel'], 'laufende': 4, 'barred': []}
    """
    kind = game(key)
    data = script_data(kind.contract_table, kind.none_shows, kind.players_per_deal)
    return json.dumps(data, separators=(",", ":"))


__all__ = [
    "GAMES",
    "GameKind",
    "bock_triggers",
    "choices",
    "contract_rows",
    "first",
    "game",
    "keys",
    "kinds",
    "script_json",
    "stat_columns",
]
