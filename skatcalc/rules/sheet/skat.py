"""Skat on a sheet (docs/rules.md 1.7-1.10): house rules, a deal's list entry and Bock
triggers, Ramsch when all pass, the row's title, and Seeger-Fabian. Registers itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .. import marks
from ..common import Errors, FieldError, Msg, check_ramsch, joined, pmsg, signed
from ..inputs import Reader, read_skat
from ..skat import Game, SkatDeal, skat_value
from .base import (
    BockTrigger,
    DealKind,
    DealOutcome,
    HouseRules,
    Row,
    SheetSpec,
    Tallies,
    zero_sum,
)
from .registry import GameKind, register

T = BockTrigger


@dataclass(frozen=True)
class SkatHouseRules(HouseRules):
    """A Skat table's rules: Kontra/Re or not, besides Ramsch, Bock and the stake.

    >>> e = Errors()
    >>> r = SkatHouseRules.from_json({"kontra_re": True, "bock": ["60-60"]}, e)
    >>> r.to_json(), e.items
    ({'kontra_re': True, 'ramsch': False, 'bock': ['60-60'], 'stake_cents': 0}, [])
    >>> from skatcalc.i18n import translate
    >>> [translate(m, "en") for m in r.describe()][:2]
    ['Kontra/Re: yes', 'all-pass deals score 0']
    """

    kontra_re: bool = False

    TRIGGERS: ClassVar[tuple[BockTrigger, ...]] = (
        T.SIXTY_SIXTY, T.GRAND_HAND_WON, T.KONTRA_LOST, T.VALUE_100
    )  # fmt: skip
    DEFAULT_STAKE: ClassVar[int] = 0

    @classmethod
    def _read(cls, r: Reader, *, ramsch: bool, bock: tuple[BockTrigger, ...],
              stake_cents: int) -> Self:  # fmt: skip
        kontra_re = r.boolean("kontra_re")
        return cls(ramsch=ramsch, bock=bock, stake_cents=stake_cents, kontra_re=bool(kontra_re))

    def _own_json(self) -> dict[str, Any]:
        return {"kontra_re": self.kontra_re}

    def _own_describe(self) -> list[Msg]:
        return [
            Msg("Kontra/Re: ja") if self.kontra_re else Msg("Kontra/Re: nein"),
            Msg("Ramsch statt Einpassen") if self.ramsch else Msg("Einpassen ohne Ramsch"),
        ]  # fmt: skip


def skat_title(deal: SkatDeal, won: bool | None = None) -> Msg:
    """Short form for the sheet row: "Grand Hand mit 2", "Null ouvert".

    >>> skat_title(SkatDeal(Game.GRAND, matadors=2, with_=True, hand=True)).de
    'Grand Hand mit 2'
    """
    g: Game = deal.game
    parts: list[Msg] = [g.label]
    if g is Game.NULL:
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


class Skat(GameKind):
    key = "skat"
    label = Msg("Skat")
    player_counts = (3, 4, 5)
    player_count_msg = Msg("Skat spielen 3, 4 oder 5.")
    players_per_deal = 3
    rules_class = SkatHouseRules
    counts_lost_by_others = True
    extra_figures = ("list", "seeger_fabian")
    rank_figures = ("seeger_fabian", "list", "balance")
    keeps_list = True
    contracts = ("grand", "clubs", "spades", "hearts", "diamonds", "null")
    stat_kinds = ("grands", "nulls")
    event_tables = (4, 3)
    series_deals = {4: 48, 3: 36}
    legend = marks.LEGEND

    def stat_kind(self, contract: str) -> str | None:
        return {"grand": "grands", "null": "nulls"}.get(contract)

    def ramsch_body(self, body: Mapping[str, Any]) -> Mapping[str, Any] | None:
        ramsch = body.get("ramsch")
        return ramsch if isinstance(ramsch, Mapping) else None

    def ramsch_deal(self, ramsch: Mapping[str, Any]) -> dict[str, Any]:
        return {"ramsch": dict(ramsch)}

    def contract(self, row: Row) -> marks.Contract:
        return marks.skat_contract(row)

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        if "ramsch" in r.data:
            return self._ramsch(spec, r, active, bock)
        return self._game(spec, r, active, bock)

    def _game(self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int) -> DealOutcome:
        rules = spec.rules
        assert isinstance(rules, SkatHouseRules)
        declarer = r.data.get("declarer")
        r.seen.add("declarer")
        deal = read_skat(r)
        r.reject_unknown()
        if not isinstance(declarer, str) or declarer not in active:
            r.errors.add(
                "declarer", "Bitte den Alleinspieler wählen (einer der drei, die mitspielen)."
            )
        if deal is not None and (deal.kontra or deal.re) and not rules.kontra_re:
            r.errors.add("kontra", "Kontra/Re ist an diesem Tisch nicht vereinbart.")
        r.errors.raise_if_any()
        assert deal is not None and isinstance(declarer, str)
        res = skat_value(deal)
        score = res.score * 2**bock
        steps = list(res.steps)
        if bock:
            steps.append(Msg("Bock × 2 = %(score)s", score=signed(score)))
        entries = dict.fromkeys(spec.players, 0)
        entries[declarer] = score
        triggers = []
        if deal.declarer_points == 60 and not res.won:
            triggers.append(T.SIXTY_SIXTY)
        if deal.game is Game.GRAND and deal.hand and res.won:
            triggers.append(T.GRAND_HAND_WON)
        if deal.kontra and not res.won:
            triggers.append(T.KONTRA_LOST)
        if res.value >= 100:
            triggers.append(T.VALUE_100)
        return DealOutcome(
            DealKind.GAME, declarer, (declarer,), res, entries, zero_sum(spec.players, entries),
            res.won, res.value, skat_title(deal, res.won), tuple(steps), tuple(triggers),
        )  # fmt: skip

    def _ramsch(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        e = r.errors
        raw = r.data.get("ramsch")
        r.seen.add("ramsch")
        r.reject_unknown()
        if not spec.rules.ramsch:
            e.add("ramsch", "Ramsch ist an diesem Tisch nicht vereinbart.")
            e.raise_if_any()
        sub = Reader(raw, Errors())
        points = sub.int_map("points")
        jungfrau = sub.str_list("jungfrau") or []
        durch = sub.data.get("durchmarsch")
        sub.seen.add("durchmarsch")
        sub.reject_unknown()
        for err in sub.errors.items:
            e.items.append(FieldError(f"ramsch.{err.field}", err.msg))
        check_ramsch(active, points, jungfrau, durch, e, prefix="ramsch.")
        e.raise_if_any()
        assert points is not None
        pts: dict[str, int] = points
        factor = 2**bock
        entries = dict.fromkeys(spec.players, 0)
        steps: list[Msg] = []
        if durch is not None:
            entries[durch] = 120 * factor
            steps.append(Msg("Durchmarsch %(durch)s: %(v)s", durch=durch, v=signed(120 * factor)))
            losers: tuple[str, ...] = ()
        else:
            top = max(pts.values())
            losers = tuple(p for p in active if pts[p] == top)
            mult = 2 ** len(set(jungfrau))
            for p in losers:
                entries[p] = -top * mult * factor
            steps.append(
                Msg(
                    "Ramsch: %(losers)s hat die meisten Augen (%(top)s): %(minus_top)s",
                    losers=", ".join(losers),
                    top=top,
                    minus_top=signed(-top),
                )
            )
            for j in jungfrau:
                steps.append(Msg("Jungfrau %(j)s: × 2", j=j))
            if bock:
                steps.append(Msg("Bock × 2"))
        title = Msg("Ramsch") if durch is None else Msg("Ramsch, Durchmarsch")
        return DealOutcome(DealKind.RAMSCH, None, losers, None, entries,
                           zero_sum(spec.players, entries), None, 0, title, tuple(steps), ())  # fmt: skip

    def extra_totals(
        self, players: Sequence[str], tallies: Tallies
    ) -> tuple[tuple[str, Mapping[str, int]], ...]:
        """The list, and Seeger-Fabian at 3 and 4 (docs/rules.md 1.9): list points, ±50 per
        game won or lost, and 40 (at 3) or 30 (at 4) for each game another player lost."""
        out: list[tuple[str, Mapping[str, int]]] = [("list", dict(tallies.list))]
        n = len(players)
        if n in (3, 4):
            bonus = 40 if n == 3 else 30
            out.append((
                "seeger_fabian",
                {p: tallies.list[p] + 50 * (tallies.won[p] - tallies.lost[p])
                    + bonus * tallies.lost_by_others[p] for p in players},
            ))  # fmt: skip
        return tuple(out)


SKAT = register(Skat())
