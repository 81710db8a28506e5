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

from .common import Errors, Msg, check_ramsch, signed


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
    def partner_game(self) -> bool:
        return self in (SKGame.SAUSPIEL, SKGame.HOCHZEIT)

    @property
    def tariff_class(self) -> str:
        if self.partner_game:
            return "sauspiel"
        if self is SKGame.BETTEL:
            return "bettel"
        return "solo"

    @property
    def max_laufende(self) -> int:
        return LAUFENDE_MAX[self]

    @property
    def label(self) -> Msg:
        return SK_GAME_NAMES[self]


SK_GAME_NAMES = {
    SKGame.SAUSPIEL: Msg("Sauspiel", "Sauspiel (partner game)"),
    SKGame.HOCHZEIT: Msg("Hochzeit", "Hochzeit (wedding)"),
    SKGame.SOLO: Msg("Solo", "Solo"),
    SKGame.WENZ: Msg("Wenz", "Wenz"),
    SKGame.GEIER: Msg("Geier", "Geier"),
    SKGame.FARBWENZ: Msg("Farbwenz", "Farbwenz"),
    SKGame.FARBGEIER: Msg("Farbgeier", "Farbgeier"),
    SKGame.BETTEL: Msg("Bettel", "Bettel"),
}

LAUFENDE_MAX = {
    SKGame.SAUSPIEL: 14,
    SKGame.HOCHZEIT: 14,
    SKGame.SOLO: 14,
    SKGame.WENZ: 4,
    SKGame.GEIER: 4,
    SKGame.FARBWENZ: 11,
    SKGame.FARBGEIER: 11,
    SKGame.BETTEL: 0,
}

# The German deck's suits, as players name them; the suit only names the game.
SUITS = ("eichel", "gras", "herz", "schellen")
SUIT_NAMES = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}
SUIT_GAMES = {"sauspiel", "solo", "farbwenz", "farbgeier"}


def game_name(game: SKGame, suit: str | None) -> Msg:
    """ "Gras-Solo", "Eichel-Farbwenz"; the Sauspiel is named after its called Sau."""
    if suit is None or game is SKGame.SAUSPIEL:
        return game.label
    name = SUIT_NAMES[suit]
    return Msg(f"{name}-{game.label.de}", f"{name} {game.label.en.lower()}")


