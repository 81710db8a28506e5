"""Schafkopf tariffs and payments, as docs/rules.md Part 2 and the seed's algorithm fix them.

Every result is zero-sum::

    >>> r = schafkopf_value(SchafkopfDeal(SKGame.WENZ, declarers=("B",), won=True,
    ...                                   schneider=True, laufende=3, gestellt=1))
    >>> r.value, r.deltas
    (120, {'A': -120, 'B': 360, 'C': -120, 'D': -120})
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...rules import cite
from ...rules.cite import Step
from ...rules.common import Errors, Msg, check_ramsch, joined, pmsg, signed, verbatim
from ...rules.contracts import ContractRow
from .contracts import BY_KEY, CONTRACTS


class SKGame(enum.Enum):
    SAUSPIEL = "sauspiel"
    HOCHZEIT = "hochzeit"
    SOLO = "solo"
    WENZ = "wenz"
    GEIER = "geier"
    FARBWENZ = "farbwenz"
    FARBGEIER = "farbgeier"
    BETTEL = "bettel"

    @property
    def row(self) -> ContractRow:
        """Its row of the contracts table (contracts.py)."""
        return BY_KEY[self.value]

    @property
    def partner_game(self) -> bool:
        return self.row.partner

    @property
    def tariff_class(self) -> str:
        return self.row.tariff

    @property
    def bettel_class(self) -> bool:
        """A Bettel: won/lost only, no Schneider, Schwarz, Laufende or Tout (a game of its
        tariff class, so a new Bettel-like game in the contracts table is one too)."""
        return self.row.tariff == "bettel"

    @property
    def max_laufende(self) -> int:
        return LAUFENDE_MAX[self]

    @property
    def label(self) -> Msg:
        return SK_GAME_NAMES[self]


SK_GAME_NAMES = {g: g.row.name for g in SKGame}
LAUFENDE_MAX = {g: g.row.laufende_max for g in SKGame}

# The German deck's suits, as players name them; the suit only names the game.
SUITS = ("eichel", "gras", "herz", "schellen")
SUIT_NAMES = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}
SUIT_GAMES = {row.key for row in CONTRACTS if row.names_suit}
_SOLO_TITLE = Msg("%(suit)s-Solo")


def game_name(game: SKGame, suit: str | None) -> Msg:
    """ "Gras-Solo", "Eichel-Farbwenz"; the Sauspiel is named after its called Sau."""
    if suit is None or (game.row.names_suit and game.row.suit_title is None):
        return game.label  # the Sauspiel: named after its called Sau elsewhere
    title = game.row.suit_title or _SOLO_TITLE
    return Msg.of(title.id, {"suit": SUIT_NAMES[suit]})


DEFAULT_TARIFFS: dict[str, int] = {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}
# "ramsch" (docs/rules.md 2.5) is a tariff of its own only where it is set; otherwise a Ramsch
# costs the Sauspiel tariff, as it did on every sheet stored before the key existed. Likewise
# "schneider" (the Schneider and the Schwarz level) and "laufende" (per Laufender, 2.7) follow
# "extra" unless set, so every sheet stored before them computes as it did.
TARIFF_KEYS = (*DEFAULT_TARIFFS, "ramsch", "schneider", "laufende")
# the games with Laufende, as every stored sheet keeps them: those counted from 3 first
DEFAULT_LAUFENDE_MIN: dict[str, int] = {
    row.key: row.laufende_min
    for row in sorted(CONTRACTS, key=lambda row: -row.laufende_min)
    if row.laufende_max
}
DEFAULT_PLAYERS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class SchafkopfDeal:
    game: SKGame
    declarers: tuple[str, ...]
    players: tuple[str, ...] = DEFAULT_PLAYERS
    player_points: int | None = None
    won: bool | None = None
    schneider: bool = False
    schwarz: bool = False
    laufende: int = 0
    tout: bool = False
    sie: bool = False
    gestellt: int = 0
    kontra: int = 0
    tariffs: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_TARIFFS))
    tout_counts_schneider_schwarz: bool = True
    laufende_min: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_LAUFENDE_MIN))
    bock: int = 0  # number of Bock doublings in force (sheets only)
    suit: str | None = None  # trump suit of a Farbsolo/-wenz/-geier, the called Sau


@dataclass(frozen=True)
class SchafkopfResult:
    won: bool
    value: int
    deltas: dict[str, int]
    steps: tuple[Step, ...]
    game: SKGame | None = None  # which game it was (a sheet's Stock asks)
    #: on a "nur Gute" tournament scale: the points each winner writes (docs/rules.md 2.8)
    written: dict[str, int] | None = None
    # the levels the value counted (card points >= 91 are Schneider without the box; a won
    # Tout counts both unless the house rule says not): what the row's marks show. None
    # where a result does not say (then the marks read the deal's boxes)
    schneider: bool | None = None
    schwarz: bool | None = None

    def json_fields(self) -> dict[str, object]:
        """POST /api/v1/schafkopf/value's figures, and a Schafkopf row's ``result``."""
        out: dict[str, object] = {"won": self.won, "value": self.value, "deltas": dict(self.deltas)}
        if self.written is not None:
            out["written"] = dict(self.written)
        return out


def full_tariffs(overrides: Mapping[str, int] | None = None) -> dict[str, int]:
    """Defaults with overrides; Bettel follows the Solo tariff unless set on its own.

    >>> full_tariffs({"solo": 50})
    {'sauspiel': 10, 'solo': 50, 'bettel': 50, 'extra': 10}
    >>> full_tariffs({"ramsch": 30})["ramsch"]
    30
    """
    out = dict(DEFAULT_TARIFFS)
    given = dict(overrides or {})
    if "solo" in given and "bettel" not in given:
        out["bettel"] = given["solo"]
    out.update(given)
    return out


def ramsch_tariff(tariffs: Mapping[str, int]) -> int:
    """The Ramsch tariff: its own where set, else the Sauspiel tariff (docs/rules.md 2.5).

    >>> ramsch_tariff(full_tariffs()), ramsch_tariff(full_tariffs({"ramsch": 30}))
    (10, 30)
    """
    return tariffs.get("ramsch", tariffs["sauspiel"])


def schneider_tariff(tariffs: Mapping[str, int]) -> int:
    """The price of the Schneider and of the Schwarz level: its own where set, else extra.

    >>> schneider_tariff(full_tariffs()), schneider_tariff(full_tariffs({"schneider": 25}))
    (10, 25)
    """
    return tariffs.get("schneider", tariffs["extra"])


def laufende_tariff(tariffs: Mapping[str, int]) -> int:
    """The price of one Laufender: its own where set, else extra (docs/rules.md 2.7).

    >>> laufende_tariff(full_tariffs({"extra": 20})), laufende_tariff(full_tariffs({"laufende": 5}))
    (20, 5)
    """
    return tariffs.get("laufende", tariffs["extra"])


def full_laufende_min(overrides: Mapping[str, int] | None = None) -> dict[str, int]:
    out = dict(DEFAULT_LAUFENDE_MIN)
    out.update(overrides or {})
    return out


def validate(deal: SchafkopfDeal) -> None:
    """Refuse every invalid deal at once: its parties, what the game allows, the counts and
    the table's settings."""
    e = Errors()
    _validate_parties(deal, e)
    _validate_game(deal, e)
    _validate_counts(deal, e)
    e.raise_if_any()


