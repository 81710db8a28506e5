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

from ...rules import cite, marks
from ...rules.cite import Step
from ...rules.common import Errors, Msg, joined, pmsg, signed, verbatim
from ...rules.sheet.base import HouseRules
from .contracts import BY_KEY


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


# from the contracts table (contracts.py), in the enum's order
BASE_VALUES = {g: b for g in Game if (b := BY_KEY[g.value].base) is not None}
GAME_NAMES = {g: BY_KEY[g.value].name for g in Game}
SUIT_OF_GAME = {g: s for g in Game if (s := BY_KEY[g.value].suit) is not None}


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
    rule: str | None = None
    """The on/off house rule (a ``HouseFlag`` key of ``sheet.py``'s ``SkatHouseRules``) under
    which this variant is played in place of the ISkO's of the same hand and ouvert; its name
    is then the row's whole contract."""


NULL_VARIANTS: tuple[NullVariant, ...] = (
    NullVariant(False, False, 23, Msg("Null")),
    NullVariant(True, False, 35, Msg("Null Hand")),
    NullVariant(False, True, 46, Msg("Null ouvert")),
    NullVariant(True, True, 59, Msg("Null ouvert Hand")),
)


def null_variants(rules: HouseRules | None = None) -> tuple[NullVariant, ...]:
    """The Null games a table plays: the ISkO's, each replaced by a house rule's variant of
    the same hand and ouvert where the sheet's ``rules`` have that rule on."""
    out = []
    for v in NULL_VARIANTS:
        if v.rule is not None:
            continue
        house = [h for h in NULL_VARIANTS
                 if h.rule is not None and rules is not None and rules.has(h.rule)
                 and (h.hand, h.ouvert) == (v.hand, v.ouvert)]  # fmt: skip
        out.append(house[0] if house else v)
    return tuple(out)


def null_variant(hand: bool, ouvert: bool, rules: HouseRules | None = None) -> NullVariant:
    return next(v for v in null_variants(rules) if v.hand == hand and v.ouvert == ouvert)


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
    steps: tuple[Step, ...]  # each line and the rule it rests on (docs/rules.md Part 4)
    # the deal in words, worked out once here for the API's rows, the page, the list, the CSV
    # and the PDF alike: "Grand Hand mit 2"; "Grand mit 2" with its marks (Hand, Schn. …)
    title: Msg = Msg("?")
    contract: Msg = Msg("?")
    marks: tuple[Msg, ...] = ()
    shown: int = 0  # the value a row shows: with Kontra and Re (docs/rules.md 1.9)

    def json_fields(self) -> dict[str, object]:
        """POST /api/v1/skat/value's figures, and a Skat row's ``result`` (``serialize``)."""
        return {
            "won": self.won,
            "overbid": self.overbid,
            "base": self.base,
            "matadors": self.matadors,
            "with": self.with_,
            "multiplier": self.multiplier,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "value": self.value,
            "score": self.score,
        }


def validate(deal: SkatDeal, rules: HouseRules | None = None) -> None:
    """Refuse every invalid combination at once, each with a reason a card player understands;
    ``rules``: the sheet's house rules (a house rule's Null reaches other bids)."""
    e = Errors()
    g = deal.game
    if deal.bid not in LEGAL_BIDS:
        e.add(
            "bid",
            "%(bid)s ist kein Reizwert. Reizwerte sind 18, 20, 22, 23, 24, 27, 30 … 264.",
            bid=deal.bid,
        )
    if deal.re and not deal.kontra:
        e.add("re", "Re gibt es nur nach einem Kontra.")
    if g.is_null:
        _validate_null(deal, rules, e)
        e.raise_if_any()
        return

    if deal.matadors is None:
        e.add("matadors", "Bitte angeben, mit oder ohne wie viele Spitzen gespielt wurde.")
    elif not 1 <= deal.matadors <= g.max_matadors:
        if g is Game.GRAND:
            e.add("matadors", "Im Grand gibt es 1 bis 4 Spitzen (nur die Buben sind Trumpf).")
        else:
            e.add("matadors", "Im Farbspiel gibt es 1 bis 11 Spitzen.")
    if deal.with_ is None and deal.matadors is not None:  # both missing: one message
        e.add("with", "Bitte „mit“ oder „ohne“ wählen.")
    hand = deal.hand or deal.ouvert
    if not hand:
        if deal.schneider_announced:
            e.add("schneider_announced", "Schneider ansagen geht nur im Handspiel.")
        if deal.schwarz_announced:
            e.add("schwarz_announced", "Schwarz ansagen geht nur im Handspiel.")
    _validate_outcome(deal, e)
    e.raise_if_any()


