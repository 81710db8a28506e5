"""The Schafkopf tournament scale (docs/rules.md 2.8): points instead of money.

A tournament counts every deal in points on a fixed scale; every figure is the event's to
set. By default a Rufspiel (Sauspiel, Hochzeit) is 1/2/3 per player (plain, Schneider,
Schwarz), a solo game (Solo, Wenz, Geier, Farbwenz, Farbgeier) 2/3/4 from each opponent, so
6/9/12 to the player, a Bettel 2 from each; each Laufender 1 per player in a Rufspiel and 1
from each opponent in a solo; a Tout is the Schwarz solo × 2, a Sie × 4; each Kontra/Re
doubles. A passed deal is 0; Ramsch is not played on the scale.

Every deal sums to 0::

    >>> from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame
    >>> r = scale_value(SchafkopfDeal(SKGame.SAUSPIEL, ("A", "C"), won=True, schneider=True),
    ...                 PointScale())
    >>> r.value, r.deltas
    (2, {'A': 2, 'B': -2, 'C': 2, 'D': -2})
    >>> r = scale_value(SchafkopfDeal(SKGame.SOLO, ("B",), won=True, tout=True), PointScale())
    >>> r.value, r.deltas
    (8, {'A': -8, 'B': 24, 'C': -8, 'D': -8})
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skatcalc.rules.cite import Step
from skatcalc.rules.common import Errors, Msg, signed

from .values import (
    DEFAULT_LAUFENDE_MIN,
    SchafkopfDeal,
    SchafkopfResult,
    SKGame,
    game_name,
    validate,
)

#: the rule book's section the scale's steps cite
SK_SCALE = Msg("2.8 Turnierwertung")

MAX_POINTS = 1000  # a figure of the scale
MAX_FACTOR = 10  # Tout, Sie, Kontra


class Level(enum.IntEnum):
    PLAIN = 0
    SCHNEIDER = 1
    SCHWARZ = 2


LEVEL_KEYS = ("plain", "schneider", "schwarz")


@dataclass(frozen=True)
class PointScale:
    """Every figure of the scale. ``rufspiel`` is what each player of a Rufspiel wins or
    loses, ``solo`` and ``bettel`` what each opponent of a solo pays or gets (the player
    three times as much), by level (plain, Schneider, Schwarz); the Laufende likewise."""

    rufspiel: tuple[int, int, int] = (1, 2, 3)
    solo: tuple[int, int, int] = (2, 3, 4)
    bettel: int = 2
    laufender_rufspiel: int = 1
    laufender_solo: int = 1
    tout: int = 2
    sie: int = 4
    kontra: int = 2
    laufende_min: tuple[tuple[str, int], ...] = tuple(DEFAULT_LAUFENDE_MIN.items())

    def to_json(self) -> dict[str, Any]:
        """The stored and API form, every figure named.

        >>> PointScale().to_json()["solo"]
        {'plain': 2, 'schneider': 3, 'schwarz': 4}
        """
        return {
            "rufspiel": dict(zip(LEVEL_KEYS, self.rufspiel, strict=True)),
            "solo": dict(zip(LEVEL_KEYS, self.solo, strict=True)),
            "bettel": self.bettel,
            "laufender_rufspiel": self.laufender_rufspiel,
            "laufender_solo": self.laufender_solo,
            "tout": self.tout,
            "sie": self.sie,
            "kontra": self.kontra,
            "laufende_min": dict(self.laufende_min),
        }


DEFAULT_SCALE = PointScale()
_FLAT = {
    "bettel": (0, MAX_POINTS),
    "laufender_rufspiel": (0, MAX_POINTS),
    "laufender_solo": (0, MAX_POINTS),
    "tout": (1, MAX_FACTOR),
    "sie": (1, MAX_FACTOR),
    "kontra": (1, MAX_FACTOR),
}


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_scale(data: object, e: Errors, field: str = "scale") -> PointScale:
    """The scale from its JSON form (missing keys keep the default); each problem is added
    to ``e`` under its own field, e.g. ``scale.solo.schneider``.

    >>> e = Errors(); read_scale({"rufspiel": {"plain": 2}, "tout": 3}, e).rufspiel, e.items
    ((2, 2, 3), [])
    >>> e = Errors(); _ = read_scale({"solo": {"schneider": -1}, "sie": 0, "x": 1}, e)
    >>> [i.field for i in e.items]
    ['scale.solo.schneider', 'scale.sie', 'scale']
    """
    if data is None:
        return DEFAULT_SCALE
    if not isinstance(data, Mapping):
        e.add(field, 'Die Wertung: ein Objekt wie {"rufspiel": {"plain": 1}}.')
        return DEFAULT_SCALE
    out: dict[str, Any] = {}
    for part in ("rufspiel", "solo"):
        levels = list(getattr(DEFAULT_SCALE, part))
        raw = data.get(part)
        if raw is not None:
            if not isinstance(raw, Mapping) or set(raw) - set(LEVEL_KEYS):
                e.add(f"{field}.{part}", 'Erwartet: {"plain", "schneider", "schwarz"}.')
            else:
                for i, key in enumerate(LEVEL_KEYS):
                    v = raw.get(key, levels[i])
                    if not _whole(v) or not 0 <= v <= MAX_POINTS:
                        e.add(f"{field}.{part}.{key}", "Punkte: ganze Zahl von 0 bis %(max)s.",
                              max=MAX_POINTS)  # fmt: skip
                    else:
                        levels[i] = v
        out[part] = tuple(levels)
    for key, (low, high) in _FLAT.items():
        v = data.get(key, getattr(DEFAULT_SCALE, key))
        if not _whole(v) or not low <= v <= high:
            e.add(f"{field}.{key}", "Ganze Zahl von %(low)s bis %(high)s.", low=low, high=high)
        else:
            out[key] = v
    lmin = dict(DEFAULT_LAUFENDE_MIN)
    raw_min = data.get("laufende_min")
    if raw_min is not None:
        if not isinstance(raw_min, Mapping):
            e.add(f"{field}.laufende_min", "Laufende ab: je Spiel eine Zahl.")
        else:
            for game, v in raw_min.items():
                top = SKGame(game).max_laufende if game in DEFAULT_LAUFENDE_MIN else 0
                if game not in DEFAULT_LAUFENDE_MIN:
                    e.add(f"{field}.laufende_min", "Unbekanntes Spiel „%(k)s“.", k=str(game))
                elif not _whole(v) or not 1 <= v <= top:
                    e.add(f"{field}.laufende_min.{game}", "Laufende ab 1 bis %(top)s.", top=top)
                else:
                    lmin[game] = v
    out["laufende_min"] = tuple(lmin.items())
    unknown = set(data) - {"rufspiel", "solo", "laufende_min", *_FLAT}
    if unknown:
        e.add(field, "Unbekannt: %(keys)s.", keys=", ".join(sorted(map(str, unknown))))
    return PointScale(**{**DEFAULT_SCALE.__dict__, **out})


def scale_value(deal: SchafkopfDeal, scale: PointScale) -> SchafkopfResult:
    """Points of one Schafkopf game on the scale; ``value`` is what each opponent (solo) or
    each player (Rufspiel) wins or loses, ``deltas`` every player's points. The deal is read
    as the money rules read it (:func:`skatcalc.games.schafkopf.values.validate`); its tariffs are
    not used. A Tout counts at the Schwarz level, won or lost; Laufende add before the Tout,
    Sie, Kontra, gestellt and Bock factors.

    >>> from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame
    >>> d = SchafkopfDeal(SKGame.WENZ, ("D",), player_points=40, laufende=2, kontra=1)
    >>> r = scale_value(d, PointScale()); r.won, r.value, r.deltas["D"]
    (False, 8, -24)
    """
    validate(deal)
    g = deal.game
    tout = deal.tout or deal.sie
    steps: list[Step] = []
    pts = deal.player_points
    if pts is not None:
        won = (pts == 120 and deal.schwarz) if tout else pts >= 61
        schneider = pts >= 91 or pts <= 30
        schwarz = deal.schwarz
    else:
        won = bool(deal.won)
        schneider = deal.schneider or deal.schwarz
        schwarz = deal.schwarz
    level = Level.SCHWARZ if schwarz else Level.SCHNEIDER if schneider else Level.PLAIN
    if tout:
        level = Level.SCHWARZ  # a Tout is the Schwarz solo, announced
    label = game_name(g, deal.suit)
    lmin = dict(scale.laufende_min)
    laufende = deal.laufende if deal.laufende >= lmin.get(g.value, 3) else 0
    if g.bettel_class:
        value = scale.bettel
        parts = Msg("Bettel %(value)s", value=value)
    else:
        base = (scale.rufspiel if g.partner_game else scale.solo)[level]
        per = scale.laufender_rufspiel if g.partner_game else scale.laufender_solo
        value = base + laufende * per
        level_name = (Msg("einfach"), Msg("Schneider"), Msg("Schwarz"))[level]
        parts = Msg("%(level)s %(base)s + %(laufende)s × %(per)s Laufende", level=level_name,
                    base=base, laufende=laufende, per=per)  # fmt: skip
    steps.append(Step(Msg("%(label)s: %(parts)s = %(value)s", label=label, parts=parts,
                          value=value), SK_SCALE))  # fmt: skip
    factors: list[tuple[str, int, int]] = [("gestellt", 2, deal.gestellt)]
    factors += [
        (name, scale.kontra, 1) for name in ("Kontra", "Re", "Sub", "Hirsch")[: deal.kontra]
    ]
    if deal.sie:
        factors.append(("Sie", scale.sie, 1))
    elif deal.tout:
        factors.append(("Tout", scale.tout, 1))
    factors.append(("Bock", 2, deal.bock))
    for word, factor, times in factors:
        for _ in range(times):
            value *= factor
            steps.append(Step(Msg("%(word)s × %(factor)s = %(value)s", word=word,
                                  factor=factor, value=value), SK_SCALE))  # fmt: skip
    sign = 1 if won else -1
    party = set(deal.declarers)
    if g.partner_game:
        deltas = {p: (sign if p in party else -sign) * value for p in deal.players}
        steps.append(Step(Msg("jeder Gewinner %(value)s, jeder Verlierer %(minus_value)s",
                              value=signed(value), minus_value=signed(-value)),
                          SK_SCALE))  # fmt: skip
    else:
        deltas = {p: sign * (3 * value if p in party else -value) for p in deal.players}
        who = deal.declarers[0]
        steps.append(Step(Msg("%(solo)s %(points)s, jeder Gegner %(each)s", solo=who,
                              points=signed(3 * sign * value), each=signed(-sign * value)),
                          SK_SCALE))  # fmt: skip
    assert sum(deltas.values()) == 0, "a deal on the scale sums to 0"
    return SchafkopfResult(won=won, value=value, deltas=deltas, steps=tuple(steps), game=g)


def check_zero_sum(deltas: Mapping[str, int]) -> bool:
    """The list's check of one deal: its plus and minus points sum to 0.

    >>> check_zero_sum({"A": 6, "B": -2, "C": -2, "D": -2}), check_zero_sum({"A": 1})
    (True, False)
    """
    return sum(deltas.values()) == 0
