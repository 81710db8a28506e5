"""Skat game values after the Internationale Skatordnung (ISkO 2018), as docs/rules.md Part 1
fixes them.

One function, :func:`skat_value`, answers "what is this deal worth and why"::

    >>> r = skat_value(SkatDeal(Game.GRAND, matadors=2, with_=True, declarer_points=75))
    >>> r.value, r.score, r.won
    (72, 72, True)
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .common import Errors, Msg, signed


class Game(enum.Enum):
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    GRAND = "grand"
    NULL = "null"

    @property
    def is_null(self) -> bool:
        return self is Game.NULL

    @property
    def base(self) -> int | None:
        return BASE_VALUES.get(self)

    @property
    def max_matadors(self) -> int:
        return 4 if self is Game.GRAND else 11

    @property
    def label(self) -> Msg:
        return GAME_NAMES[self]


BASE_VALUES = {
    Game.DIAMONDS: 9,
    Game.HEARTS: 10,
    Game.SPADES: 11,
    Game.CLUBS: 12,
    Game.GRAND: 24,
}

GAME_NAMES = {
    Game.DIAMONDS: Msg("Karo", "Diamonds"),
    Game.HEARTS: Msg("Herz", "Hearts"),
    Game.SPADES: Msg("Pik", "Spades"),
    Game.CLUBS: Msg("Kreuz", "Clubs"),
    Game.GRAND: Msg("Grand", "Grand"),
    Game.NULL: Msg("Null", "Null"),
}

SUIT_OF_GAME = {Game.DIAMONDS: "D", Game.HEARTS: "H", Game.SPADES: "S", Game.CLUBS: "C"}


class Party(enum.Enum):
    DECLARER = "declarer"
    OPPONENTS = "opponents"


# docs/rules.md 1.6: every value a Skat game can have, and so every legal bid.
LEGAL_BIDS: tuple[int, ...] = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66,
    70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135,
    140, 143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192, 198, 204,
    216, 240, 264,
)  # fmt: skip

# Levels beyond matadors: game, hand, schneider, schneider announced, schwarz, schwarz
# announced, ouvert. So a suit game has 2..18 levels and a grand 2..11.
MAX_LEVELS_ABOVE_MATADORS = 7


@dataclass(frozen=True)
class NullVariant:
    hand: bool
    ouvert: bool
    value: int
    name: Msg


NULL_VARIANTS: tuple[NullVariant, ...] = (
    NullVariant(False, False, 23, Msg("Null", "Null")),
    NullVariant(True, False, 35, Msg("Null Hand", "Null hand")),
    NullVariant(False, True, 46, Msg("Null ouvert", "Null ouvert")),
    NullVariant(True, True, 59, Msg("Null ouvert Hand", "Null ouvert hand")),
)


def null_variant(hand: bool, ouvert: bool) -> NullVariant:
    return next(v for v in NULL_VARIANTS if v.hand == hand and v.ouvert == ouvert)


@dataclass(frozen=True)
class SkatDeal:
    """One Skat deal as the table reports it (docs/rules.md 1.1-1.5, Kontra/Re from 1.10)."""

    game: Game
    matadors: int | None = None
    with_: bool | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    bid: int = 18
    declarer_points: int | None = None
    all_tricks: Party | None = None
    # Null: the declarer took no trick. Suit/grand, instead of declarer_points: the declarer
    # made the game in play (61, or 90 / every trick when announced); overbid is still judged.
    won: bool | None = None
    kontra: bool = False
    re: bool = False
    matadors_note: Msg | None = None  # how the matadors were found, when from cards
    schneider: bool = False  # with ``won`` (suit/grand): the losing party ended schneider


@dataclass(frozen=True)
class Level:
    name: Msg
    count: int  # the running multiplier after this level, as players count it aloud


@dataclass(frozen=True)
class SkatResult:
    won: bool
    overbid: bool
    base: int | None
    matadors: int | None
    with_: bool | None
    multiplier: int | None
    schneider: bool
    schwarz: bool
    value: int
    score: int
    levels: tuple[Level, ...]
    steps: tuple[Msg, ...]
    lost_reason: Msg | None

    def explanation(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]


def validate(deal: SkatDeal) -> None:
    """Refuse every invalid combination at once, each with a reason a card player understands."""
    e = Errors()
    g = deal.game
    if deal.bid not in LEGAL_BIDS:
        e.add(
            "bid",
            f"{deal.bid} ist kein Reizwert. Reizwerte sind 18, 20, 22, 23, 24, 27, 30 … 264.",
            f"{deal.bid} is not a bid value. Bid values are 18, 20, 22, 23, 24, 27, 30 … 264.",
        )
    if deal.re and not deal.kontra:
        e.add("re", "Re gibt es nur nach einem Kontra.", "Re can only follow a Kontra.")
    if g.is_null:
        for name, present in (
            ("matadors", deal.matadors is not None),
            ("with", deal.with_ is not None),
        ):
            if present:
                e.add(
                    name,
                    "Null-Spiele haben keine Spitzen.",
                    "Null games have no matadors.",
                )
        if deal.declarer_points is not None:
            e.add(
                "declarer_points",
                "Bei Null zählen keine Augen, nur ob der Alleinspieler einen Stich bekam.",
                "Null games count no card points, only whether the declarer took a trick.",
            )
        if deal.all_tricks is not None:
            e.add(
                "all_tricks",
                "Bei Null zählt nur, ob der Alleinspieler einen Stich bekam (gewonnen ja/nein).",
                "In a Null game only whether the declarer took a trick counts (won yes/no).",
            )
        for name, present in (
            ("schneider_announced", deal.schneider_announced),
            ("schwarz_announced", deal.schwarz_announced),
        ):
            if present:
                e.add(
                    name,
                    "Bei Null kann nichts angesagt werden.",
                    "Nothing can be announced in a Null game.",
                )
        if deal.schneider:
            e.add(
                "schneider",
                "Bei Null gibt es keinen Schneider, nur gewonnen oder verloren.",
                "A Null game has no schneider, only won or lost.",
            )
        if deal.won is None:
            e.add(
                "won",
                "Bei Null bitte angeben, ob gewonnen (kein Stich) oder verloren.",
                "For a Null game, say whether it was won (no trick) or lost.",
            )
        if deal.bid in LEGAL_BIDS:
            variant = null_variant(deal.hand, deal.ouvert)
            if variant.value < deal.bid:
                reach = [v for v in NULL_VARIANTS if v.value >= deal.bid]
                if reach:
                    de_alt = ", ".join(f"{v.name.de} ({v.value})" for v in reach)
                    en_alt = ", ".join(f"{v.name.en} ({v.value})" for v in reach)
                    e.add(
                        "bid",
                        f"{variant.name.de} ist {variant.value} wert und erreicht den Reizwert "
                        f"{deal.bid} nicht; angesagt werden kann nur: {de_alt}.",
                        f"{variant.name.en} is worth {variant.value} and does not reach the bid "
                        f"{deal.bid}; only these can be declared: {en_alt}.",
                    )
                else:
                    e.add(
                        "bid",
                        f"Kein Nullspiel erreicht den Reizwert {deal.bid} (höchstens 59).",
                        f"No Null game reaches the bid {deal.bid} (59 at most).",
                    )
        e.raise_if_any()
        return

    if deal.matadors is None:
        e.add(
            "matadors",
            "Bitte angeben, mit oder ohne wie viele Spitzen gespielt wurde.",
            "Say with or without how many matadors the game was played.",
        )
    elif not 1 <= deal.matadors <= g.max_matadors:
        if g is Game.GRAND:
            e.add(
                "matadors",
                "Im Grand gibt es 1 bis 4 Spitzen (nur die Buben sind Trumpf).",
                "A grand has 1 to 4 matadors (only the jacks are trumps).",
            )
        else:
            e.add(
                "matadors",
                "Im Farbspiel gibt es 1 bis 11 Spitzen.",
                "A suit game has 1 to 11 matadors.",
            )
    if deal.with_ is None and deal.matadors is not None:  # both missing: one message
        e.add("with", "Bitte „mit“ oder „ohne“ wählen.", "Choose “with” or “without”.")
    hand = deal.hand or deal.ouvert
    if not hand:
        if deal.schneider_announced:
            e.add(
                "schneider_announced",
                "Schneider ansagen geht nur im Handspiel.",
                "Schneider can only be announced in a hand game.",
            )
        if deal.schwarz_announced:
            e.add(
                "schwarz_announced",
                "Schwarz ansagen geht nur im Handspiel.",
                "Schwarz can only be announced in a hand game.",
            )
    _validate_outcome(deal, e)
    e.raise_if_any()


def _validate_outcome(deal: SkatDeal, e: Errors) -> None:
    """Suit and grand: the outcome is the card points or "won"/"lost" (exactly one of the
    two), plus who took every trick; the two must not contradict each other."""
    pts = deal.declarer_points
    if deal.won is not None and pts is not None:
        e.add(
            "won",
            "Entweder „gewonnen“/„verloren“ oder die Augen angeben, nicht beides.",
            "Give either “won”/“lost” or the card points, not both.",
        )
        return
    if deal.won is None and pts is None:
        e.add(
            "declarer_points",
            "Bitte „gewonnen“ oder „verloren“ wählen oder die Augen des Alleinspielers angeben "
            "(0 bis 120, Skat mitgezählt).",
            "Choose “won” or “lost”, or give the declarer's card points (0 to 120, skat included).",
        )
        return
    if pts is None:
        if deal.won and deal.all_tricks is Party.OPPONENTS:
            e.add(
                "all_tricks",
                "Ohne einen Stich ist das Spiel nicht gewonnen.",
                "Without a trick the game is not won.",
            )
        elif deal.won is False and deal.all_tricks is Party.DECLARER:
            e.add(
                "all_tricks",
                "Wer alle Stiche macht, hat gewonnen (ob überreizt, wird trotzdem geprüft).",
                "Taking every trick wins the game (overbidding is still checked).",
            )
        return
    if deal.schneider:
        e.add(
            "schneider",
            "Mit Augen ergibt sich Schneider von selbst; „schneider“ nur mit „gewonnen“/„verloren“.",
            "With card points schneider follows from them; “schneider” only goes with won/lost.",
        )
    if not 0 <= pts <= 120:
        e.add(
            "declarer_points",
            f"{pts} Augen gibt es nicht: es sind 0 bis 120.",
            f"{pts} card points is impossible: there are 0 to 120.",
        )
    elif deal.all_tricks is Party.DECLARER and pts != 120:
        e.add(
            "all_tricks",
            f"Wer alle Stiche hat, hat alle 120 Augen, nicht {pts}.",
            f"Taking every trick means all 120 card points, not {pts}.",
        )
    elif deal.all_tricks is Party.OPPONENTS and pts > 22:
        e.add(
            "all_tricks",
            f"Ohne einen Stich hat der Alleinspieler höchstens die 22 Augen des Skats, nicht {pts}.",
            f"Without a trick the declarer has at most the skat's 22 card points, not {pts}.",
        )


def skat_value(deal: SkatDeal) -> SkatResult:
    """What this deal is worth, and why. Raises :class:`InvalidDeal` for impossible input.

    An overbid game is lost and charged the next multiple of its base value (docs/rules.md 1.4):

    >>> r = skat_value(SkatDeal(Game.DIAMONDS, 1, True, bid=22, declarer_points=70))
    >>> r.won, r.overbid, r.value, r.score
    (False, True, 27, -54)
    >>> skat_value(SkatDeal(Game.NULL, hand=True, ouvert=True, won=False)).score
    -118
    >>> skat_value(SkatDeal(Game.NULL, bid=24, won=True))
    Traceback (most recent call last):
    ...
    skatcalc.rules.common.InvalidDeal: bid: Null is worth 23 and does not reach the bid 24; only these can be declared: Null hand (35), Null ouvert (46), Null ouvert hand (59).
    """
    validate(deal)
    if deal.game.is_null:
        return _null_value(deal)
    return _suit_value(deal)


def _null_value(deal: SkatDeal) -> SkatResult:
    variant = null_variant(deal.hand, deal.ouvert)
    won = bool(deal.won)
    steps = [Msg(f"{variant.name.de}: fester Wert {variant.value}",
                 f"{variant.name.en}: fixed value {variant.value}")]  # fmt: skip
    reason = None
    if won:
        steps.append(Msg("gewonnen: kein Stich", "won: no trick taken"))
    else:
        reason = Msg("Der Alleinspieler bekam einen Stich.", "The declarer took a trick.")
    return _finish(deal, won, False, variant.value, None, None, None, None, False, False,
                   (), steps, reason)  # fmt: skip


def _suit_value(deal: SkatDeal) -> SkatResult:
    g = deal.game
    base = g.base
    assert base is not None and deal.matadors is not None
    pts = deal.declarer_points
    hand = deal.hand or deal.ouvert
    schwarz_ann = deal.schwarz_announced or deal.ouvert
    schneider_ann = deal.schneider_announced or schwarz_ann
    all_tricks = deal.all_tricks
    if pts is None:
        # Outcome by buttons: a won game with schwarz announced (ouvert) took every trick.
        won_in_play = bool(deal.won)
        if won_in_play and schwarz_ann and all_tricks is None:
            all_tricks = Party.DECLARER
        schneider_play = deal.schneider or all_tricks is not None or (won_in_play and schneider_ann)
    else:
        schneider_play = pts >= 90 or pts <= 30
    schneider = schneider_ann or schneider_play
    schwarz = schwarz_ann or all_tricks is not None

    with_word = Msg("mit", "with") if deal.with_ else Msg("ohne", "without")
    levels: list[Level] = []
    count = deal.matadors
    levels.append(Level(with_word, count))

    def add(name: Msg, flag: bool) -> None:
        nonlocal count
        if flag:
            count += 1
            levels.append(Level(name, count))

    add(Msg("Spiel", "game"), True)
    add(Msg("Hand", "hand"), hand)
    add(Msg("Schneider", "schneider"), schneider)
    add(Msg("Schneider angesagt", "schneider announced"), schneider_ann)
    add(Msg("Schwarz", "schwarz"), schwarz)
    add(Msg("Schwarz angesagt", "schwarz announced"), schwarz_ann)
    add(Msg("Ouvert", "ouvert"), deal.ouvert)
    multiplier = count
    raw_value = base * multiplier

    steps: list[Msg] = []
    if deal.matadors_note is not None:
        steps.append(deal.matadors_note)
    steps.append(Msg(f"{g.label.de}: Grundwert {base}", f"{g.label.en}: base value {base}"))
    steps.append(
        Msg(
            ", ".join(f"{lv.name.de} {lv.count}" for lv in levels) + f" × {base} = {raw_value}",
            ", ".join(f"{lv.name.en} {lv.count}" for lv in levels) + f" × {base} = {raw_value}",
        )
    )
    if pts is not None:
        steps.append(
            Msg(
                f"Alleinspieler: {pts} Augen (mit Skat)"
                + (", alle Stiche" if all_tricks is Party.DECLARER else "")
                + (", kein Stich" if all_tricks is Party.OPPONENTS else ""),
                f"Declarer: {pts} card points (skat included)"
                + (", every trick" if all_tricks is Party.DECLARER else "")
                + (", no trick" if all_tricks is Party.OPPONENTS else ""),
            )
        )
        reason = _lost_by_points(deal, pts, schneider_ann, schwarz_ann)
    else:
        de = ["gewonnen" if deal.won else "verloren"]
        en = ["won" if deal.won else "lost"]
        if schneider_play:
            de.append("Schneider")
            en.append("schneider")
        if all_tricks is not None:
            de.append("Schwarz")
            en.append("schwarz")
        steps.append(Msg(", ".join(de), ", ".join(en)))
        reason = None if deal.won else _lost_by_buttons(deal, all_tricks, schneider_ann,
                                                         schwarz_ann)  # fmt: skip
    won = reason is None

    overbid = raw_value < deal.bid
    value = raw_value
    if overbid:
        value = math.ceil(deal.bid / base) * base
        steps.append(
            Msg(
                f"überreizt: Reizwert {deal.bid} → nächstes Vielfaches von {base} = {value}",
                f"overbid: bid {deal.bid} → next multiple of {base} = {value}",
            )
        )
        if won:
            reason = Msg(
                f"Überreizt: das Spiel ist nur {raw_value} wert, gereizt wurde {deal.bid}.",
                f"Overbid: the game is worth only {raw_value}, the bid was {deal.bid}.",
            )
        else:
            reason = Msg(f"{reason.de} Zudem überreizt.", f"{reason.en} Also overbid.")  # type: ignore[union-attr]
        won = False
    return _finish(deal, won, overbid, value, base, deal.matadors, deal.with_, multiplier,
                   schneider, schwarz, tuple(levels), steps, reason)  # fmt: skip


def _schwarz_announced_lost(deal: SkatDeal) -> Msg:
    what = Msg("Ouvert", "Ouvert") if deal.ouvert else Msg("Schwarz angesagt", "Schwarz announced")
    return Msg(
        f"{what.de}: der Alleinspieler muss alle Stiche machen, die Gegner bekamen einen.",
        f"{what.en}: the declarer must take every trick, the opponents took one.",
    )


def _lost_by_points(deal: SkatDeal, pts: int, schneider_ann: bool, schwarz_ann: bool
                    ) -> Msg | None:  # fmt: skip
    """Why a game with these card points was lost in play; None when it was won."""
    if deal.all_tricks is Party.OPPONENTS:
        return Msg("Der Alleinspieler bekam keinen Stich.", "The declarer took no trick.")
    if schwarz_ann and deal.all_tricks is not Party.DECLARER:
        return _schwarz_announced_lost(deal)
    if schneider_ann and pts < 90:
        return Msg(
            f"Schneider angesagt: {pts} Augen reichen nicht, 90 sind nötig.",
            f"Schneider announced: {pts} card points are not enough, 90 are needed.",
        )
    if pts < 61:
        return Msg(
            f"{pts} Augen reichen nicht, 61 sind nötig.",
            f"{pts} card points are not enough, 61 are needed.",
        )
    return None


def _lost_by_buttons(deal: SkatDeal, all_tricks: Party | None, schneider_ann: bool,
                     schwarz_ann: bool) -> Msg:  # fmt: skip
    """Why a game the table called "verloren" was lost, from what was announced."""
    if all_tricks is Party.OPPONENTS:
        return Msg("Der Alleinspieler bekam keinen Stich.", "The declarer took no trick.")
    if schwarz_ann:
        return _schwarz_announced_lost(deal)
    if schneider_ann:
        return Msg(
            "Schneider angesagt: der Alleinspieler erreichte keine 90 Augen.",
            "Schneider announced: the declarer did not reach 90 card points.",
        )
    if deal.schneider:
        return Msg(
            "Der Alleinspieler blieb Schneider (30 Augen oder weniger).",
            "The declarer was schneider (30 card points or fewer).",
        )
    # No card points were entered: the table said "lost", so that is all the sheet knows.
    return Msg("so eingetragen (ohne Augen)", "as entered (no card points)")


def won_in_play(deal: SkatDeal) -> bool:
    """Whether the declarer made the game at the table, before the overbid check: from the
    card points when given, else as the table said. For a valid suit or grand deal."""
    if deal.declarer_points is None:
        return bool(deal.won)
    hand_levels = deal.schwarz_announced or deal.ouvert
    return (
        _lost_by_points(deal, deal.declarer_points,
                        deal.schneider_announced or hand_levels, hand_levels) is None
    )  # fmt: skip


def _finish(
    deal: SkatDeal,
    won: bool,
    overbid: bool,
    value: int,
    base: int | None,
    matadors: int | None,
    with_: bool | None,
    multiplier: int | None,
    schneider: bool,
    schwarz: bool,
    levels: tuple[Level, ...],
    steps: list[Msg],
    reason: Msg | None,
) -> SkatResult:
    score = value if won else -2 * value
    if won:
        steps.append(Msg(f"gewonnen: {signed(score)}", f"won: {signed(score)}"))
    else:
        assert reason is not None
        steps.append(Msg(f"verloren: {reason.de}", f"lost: {reason.en}"))
        steps.append(
            Msg(f"verloren doppelt: {signed(score)}", f"lost, counted double: {signed(score)}")
        )
    if deal.kontra:
        score *= 2
        steps.append(Msg(f"Kontra × 2 = {signed(score)}", f"Kontra × 2 = {signed(score)}"))
    if deal.re:
        score *= 2
        steps.append(Msg(f"Re × 2 = {signed(score)}", f"Re × 2 = {signed(score)}"))
    return SkatResult(
        won=won,
        overbid=overbid,
        base=base,
        matadors=matadors,
        with_=with_,
        multiplier=multiplier,
        schneider=schneider,
        schwarz=schwarz,
        value=value,
        score=score,
        levels=levels,
        steps=tuple(steps),
        lost_reason=None if won else reason,
    )


# --- Matadors from cards (ISkO 2.4) -----------------------------------------------------------

SUITS = "CSHD"
RANKS = "789TJQKA"
ALL_CARDS: frozenset[str] = frozenset(s + r for s in SUITS for r in RANKS)
JACKS = ("CJ", "SJ", "HJ", "DJ")


def trump_order(game: Game) -> tuple[str, ...]:
    """Trumps from the highest down: the jacks, then (suit games) A 10 K Q 9 8 7 of the suit."""
    if game is Game.GRAND:
        return JACKS
    suit = SUIT_OF_GAME[game]
    return JACKS + tuple(suit + r for r in "ATKQ987")


@dataclass(frozen=True)
class Matadors:
    count: int
    with_: bool
    from_cards: int  # 10 or 12 — whether the skat was known


def matadors_from_cards(game: Game, cards: Iterable[str]) -> Matadors:
    """Count "with N" / "without N" from the declarer's cards (the skat counts, ISkO 2.4.2).

    >>> matadors_from_cards(Game.HEARTS, ["CJ", "SJ", "DJ", "HA", "HK", "S7", "S8", "D7", "DA", "C9"])
    Matadors(count=2, with_=True, from_cards=10)
    """
    held = set(cards)
    order = trump_order(game)
    with_ = order[0] in held
    count = 0
    for card in order:
        if (card in held) != with_:
            break
        count += 1
    return Matadors(count, with_, len(held))


def check_cards(game: Game, cards: Sequence[object], errors: Errors, field: str = "cards") -> None:
    if game.is_null:
        errors.add(field, "Null-Spiele haben keine Spitzen.", "Null games have no matadors.")
        return
    bad = [c for c in cards if not isinstance(c, str) or c.upper() not in ALL_CARDS]
    if bad:
        shown = ", ".join(str(c) for c in bad[:5])
        errors.add(
            field,
            f"Unbekannte Karte(n): {shown}. Karten sind Farbe C S H D + Wert 7 8 9 T J Q K A, "
            "z. B. CJ oder HT.",
            f"Unknown card(s): {shown}. Cards are suit C S H D + rank 7 8 9 T J Q K A, "
            "e.g. CJ or HT.",
        )
        return
    upper = [str(c).upper() for c in cards]
    if len(set(upper)) != len(upper):
        errors.add(field, "Eine Karte ist doppelt.", "A card appears twice.")
    elif len(upper) not in (10, 12):
        errors.add(
            field,
            f"{len(upper)} Karten: es sind 10 (ohne Skat) oder 12 (mit Skat).",
            f"{len(upper)} cards: give 10 (without the skat) or 12 (with the skat).",
        )


def matadors_note(game: Game, m: Matadors) -> Msg:
    word = Msg("mit", "with") if m.with_ else Msg("ohne", "without")
    skat = (
        Msg("Karten mit Skat", "cards incl. the skat")
        if m.from_cards == 12
        else Msg("10 Karten, Skat nicht angegeben", "10 cards, skat not given")
    )
    return Msg(
        f"Spitzen aus den Karten ({skat.de}): {word.de} {m.count}",
        f"Matadors from the cards ({skat.en}): {word.en} {m.count}",
    )


# --- Reference: which games have a given value ------------------------------------------------


@dataclass(frozen=True)
class GameWithValue:
    game: Game
    multiplier: int | None  # None for Null
    name: Msg


def games_with_value(value: int) -> list[GameWithValue]:
    """Every game whose value is exactly ``value`` — the reference table of bids.

    >>> [g.name.text("de") for g in games_with_value(23)]
    ['Null']
    >>> [g.name.text("en") for g in games_with_value(48)]
    ['Clubs × 4', 'Grand × 2']
    """
    out: list[GameWithValue] = []
    for g in (Game.DIAMONDS, Game.HEARTS, Game.SPADES, Game.CLUBS, Game.GRAND):
        base = g.base
        assert base is not None
        if value % base == 0:
            mult = value // base
            if 2 <= mult <= g.max_matadors + MAX_LEVELS_ABOVE_MATADORS:
                out.append(
                    GameWithValue(g, mult, Msg(f"{g.label.de} × {mult}", f"{g.label.en} × {mult}"))
                )
    for v in NULL_VARIANTS:
        if v.value == value:
            out.append(GameWithValue(Game.NULL, None, v.name))
    return out


def all_game_values() -> set[int]:
    return {v for v in range(1, 300) if games_with_value(v)}