def _validate_null(deal: SkatDeal, rules: HouseRules | None, e: Errors) -> None:
    """A Null has no matadors, points, announcements or Schneider, only won or lost; and its
    value (the table's Null variants) must reach the bid."""
    for name, present in (
        ("matadors", deal.matadors is not None),
        ("with", deal.with_ is not None),
    ):
        if present:
            e.add(name, "Null-Spiele haben keine Spitzen.")
    if deal.declarer_points is not None:
        e.add(
            "declarer_points",
            "Bei Null zählen keine Augen, nur ob der Alleinspieler einen Stich bekam.",
        )
    if deal.all_tricks is not None:
        e.add(
            "all_tricks",
            "Bei Null zählt nur, ob der Alleinspieler einen Stich bekam (gewonnen ja/nein).",
        )
    for name, present in (
        ("schneider_announced", deal.schneider_announced),
        ("schwarz_announced", deal.schwarz_announced),
    ):
        if present:
            e.add(name, "Bei Null kann nichts angesagt werden.")
    if deal.schneider:
        e.add("schneider", "Bei Null gibt es keinen Schneider, nur gewonnen oder verloren.")
    if deal.won is None:
        e.add("won", "Bei Null bitte angeben, ob gewonnen (kein Stich) oder verloren.")
    if deal.bid in LEGAL_BIDS:
        variant = null_variant(deal.hand, deal.ouvert, rules)
        if variant.value < deal.bid:
            reach = [v for v in null_variants(rules) if v.value >= deal.bid]
            if reach:
                alts = joined(", ", [Msg("%(name)s (%(value)s)", name=v.name, value=v.value)
                                     for v in reach])  # fmt: skip
                e.add("bid", "%(name)s ist %(value)s wert und erreicht den Reizwert %(bid)s "
                      "nicht; angesagt werden kann nur: %(alts)s.", name=variant.name,
                      value=variant.value, bid=deal.bid, alts=alts)  # fmt: skip
            else:
                top = max(v.value for v in null_variants(rules))
                e.add("bid", "Kein Nullspiel erreicht den Reizwert %(bid)s (höchstens %(top)s).",
                      bid=deal.bid, top=top)  # fmt: skip


def _validate_outcome(deal: SkatDeal, e: Errors) -> None:
    """Suit and grand: the outcome is the card points or "won"/"lost" (exactly one of the
    two), plus who took every trick; the two must not contradict each other."""
    pts = deal.declarer_points
    if deal.won is not None and pts is not None:
        e.add("won", "Entweder „gewonnen“/„verloren“ oder die Augen angeben, nicht beides.")
        return
    if deal.won is None and pts is None:
        e.add(
            "declarer_points",
            "Bitte „gewonnen“ oder „verloren“ wählen oder die Augen des Alleinspielers angeben (0 bis 120, Skat mitgezählt).",
        )
        return
    if pts is None:
        if deal.won and deal.all_tricks is Party.OPPONENTS:
            e.add("all_tricks", "Ohne einen Stich ist das Spiel nicht gewonnen.")
        elif deal.won is False and deal.all_tricks is Party.DECLARER:
            e.add(
                "all_tricks",
                "Wer alle Stiche macht, hat gewonnen (ob überreizt, wird trotzdem geprüft).",
            )
        return
    if deal.schneider:
        e.add(
            "schneider",
            "Mit Augen ergibt sich Schneider von selbst; „schneider“ nur mit „gewonnen“/„verloren“.",
        )
    if not 0 <= pts <= 120:
        e.add("declarer_points", "%(pts)s Augen gibt es nicht: es sind 0 bis 120.", pts=pts)
    elif deal.all_tricks is Party.DECLARER and pts != 120:
        e.add("all_tricks", "Wer alle Stiche hat, hat alle 120 Augen, nicht %(pts)s.", pts=pts)
    elif deal.all_tricks is Party.OPPONENTS and pts > 22:
        e.add(
            "all_tricks",
            "Ohne einen Stich hat der Alleinspieler höchstens die 22 Augen des Skats, nicht %(pts)s.",
            pts=pts,
        )


