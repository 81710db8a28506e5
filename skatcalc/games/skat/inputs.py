"""Turn the JSON-shaped Skat input of docs/api.md into a :class:`SkatDeal`, strictly."""

from __future__ import annotations

from ...rules.common import InvalidDeal, Msg
from ...rules.inputs import MISSING, NO_GAME, Reader
from .values import (
    Game,
    Party,
    SkatDeal,
    check_cards,
    matadors_from_cards,
    matadors_note,
    validate,
    won_in_play,
)

GAMES = {g.value: g for g in Game}
PARTIES = {p.value: p for p in Party}


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
    if cards is not MISSING and game is not None:
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
