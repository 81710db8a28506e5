"""The pages' side of every registered game (its :class:`~skatcalc.games.form_fields.GameForms`),
by the registry's key: Flask forms, kept apart from the pure registry in ``__init__.py``.

>>> from skatcalc.games import keys
>>> tuple(GAME_FORMS) == keys()
True
"""

from __future__ import annotations

from skatcalc.games.form_fields import GameForms

from .schafkopf import SCHAFKOPF
from .schafkopf.forms import SchafkopfForms, SchafkopfRulesFields
from .skat import SKAT
from .skat.forms import SkatForms, SkatRulesFields

#: the pages' side of each game of the registry, by its key, in the registry's order
GAME_FORMS: dict[str, GameForms] = {SKAT.key: SkatForms(), SCHAFKOPF.key: SchafkopfForms()}


class GameRulesFields(SkatRulesFields, SchafkopfRulesFields):
    """Every game's own house-rule fields, for the forms that make a sheet or a club night of
    any game (``web.deal_forms.SheetRulesFields``)."""