def party_message(g: SKGame) -> Msg:
    """What the player party of ``g`` is, said when it is not named so (the entry form says
    it too when none is ticked)."""
    if g.partner_game:
        return Msg("Im %(label)s spielen zwei zusammen: bitte beide nennen.", label=g.label)
    return Msg("Ein %(label)s wird allein gespielt: bitte genau einen Spieler nennen.",
               label=g.label)  # fmt: skip


def _validate_parties(deal: SchafkopfDeal, e: Errors) -> None:
    """Four players, each once; the player party as the game has it."""
    g = deal.game
    players = deal.players
    if len(players) != 4:
        e.add("players", "Schafkopf spielen genau vier.")
    elif len(set(players)) != 4:
        e.add("players", "Jeder Spieler darf nur einmal vorkommen.")
    elif any(not p.strip() for p in players):
        e.add("players", "Ein Spielername ist leer.")
    need = 2 if g.partner_game else 1
    if len(deal.declarers) != need:
        e.add("declarers", party_message(g))
    elif len(set(deal.declarers)) != len(deal.declarers):
        e.add("declarers", "Derselbe Spieler steht zweimal in der Spielerpartei.")
    elif not e.has("players") and any(d not in players for d in deal.declarers):
        unknown = ", ".join(d for d in deal.declarers if d not in players)
        e.add("declarers", "%(unknown)s sitzt nicht am Tisch.", unknown=unknown)


