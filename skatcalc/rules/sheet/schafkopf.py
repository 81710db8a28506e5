"""Schafkopf on a sheet (docs/rules.md 2.5, 2.6): house rules (tariffs, Laufende, Tout,
Ramsch), a deal's deltas and Bock triggers, the row's title. Registers itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Self

from .. import marks
from ..common import Msg, check_ramsch
from ..inputs import Reader, read_schafkopf
from ..schafkopf import (
    DEFAULT_LAUFENDE_MIN,
    DEFAULT_TARIFFS,
    SUIT_NAMES,
    TARIFF_KEYS,
    SchafkopfDeal,
    SKGame,
    full_laufende_min,
    full_tariffs,
    game_name,
    ramsch_tariff,
    schafkopf_ramsch,
    schafkopf_value,
)
from .base import BockTrigger, DealKind, DealOutcome, HouseRules, Row, SheetSpec
from .registry import GameKind, register

T = BockTrigger


@dataclass(frozen=True)
class SchafkopfHouseRules(HouseRules):
    """A Schafkopf table's rules: tariffs in cents, Laufende from how many, whether Schneider
    and Schwarz count on top of a Tout, besides Ramsch, Bock and the stake.

    ``tariffs`` and ``laufende_min`` are complete (every key, in the stored order); the
    ``"ramsch"`` tariff is there only where it was set or Ramsch is played.

    >>> from skatcalc.rules.common import Errors
    >>> r = SchafkopfHouseRules.from_json({"ramsch": True, "tariffs": {"solo": 50}}, Errors())
    >>> r.to_json()["tariffs"], r.ramsch_tariff
    ({'sauspiel': 10, 'solo': 50, 'bettel': 50, 'extra': 10, 'ramsch': 10}, 10)
    """

    tariffs: tuple[tuple[str, int], ...] = tuple(DEFAULT_TARIFFS.items())
    tout_counts_schneider_schwarz: bool = True
    laufende_min: tuple[tuple[str, int], ...] = tuple(DEFAULT_LAUFENDE_MIN.items())
    stake_cents: int = 1

    TRIGGERS: ClassVar[tuple[BockTrigger, ...]] = (T.SIXTY_SIXTY, T.KONTRA_LOST, T.VALUE_100)
    DEFAULT_STAKE: ClassVar[int] = 1

    @classmethod
    def _read(cls, r: Reader, *, ramsch: bool, bock: tuple[BockTrigger, ...],
              stake_cents: int) -> Self:  # fmt: skip
        tariffs = r.int_map("tariffs") or {}
        for k, v in tariffs.items():
            if k not in TARIFF_KEYS:
                r.errors.add("tariffs", "Unbekannter Tarif „%(k)s“.", k=k)
            elif not 0 <= v <= 100_000:
                r.errors.add("tariffs", "Tarife: 0 bis 100000 Cent.")
        lmin = r.int_map("laufende_min") or {}
        for k, v in lmin.items():
            if k not in DEFAULT_LAUFENDE_MIN:
                r.errors.add("laufende_min", "Unbekanntes Spiel „%(k)s“.", k=k)
            elif not 1 <= v <= SKGame(k).max_laufende:
                r.errors.add(
                    "laufende_min",
                    "Laufende im %(k)s: 1 bis %(max_laufende)s.",
                    k=k,
                    max_laufende=SKGame(k).max_laufende,
                )
        tcss = r.boolean("tout_counts_schneider_schwarz", True)
        full = full_tariffs(tariffs)
        if ramsch:  # the evening plays Ramsch: its tariff is stated, as every other rule
            full.setdefault("ramsch", ramsch_tariff(full))
        return cls(
            ramsch=ramsch,
            bock=bock,
            stake_cents=stake_cents,
            tariffs=tuple(full.items()),
            tout_counts_schneider_schwarz=bool(tcss),
            laufende_min=tuple(full_laufende_min(lmin).items()),
        )

    @cached_property
    def deal_rules(self) -> dict[str, Any]:
        """The rules a single deal is valued by, as :func:`read_schafkopf` takes them."""
        return {
            "tariffs": dict(self.tariffs),
            "tout_counts_schneider_schwarz": self.tout_counts_schneider_schwarz,
            "laufende_min": dict(self.laufende_min),
        }

    @property
    def ramsch_tariff(self) -> int:
        return ramsch_tariff(full_tariffs(dict(self.tariffs)))

    def _own_json(self) -> dict[str, Any]:
        return {
            "tariffs": dict(self.tariffs),
            "tout_counts_schneider_schwarz": self.tout_counts_schneider_schwarz,
            "laufende_min": dict(self.laufende_min),
        }

    def _own_describe(self) -> list[Msg]:
        t = dict(self.tariffs)
        lm = dict(self.laufende_min)
        tcss = self.tout_counts_schneider_schwarz
        out = [
            Msg("Tarife: Sauspiel %(sauspiel)s, Solo %(solo)s, Bettel %(bettel)s, Extra %(extra)s", sauspiel=str(t.get('sauspiel')), solo=str(t.get('solo')), bettel=str(t.get('bettel')), extra=str(t.get('extra'))),
            Msg("Laufende ab %(sauspiel)s (Wenz/Geier ab %(wenz)s)", sauspiel=str(lm.get('sauspiel')), wenz=str(lm.get('wenz'))),
            Msg("Tout: Schneider/Schwarz zählen extra") if tcss else Msg("Tout: Schneider/Schwarz inbegriffen"),
        ]  # fmt: skip
        if self.ramsch:
            rt = self.ramsch_tariff
            out.append(Msg("Ramsch: ja, Tarif %(tariff)s", tariff=rt))
        else:
            out.append(Msg("Ramsch: nein"))
        return out


def schafkopf_title(deal: SchafkopfDeal) -> Msg:
    """Short form for the sheet row: "Sauspiel A+D (Eichel-Sau)", "Gras-Solo Tout C"."""
    extra = " Sie" if deal.sie else (" Tout" if deal.tout else "")
    names = "+".join(deal.declarers)
    name = game_name(deal.game, deal.suit)
    if deal.game is SKGame.SAUSPIEL and deal.suit:
        sau = SUIT_NAMES[deal.suit]
        return Msg("Sauspiel %(names)s (%(sau)s-Sau)", names=names, sau=sau)
    return Msg("%(name)s%(extra)s %(names)s", name=name, extra=extra, names=names)


class Schafkopf(GameKind):
    key = "schafkopf"
    label = Msg("Schafkopf")
    player_counts = (4,)
    player_count_msg = Msg("Schafkopf spielen genau 4.")
    players_per_deal = 4
    rules_class = SchafkopfHouseRules
    partner_contracts = frozenset({"sauspiel", "hochzeit"})
    counts_opponents = True
    contracts = (
        "sauspiel", "hochzeit", "solo", "wenz", "geier", "farbwenz", "farbgeier", "bettel",
    )  # fmt: skip
    stat_kinds = ("solos", "sauspiele")
    event_tables = (4,)
    series_deals = {4: 32, 3: 0}
    legend = tuple(pair for pair in marks.LEGEND if pair[0] in marks.SCHAFKOPF_MARKS)
    value_holds_bock = True

    def stat_kind(self, contract: str) -> str | None:
        # every game played alone counts as a solo (Wenz and Bettel included)
        return "sauspiele" if contract in self.partner_contracts else "solos"

    def ramsch_body(self, body: Mapping[str, Any]) -> Mapping[str, Any] | None:
        return body if body.get("game") == "ramsch" else None

    def ramsch_deal(self, ramsch: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": "ramsch", **ramsch}

    def contract(self, row: Row) -> marks.Contract:
        return marks.schafkopf_contract(row)

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        rules = spec.rules
        assert isinstance(rules, SchafkopfHouseRules)
        if r.data.get("game") == "ramsch":
            return self._ramsch(spec, rules, r, bock)
        deal = read_schafkopf(r, players=spec.players, rules=rules.deal_rules, bock=bock)
        r.reject_unknown()
        r.errors.raise_if_any()
        assert deal is not None
        res = schafkopf_value(deal)
        triggers = []
        if deal.player_points == 60:
            triggers.append(T.SIXTY_SIXTY)
        if deal.kontra and not res.won:
            triggers.append(T.KONTRA_LOST)
        if res.value >= 100:
            triggers.append(T.VALUE_100)
        return DealOutcome(
            DealKind.GAME, deal.declarers[0], deal.declarers, res, dict(res.deltas),
            dict(res.deltas), res.won, res.value, schafkopf_title(deal), res.steps,
            tuple(triggers),
        )  # fmt: skip

    def _ramsch(
        self, spec: SheetSpec, rules: SchafkopfHouseRules, r: Reader, bock: int
    ) -> DealOutcome:
        r.choice("game", {"ramsch": "ramsch"})
        points = r.int_map("points")
        jungfrau = r.str_list("jungfrau") or []
        durch = r.data.get("durchmarsch")
        r.seen.add("durchmarsch")
        r.reject_unknown()
        if not rules.ramsch:
            r.errors.add("game", "Ramsch ist an diesem Tisch nicht vereinbart.")
        check_ramsch(spec.players, points, jungfrau, durch, r.errors)
        r.errors.raise_if_any()
        assert points is not None and (durch is None or isinstance(durch, str))
        res = schafkopf_ramsch(
            spec.players, points, tuple(jungfrau), durch, dict(rules.tariffs), bock
        )
        title = Msg("Ramsch") if durch is None else Msg("Ramsch, Durchmarsch")
        return DealOutcome(DealKind.RAMSCH, None, res.losers, None, dict(res.deltas),
                           dict(res.deltas), None, 0, title, res.steps, ())  # fmt: skip


SCHAFKOPF = register(Schafkopf())
