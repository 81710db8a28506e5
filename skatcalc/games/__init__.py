"""The games a sheet can be kept for, each in its own package, registered by key.

As python-chess keeps its variants and Datasette its registered renderers: a game is a
package (``skat/``, ``schafkopf/``) holding its contracts table, value rules, input reading,
sheet behaviour (its :class:`~skatcalc.rules.sheet.GameKind`), row marks and forms, with its
templates' parts in ``templates/games/<game>/``. Importing this package registers every game,
in the order forms and messages list them; code outside the games asks the registry (and the
game's ``GameKind``) instead of naming a game or a contract.

>>> from skatcalc.i18n import translate
>>> keys(), game("skat").players_per_deal, translate(game("schafkopf").label, "en")
(('skat', 'schafkopf'), 3, 'Schafkopf')
>>> [row.key for row in contract_rows() if row.partner]
['sauspiel', 'hochzeit']
"""

from __future__ import annotations

from ..rules.contracts import ContractRow, StatColumn
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


def contract_rows() -> tuple[ContractRow, ...]:
    """Every game's contracts, game by game, each in its table's order."""
    return tuple(row for kind in GAMES.values() for row in kind.contract_table)


def stat_columns() -> tuple[StatColumn, ...]:
    """Every game's statistics columns, game by game."""
    return tuple(col for kind in GAMES.values() for col in kind.stat_columns)


__all__ = ["GAMES", "GameKind", "contract_rows", "game", "keys", "kinds", "stat_columns"]