def skat_value(deal: SkatDeal, rules: HouseRules | None = None) -> SkatResult:
    """What this deal is worth, and why, under the sheet's house ``rules`` (None: the ISkO's
    alone, as the calculator counts). Raises :class:`InvalidDeal` for impossible input.

    An overbid game is lost and charged the next multiple of its base value (docs/rules.md 1.4):

    >>> r = skat_value(SkatDeal(Game.DIAMONDS, 1, True, bid=22, declarer_points=70))
    >>> r.won, r.overbid, r.value, r.score
    (False, True, 27, -54)
    >>> skat_value(SkatDeal(Game.NULL, hand=True, ouvert=True, won=False)).score
    -118
    >>> from skatcalc.text import field_errors  # the messages are translated at the edges
    >>> from skatcalc.rules.common import InvalidDeal
    >>> try:
    ...     skat_value(SkatDeal(Game.NULL, bid=24, won=True))
    ... except InvalidDeal as exc:
    ...     print(field_errors(exc, "en")["bid"][0])
    Null is worth 23 and does not reach the bid 24; only these can be declared: Null hand (35), Null ouvert (46), Null ouvert hand (59).
    """
    validate(deal, rules)
    if deal.game.is_null:
        return _null_value(deal, null_variant(deal.hand, deal.ouvert, rules))
    return _suit_value(deal)


def _null_value(deal: SkatDeal, variant: NullVariant) -> SkatResult:
    won = bool(deal.won)
    steps = [Step(Msg("%(name)s: fester Wert %(value)s", name=variant.name, value=variant.value),
                  cite.ISKO_NULL)]  # fmt: skip
    reason = None
    if won:
        steps.append(Step(Msg("gewonnen: kein Stich"), cite.ISKO_NULL))
    else:
        reason = Msg("Der Alleinspieler bekam einen Stich.")
    return _finish(deal, won, False, variant.value, None, None, None, None, False, False,
                   (), steps, reason, variant)  # fmt: skip


@dataclass(frozen=True)
class _Reached:
    """What a suit or grand game reached and announced (ISkO 5.2), the levels' flags."""

    hand: bool
    schneider_ann: bool
    schwarz_ann: bool
    schneider_play: bool
    all_tricks: Party | None

    @property
    def schneider(self) -> bool:
        return self.schneider_ann or self.schneider_play

    @property
    def schwarz(self) -> bool:
        return self.schwarz_ann or self.all_tricks is not None


def _reached(deal: SkatDeal) -> _Reached:
    schwarz_ann = deal.schwarz_announced or deal.ouvert
    schneider_ann = deal.schneider_announced or schwarz_ann
    all_tricks = deal.all_tricks
    pts = deal.declarer_points
    if pts is None:
        # Outcome by buttons: a won game with schwarz announced (ouvert) took every trick.
        won_in_play = bool(deal.won)
        if won_in_play and schwarz_ann and all_tricks is None:
            all_tricks = Party.DECLARER
        schneider_play = deal.schneider or all_tricks is not None or (won_in_play and schneider_ann)
    else:
        schneider_play = pts >= 90 or pts <= 30
    return _Reached(deal.hand or deal.ouvert, schneider_ann, schwarz_ann, schneider_play,
                    all_tricks)  # fmt: skip


def _levels(deal: SkatDeal, at: _Reached) -> list[Level]:
    """Matadors and every level reached, each with the running count (ISkO 5.2.6)."""
    assert deal.matadors is not None
    count = deal.matadors
    levels = [Level(_WITH if deal.with_ else _WITHOUT, count)]
    flags = (True, at.hand, at.schneider, at.schneider_ann, at.schwarz, at.schwarz_ann,
             deal.ouvert)  # fmt: skip
    for name, flag in zip(_LEVEL_NAMES, flags, strict=True):
        if flag:
            count += 1
            levels.append(Level(name, count))
    return levels


