"""The Schafkopf tournament scale (docs/rules.md 2.8): points instead of money.

A tournament counts every deal in points on a fixed scale; every figure is the event's to
set. By default a Rufspiel (Sauspiel, Hochzeit) is 1/2/3 per player (plain, Schneider,
Schwarz), a solo game (Solo, Wenz, Geier, Farbwenz, Farbgeier) 2/3/4 from each opponent, so
6/9/12 to the player, a Bettel 2 from each; each Laufender 1 per player in a Rufspiel and 1
from each opponent in a solo; a Tout is the Schwarz solo × 2, a Sie × 4; each Kontra/Re
doubles. A passed deal is 0; Ramsch is not played on the scale.

The organiser starts from a preset by name (:data:`PRESETS`: the default, SELF, the
Donauries cup, "nur Gute") and may change any figure. "nur Gute" (``written``): only the
winners write the game's points, nothing changes hands; a deal's ``written`` points are
what :func:`scale_value`'s ``written`` holds, and its ``deltas`` are all 0.

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
TOUT_LEVELS = ("schwarz", "plain")


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
    #: Laufende beyond this many are not counted (None: all of them)
    laufende_max: int | None = None
    #: the level a Tout or Sie doubles or quadruples: "schwarz" (the default, SELF) or
    #: "plain" (the Donauries cup: "Schneider und Durch nicht berechnet")
    tout_level: str = "schwarz"
    #: a Herz-Solo's figure at every level (None: a Solo like the others)
    herz_solo: int | None = None
    #: only the winners write the points ("nur Gute"); False: plus and minus, sum 0
    written: bool = False
    #: the preset the figures started from (named on the sheet and in the API)
    preset: str = "default"

    def to_json(self) -> dict[str, object]:
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
            "laufende_max": self.laufende_max,
            "tout_level": self.tout_level,
            "herz_solo": self.herz_solo,
            "written": self.written,
            "preset": self.preset,
        }


DEFAULT_SCALE = PointScale()

#: the scales tournaments really use (docs/rules.md 2.8); a figure a source does not give
#: (a Bettel, Laufende at SELF) is the nearest game's: a Bettel counts as a plain Solo
_SELF = PointScale(solo=(5, 6, 7), bettel=5, kontra=1, preset="self")
PRESETS: dict[str, PointScale] = {
    "default": DEFAULT_SCALE,
    "self": _SELF,
    "donauries": PointScale(**{**_SELF.__dict__, "laufender_rufspiel": 0, "laufender_solo": 0,
                               "tout_level": "plain", "preset": "donauries"}),
    "nur-gute": PointScale(
        rufspiel=(5, 10, 15), solo=(20, 20, 20), bettel=20, laufender_rufspiel=5,
        laufender_solo=5, laufende_min=tuple(dict.fromkeys(DEFAULT_LAUFENDE_MIN, 2).items()),
        laufende_max=4, herz_solo=30, written=True, preset="nur-gute",
    ),
}  # fmt: skip
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


def _read_levels(raw: object, levels: tuple[int, ...], e: Errors, field: str) -> tuple[int, ...]:
    """A game's figures plain / Schneider / Schwarz; those not given keep ``levels``."""
    out = list(levels)
    if raw is None:
        return tuple(out)
    if not isinstance(raw, Mapping) or set(raw) - set(LEVEL_KEYS):
        e.add(field, 'Erwartet: {"plain", "schneider", "schwarz"}.')
        return tuple(out)
    for i, key in enumerate(LEVEL_KEYS):
        v = raw.get(key, out[i])
        if not _whole(v) or not 0 <= v <= MAX_POINTS:
            e.add(f"{field}.{key}", "Punkte: ganze Zahl von 0 bis %(max)s.", max=MAX_POINTS)
        else:
            out[i] = v
    return tuple(out)