DEFAULT_TARIFFS: dict[str, int] = {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}
# "ramsch" (docs/rules.md 2.5) is a tariff of its own only where it is set; otherwise a Ramsch
# costs the Sauspiel tariff, as it did on every sheet stored before the key existed.
TARIFF_KEYS = (*DEFAULT_TARIFFS, "ramsch")
DEFAULT_LAUFENDE_MIN: dict[str, int] = {
    "sauspiel": 3,
    "hochzeit": 3,
    "solo": 3,
    "farbwenz": 3,
    "farbgeier": 3,
    "wenz": 2,
    "geier": 2,
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
    steps: tuple[Msg, ...]

    def explanation(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]


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


def full_laufende_min(overrides: Mapping[str, int] | None = None) -> dict[str, int]:
    out = dict(DEFAULT_LAUFENDE_MIN)
    out.update(overrides or {})
    return out


def validate(deal: SchafkopfDeal) -> None:
    e = Errors()
    g = deal.game
    players = deal.players
    if len(players) != 4:
        e.add("players", "Schafkopf spielen genau vier.", "Schafkopf is played by exactly four.")
    elif len(set(players)) != 4:
        e.add(
            "players",
            "Jeder Spieler darf nur einmal vorkommen.",
            "Each player may appear only once.",
        )
    elif any(not p.strip() for p in players):
        e.add("players", "Ein Spielername ist leer.", "A player name is empty.")
    need = 2 if g.partner_game else 1
    if len(deal.declarers) != need:
        if need == 2:
            e.add(
                "declarers",
                f"Im {g.label.de} spielen zwei zusammen: bitte beide nennen.",
                f"In a {g.label.en} two play together: name both.",
            )
        else:
            e.add(
                "declarers",
                f"Ein {g.label.de} wird allein gespielt: bitte genau einen Spieler nennen.",
                f"A {g.label.en} is played alone: name exactly one player.",
            )
    elif len(set(deal.declarers)) != len(deal.declarers):
        e.add(
            "declarers",
            "Derselbe Spieler steht zweimal in der Spielerpartei.",
            "The same player is named twice in the player party.",
        )
    elif not e.has("players") and any(d not in players for d in deal.declarers):
        unknown = ", ".join(d for d in deal.declarers if d not in players)
        e.add(
            "declarers",
            f"{unknown} sitzt nicht am Tisch.",
            f"{unknown} is not at the table.",
        )
    if (deal.player_points is None) == (deal.won is None):
        e.add(
            "_",
            "Bitte entweder die Augen der Spielerpartei oder gewonnen/verloren angeben.",
            "Give either the player party's card points or won/lost, not both.",
        )
    if deal.player_points is not None:
        if g is SKGame.BETTEL:
            e.add(
                "player_points",
                "Beim Bettel zählen keine Augen: nur gewonnen oder verloren.",
                "A Bettel counts no card points: only won or lost.",
            )
        elif not 0 <= deal.player_points <= 120:
            e.add(
                "player_points",
                f"{deal.player_points} Augen gibt es nicht: es sind 0 bis 120.",
                f"{deal.player_points} card points is impossible: there are 0 to 120.",
            )
    if g is SKGame.BETTEL:
        for name, present in (
            ("schneider", deal.schneider),
            ("schwarz", deal.schwarz),
            ("laufende", deal.laufende > 0),
        ):
            if present:
                e.add(
                    name,
                    "Beim Bettel gibt es keinen Schneider, kein Schwarz und keine Laufenden.",
                    "A Bettel has no schneider, schwarz or Laufende.",
                )
    if deal.laufende < 0:
        e.add("laufende", "Laufende können nicht negativ sein.", "Laufende cannot be negative.")
    elif g is not SKGame.BETTEL and deal.laufende > g.max_laufende:
        e.add(
            "laufende",
            f"Im {g.label.de} gibt es höchstens {g.max_laufende} Laufende.",
            f"A {g.label.en} has at most {g.max_laufende} Laufende.",
        )
    if deal.tout or deal.sie:
        if g.partner_game or g is SKGame.BETTEL:
            e.add(
                "sie" if deal.sie and not deal.tout else "tout",
                f"Tout und Sie gibt es nur bei Soli, nicht im {g.label.de}.",
                f"Tout and Sie exist only in solo games, not in a {g.label.en}.",
            )
        elif deal.sie and g is not SKGame.SOLO:
            e.add(
                "sie",
                f"Ein Sie (alle Ober und Unter) gibt es nur im Farbsolo, nicht im {g.label.de}.",
                f"A Sie (all Ober and Unter) exists only in a Farbsolo, not in a {g.label.en}.",
            )
    if deal.suit is not None:
        if deal.suit not in SUITS:
            e.add(
                "suit",
                "Farben: eichel, gras, herz, schellen.",
                "Suits: eichel, gras, herz, schellen.",
            )
        elif g.value not in SUIT_GAMES:
            e.add(
                "suit",
                f"Im {g.label.de} gibt es keine Farbe anzusagen.",
                f"A {g.label.en} has no suit to name.",
            )
        elif g is SKGame.SAUSPIEL and deal.suit == "herz":
            e.add(
                "suit",
                "Die Herz-Sau kann man nicht rufen (Herz ist Trumpf).",
                "The Herz Sau cannot be called (Herz is trump).",
            )
    for name, count, what in (
        ("gestellt", deal.gestellt, Msg("gestellt", "gestellt")),
        ("kontra", deal.kontra, Msg("Kontra/Re/Sub/Hirsch", "Kontra/Re/Sub/Hirsch")),
    ):
        if not 0 <= count <= 4:
            e.add(
                name,
                f"{what.de}: 0 bis 4 Mal, nicht {count}.",
                f"{what.en}: 0 to 4 times, not {count}.",
            )
    for key, amount in deal.tariffs.items():
        if key not in TARIFF_KEYS:
            e.add("tariffs", f"Unbekannter Tarif „{key}“.", f"Unknown tariff “{key}”.")
        elif not 0 <= amount <= 100_000:
            e.add(
                "tariffs",
                f"Tarif {key}: 0 bis 100000 Cent, nicht {amount}.",
                f"Tariff {key}: 0 to 100000 cents, not {amount}.",
            )
    for key, amount in deal.laufende_min.items():
        try:
            top = SKGame(key).max_laufende
        except ValueError:
            top = 0
        if key not in DEFAULT_LAUFENDE_MIN:
            e.add(
                "laufende_min",
                f"Unbekanntes Spiel „{key}“ für Laufende.",
                f"Unknown game “{key}” for Laufende.",
            )
        elif not 1 <= amount <= top:
            e.add(
                "laufende_min",
                f"Laufende im {key}: ab 1 bis {top}, nicht {amount}.",
                f"Laufende in {key}: from 1 to {top}, not {amount}.",
            )
    pts = deal.player_points
    if deal.schwarz and pts is not None and 0 <= pts <= 120 and pts not in (0, 120):
        e.add(
            "schwarz",
            f"Schwarz heißt: eine Partei bekam keinen Stich, dann hat die andere 120 oder 0 Augen, "
            f"nicht {pts}.",
            f"Schwarz means one party took no trick, so the other has 120 or 0 card points, "
            f"not {pts}.",
        )
    e.raise_if_any()


def schafkopf_value(deal: SchafkopfDeal) -> SchafkopfResult:
    """Value and the four payments of one Schafkopf game (docs/rules.md 2.2-2.4)."""
    validate(deal)
    g = deal.game
    tariffs = full_tariffs(deal.tariffs)
    lmin = full_laufende_min(deal.laufende_min)
    extra = tariffs["extra"]
    tout = deal.tout or deal.sie
    steps: list[Msg] = []

    pts = deal.player_points
    if pts is not None:
        if tout:
            # A Tout is won only when the opponents took no trick at all.
            won = pts == 120 and deal.schwarz
        else:
            won = pts >= 61
        schneider = pts >= 91 or pts <= 30
        schwarz = deal.schwarz
        party = Msg("Spielerpartei", "player party")
        steps.append(
            Msg(
                f"{party.de}: {pts} Augen → {'gewonnen' if won else 'verloren'}"
                + (" (60:60 ist verloren)" if pts == 60 else "")
                + (", Schneider" if schneider else ""),
                f"{party.en}: {pts} card points → {'won' if won else 'lost'}"
                + (" (60:60 is lost)" if pts == 60 else "")
                + (", schneider" if schneider else ""),
            )
        )
    else:
        won = bool(deal.won)
        schneider = deal.schneider or deal.schwarz
        schwarz = deal.schwarz
        if tout and won:
            schwarz = True
            schneider = True
    if g is SKGame.BETTEL:
        schneider = schwarz = False
    if tout and not deal.tout_counts_schneider_schwarz:
        if schneider or schwarz:
            steps.append(
                Msg(
                    "Tout: Schneider und Schwarz sind im Tout enthalten (Hausregel)",
                    "Tout: schneider and schwarz are included in the Tout (house rule)",
                )
            )
        schneider = schwarz = False

    tclass = g.tariff_class
    tariff = tariffs[tclass]
    tname = {"sauspiel": Msg("Sauspiel", "Sauspiel"), "solo": Msg("Solo", "Solo"),
             "bettel": Msg("Bettel", "Bettel")}[tclass]  # fmt: skip
    parts_de = [f"{tariff} [{tname.de}]"]
    parts_en = [f"{tariff} [{tname.en}]"]
    value = tariff
    if schneider:
        value += extra
        parts_de.append(f"{extra} [Schneider]")
        parts_en.append(f"{extra} [schneider]")
    if schwarz:
        value += extra
        parts_de.append(f"{extra} [Schwarz]")
        parts_en.append(f"{extra} [schwarz]")
    minimum = lmin.get(g.value, 3)
    if deal.laufende >= minimum and deal.laufende > 0:
        value += deal.laufende * extra
        parts_de.append(f"{deal.laufende} × {extra} [Laufende]")
        parts_en.append(f"{deal.laufende} × {extra} [Laufende]")
    elif deal.laufende > 0:
        steps.append(
            Msg(
                f"{deal.laufende} Laufende zählen im {g.label.de} erst ab {minimum}",
                f"{deal.laufende} Laufende count in a {g.label.en} only from {minimum}",
            )
        )
    label = game_name(g, deal.suit)
    steps.append(Msg(f"{label.de}: " + " + ".join(parts_de) + f" = {value}",
                     f"{label.en}: " + " + ".join(parts_en) + f" = {value}"))  # fmt: skip

    def double(times: int, de: str, en: str, factor: int = 2) -> None:
        nonlocal value
        for _ in range(times):
            value *= factor
            steps.append(Msg(f"{de} × {factor} = {value}", f"{en} × {factor} = {value}"))

    double(deal.gestellt, "gestellt", "gestellt")
    kontra_names = ("Kontra", "Re", "Sub", "Hirsch")
    for i in range(deal.kontra):
        double(1, kontra_names[i], kontra_names[i])
    if deal.sie:
        double(1, "Sie", "Sie", 4)
    elif deal.tout:
        double(1, "Tout", "Tout")
    double(deal.bock, "Bock", "Bock")

    players = deal.players
    in_party = set(deal.declarers)
    sign = 1 if won else -1
    deltas: dict[str, int] = {}
    if g.partner_game:
        for p in players:
            deltas[p] = sign * value if p in in_party else -sign * value
    else:
        for p in players:
            deltas[p] = sign * 3 * value if p in in_party else -sign * value
    assert sum(deltas.values()) == 0, "Schafkopf payments must be zero-sum"

    names = "+".join(deal.declarers)
    if won:
        steps.append(Msg(f"gewonnen: {names}", f"won: {names}"))
    else:
        steps.append(Msg(f"verloren: {names}", f"lost: {names}"))
    if g.partner_game:
        steps.append(
            Msg(
                f"jeder Gewinner {signed(value)}, jeder Verlierer {signed(-value)}",
                f"each winner {signed(value)}, each loser {signed(-value)}",
            )
        )
    else:
        solo = deal.declarers[0]
        if won:
            steps.append(
                Msg(
                    f"{solo} erhält 3 × {value} = {3 * value}, jeder Gegner zahlt {value}",
                    f"{solo} receives 3 × {value} = {3 * value}, each defender pays {value}",
                )
            )
        else:
            steps.append(
                Msg(
                    f"{solo} zahlt 3 × {value} = {3 * value}, jeder Gegner erhält {value}",
                    f"{solo} pays 3 × {value} = {3 * value}, each defender receives {value}",
                )
            )
    return SchafkopfResult(won=won, value=value, deltas=deltas, steps=tuple(steps))


# --- Ramsch (docs/rules.md 2.5) ---------------------------------------------------------------


@dataclass(frozen=True)
class RamschResult:
    deltas: dict[str, int]
    losers: tuple[str, ...]
    steps: tuple[Msg, ...]

    def explanation(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]


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
    steps: list[Msg] = []
    deltas = dict.fromkeys(players, 0)
    if durchmarsch is not None:
        value = (t["solo"] + 2 * t["extra"]) * factor
        steps.append(
            Msg(
                f"Durchmarsch {durchmarsch}: wie ein Solo schwarz, {value} von jedem",
                f"Durchmarsch {durchmarsch}: like a solo won schwarz, {value} from each",
            )
        )
        for p in players:
            deltas[p] = 3 * value if p == durchmarsch else -value
        return RamschResult(deltas, (), tuple(steps))
    tariff = ramsch_tariff(t) * factor
    top = max(points.values())
    losers = tuple(p for p in players if points[p] == top)
    steps.append(
        Msg(
            f"Ramsch: die meisten Augen ({top}) hat {', '.join(losers)}; Tarif {tariff}",
            f"Ramsch: most points ({top}): {', '.join(losers)}; tariff {tariff}",
        )
    )
    for loser in losers:
        for p in players:
            if p in losers:
                continue
            amount = tariff * (2 if p in jungfrau else 1)
            deltas[loser] -= amount
            deltas[p] += amount
    for j in jungfrau:
        steps.append(Msg(f"Jungfrau {j}: erhält doppelt", f"Jungfrau {j}: receives double"))
    steps.append(
        Msg(
            ", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
            ", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
        )
    )
    assert sum(deltas.values()) == 0
    return RamschResult(deltas, losers, tuple(steps))