# The levels' names (messages are frozen: made once, not for every deal's value), in the order
# ``_levels`` counts them.
_WITH, _WITHOUT = Msg("mit"), Msg("ohne")
_LEVEL_NAMES = (
    pmsg("level", "Spiel"),
    pmsg("level", "Hand"),
    pmsg("level", "Schneider"),
    pmsg("level", "Schneider angesagt"),
    pmsg("level", "Schwarz"),
    pmsg("level", "Schwarz angesagt"),
    pmsg("level", "Ouvert"),
)


def _suit_value(deal: SkatDeal) -> SkatResult:
    g = deal.game
    base = g.base
    assert base is not None and deal.matadors is not None
    pts = deal.declarer_points
    at = _reached(deal)
    levels = _levels(deal, at)
    multiplier = levels[-1].count
    raw_value = base * multiplier

    steps: list[Step] = []
    if deal.matadors_note is not None:
        steps.append(Step(deal.matadors_note, cite.ISKO_MATADORS))
    steps.append(Step(Msg("%(label)s: Grundwert %(base)s", label=g.label, base=base),
                      cite.ISKO_BASE))  # fmt: skip
    counted = [Msg("%(name)s %(count)s", name=lv.name, count=lv.count) for lv in levels]
    steps.append(Step(Msg("%(levels)s × %(base)s = %(raw_value)s", levels=joined(", ", counted),
                          base=base, raw_value=raw_value), cite.ISKO_LEVELS))  # fmt: skip
    if pts is not None:
        reason = _by_points(deal, pts, at, steps)
    else:
        reason = _by_buttons(deal, at, steps)
    won = reason is None

    overbid = raw_value < deal.bid
    value = raw_value
    if overbid:
        value = math.ceil(deal.bid / base) * base
        steps.append(Step(
            Msg(
                "überreizt: Reizwert %(bid)s → nächstes Vielfaches von %(base)s = %(value)s",
                bid=deal.bid,
                base=base,
                value=value,
            ),
            cite.ISKO_OVERBID,
        ))  # fmt: skip
        if won:
            reason = Msg(
                "Überreizt: das Spiel ist nur %(raw_value)s wert, gereizt wurde %(bid)s.",
                raw_value=raw_value,
                bid=deal.bid,
            )
        else:
            assert reason is not None  # lost in play: the reason was given above
            reason = Msg("%(reason)s Zudem überreizt.", reason=reason)
        won = False
    return _finish(deal, won, overbid, value, base, deal.matadors, deal.with_, multiplier,
                   at.schneider, at.schwarz, tuple(levels), steps, reason)  # fmt: skip


def _by_points(deal: SkatDeal, pts: int, at: _Reached, steps: list[Step]) -> Msg | None:
    """The card points' step; why the game was lost in play (None: won)."""
    all_tricks = at.all_tricks
    steps.append(Step(
        Msg("Alleinspieler: %(pts)s Augen (mit Skat), alle Stiche", pts=pts)
        if all_tricks is Party.DECLARER
        else Msg("Alleinspieler: %(pts)s Augen (mit Skat), kein Stich", pts=pts)
        if all_tricks is Party.OPPONENTS
        else Msg("Alleinspieler: %(pts)s Augen (mit Skat)", pts=pts),
        cite.ISKO_WINNING,
    ))  # fmt: skip
    return _lost_by_points(deal, pts, at.schneider_ann, at.schwarz_ann)


def _by_buttons(deal: SkatDeal, at: _Reached, steps: list[Step]) -> Msg | None:
    """The step of what the table tapped; why the game was lost (None: won)."""
    said = [Msg("gewonnen") if deal.won else Msg("verloren")]
    if at.schneider_play:
        said.append(pmsg("outcome", "Schneider"))
    if at.all_tricks is not None:
        said.append(pmsg("outcome", "Schwarz"))
    steps.append(Step(joined(", ", said), cite.ISKO_WINNING))
    if deal.won:
        return None
    return _lost_by_buttons(deal, at.all_tricks, at.schneider_ann, at.schwarz_ann)


def _schwarz_announced_lost(deal: SkatDeal) -> Msg:
    what = Msg("Ouvert") if deal.ouvert else Msg("Schwarz angesagt")
    return Msg(
        "%(what)s: der Alleinspieler muss alle Stiche machen, die Gegner bekamen einen.", what=what
    )