def _read_laufende_min(raw: object, base: PointScale, e: Errors, field: str
                       ) -> tuple[tuple[str, int], ...]:  # fmt: skip
    """From how many Laufende count, per game; those not given keep ``base``'s."""
    lmin = dict(base.laufende_min)
    if raw is None:
        return tuple(lmin.items())
    if not isinstance(raw, Mapping):
        e.add(f"{field}.laufende_min", "Laufende ab: je Spiel eine Zahl.")
        return tuple(lmin.items())
    for game, v in raw.items():
        top = SKGame(game).max_laufende if game in DEFAULT_LAUFENDE_MIN else 0
        if game not in DEFAULT_LAUFENDE_MIN:
            e.add(f"{field}.laufende_min", "Unbekanntes Spiel „%(k)s“.", k=str(game))
        elif not _whole(v) or not 1 <= v <= top:
            e.add(f"{field}.laufende_min.{game}", "Laufende ab 1 bis %(top)s.", top=top)
        else:
            lmin[game] = v
    return tuple(lmin.items())


def read_scale(
    data: object, e: Errors, field: str = "scale", base: PointScale = DEFAULT_SCALE
) -> PointScale:
    """The scale from its JSON form (missing keys keep ``base``'s figures, or those of the
    preset the data names); each problem is added to ``e`` under its own field, e.g.
    ``scale.solo.schneider``.

    >>> e = Errors(); read_scale({"rufspiel": {"plain": 2}, "tout": 3}, e).rufspiel, e.items
    ((2, 2, 3), [])
    >>> e = Errors(); _ = read_scale({"solo": {"schneider": -1}, "sie": 0, "x": 1}, e)
    >>> [i.field for i in e.items]
    ['scale.solo.schneider', 'scale.sie', 'scale']
    """
    if data is None:
        return base
    if not isinstance(data, Mapping):
        e.add(field, 'Die Wertung: ein Objekt wie {"rufspiel": {"plain": 1}}.')
        return base
    preset = data.get("preset", base.preset)
    if preset not in PRESETS:
        e.add(f"{field}.preset", "Vorlagen: %(names)s.", names=", ".join(PRESETS))
    elif preset != base.preset:
        base = PRESETS[preset]
    out: dict[str, object] = {}
    for part in ("rufspiel", "solo"):
        out[part] = _read_levels(data.get(part), getattr(base, part), e, f"{field}.{part}")
    for key, (low, high) in _FLAT.items():
        v = data.get(key, getattr(base, key))
        if not _whole(v) or not low <= v <= high:
            e.add(f"{field}.{key}", "Ganze Zahl von %(low)s bis %(high)s.", low=low, high=high)
        else:
            out[key] = v
    for key, (low, high) in (("laufende_max", (1, 14)), ("herz_solo", (0, MAX_POINTS))):
        v = data.get(key, getattr(base, key))
        if v is not None and (not _whole(v) or not low <= v <= high):
            e.add(f"{field}.{key}", "Ganze Zahl von %(low)s bis %(high)s oder null.", low=low,
                  high=high)  # fmt: skip
        else:
            out[key] = v
    tout_level = data.get("tout_level", base.tout_level)
    if tout_level not in TOUT_LEVELS:
        e.add(f"{field}.tout_level", "Tout und Sie verdoppeln „schwarz“ oder „plain“.")
    else:
        out["tout_level"] = tout_level
    written = data.get("written", base.written)
    if not isinstance(written, bool):
        e.add(f"{field}.written", "„written“ ist true oder false.")
    else:
        out["written"] = written
    out["laufende_min"] = _read_laufende_min(data.get("laufende_min"), base, e, field)
    unknown = set(data) - {"rufspiel", "solo", "laufende_min", *_FLAT, *_MORE}
    if unknown:
        e.add(field, "Unbekannt: %(keys)s.", keys=", ".join(sorted(map(str, unknown))))
    return PointScale(**{**base.__dict__, **out, "preset": base.preset})


_MORE = ("laufende_max", "tout_level", "herz_solo", "written", "preset")


