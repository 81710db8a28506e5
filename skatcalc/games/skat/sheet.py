"""Skat on a sheet (docs/rules.md 1.7-1.10): house rules, a deal's list entry and Bock
triggers, Ramsch when all pass, the row's title, and Seeger-Fabian. Registers itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from skatcalc.jsontypes import JSONObject

from ...rules import cite, marks
from ...rules.cite import Step, house
from ...rules.common import (
    Errors,
    FieldError,
    Msg,
    check_ramsch,
    joined,
    signed,
    verbatim,
)
from ...rules.inputs import Reader
from ...rules.sheet.base import (
    BockTrigger,
    ComputedSheet,
    Contract,
    DealKind,
    DealOutcome,
    GameKind,
    HouseRules,
    Row,
    SheetSpec,
    Tallies,
    register,
    zero_sum,
)
from ...rules.standings import SERIES_DEALS
from .contracts import CONTRACTS, NONE_SHOWS, STATS
from .inputs import read_skat, skat_deal_from_input
from .marks import skat_contract
from .tournament import TournamentList, seeger_fabian_feet, tournament_list
from .values import Game, Party, SkatDeal, SkatResult, skat_value

T = BockTrigger


RAMSCH_LOSERS = ("most", "each")
MAX_PUSHES = 3


@dataclass(frozen=True)
class SkatHouseRules(HouseRules):
    """A Skat table's rules: Kontra/Re or not, besides Ramsch, Bock and the stake, and the
    house rules of real tables (docs/rules.md 1.11): Schieberamsch, a cap on a Ramsch loss,
    who loses a Ramsch, Bockramsch and Bierlachs.

    >>> e = Errors()
    >>> r = SkatHouseRules.from_json({"kontra_re": True, "bock": ["60-60"]}, e)
    >>> r.to_json(), e.items
    ({'kontra_re': True, 'ramsch': False, 'bock': ['60-60'], 'stake_cents': 0}, [])
    >>> from skatcalc.text import translate
    >>> [translate(m, "en") for m in r.describe()][:2]
    ['Kontra/Re: yes', 'all-pass deals score 0']
    >>> SkatHouseRules.from_json({"ramsch": True, "schieberamsch": True, "ramsch_cap": 250}, e
    ...                          ).to_json()["ramsch_cap"]
    250
    """

    kontra_re: bool = False
    schieberamsch: bool = False
    ramsch_cap: int | None = None
    ramsch_loser: str = "most"
    bockramsch: bool = False
    bierlachs: int | None = None

    TRIGGERS: ClassVar[tuple[BockTrigger, ...]] = (
        T.SIXTY_SIXTY, T.GRAND_HAND_WON, T.KONTRA_LOST, T.VALUE_100,
        T.SCHNEIDER_LOST, T.GRAND_HAND_LOST, T.RE,
    )  # fmt: skip
    DEFAULT_STAKE: ClassVar[int] = 0

    @classmethod
    def _read(cls, r: Reader, *, ramsch: bool, bock: tuple[BockTrigger, ...],
              stake_cents: int) -> Self:  # fmt: skip
        kontra_re = r.boolean("kontra_re")
        schieberamsch = r.boolean("schieberamsch")
        cap = r.integer("ramsch_cap")
        if cap is not None and not 1 <= cap <= 100_000:
            r.errors.add("ramsch_cap", "Höchstens-Verlust im Ramsch: 1 bis 100000 oder null.")
            cap = None
        loser = r.data.get("ramsch_loser")
        r.seen.add("ramsch_loser")
        if loser is not None and loser not in RAMSCH_LOSERS:
            r.errors.add("ramsch_loser", "Ramsch-Verlierer: „most“ oder „each“.")
            loser = None
        bockramsch = r.boolean("bockramsch")
        target = r.integer("bierlachs")
        if target is not None and not 1 <= target <= 100_000:
            r.errors.add("bierlachs", "Bierlachs-Ziel: 1 bis 100000 oder null.")
            target = None
        return cls(ramsch=ramsch, bock=bock, stake_cents=stake_cents, kontra_re=bool(kontra_re),
                   schieberamsch=bool(schieberamsch), ramsch_cap=cap,
                   ramsch_loser=loser or "most", bockramsch=bool(bockramsch),
                   bierlachs=target)  # fmt: skip

    def _own_json(self) -> JSONObject:
        # The house rules of real tables only when set: a sheet without them is stored and
        # answered as before they existed (docs/api.md, Sheet rules).
        out: JSONObject = {"kontra_re": self.kontra_re}
        if self.schieberamsch:
            out["schieberamsch"] = True
        if self.ramsch_cap is not None:
            out["ramsch_cap"] = self.ramsch_cap
        if self.ramsch_loser != "most":
            out["ramsch_loser"] = self.ramsch_loser
        if self.bockramsch:
            out["bockramsch"] = True
        if self.bierlachs is not None:
            out["bierlachs"] = self.bierlachs
        return out

    def _own_describe(self) -> list[Msg]:
        out = [
            Msg("Kontra/Re: ja") if self.kontra_re else Msg("Kontra/Re: nein"),
            Msg("Ramsch statt Einpassen") if self.ramsch else Msg("Einpassen ohne Ramsch"),
        ]  # fmt: skip
        if self.schieberamsch:
            out.append(Msg("Schieberamsch (jedes Schieben verdoppelt)"))
        if self.ramsch_loser == "each":
            out.append(Msg("Ramsch: jeder schreibt seine Augen minus"))
        if self.ramsch_cap is not None:
            out.append(Msg("Ramsch-Verlust höchstens %(cap)s", cap=self.ramsch_cap))
        if self.bockramsch:
            out.append(Msg("Bockramsch: nach jeder Bockrunde eine Runde Ramsch"))
        if self.bierlachs is not None:
            out.append(Msg("Bierlachs bis %(target)s", target=self.bierlachs))
        return out

    def describe(self) -> list[Msg]:
        out = super().describe()
        if self.bierlachs is not None:
            # the settlement is per Bierlachs, not per point
            out[-1] = Msg("Einsatz: %(stake)s Cent je Bierlachs", stake=self.stake_cents)
        return out


ROUND_ONLY = Msg("In der Bockramsch-Runde wird Ramsch gespielt, oder ein Grand Hand.")


BOCK_RULE = house(cite.BOCK)
RAMSCH_RULE = house(cite.RAMSCH)
EACH = Msg("Ramsch: jeder schreibt seine Augen minus")  # the rule's name on the sheet, too


def pushed_step(pushes: int) -> Step:
    """The Schieberamsch step: ``pushes`` pushes double the Ramsch that many times."""
    return Step(Msg("%(n)s× geschoben: × %(f)s", n=pushes, f=2**pushes),
                house(cite.SCHIEBERAMSCH))  # fmt: skip


def game_triggers(deal: SkatDeal, res: SkatResult) -> tuple[BockTrigger, ...]:
    """The Bock triggers a played game meets (docs/rules.md 1.10, 1.11); the sheet keeps
    those its table plays by.

    >>> from skatcalc.games.skat.values import skat_value
    >>> d = SkatDeal(Game.GRAND, matadors=1, with_=True, hand=True, declarer_points=25)
    >>> [t.value for t in game_triggers(d, skat_value(d))]
    ['schneider-lost', 'grand-hand-lost']
    """
    out = []
    lost = not res.won
    if deal.declarer_points == 60 and lost:
        out.append(T.SIXTY_SIXTY)
    if deal.game is Game.GRAND and deal.hand and not lost:
        out.append(T.GRAND_HAND_WON)
    if deal.kontra and lost:
        out.append(T.KONTRA_LOST)
    if res.value >= 100:
        out.append(T.VALUE_100)
    if lost and deal.game is not Game.NULL:
        pts = deal.declarer_points
        # with card points: 30 or fewer; by the buttons: lost Schneider (or schwarz)
        if (pts is not None and pts <= 30) or (
            pts is None and (deal.schneider or deal.all_tricks is Party.OPPONENTS)
        ):
            out.append(T.SCHNEIDER_LOST)
    if deal.game is Game.GRAND and deal.hand and lost:
        out.append(T.GRAND_HAND_LOST)
    if deal.re:
        out.append(T.RE)
    return tuple(out)


def _read_ramsch(rules: SkatHouseRules, r: Reader, active: tuple[str, ...], in_round: bool
                 ) -> tuple[dict[str, int], list[str], str | None, int]:  # fmt: skip
    """A Ramsch's body: the card points, Jungfrau, Durchmarsch and pushes, checked against the
    table's rules (every error at once, under ``ramsch.<field>``)."""
    e = r.errors
    raw = r.data.get("ramsch")
    r.seen.add("ramsch")
    r.reject_unknown()
    if not rules.ramsch and not in_round:
        e.add("ramsch", "Ramsch ist an diesem Tisch nicht vereinbart.")
        e.raise_if_any()
    sub = Reader(raw, Errors())
    points = sub.int_map("points")
    jungfrau = sub.str_list("jungfrau") or []
    durch = sub.data.get("durchmarsch")
    sub.seen.add("durchmarsch")
    pushes = sub.integer("pushes", 0) or 0
    if sub.has("pushes") and not sub.errors.has("pushes"):
        if not 0 <= pushes <= MAX_PUSHES:
            sub.errors.add("pushes", "Geschoben: 0 bis 3 Mal.")
        elif pushes and not rules.schieberamsch:
            sub.errors.add("pushes", "Schieberamsch ist an diesem Tisch nicht vereinbart.")
    sub.reject_unknown()
    for err in sub.errors.items:
        e.items.append(FieldError(f"ramsch.{err.field}", err.msg))
    check_ramsch(active, points, jungfrau, durch, e, prefix="ramsch.")
    e.raise_if_any()
    assert points is not None and (durch is None or isinstance(durch, str))
    return points, jungfrau, durch, pushes