def _lost_by_points(deal: SkatDeal, pts: int, schneider_ann: bool, schwarz_ann: bool
                    ) -> Msg | None:  # fmt: skip
    """Why a game with these card points was lost in play; None when it was won."""
    if deal.all_tricks is Party.OPPONENTS:
        return Msg("Der Alleinspieler bekam keinen Stich.")
    if schwarz_ann and deal.all_tricks is not Party.DECLARER:
        return _schwarz_announced_lost(deal)
    if schneider_ann and pts < 90:
        return Msg("Schneider angesagt: %(pts)s Augen reichen nicht, 90 sind nötig.", pts=pts)
    if pts < 61:
        return Msg("%(pts)s Augen reichen nicht, 61 sind nötig.", pts=pts)
    return None


def _lost_by_buttons(deal: SkatDeal, all_tricks: Party | None, schneider_ann: bool,
                     schwarz_ann: bool) -> Msg:  # fmt: skip
    """Why a game the table called "verloren" was lost, from what was announced."""
    if all_tricks is Party.OPPONENTS:
        return Msg("Der Alleinspieler bekam keinen Stich.")
    if schwarz_ann:
        return _schwarz_announced_lost(deal)
    if schneider_ann:
        return Msg("Schneider angesagt: der Alleinspieler erreichte keine 90 Augen.")
    if deal.schneider:
        return Msg("Der Alleinspieler blieb Schneider (30 Augen oder weniger).")
    # No card points were entered: the table said "lost", so that is all the sheet knows.
    return Msg("so eingetragen (ohne Augen)")


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
    steps: list[Step],
    reason: Msg | None,
    variant: NullVariant | None = None,
) -> SkatResult:
    score = value if won else -2 * value
    # won or lost by the game's own rule; lost by the bid alone rests on the overbid rule
    verdict = cite.ISKO_NULL if deal.game.is_null else cite.ISKO_WINNING
    if won:
        steps.append(Step(Msg("gewonnen: %(score)s", score=signed(score)), verdict))
    else:
        assert reason is not None
        played_won = overbid and won_in_play(deal)
        steps.append(Step(Msg("verloren: %(reason)s", reason=reason),
                          cite.ISKO_OVERBID if played_won else verdict))  # fmt: skip
        steps.append(Step(Msg("verloren doppelt: %(score)s", score=signed(score)), cite.LOST))
    if deal.kontra:
        score *= 2
        steps.append(Step(Msg("Kontra × 2 = %(score)s", score=signed(score)), cite.KONTRA_RE))
    if deal.re:
        score *= 2
        steps.append(Step(Msg("Re × 2 = %(score)s", score=signed(score)), cite.KONTRA_RE))
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
        title=_title(deal, variant),
        contract=_contract(deal, matadors, with_, variant),
        marks=_marks(deal, variant, schneider, schwarz, overbid),
        shown=value * 2 ** (deal.kontra + deal.re),
    )


def _title(deal: SkatDeal, variant: NullVariant | None) -> Msg:
    """The deal in a few words, for the API's rows and the history: "Grand Hand mit 2",
    "Null ouvert Hand", a house rule's Null by its own name."""
    if variant is not None and variant.rule is not None:
        return variant.name
    g = deal.game
    parts: list[Msg] = [g.label]
    if g.is_null:
        if deal.ouvert:
            parts.append(pmsg("title", "ouvert"))
        if deal.hand:
            parts.append(pmsg("title", "Hand"))
        return joined(" ", parts)
    if deal.ouvert:
        parts.append(pmsg("title", "ouvert"))
    elif deal.hand:
        parts.append(pmsg("title", "Hand"))
    if deal.schwarz_announced and not deal.ouvert:
        parts.append(pmsg("title", "Schwarz angesagt"))
    elif deal.schneider_announced and not deal.ouvert:
        parts.append(pmsg("title", "Schneider angesagt"))
    matadors = deal.matadors if deal.matadors is not None else "None"
    parts.append(Msg("mit %(matadors)s", matadors=matadors) if deal.with_
                 else Msg("ohne %(matadors)s", matadors=matadors))  # fmt: skip
    return joined(" ", parts)