def _validate_game(deal: SchafkopfDeal, e: Errors) -> None:
    """The outcome, and what the game allows: Bettel, Laufende, Tout and Sie, the suit."""
    g = deal.game
    if (deal.player_points is None) == (deal.won is None):
        e.add("_", "Bitte entweder die Augen der Spielerpartei oder gewonnen/verloren angeben.")
    if deal.player_points is not None:
        if g.bettel_class:
            e.add("player_points", "Beim Bettel zählen keine Augen: nur gewonnen oder verloren.")
        elif not 0 <= deal.player_points <= 120:
            e.add(
                "player_points",
                "%(player_points)s Augen gibt es nicht: es sind 0 bis 120.",
                player_points=deal.player_points,
            )
    if g.bettel_class:
        for name, present in (
            ("schneider", deal.schneider),
            ("schwarz", deal.schwarz),
            ("laufende", deal.laufende > 0),
        ):
            if present:
                e.add(
                    name, "Beim Bettel gibt es keinen Schneider, kein Schwarz und keine Laufenden."
                )
    if deal.laufende < 0:
        e.add("laufende", "Laufende können nicht negativ sein.")
    elif not g.bettel_class and deal.laufende > g.max_laufende:
        e.add(
            "laufende",
            "Im %(label)s gibt es höchstens %(max_laufende)s Laufende.",
            label=g.label,
            max_laufende=g.max_laufende,
        )
    if deal.tout or deal.sie:
        if g.partner_game or g.bettel_class:
            e.add(
                "sie" if deal.sie and not deal.tout else "tout",
                "Tout und Sie gibt es nur bei Soli, nicht im %(label)s.",
                label=g.label,
            )
        elif deal.sie and g is not SKGame.SOLO:
            e.add(
                "sie",
                "Ein Sie (alle Ober und Unter) gibt es nur im Farbsolo, nicht im %(label)s.",
                label=g.label,
            )
    if deal.suit is not None:
        if deal.suit not in SUITS:
            e.add("suit", "Farben: eichel, gras, herz, schellen.")
        elif g.value not in SUIT_GAMES:
            e.add("suit", "Im %(label)s gibt es keine Farbe anzusagen.", label=g.label)
        elif deal.suit in g.row.barred_suits:
            e.add("suit", "Die Herz-Sau kann man nicht rufen (Herz ist Trumpf).")


def _validate_counts(deal: SchafkopfDeal, e: Errors) -> None:
    """Gestellt and Kontra, the tariffs and Laufende settings, Schwarz against the points."""
    for name, count, what in (
        ("gestellt", deal.gestellt, Msg("gestellt")),
        ("kontra", deal.kontra, Msg("Kontra/Re/Sub/Hirsch")),
    ):
        if not 0 <= count <= 4:
            e.add(name, "%(what)s: 0 bis 4 Mal, nicht %(count)s.", what=what, count=count)
    for key, amount in deal.tariffs.items():
        if key not in TARIFF_KEYS:
            e.add("tariffs", "Unbekannter Tarif „%(key)s“.", key=key)
        elif not 0 <= amount <= 100_000:
            e.add(
                "tariffs",
                "Tarif %(key)s: 0 bis 100000 Cent, nicht %(amount)s.",
                key=key,
                amount=amount,
            )
    for key, amount in deal.laufende_min.items():
        try:
            top = SKGame(key).max_laufende
        except ValueError:
            top = 0
        if key not in DEFAULT_LAUFENDE_MIN:
            e.add("laufende_min", "Unbekanntes Spiel „%(key)s“ für Laufende.", key=key)
        elif not 1 <= amount <= top:
            e.add(
                "laufende_min",
                "Laufende im %(key)s: ab 1 bis %(top)s, nicht %(amount)s.",
                key=key,
                top=top,
                amount=amount,
            )
    pts = deal.player_points
    if deal.schwarz and pts is not None and 0 <= pts <= 120 and pts not in (0, 120):
        e.add(
            "schwarz",
            "Schwarz heißt: eine Partei bekam keinen Stich, dann hat die andere 120 oder 0 Augen, nicht %(pts)s.",
            pts=pts,
        )


def schafkopf_value(deal: SchafkopfDeal) -> SchafkopfResult:
    """Value and the four payments of one Schafkopf game (docs/rules.md 2.2-2.4)."""
    validate(deal)
    steps: list[Step] = []
    won, schneider, schwarz = _outcome(deal, steps)
    value = _base_value(deal, schneider, schwarz, steps)
    value = _doublings(deal, value, steps)
    deltas = _payments(deal, won, value, steps)
    return SchafkopfResult(won=won, value=value, deltas=deltas, steps=tuple(steps),
                           game=deal.game, schneider=schneider, schwarz=schwarz)  # fmt: skip