def _ramsch_losses(rules: SkatHouseRules, pts: Mapping[str, int], jungfrau: list[str],
                   pushes: int, bock: int, active: tuple[str, ...], entries: dict[str, int],
                   steps: list[Step], ramsch_rule: Msg) -> tuple[str, ...]:  # fmt: skip
    """The losers of a Ramsch without Durchmarsch and their entries: "each" books his own
    points, otherwise the most points lose, doubled per Jungfrau; pushes and Bock double."""
    factor = 2**pushes * 2**bock
    if rules.ramsch_loser == "each":
        for p in active:
            entries[p] = -pts[p] * factor
        steps.append(Step(EACH, house(EACH)))
        losers = tuple(p for p in active if pts[p] > 0)
    else:
        top = max(pts.values())
        losers = tuple(p for p in active if pts[p] == top)
        for p in losers:
            entries[p] = -top * 2 ** len(set(jungfrau)) * factor
        steps.append(Step(
            Msg(
                "Ramsch: %(losers)s hat die meisten Augen (%(top)s): %(minus_top)s",
                losers=", ".join(losers),
                top=top,
                minus_top=signed(-top),
            ),
            ramsch_rule,
        ))  # fmt: skip
        for j in jungfrau:
            steps.append(Step(Msg("Jungfrau %(j)s: × 2", j=j), ramsch_rule))
    if pushes:
        steps.append(pushed_step(pushes))
    if bock:
        steps.append(Step(Msg("Bock × 2"), BOCK_RULE))
    return losers