def _contract(deal: SkatDeal, matadors: int | None, with_: bool | None,
              variant: NullVariant | None) -> Msg:  # fmt: skip
    """The row's contract, its marks aside: "Grand mit 2", "Null", "Revolution"."""
    if variant is not None and variant.rule is not None:
        return variant.name
    name = deal.game.label
    if matadors is None:
        return name
    if with_:
        return Msg("%(game)s mit %(matadors)s", game=name, matadors=matadors)
    return Msg("%(game)s ohne %(matadors)s", game=name, matadors=matadors)


def _marks(deal: SkatDeal, variant: NullVariant | None, schneider: bool, schwarz: bool,
           overbid: bool) -> tuple[Msg, ...]:  # fmt: skip
    """Why the row's number is what it is, in short form (docs/rules.md 1.9); a house rule's
    Null says it all by its name."""
    out = [] if variant is not None and variant.rule is not None else entry_marks(deal)
    if not deal.game.is_null:
        # Ouvert brings both announcements with it; its mark says so already.
        said = deal.ouvert or deal.schneider_announced or deal.schwarz_announced
        if schwarz and not (deal.ouvert or deal.schwarz_announced):
            out.append(marks.SCHWARZ)
        elif schneider and not said:
            out.append(marks.SCHNEIDER)
    if overbid:
        out.append(marks.OVERBID)
    out.extend(verbatim(w) for w, on in (("Kontra", deal.kontra), ("Re", deal.re)) if on)
    return tuple(out)


def entry_marks(deal: SkatDeal) -> list[Msg]:
    """The marks of what the table declared: Hand, ouvert, Schneider or Schwarz announced."""
    out = [mark for mark, on in ((marks.HAND, deal.hand), (marks.OUVERT, deal.ouvert)) if on]
    if not deal.game.is_null and not deal.ouvert:
        if deal.schwarz_announced:
            out.append(marks.SCHWARZ_ANN)
        elif deal.schneider_announced:
            out.append(marks.SCHNEIDER_ANN)
    return out


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
        errors.add(field, "Null-Spiele haben keine Spitzen.")
        return
    bad = [c for c in cards if not isinstance(c, str) or c.upper() not in ALL_CARDS]
    if bad:
        shown = ", ".join(str(c) for c in bad[:5])
        errors.add(
            field,
            "Unbekannte Karte(n): %(shown)s. Karten sind Farbe C S H D + Wert 7 8 9 T J Q K A, z. B. CJ oder HT.",
            shown=shown,
        )
        return
    upper = [str(c).upper() for c in cards]
    if len(set(upper)) != len(upper):
        errors.add(field, "Eine Karte ist doppelt.")
    elif len(upper) not in (10, 12):
        errors.add(
            field,
            "%(count)s Karten: es sind 10 (ohne Skat) oder 12 (mit Skat).",
            count=len(upper),
        )


def matadors_note(game: Game, m: Matadors) -> Msg:
    word = Msg("mit") if m.with_ else Msg("ohne")
    skat = Msg("Karten mit Skat") if m.from_cards == 12 else Msg("10 Karten, Skat nicht angegeben")
    return Msg(
        "Spitzen aus den Karten (%(skat)s): %(word)s %(count)s", skat=skat, word=word, count=m.count
    )


# --- Reference: which games have a given value ------------------------------------------------


@dataclass(frozen=True)
class GameWithValue:
    game: Game
    multiplier: int | None  # None for Null
    name: Msg


def games_with_value(value: int) -> list[GameWithValue]:
    """Every game whose value is exactly ``value`` — the reference table of bids.

    >>> from skatcalc.text import translate  # the texts are messages; the edges translate
    >>> [g.name.de for g in games_with_value(23)]
    ['Null']
    >>> [translate(g.name, "en") for g in games_with_value(48)]
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
                    GameWithValue(g, mult, Msg("%(label)s × %(mult)s", label=g.label, mult=mult))
                )
    for v in null_variants():
        if v.value == value:
            out.append(GameWithValue(Game.NULL, None, v.name))
    return out


def all_game_values() -> set[int]:
    return {v for v in range(1, 300) if games_with_value(v)}