#: each preset with its source, as the new-event page offers it
PRESET_SOURCES = {
    "default": Msg("Plus/Minus, Solo 6/9/12, Tout 24 (Grossreuth, Münchsmünster, Vohenstrauß)"),
    "self": Msg("SELF (Schafkopfturnier 2022): Solo 15/18/21, Tout 42, Sie 84, kein Kontra"),
    "donauries": Msg("Donauries-Schafkopfcup (Turnierregeln 2019/2020): wie SELF, Tout 30, "
                     "Sie 60, keine Laufenden"),
    "nur-gute": Msg("Nur Gute schreiben (TSG Niederfüllbach): Rufspiel 5/10/15, Solo 20, "
                    "Herz-Solo 30, Laufende ab 2"),
}  # fmt: skip


@dataclass(frozen=True)
class ScaleFigure:
    """One figure of the scale as a form shows it (the new-event page): its field, where it
    stands in the scale's JSON, its range, its words and the group it is shown in. A figure
    of ``laufende_min`` sets every game of ``games`` at once; ``zero_is_none``: 0 on the form
    is null in the JSON (no Herz-Solo of its own, no cap on the Laufende)."""

    name: str
    path: tuple[str, ...]
    low: int
    high: int
    label: Msg
    group: Msg
    games: tuple[str, ...] = ()
    zero_is_none: bool = False


_RUF, _SOLO = Msg("Rufspiel je Spieler"), Msg("Solo, Wenz, Geier")
_MORE_GAMES, _LAUF, _TIMES = (
    Msg("Bettel, Herz-Solo"),
    Msg("Laufende"),
    Msg("Tout, Sie, Kontra: mal"),
)
_WENZ_LIKE = tuple(g for g, n in DEFAULT_LAUFENDE_MIN.items() if n == 2)
SCALE_FIGURES: tuple[ScaleFigure, ...] = (
    *(ScaleFigure(f"sc_ruf_{k}", ("rufspiel", k), 0, MAX_POINTS, w, _RUF)
      for k, w in zip(LEVEL_KEYS, (Msg("einfach"), Msg("Schneider"), Msg("Schwarz")), strict=True)),
    *(ScaleFigure(f"sc_solo_{k}", ("solo", k), 0, MAX_POINTS, w, _SOLO)
      for k, w in zip(LEVEL_KEYS, (Msg("einfach"), Msg("Schneider"), Msg("Schwarz")), strict=True)),
    ScaleFigure("sc_bettel", ("bettel",), 0, MAX_POINTS, Msg("Bettel"), _MORE_GAMES),
    ScaleFigure("sc_herz_solo", ("herz_solo",), 0, MAX_POINTS,
                Msg("Herz-Solo (0: wie jedes Solo)"), _MORE_GAMES, zero_is_none=True),
    ScaleFigure("sc_lauf_ruf", ("laufender_rufspiel",), 0, MAX_POINTS,
                Msg("je Laufender im Rufspiel"), _LAUF),
    ScaleFigure("sc_lauf_solo", ("laufender_solo",), 0, MAX_POINTS, Msg("je Laufender im Solo"),
                _LAUF),
    ScaleFigure("sc_lauf_from", ("laufende_min",), 1, 14, Msg("zählen ab"), _LAUF,
                games=tuple(g for g in DEFAULT_LAUFENDE_MIN if g not in _WENZ_LIKE)),
    ScaleFigure("sc_lauf_from_wenz", ("laufende_min",), 1, 4, Msg("im Wenz und Geier ab"),
                _LAUF, games=_WENZ_LIKE),
    ScaleFigure("sc_lauf_max", ("laufende_max",), 0, 14, Msg("höchstens (0: alle)"), _LAUF,
                zero_is_none=True),
    ScaleFigure("sc_tout", ("tout",), 1, MAX_FACTOR, Msg("Tout"), _TIMES),
    ScaleFigure("sc_sie", ("sie",), 1, MAX_FACTOR, Msg("Sie"), _TIMES),
    ScaleFigure("sc_kontra", ("kontra",), 1, MAX_FACTOR, Msg("Kontra (1: zählt nicht)"), _TIMES),
)  # fmt: skip


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
        # a Tout is the Schwarz solo, announced; the Donauries cup doubles the plain figure
        level = Level.SCHWARZ if scale.tout_level == "schwarz" else Level.PLAIN
    value, parts = _scale_figure(deal, scale, level)
    steps.append(Step(Msg("%(label)s: %(parts)s = %(value)s", label=game_name(g, deal.suit),
                          parts=parts, value=value), SK_SCALE))  # fmt: skip
    value = _scale_factors(deal, scale, value, steps)
    written, deltas = _scale_entries(deal, scale, won, value, steps)
    # the row's Schn./Schw. marks show the levels the card points or boxes gave
    return SchafkopfResult(won=won, value=value, deltas=deltas, steps=tuple(steps), game=g,
                           written=written, schneider=schneider, schwarz=schwarz)  # fmt: skip