def _outcome(deal: SchafkopfDeal, steps: list[Step]) -> tuple[bool, bool, bool]:
    """Won, Schneider and Schwarz as the value counts them (2.2, 2.4 step 4): from the card
    points or the buttons; never in a Bettel; in a Tout as the house rule says."""
    tout = deal.tout or deal.sie
    pts = deal.player_points
    if pts is not None:
        if tout:
            # A Tout is won only when the opponents took no trick at all.
            won = pts == 120 and deal.schwarz
        else:
            won = pts >= 61
        schneider = pts >= 91 or pts <= 30
        schwarz = deal.schwarz
        verdict = Msg("gewonnen") if won else Msg("verloren")
        if pts == 60:
            verdict = Msg("verloren (60:60 ist verloren)")
        if schneider:
            verdict = Msg("%(verdict)s, Schneider", verdict=verdict)
        steps.append(Step(Msg("Spielerpartei: %(pts)s Augen → %(verdict)s", pts=pts,
                              verdict=verdict), cite.SK_WINNING))  # fmt: skip
    else:
        won = bool(deal.won)
        schneider = deal.schneider or deal.schwarz
        schwarz = deal.schwarz
        if tout and won:
            schwarz = True
            schneider = True
    if deal.game.bettel_class:
        schneider = schwarz = False
    if tout and not deal.tout_counts_schneider_schwarz:
        if schneider or schwarz:
            steps.append(Step(Msg("Tout: Schneider und Schwarz sind im Tout enthalten (Hausregel)"),
                              cite.house(Msg("Tout: Schneider/Schwarz inbegriffen"))))  # fmt: skip
        schneider = schwarz = False
    return won, schneider, schwarz


def _base_value(deal: SchafkopfDeal, schneider: bool, schwarz: bool, steps: list[Step]) -> int:
    """Step 1 of 2.4: the tariff, Schneider, Schwarz and the Laufende; then the contract's
    own factor (its column of the contracts table)."""
    g = deal.game
    tariffs = full_tariffs(deal.tariffs)
    extra = schneider_tariff(tariffs)
    per_laufender = laufende_tariff(tariffs)
    tclass = g.tariff_class
    tariff = tariffs[tclass]
    tname = {"sauspiel": pmsg("tariff", "Sauspiel"), "solo": pmsg("tariff", "Solo"),
             "bettel": pmsg("tariff", "Bettel")}[tclass]  # fmt: skip
    parts = [Msg("%(tariff)s [%(name)s]", tariff=tariff, name=tname)]
    value = tariff
    if schneider:
        value += extra
        parts.append(Msg("%(extra)s [Schneider]", extra=extra))
    if schwarz:
        value += extra
        parts.append(Msg("%(extra)s [Schwarz]", extra=extra))
    minimum = full_laufende_min(deal.laufende_min).get(g.value, 3)
    if deal.laufende >= minimum and deal.laufende > 0:
        value += deal.laufende * per_laufender
        parts.append(Msg("%(laufende)s × %(extra)s [Laufende]", laufende=deal.laufende,
                         extra=per_laufender))  # fmt: skip
    elif deal.laufende > 0:
        steps.append(Step(
            Msg(
                "%(laufende)s Laufende zählen im %(label)s erst ab %(minimum)s",
                laufende=deal.laufende,
                label=g.label,
                minimum=minimum,
            ),
            cite.SK_LAUFENDE,
        ))  # fmt: skip
    label = game_name(g, deal.suit)
    steps.append(Step(Msg("%(label)s: %(parts)s = %(value)s", label=label,
                          parts=joined(" + ", parts), value=value), cite.SK_VALUE))  # fmt: skip
    if g.row.factor != 1:  # the contract's own factor (contracts.py)
        value *= g.row.factor
        steps.append(Step(Msg("%(label)s × %(factor)s = %(value)s", label=label,
                              factor=g.row.factor, value=value), cite.SK_VALUE))  # fmt: skip
    return value


def _doublings(deal: SchafkopfDeal, value: int, steps: list[Step]) -> int:
    """Steps 2-4 of 2.4 and Bock (2.6): gestellt, Kontra/Re/Sub/Hirsch, Tout or Sie, Bock."""

    def double(times: int, word: str, factor: int = 2) -> None:
        # the words (gestellt, Kontra, Re, Sub, Hirsch, Sie, Tout, Bock) read alike in English
        nonlocal value
        for _ in range(times):
            value *= factor
            rule = cite.house(cite.BOCK) if word == "Bock" else cite.SK_VALUE
            steps.append(Step(Msg("%(word)s × %(factor)s = %(value)s", word=word, factor=factor,
                                  value=value), rule))  # fmt: skip

    double(deal.gestellt, "gestellt")
    kontra_names = ("Kontra", "Re", "Sub", "Hirsch")
    for i in range(deal.kontra):
        double(1, kontra_names[i])
    if deal.sie:
        double(1, "Sie", 4)
    elif deal.tout:
        double(1, "Tout")
    double(deal.bock, "Bock")
    return value


