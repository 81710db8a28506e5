"""Turn the JSON-shaped Schafkopf input of docs/api.md into a :class:`SchafkopfDeal`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...rules.inputs import NO_GAME, Reader
from .values import SUITS, SchafkopfDeal, SKGame, full_laufende_min, full_tariffs

SK_GAMES = {g.value: g for g in SKGame}


def read_schafkopf(
    r: Reader,
    players: tuple[str, ...] | None = None,
    rules: Mapping[str, Any] | None = None,
    bock: int = 0,
) -> SchafkopfDeal | None:
    """Read a Schafkopf game; ``players`` and ``rules`` come from a sheet when given."""
    game = r.choice("game", SK_GAMES, missing=NO_GAME)
    if players is None:
        plist = r.str_list("players")
        players = tuple(plist) if plist is not None else ("A", "B", "C", "D")
    declarers = r.str_list("declarers")
    if declarers is None and not r.errors.has("declarers"):
        r.errors.add("declarers", "Bitte die Spielerpartei nennen.")
    points = r.integer("player_points")
    won = r.boolean("won", None)
    schneider = r.boolean("schneider")
    schwarz = r.boolean("schwarz")
    laufende = r.integer("laufende", 0)
    tout = r.boolean("tout")
    sie = r.boolean("sie")
    gestellt = r.integer("gestellt", 0)
    kontra = r.integer("kontra", 0)
    suit = r.choice("suit", {x: x for x in SUITS}, required=False)
    if rules is None:
        tariffs = r.int_map("tariffs")
        tcss = r.boolean("tout_counts_schneider_schwarz", True)
        lmin = r.int_map("laufende_min")
    else:
        tariffs = rules.get("tariffs")
        tcss = rules.get("tout_counts_schneider_schwarz", True)
        lmin = rules.get("laufende_min")
    if r.errors or game is None or declarers is None:
        return None
    return SchafkopfDeal(
        game=game,
        declarers=tuple(declarers),
        players=players,
        player_points=points,
        won=won,
        schneider=bool(schneider),
        schwarz=bool(schwarz),
        laufende=laufende if laufende is not None else 0,
        tout=bool(tout),
        sie=bool(sie),
        gestellt=gestellt if gestellt is not None else 0,
        kontra=kontra if kontra is not None else 0,
        tariffs=full_tariffs(tariffs),
        tout_counts_schneider_schwarz=bool(tcss),
        laufende_min=full_laufende_min(lmin),
        bock=bock,
        suit=suit,
    )


def schafkopf_deal_from_input(data: object) -> SchafkopfDeal:
    r = Reader(data)
    deal = read_schafkopf(r)
    r.reject_unknown()
    r.errors.raise_if_any()
    assert deal is not None
    return deal
