"""Schafkopf's games, one row each (docs/rules.md 2.1): the one table the enum, tariff
classes, Laufende limits, the entry form's buttons, the statistics columns, the players'
page and the entry script read.

Rows in the order statistics list them; ``place`` orders the entry form's buttons.

>>> [(row.key, row.tariff, row.laufende) for row in CONTRACTS if not row.partner][:3]
[('solo', 'solo', (3, 14)), ('wenz', 'solo', (2, 4)), ('geier', 'solo', (2, 4))]
"""

from __future__ import annotations

from ...rules.common import Msg, verbatim
from ...rules.contracts import ContractRow, StatColumn, by_key

_SOLO = (".soloonly", ".nobettel")

CONTRACTS: tuple[ContractRow, ...] = (
    ContractRow("sauspiel", Msg("Sauspiel"), button=verbatim("Sauspiel"),
                short=verbatim("Sauspiel"), place=1, tariff="sauspiel", partner=True,
                names_suit=True, barred_suits=("herz",), laufende=(3, 14), stat="sauspiele",
                shows=(".suitgame", ".nobettel")),
    ContractRow("hochzeit", Msg("Hochzeit"), button=verbatim("Hochzeit"),
                short=verbatim("Hochzeit"), place=7, tariff="sauspiel", partner=True,
                laufende=(3, 14), stat="sauspiele", rare=True, shows=(".nobettel",)),
    ContractRow("solo", Msg("Solo"), place=2, tariff="solo", names_suit=True,
                suit_title=Msg("%(suit)s-Solo"), laufende=(3, 14), stat="solos",
                shows=(*_SOLO, ".sieonly", ".suitgame")),
    ContractRow("wenz", Msg("Wenz"), button=verbatim("Wenz"), short=verbatim("Wenz"),
                place=3, tariff="solo", laufende=(2, 4), stat="solos", shows=_SOLO),
    ContractRow("geier", Msg("Geier"), button=verbatim("Geier"), short=verbatim("Geier"),
                place=4, tariff="solo", laufende=(2, 4), stat="solos", rare=True, shows=_SOLO),
    ContractRow("farbwenz", Msg("Farbwenz"), button=verbatim("Farbwenz"),
                short=verbatim("Farbwenz"), place=5, tariff="solo", names_suit=True,
                suit_title=Msg("%(suit)s-Farbwenz"), laufende=(3, 11), stat="solos",
                rare=True, shows=(*_SOLO, ".suitgame")),
    ContractRow("farbgeier", Msg("Farbgeier"), button=verbatim("Farbgeier"),
                short=verbatim("Farbgeier"), place=6, tariff="solo", names_suit=True,
                suit_title=Msg("%(suit)s-Farbgeier"), laufende=(3, 11), stat="solos",
                rare=True, shows=(*_SOLO, ".suitgame")),
    # every game played alone counts as a solo, the Bettel too; no Laufende in it
    ContractRow("bettel", Msg("Bettel"), button=verbatim("Bettel"), short=verbatim("Bettel"),
                place=8, tariff="bettel", stat="solos"),
)  # fmt: skip
BY_KEY = by_key(CONTRACTS)

#: the controls shown while no game is chosen yet
NONE_SHOWS = (".nobettel",)

#: the statistics columns: own solos and Sauspiele per player
STATS: tuple[StatColumn, ...] = (
    StatColumn("solos", Msg("Soli")),
    StatColumn("sauspiele", verbatim("Sauspiele")),
)
