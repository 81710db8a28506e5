"""Turn the JSON-shaped input of docs/api.md into rule objects, strictly.

The API, the HTML forms and the stored sheet deals all go through these functions, so a deal
means the same thing wherever it was entered. Pure: no Flask, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import Errors, InvalidDeal, Msg
from .schafkopf import (
    SUITS,
    SchafkopfDeal,
    SKGame,
    full_laufende_min,
    full_tariffs,
)
from .skat import (
    Game,
    Party,
    SkatDeal,
    check_cards,
    matadors_from_cards,
    matadors_note,
    validate,
    won_in_play,
)

BIG = 1_000_000_000
FIELD_MISSING = Msg("Dieses Feld fehlt.")
_MISSING = object()


class Reader:
    """Reads typed fields from a mapping, noting every wrong type and every unknown field."""

    def __init__(self, data: object, errors: Errors | None = None) -> None:
        self.errors = errors if errors is not None else Errors()
        if not isinstance(data, Mapping):
            self.errors.add("_", "Erwartet wird ein JSON-Objekt mit Feldern.")
            data = {}
        self.data: Mapping[str, Any] = data
        self.seen: set[str] = set()

    def _get(self, name: str) -> Any:
        self.seen.add(name)
        value = self.data.get(name, _MISSING)
        return _MISSING if value is None else value

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def boolean(self, name: str, default: bool | None = False) -> bool | None:
        v = self._get(name)
        if v is _MISSING:
            return default
        if not isinstance(v, bool):
            self.errors.add(name, "Erwartet: wahr oder falsch.")
            return default
        return v

    def integer(self, name: str, default: int | None = None) -> int | None:
        v = self._get(name)
        if v is _MISSING:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            self.errors.add(name, "Erwartet: eine ganze Zahl.")
            return default
        if abs(v) > BIG:
            self.errors.add(name, "Diese Zahl ist viel zu groß.")
            return default
        return v

    def choice(
        self,
        name: str,
        choices: Mapping[str, Any],
        required: bool = True,
        missing: Msg | None = None,
    ) -> Any:
        v = self._get(name)
        if v is _MISSING:
            if required:
                m = missing or FIELD_MISSING
                self.errors.add(name, m)
            return None
        if not isinstance(v, str) or v not in choices:
            allowed = ", ".join(choices)
            self.errors.add(name, "Erlaubt sind: %(allowed)s.", allowed=allowed)
            return None
        return choices[v]

    def str_list(self, name: str, max_len: int = 40) -> list[str] | None:
        v = self._get(name)
        if v is _MISSING:
            return None
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.errors.add(name, "Erwartet: eine Liste von Namen.")
            return None
        if len(v) > 100 or any(len(x) > max_len for x in v):
            self.errors.add(
                name, "Zu lang: höchstens %(max_len)s Zeichen je Eintrag.", max_len=max_len
            )
            return None
        return v

    def int_map(self, name: str) -> dict[str, int] | None:
        v = self._get(name)
        if v is _MISSING:
            return None
        if not isinstance(v, Mapping) or not all(
            isinstance(k, str) and isinstance(x, int) and not isinstance(x, bool) and abs(x) <= BIG
            for k, x in v.items()
        ):
            self.errors.add(name, "Erwartet: ein Objekt mit ganzen Zahlen.")
            return None
        return dict(v)

    def reject_unknown(self, allowed: set[str] | None = None) -> None:
        known = self.seen | (allowed or set())
        for key in self.data:
            if key not in known:
                self.errors.add(str(key)[:60], "Unbekanntes Feld.")


NO_GAME = Msg("Bitte ein Spiel wählen.")
GAMES = {g.value: g for g in Game}
PARTIES = {p.value: p for p in Party}
SK_GAMES = {g.value: g for g in SKGame}


def read_skat(r: Reader) -> SkatDeal | None:
    """Read the fields of POST /api/v1/skat/value; None when a type was wrong."""
    game = r.choice("game", GAMES, missing=NO_GAME)
    matadors = r.integer("matadors")
    with_ = r.boolean("with", None)
    cards = r._get("cards")
    hand = r.boolean("hand")
    sa = r.boolean("schneider_announced")
    swa = r.boolean("schwarz_announced")
    ouvert = r.boolean("ouvert")
    bid = r.integer("bid", 18)
    points = r.integer("declarer_points")
    all_tricks = None
    if r.has("all_tricks"):
        all_tricks = r.choice("all_tricks", PARTIES)
    else:
        r.seen.add("all_tricks")
    won = r.boolean("won", None)
    schneider = r.boolean("schneider")
    kontra = r.boolean("kontra")
    re = r.boolean("re")
    note: Msg | None = None
    if cards is not _MISSING and game is not None:
        if not isinstance(cards, list):
            r.errors.add("cards", "Erwartet: eine Liste von Karten.")
        elif matadors is not None or with_ is not None:
            r.errors.add(
                "cards", "Entweder Karten oder Spitzen („mit/ohne N“) angeben, nicht beides."
            )
        else:
            before = len(r.errors.items)
            check_cards(game, cards, r.errors)
            if len(r.errors.items) == before:
                m = matadors_from_cards(game, [str(c).upper() for c in cards])
                matadors, with_ = m.count, m.with_
                note = matadors_note(game, m)
    if r.errors or game is None:
        return None
    return SkatDeal(
        game=game,
        matadors=matadors,
        with_=with_,
        hand=bool(hand),
        schneider_announced=bool(sa),
        schwarz_announced=bool(swa),
        ouvert=bool(ouvert),
        bid=bid if bid is not None else 18,
        declarer_points=points,
        all_tricks=all_tricks,
        won=won,
        kontra=bool(kontra),
        re=bool(re),
        matadors_note=note,
        schneider=bool(schneider),
    )


def skat_deal_from_input(data: object, extra_fields: set[str] | None = None) -> SkatDeal:
    r = Reader(data)
    deal = read_skat(r)
    r.reject_unknown(extra_fields)
    r.errors.raise_if_any()
    assert deal is not None
    return deal


def skat_outcome_conflict(data: object, won: bool | None, schneider: bool) -> Msg | None:
    """Typed card points decide a suit or grand game; when the table also tapped
    "gewonnen"/"verloren" or "Schneider" and the points say otherwise, this names it."""
    r = Reader(data)
    deal = read_skat(r)
    if deal is None or deal.game.is_null or deal.declarer_points is None:
        return None
    try:
        validate(deal)
    except InvalidDeal:
        return None  # the points themselves are wrong; that message comes on saving
    pts = deal.declarer_points
    played = won_in_play(deal)
    if won is not None and won != played:
        said = Msg("gewonnen") if won else Msg("verloren")
        is_ = Msg("gewonnen") if played else Msg("verloren")
        return Msg(
            "Mit %(pts)s Augen ist das Spiel %(verdict)s, angetippt ist „%(said)s“. Bitte die Augen oder den Knopf ändern (oder die Augen leeren).",
            pts=pts,
            verdict=is_,
            said=said,
        )
    if schneider and 30 < pts < 90:
        return Msg(
            "%(pts)s Augen sind kein Schneider (dafür 90 oder mehr, oder 30 oder weniger).", pts=pts
        )
    return None


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