def _scale_figure(deal: SchafkopfDeal, scale: PointScale, level: Level) -> tuple[int, Msg]:
    """The game's figure on the scale at its level, with its Laufende (a Herz-Solo's own
    figure where the scale has one), and the words of the sum."""
    g = deal.game
    lmin = dict(scale.laufende_min)
    laufende = deal.laufende if deal.laufende >= lmin.get(g.value, 3) else 0
    if scale.laufende_max is not None:
        laufende = min(laufende, scale.laufende_max)  # more are not counted
    herz = scale.herz_solo if g is SKGame.SOLO else None
    if herz is not None and deal.suit is None:
        e = Errors()
        e.add("suit", "Ein Herz-Solo zählt hier %(points)s: bitte die Farbe des Solos angeben.",
              points=herz)  # fmt: skip
        e.raise_if_any()
    if g.bettel_class:
        return scale.bettel, Msg("Bettel %(value)s", value=scale.bettel)
    figures = scale.rufspiel if g.partner_game else scale.solo
    if herz is not None and deal.suit == "herz":
        figures = (herz,) * 3
    base = figures[level]
    per = scale.laufender_rufspiel if g.partner_game else scale.laufender_solo
    level_name = (Msg("einfach"), Msg("Schneider"), Msg("Schwarz"))[level]
    parts = Msg("%(level)s %(base)s + %(laufende)s × %(per)s Laufende", level=level_name,
                base=base, laufende=laufende, per=per)  # fmt: skip
    return base + laufende * per, parts


def _scale_factors(deal: SchafkopfDeal, scale: PointScale, value: int, steps: list[Step]) -> int:
    """Gestellt, Kontra and the rest, Sie or Tout, Bock: the scale's factors in turn."""
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
    return value


def _scale_entries(deal: SchafkopfDeal, scale: PointScale, won: bool, value: int,
                   steps: list[Step]) -> tuple[dict[str, int] | None, dict[str, int]]:  # fmt: skip
    """What each player writes ("nur Gute": only the winners, None otherwise) and the deltas
    (all 0 when only the winners write)."""
    sign = 1 if won else -1
    party = set(deal.declarers)
    if scale.written:
        # only the winners write; nothing changes hands (the deltas stay 0)
        winners = [p for p in deal.players if (p in party) == won]
        written = {p: value if p in winners else 0 for p in deal.players}
        steps.append(Step(Msg("%(names)s schreiben je %(value)s", names=", ".join(winners),
                              value=value), SK_SCALE))  # fmt: skip
        return written, dict.fromkeys(deal.players, 0)
    if deal.game.partner_game:
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
    return None, deltas


def check_zero_sum(deltas: Mapping[str, int]) -> bool:
    """The list's check of one deal: its plus and minus points sum to 0.

    >>> check_zero_sum({"A": 6, "B": -2, "C": -2, "D": -2}), check_zero_sum({"A": 1})
    (True, False)
    """
    return sum(deltas.values()) == 0