def _cap_and_list(rules: SkatHouseRules, pushes: int, losers: tuple[str, ...],
                  entries: dict[str, int], steps: list[Step]) -> None:  # fmt: skip
    """The cap on a loss, the last step (after Jungfrau, pushes and Bock), and the list
    entry as the house rules made it."""
    cap = rules.ramsch_cap
    if cap is not None:
        for p in losers:
            if entries[p] < -cap:
                steps.append(Step(
                    Msg("%(p)s: %(v)s, höchstens %(cap)s", p=p, v=signed(entries[p]),
                        cap=signed(-cap)),
                    house(Msg("Ramsch-Verlust höchstens %(cap)s", cap=cap)),
                ))  # fmt: skip
                entries[p] = -cap
    if pushes or cap is not None or rules.ramsch_loser == "each":
        shown = [verbatim(f"{p} {signed(entries[p])}") for p in losers]
        last = steps[-1].rule
        steps.append(Step(Msg("Liste: %(entries)s",
                              entries=joined(", ", shown or [verbatim("0")])), last))  # fmt: skip


class Skat(GameKind):
    key = "skat"
    label = Msg("Skat")
    passed_rule = cite.ISKO_PASSED
    player_counts = (3, 4, 5)
    player_count_msg = Msg("Skat spielen 3, 4 oder 5.")
    players_per_deal = 3
    rules_class = SkatHouseRules
    counts_lost_by_others = True
    extra_figures = ("list", "seeger_fabian")
    rank_figures = ("seeger_fabian", "list", "balance")
    keeps_list = True
    contract_table = CONTRACTS
    stat_columns = STATS
    none_shows = NONE_SHOWS
    # Kontra/Re, every Bock trigger, the house rules of real tables, a stake per point
    rule_controls = frozenset({"kontra_re", "all_bock", "more_rules", "stake"})
    event_tables = (4, 3)
    series_deals = SERIES_DEALS
    deal_equally = True  # a tournament list: every player of a table deals as often
    legend = marks.LEGEND

    def deal_value(self, body: object) -> SkatResult:
        return skat_value(skat_deal_from_input(body))

    def tournament_list(self, spec: SheetSpec, computed: ComputedSheet) -> TournamentList | None:
        return tournament_list(spec, computed)

    def ramsch_body(self, body: Mapping[str, object]) -> Mapping[str, Any] | None:
        ramsch = body.get("ramsch")
        return ramsch if isinstance(ramsch, Mapping) else None

    def ramsch_deal(self, ramsch: Mapping[str, object]) -> dict[str, object]:
        return {"ramsch": dict(ramsch)}

    def contract(self, row: Row) -> Contract:
        return skat_contract(row)

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        if "ramsch" in r.data:
            return self._ramsch(spec, r, active, bock)
        return self._game(spec, r, active, bock)

    def evaluate_round(self, spec: SheetSpec, r: Reader, active: tuple[str, ...]) -> DealOutcome:
        """A deal of a Bockramsch round (docs/rules.md 1.11): a Ramsch, also where the table
        does not play Ramsch otherwise, or a Grand Hand; never Bock."""
        if r.data.get("passed") is not None:
            r.seen.add("passed")
            r.errors.add("passed", ROUND_ONLY)
            r.errors.raise_if_any()
        if "ramsch" in r.data:
            return self._ramsch(spec, r, active, 0, in_round=True)
        return self._game(spec, r, active, 0, in_round=True)

    def _game(self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int,
              in_round: bool = False) -> DealOutcome:  # fmt: skip
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
        if (in_round and deal is not None
                and not (deal.game is Game.GRAND and (deal.hand or deal.ouvert))):  # fmt: skip
            r.errors.add("game", ROUND_ONLY)
        r.errors.raise_if_any()
        assert deal is not None and isinstance(declarer, str)
        res = skat_value(deal, rules)
        score = res.score * 2**bock
        steps = list(res.steps)
        if bock:
            steps.append(Step(Msg("Bock × 2 = %(score)s", score=signed(score)), BOCK_RULE))
        entries = dict.fromkeys(spec.players, 0)
        entries[declarer] = score
        return DealOutcome(
            DealKind.GAME, declarer, (declarer,), res, entries, zero_sum(spec.players, entries),
            res.won, res.value, res.title, tuple(steps),
            game_triggers(deal, res),
        )  # fmt: skip

    def _ramsch(
        self,
        spec: SheetSpec,
        r: Reader,
        active: tuple[str, ...],
        bock: int,
        in_round: bool = False,
    ) -> DealOutcome:
        rules = spec.rules
        assert isinstance(rules, SkatHouseRules)
        pts, jungfrau, durch, pushes = _read_ramsch(rules, r, active, in_round)
        entries = dict.fromkeys(spec.players, 0)
        steps: list[Step] = []
        # a Ramsch the evening plays only in its Bockramsch rounds rests on that rule
        ramsch_rule = house(cite.BOCKRAMSCH) if in_round and not rules.ramsch else RAMSCH_RULE
        if in_round:
            steps.append(Step(Msg("Bockramsch-Runde"), house(cite.BOCKRAMSCH)))
        if durch is not None:
            if pushes:
                steps.append(pushed_step(pushes))
            entries[durch] = 120 * 2**pushes * 2**bock
            steps.append(Step(Msg("Durchmarsch %(durch)s: %(v)s", durch=durch,
                                  v=signed(entries[durch])), ramsch_rule))  # fmt: skip
            losers: tuple[str, ...] = ()
        else:
            losers = _ramsch_losses(rules, pts, jungfrau, pushes, bock, active, entries, steps,
                                    ramsch_rule)  # fmt: skip
            _cap_and_list(rules, pushes, losers, entries, steps)
        title = Msg("Ramsch") if durch is None else Msg("Ramsch, Durchmarsch")
        return DealOutcome(DealKind.RAMSCH, None, losers, None, entries,
                           zero_sum(spec.players, entries), None, 0, title, tuple(steps), ())  # fmt: skip

    def extra_totals(
        self, players: Sequence[str], tallies: Tallies
    ) -> tuple[tuple[str, Mapping[str, int]], ...]:
        """The list, and Seeger-Fabian at 3 and 4 (docs/rules.md 1.9): list points, ±50 per
        game won or lost, and 40 (at 3) or 30 (at 4) for each game another player lost."""
        out: list[tuple[str, Mapping[str, int]]] = [("list", dict(tallies.list))]
        feet = seeger_fabian_feet(players, tallies)
        if feet is not None:
            out.append(("seeger_fabian", {p: f.total for p, f in feet.items()}))
        return tuple(out)


SKAT = register(Skat())