def _payments(deal: SchafkopfDeal, won: bool, value: int, steps: list[Step]) -> dict[str, int]:
    """Step 5 of 2.4: who pays whom; every row sums to 0."""
    partner = deal.game.partner_game
    in_party = set(deal.declarers)
    sign = 1 if won else -1
    per_player = 1 if partner else 3
    deltas = {p: sign * per_player * value if p in in_party else -sign * value
              for p in deal.players}  # fmt: skip
    assert sum(deltas.values()) == 0, "Schafkopf payments must be zero-sum"
    names = "+".join(deal.declarers)
    if won:
        steps.append(Step(Msg("gewonnen: %(names)s", names=names), cite.SK_WINNING))
    else:
        steps.append(Step(Msg("verloren: %(names)s", names=names), cite.SK_WINNING))
    if partner:
        steps.append(Step(
            Msg(
                "jeder Gewinner %(value)s, jeder Verlierer %(minus_value)s",
                value=signed(value),
                minus_value=signed(-value),
            ),
            cite.SK_VALUE,
        ))  # fmt: skip
        return deltas
    solo, v = deal.declarers[0], 3 * value
    if won:
        text = Msg("%(solo)s erhält 3 × %(value)s = %(v)s, jeder Gegner zahlt %(value)s",
                   solo=solo, value=value, v=v)  # fmt: skip
    else:
        text = Msg("%(solo)s zahlt 3 × %(value)s = %(v)s, jeder Gegner erhält %(value)s",
                   solo=solo, value=value, v=v)  # fmt: skip
    steps.append(Step(text, cite.SK_VALUE))
    return deltas


# --- Ramsch (docs/rules.md 2.5) ---------------------------------------------------------------


@dataclass(frozen=True)
class RamschResult:
    deltas: dict[str, int]
    losers: tuple[str, ...]
    steps: tuple[Step, ...]


def schafkopf_ramsch(
    players: tuple[str, ...],
    points: Mapping[str, int],
    jungfrau: tuple[str, ...] = (),
    durchmarsch: str | None = None,
    tariffs: Mapping[str, int] | None = None,
    bock: int = 0,
) -> RamschResult:
    """Everyone passed: the most card points pay; a Jungfrau receives double."""
    t = full_tariffs(tariffs)
    e = Errors()
    check_ramsch(players, points, jungfrau, durchmarsch, e)
    e.raise_if_any()
    factor = 2**bock
    steps: list[Step] = []
    deltas = dict.fromkeys(players, 0)
    if durchmarsch is not None:
        value = (t["solo"] + 2 * schneider_tariff(t)) * factor
        steps.append(Step(
            Msg(
                "Durchmarsch %(durchmarsch)s: wie ein Solo schwarz, %(value)s von jedem",
                durchmarsch=durchmarsch,
                value=value,
            ),
            cite.SK_RAMSCH,
        ))  # fmt: skip
        for p in players:
            deltas[p] = 3 * value if p == durchmarsch else -value
        return RamschResult(deltas, (), tuple(steps))
    tariff = ramsch_tariff(t) * factor
    top = max(points.values())
    losers = tuple(p for p in players if points[p] == top)
    steps.append(Step(
        Msg(
            "Ramsch: die meisten Augen (%(top)s) hat %(losers)s; Tarif %(tariff)s",
            top=top,
            losers=", ".join(losers),
            tariff=tariff,
        ),
        cite.SK_RAMSCH,
    ))  # fmt: skip
    for loser in losers:
        for p in players:
            if p in losers:
                continue
            amount = tariff * (2 if p in jungfrau else 1)
            deltas[loser] -= amount
            deltas[p] += amount
    for j in jungfrau:
        steps.append(Step(Msg("Jungfrau %(j)s: erhält doppelt", j=j), cite.SK_RAMSCH))
    steps.append(Step(verbatim(", ".join(f"{p} {signed(d)}" for p, d in deltas.items())),
                      cite.SK_RAMSCH))  # fmt: skip
    assert sum(deltas.values()) == 0
    return RamschResult(deltas, losers, tuple(steps))
