"""Schafkopf on a sheet (docs/rules.md 2.5–2.7): house rules (tariffs, Laufende, Tout,
Ramsch, the Stock), a deal's deltas and Bock triggers at a table of four or five, the row's
title. Registers itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Self, cast

from skatcalc.jsontypes import JSONObject

from ...rules import cite, marks
from ...rules.common import Errors, Msg, check_ramsch
from ...rules.inputs import Reader
from ...rules.sheet.base import (
    BockTrigger,
    Contract,
    DealKind,
    DealOutcome,
    GameKind,
    HouseRules,
    Pot,
    Row,
    SheetSpec,
    register,
)
from .contracts import CONTRACTS, NONE_SHOWS, STATS
from .inputs import read_schafkopf, schafkopf_deal_from_input
from .marks import SCHAFKOPF_MARKS, schafkopf_contract
from .tournament import PRESET_SOURCES, PRESETS, SCALE_FIGURES, PointScale, read_scale, scale_value
from .values import (
    DEFAULT_LAUFENDE_MIN,
    DEFAULT_TARIFFS,
    SUIT_NAMES,
    TARIFF_KEYS,
    SchafkopfDeal,
    SchafkopfResult,
    SKGame,
    full_laufende_min,
    full_tariffs,
    game_name,
    laufende_tariff,
    ramsch_tariff,
    schafkopf_ramsch,
    schafkopf_value,
    schneider_tariff,
)

T = BockTrigger

STOCK_TAKEN_BY = ("any", "rufspiel")
STOCK_LOST = ("leave", "double")


@dataclass(frozen=True)
class Stock:
    """The Stock (docs/rules.md 2.7): what a passed deal costs each of its players, whose
    win takes it ("any" game, or only a "rufspiel", the Sauspiel) and what a lost game does
    to it ("leave" it, or its player party pays as much again: "double")."""

    cents: int
    taken_by: str = "any"
    lost: str = "leave"

    def to_json(self) -> JSONObject:
        return {"cents": self.cents, "taken_by": self.taken_by, "lost": self.lost}


def read_stock(r: Reader) -> Stock | None:
    """The ``stock`` rule: null, a bare number (short for "any" and "leave") or an object.

    >>> from skatcalc.rules.common import Errors
    >>> read_stock(Reader({"stock": 20}))
    Stock(cents=20, taken_by='any', lost='leave')
    >>> r = Reader({"stock": {"cents": 20, "lost": "burn"}}); read_stock(r); r.errors.items[0].field
    'stock'
    """
    r.seen.add("stock")
    raw = r.data.get("stock")
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = {"cents": raw}
    if not isinstance(raw, Mapping) or set(raw) - {"cents", "taken_by", "lost"}:
        r.errors.add("stock", "Stock: eine Zahl (Cent) oder {cents, taken_by, lost}.")
        return None
    cents = raw.get("cents")
    taken_by = raw.get("taken_by", "any")
    lost = raw.get("lost", "leave")
    ok = True
    if isinstance(cents, bool) or not isinstance(cents, int) or not 1 <= cents <= 100_000:
        r.errors.add("stock", "Stock: 1 bis 100000 Cent je Spieler.")
        ok = False
    if taken_by not in STOCK_TAKEN_BY:
        r.errors.add("stock", "Stock „taken_by“: any oder rufspiel.")
        ok = False
    if lost not in STOCK_LOST:
        r.errors.add("stock", "Stock „lost“: leave oder double.")
        ok = False
    return Stock(cents, taken_by, lost) if ok and isinstance(cents, int) else None


def halves(amount: int, party: tuple[str, ...]) -> dict[str, int]:
    """``amount`` shared by the player party: a solo player all of it, two players half
    each, an odd cent to the first named.

    >>> halves(45, ("A", "D")), halves(45, ("B",))
    ({'A': 23, 'D': 22}, {'B': 45})
    """
    if len(party) == 1:
        return {party[0]: amount}
    second = amount // 2
    return {party[0]: amount - second, party[1]: second}


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
    stock: Stock | None = None
    #: a tournament's point scale (docs/rules.md 2.8): deals count in points on it, not by
    #: the tariffs; None on every sheet played for money
    scale: PointScale | None = None

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
        stock = read_stock(r)
        scale = None
        r.seen.add("scale")
        if r.data.get("scale") is not None:
            scale = read_scale(r.data["scale"], r.errors)
            # Points are not money: no Ramsch (its losers have no place on the scale) and no
            # Stock on a tournament scale
            if ramsch:
                r.errors.add("ramsch", "Auf der Turnierwertung wird kein Ramsch gespielt.")
            if stock is not None:
                r.errors.add("stock", "Auf der Turnierwertung gibt es keinen Stock.")
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
            stock=stock,
            scale=scale,
        )

    @cached_property
    def deal_rules(self) -> dict[str, object]:
        """The rules a single deal is valued by, as :func:`read_schafkopf` takes them."""
        return {
            "tariffs": dict(self.tariffs),
            "tout_counts_schneider_schwarz": self.tout_counts_schneider_schwarz,
            "laufende_min": dict(self.laufende_min),
        }

    @property
    def ramsch_tariff(self) -> int:
        return ramsch_tariff(full_tariffs(dict(self.tariffs)))

    def _own_json(self) -> JSONObject:
        out: JSONObject = {
            "tariffs": {k: v for k, v in self.tariffs},
            "tout_counts_schneider_schwarz": self.tout_counts_schneider_schwarz,
            "laufende_min": {k: v for k, v in self.laufende_min},
        }
        if self.stock is not None:  # only where kept: every other sheet answers as before
            out["stock"] = self.stock.to_json()
        if self.scale is not None:
            out["scale"] = cast(JSONObject, self.scale.to_json())
        return out

    @property
    def written(self) -> bool:
        return self.scale is not None and self.scale.written

    def describe(self) -> list[Msg]:
        out = super().describe()
        # points on a scale are not money: the stake (the last line) says nothing there
        return out[:-1] if self.scale is not None else out

    def _own_describe(self) -> list[Msg]:
        t = dict(self.tariffs)
        lm = dict(self.laufende_min)
        tcss = self.tout_counts_schneider_schwarz
        if self.scale is not None:
            sc = self.scale
            return [
                Msg("Turnierwertung: Rufspiel %(ruf)s, Solo %(solo)s je Gegner, Bettel "
                    "%(bettel)s; Laufende %(lr)s/%(ls)s; Tout × %(tout)s, Sie × %(sie)s, Kontra × %(kontra)s",
                    ruf="/".join(map(str, sc.rufspiel)), solo="/".join(map(str, sc.solo)),
                    bettel=sc.bettel, lr=sc.laufender_rufspiel, ls=sc.laufender_solo,
                    tout=sc.tout, sie=sc.sie, kontra=sc.kontra),
                Msg("Laufende ab %(sauspiel)s (Wenz/Geier ab %(wenz)s)",
                    sauspiel=str(dict(sc.laufende_min).get("sauspiel")),
                    wenz=str(dict(sc.laufende_min).get("wenz"))),
                *scale_notes(sc),
            ]  # fmt: skip
        out = [
            Msg("Tarife: Sauspiel %(sauspiel)s, Solo %(solo)s, Bettel %(bettel)s, Extra %(extra)s", sauspiel=str(t.get('sauspiel')), solo=str(t.get('solo')), bettel=str(t.get('bettel')), extra=str(t.get('extra'))),
            Msg("Laufende ab %(sauspiel)s (Wenz/Geier ab %(wenz)s)", sauspiel=str(lm.get('sauspiel')), wenz=str(lm.get('wenz'))),
            Msg("Tout: Schneider/Schwarz zählen extra") if tcss else Msg("Tout: Schneider/Schwarz inbegriffen"),
        ]  # fmt: skip
        if "schneider" in t or "laufende" in t:
            out.append(Msg("Schneider/Schwarz je %(schneider)s, Laufende je %(laufende)s",
                           schneider=schneider_tariff(t), laufende=laufende_tariff(t)))  # fmt: skip
        if self.ramsch:
            rt = self.ramsch_tariff
            out.append(Msg("Ramsch: ja, Tarif %(tariff)s", tariff=rt))
        else:
            out.append(Msg("Ramsch: nein"))
        st = self.stock
        if st is not None:
            taken = Msg("nur ein Sauspiel") if st.taken_by == "rufspiel" else Msg("jedes Spiel")
            lost = Msg("wird verdoppelt") if st.lost == "double" else Msg("bleibt")
            out.append(Msg("Stock: %(cents)s je Spieler beim Einpassen; gewinnen: %(taken)s; "
                           "verloren: der Stock %(lost)s", cents=st.cents, taken=taken,
                           lost=lost))  # fmt: skip
        return out


#: the presets by the name a sheet gives them (docs/rules.md 2.8)
PRESET_NAMES = {
    "self": Msg("SELF (Schafkopfturnier 2022)"),
    "donauries": Msg("Donauries-Schafkopfcup (Turnierregeln 2019/2020)"),
    "nur-gute": Msg("nur Gute (TSG Niederfüllbach)"),
}


def scale_notes(sc: PointScale) -> list[Msg]:
    """What a scale does besides the default's figures, in words for the sheet's heading:
    nothing for the default scale (its heading stays as it was)."""
    out = []
    if sc.preset in PRESET_NAMES:
        out.append(Msg("Vorlage: %(name)s", name=PRESET_NAMES[sc.preset]))
    if sc.tout_level == "plain":
        out.append(Msg("Tout und Sie vom einfachen Wert"))
    if sc.laufende_max is not None:
        out.append(Msg("Laufende höchstens %(n)s", n=sc.laufende_max))
    if sc.herz_solo is not None:
        out.append(Msg("Herz-Solo %(points)s", points=sc.herz_solo))
    if sc.written:
        out.append(Msg("Nur die Gewinner schreiben; die Rangliste zählt das Geschriebene"))
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
    # a deal all pass is thrown in unless the table plays Ramsch
    passed_rule = cite.SK_RAMSCH
    player_counts = (4, 5)
    player_count_msg = Msg("Schafkopf spielen 4 oder 5 (bei 5 setzt der Geber aus).")
    players_per_deal = 4
    rules_class = SchafkopfHouseRules
    counts_opponents = True
    contract_table = CONTRACTS
    stat_columns = STATS
    none_shows = NONE_SHOWS
    rule_controls = frozenset({"tariffs", "stock"})
    event_tables = (4,)
    series_deals = {4: 32, 3: 0}
    legend = tuple(pair for pair in marks.LEGEND if pair[0] in SCHAFKOPF_MARKS)
    value_holds_bock = True

    has_point_scale = True
    point_presets = tuple(PRESETS)
    point_figures = SCALE_FIGURES
    # most deals of a Schafkopf evening are a Sauspiel: chosen already (its two players tell
    # it from a solo game, so a solo left on it is refused, never stored as one)
    fresh_contract = "sauspiel"

    def read_point_scale(self, data: object, e: Errors, field: str) -> Mapping[str, object] | None:
        scale = read_scale(data, e, field)
        return None if scale is None else scale.to_json()

    def point_preset(self, name: str) -> Mapping[str, object]:
        return PRESETS[name].to_json()

    def point_preset_source(self, name: str) -> Msg:
        return PRESET_SOURCES[name]

    def deal_value(self, body: object) -> SchafkopfResult:
        return schafkopf_value(schafkopf_deal_from_input(body))

    def ramsch_body(self, body: Mapping[str, object]) -> Mapping[str, Any] | None:
        return body if body.get("game") == "ramsch" else None

    def ramsch_deal(self, ramsch: Mapping[str, object]) -> dict[str, object]:
        return {"game": "ramsch", **ramsch}

    def contract(self, row: Row) -> Contract:
        return schafkopf_contract(row)

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        rules = spec.rules
        assert isinstance(rules, SchafkopfHouseRules)
        # The four who play, in seat order; at a table of five the dealer sits out and
        # neither pays nor receives (his entries are 0).
        seated = tuple(p for p in spec.players if p in active) if active else spec.players
        if r.data.get("game") == "ramsch":
            return self._ramsch(spec, rules, r, seated, bock)
        deal = read_schafkopf(r, players=seated, rules=rules.deal_rules, bock=bock)
        r.reject_unknown()
        out_of_deal = [
            d for d in (deal.declarers if deal is not None else ())
            if d in spec.players and d not in seated
        ]  # fmt: skip
        if out_of_deal:
            r.errors.add("declarers", "%(names)s setzt in diesem Spiel aus.",
                         names=", ".join(out_of_deal))  # fmt: skip
        r.errors.raise_if_any()
        assert deal is not None
        res = schafkopf_value(deal) if rules.scale is None else scale_value(deal, rules.scale)
        triggers = []
        if deal.player_points == 60:
            triggers.append(T.SIXTY_SIXTY)
        if deal.kontra and not res.won:
            triggers.append(T.KONTRA_LOST)
        if res.value >= 100:
            triggers.append(T.VALUE_100)
        deltas = {p: res.deltas.get(p, 0) for p in spec.players}
        # the paper list: plus and minus points, or on "nur Gute" what the winners write
        listed = res.written if res.written is not None else res.deltas
        return DealOutcome(
            DealKind.GAME, deal.declarers[0], deal.declarers, res,
            {p: listed.get(p, 0) for p in spec.players}, deltas, res.won, res.value,
            schafkopf_title(deal), res.steps, tuple(triggers),
        )  # fmt: skip

    def _ramsch(
        self,
        spec: SheetSpec,
        rules: SchafkopfHouseRules,
        r: Reader,
        seated: tuple[str, ...],
        bock: int,
    ) -> DealOutcome:
        r.choice("game", {"ramsch": "ramsch"})
        points = r.int_map("points")
        jungfrau = r.str_list("jungfrau") or []
        durch = r.data.get("durchmarsch")
        r.seen.add("durchmarsch")
        r.reject_unknown()
        if not rules.ramsch:
            r.errors.add("game", "Ramsch ist an diesem Tisch nicht vereinbart.")
        check_ramsch(seated, points, jungfrau, durch, r.errors)
        r.errors.raise_if_any()
        assert points is not None and (durch is None or isinstance(durch, str))
        res = schafkopf_ramsch(seated, points, tuple(jungfrau), durch, dict(rules.tariffs), bock)
        title = Msg("Ramsch") if durch is None else Msg("Ramsch, Durchmarsch")
        deltas = {p: res.deltas.get(p, 0) for p in spec.players}
        return DealOutcome(DealKind.RAMSCH, None, res.losers, None, deltas,
                           dict(deltas), None, 0, title, res.steps, ())  # fmt: skip

    def feed_pot(
        self, rules: HouseRules, out: DealOutcome, active: tuple[str, ...], pot: Pot | None
    ) -> tuple[Mapping[str, int] | None, Pot | None]:
        """The Stock (docs/rules.md 2.7): a passed deal costs each of its players the Stock
        amount; the next game won (or Sauspiel won) takes it all; a lost one leaves it or
        doubles it; a Ramsch leaves it. A Stock left from rules since changed stays until
        the end (it goes back then)."""
        assert isinstance(rules, SchafkopfHouseRules)
        st = rules.stock
        if st is None:
            return None, pot
        pot = pot or Pot()
        paid = dict(pot.paid)
        change: dict[str, int] = {}
        if out.kind is DealKind.PASSED:
            for p in active:
                change[p] = -st.cents
                paid[p] = paid.get(p, 0) + st.cents
            return change, Pot(pot.cents + st.cents * len(active), paid)
        if out.kind is not DealKind.GAME or out.result is None or pot.cents == 0:
            return change, pot
        res = out.result
        eligible = st.taken_by == "any" or (
            isinstance(res, SchafkopfResult) and res.game is SKGame.SAUSPIEL
        )
        if not eligible:
            return change, pot
        if out.won:
            return halves(pot.cents, out.party), Pot()
        if st.lost == "double":
            share = halves(pot.cents, out.party)
            for p, c in share.items():
                change[p] = -c
                paid[p] = paid.get(p, 0) + c
            return change, Pot(2 * pot.cents, paid)
        return change, pot


SCHAFKOPF = register(Schafkopf())
