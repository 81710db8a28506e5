"""An evening's sheet, computed from its deals (docs/rules.md 1.7-1.10, 2.5, 2.6).

Deals are the source of truth: :func:`compute_sheet` recomputes every result, running total,
Bock round, the game's extra figures (Seeger-Fabian) and the settlement in one pass over the
stored deals, so an old sheet always gives the same totals and a correction ripples forward.
What is game-specific comes from the game's :class:`~.base.GameKind`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cite import Step
from ..common import InvalidDeal, Msg
from ..inputs import Reader
from . import bierlachs
from .base import (
    Bierlachs,
    ComputedSheet,
    DealKind,
    DealOutcome,
    DealRecord,
    Pot,
    Row,
    SheetSpec,
    SheetState,
    Tallies,
    Totals,
    Transfer,
    dealer_after,
    game,
    next_dealer,
)

PASSED_TITLE = Msg("eingepasst")
PASSED_STEP = Msg("eingepasst: keine Wertung")


def evaluate_deal(
    spec: SheetSpec,
    body: object,
    active: tuple[str, ...],
    bock: int = 0,
    ramsch_round: bool = False,
) -> DealOutcome:
    """Score one deal of this sheet (``ramsch_round``: of a Bockramsch round, docs/rules.md
    1.11); raises :class:`InvalidDeal` for input that cannot be."""
    r = Reader(body)
    r.seen.update({"dealer", "active"})
    if ramsch_round:
        return game(spec.game).evaluate_round(spec, r, active)
    if r.data.get("passed") is not None:
        passed = r.boolean("passed")
        r.reject_unknown()
        if passed is not True and not r.errors:
            r.errors.add("passed", "Nur „passed: true“ ist möglich.")
        r.errors.raise_if_any()
        zero = dict.fromkeys(spec.players, 0)
        return DealOutcome(DealKind.PASSED, None, (), None, zero, dict(zero), None, 0,
                           PASSED_TITLE, (Step(PASSED_STEP, game(spec.game).passed_rule),), ())  # fmt: skip
    return game(spec.game).evaluate(spec, r, active, bock)


@dataclass
class _Pass:
    """Where one pass over a sheet's deals stands: the running figures :class:`SheetState`
    keeps, and the rows so far."""

    balance: dict[str, int]
    list_tot: dict[str, int]
    won: dict[str, int]
    lost: dict[str, int]
    lost_by_others: dict[str, int]
    bock_queue: int
    ramsch_queue: int
    match: Bierlachs | None
    pot: Pot | None
    rows: list[Row]

    @classmethod
    def start(cls, players: Sequence[str], resume: SheetState | None) -> _Pass:
        if resume is None:
            zero = dict.fromkeys(players, 0)
            return cls(dict(zero), dict(zero), dict(zero), dict(zero), dict(zero), 0, 0, None,
                       None, [])  # fmt: skip
        return cls(dict(resume.balance), dict(resume.list_tot), dict(resume.won),
                   dict(resume.lost), dict(resume.lost_by_others), resume.bock_queue,
                   resume.ramsch_queue, resume.bierlachs, resume.pot, list(resume.rows))  # fmt: skip

    def state(self, count: int) -> SheetState:
        return SheetState(count, tuple(self.rows), dict(self.balance), dict(self.list_tot),
                          dict(self.won), dict(self.lost), dict(self.lost_by_others),
                          self.bock_queue, self.ramsch_queue, self.match, self.pot)  # fmt: skip

    def written_totals(self, at: SheetSpec) -> dict[str, int] | None:
        """On a sheet where only the winners write: what each has written so far."""
        return dict(self.list_tot) if at.rules.written else None

    def struck(self, at: SheetSpec, d: DealRecord, round_len: int) -> None:
        """A struck deal shows what it was (as if dealt without Bock) and counts nothing."""
        zero = dict.fromkeys(at.players, 0)
        shown = _shown(at, d, ramsch_round_next(self.bock_queue, self.ramsch_queue, round_len))
        self.rows.append(Row(d.n, d.dealer, d.active, d.input, True, False, shown, zero, zero,
                             dict(self.balance), version=d.version, written=at.rules.written,
                             written_totals=self.written_totals(at)))  # fmt: skip

    def play(self, at: SheetSpec, d: DealRecord, round_len: int, strict: bool = False) -> None:
        """A counted deal under the rules in force at it: Bock or a Bockramsch round, its
        result, the Stock, the tallies, the Bock rounds it triggers, Bierlachs. ``strict``:
        a deal that does not evaluate raises :class:`InvalidDeal` instead of its error row."""
        players = at.players
        zero = dict.fromkeys(players, 0)
        in_round = ramsch_round_next(self.bock_queue, self.ramsch_queue, round_len)
        bock = self.bock_queue > 0 and not in_round
        if bock:
            self.bock_queue -= 1
        elif in_round:
            self.ramsch_queue -= 1
        try:
            out = evaluate_deal(at, d.input, d.active, 1 if bock else 0, in_round)
        except InvalidDeal as exc:
            if strict:
                raise
            # A stored deal that no longer evaluates must not take the sheet down.
            self.rows.append(Row(d.n, d.dealer, d.active, d.input, False, False, None, zero,
                                 zero, dict(self.balance), error=exc, version=d.version,
                                 written=at.rules.written,
                                 written_totals=self.written_totals(at)))  # fmt: skip
            return
        kind = game(at.game)
        change, self.pot = kind.feed_pot(at.rules, out, d.active, self.pot)
        deltas = out.deltas
        stock = None
        if change is not None:
            deltas = {p: out.deltas[p] + change.get(p, 0) for p in players}
            stock = -sum(change.values())
        self._tally(out, deltas, kind.counts_lost_by_others)
        met = tuple(t for t in out.triggers if t in at.rules.bock)
        if met:
            self.bock_queue += round_len
            # a house rule of real tables (docs/rules.md 1.11), only Skat's rules have it
            if getattr(at.rules, "bockramsch", False):
                self.ramsch_queue += round_len
        who: tuple[str, ...] = ()
        target: int | None = getattr(at.rules, "bierlachs", None)
        if self.match is not None and target is not None:
            self.match, who = bierlachs.step(self.match, bierlachs.minus_points(out, players),
                                             target)  # fmt: skip
        self.rows.append(Row(d.n, d.dealer, d.active, d.input, False, bock, out, out.list,
                             deltas, dict(self.balance), met, version=d.version,
                             ramsch_round=in_round, bierlachs=who, stock=stock,
                             written=at.rules.written,
                             written_totals=self.written_totals(at)))  # fmt: skip

    def _tally(self, out: DealOutcome, deltas: Mapping[str, int], by_others: bool) -> None:
        for p in self.balance:
            self.balance[p] += deltas[p]
            self.list_tot[p] += out.list[p]
        result = out.party_won
        if result is None:
            return
        for p in out.party:
            (self.won if result else self.lost)[p] += 1
        if not result and by_others:
            for p in self.balance:
                if p not in out.party:
                    self.lost_by_others[p] += 1


def compute_sheet(
    spec: SheetSpec,
    deals: Sequence[DealRecord],
    resume: SheetState | None = None,
) -> ComputedSheet:
    """Every deal's row and the running and final totals, in one pass.

    With ``resume`` (the ``state`` of an earlier result whose deals are, unchanged, the first
    ``resume.count`` of these), only the deals after them are evaluated: of the earlier ones
    only the dealer and struck flag are still read (who deals next). The result's ``state``
    can be passed on the same way."""
    kind = game(spec.game)
    players = spec.players
    if resume is not None and resume.count > len(deals):
        resume = None
    run = _Pass.start(players, resume)
    todo = deals[resume.count :] if resume is not None else deals
    round_len = kind.bock_round(len(players))
    # Bierlachs is played from the first deal its rule is in force for (a sheet without deals
    # yet shows its first round)
    first = spec.at(todo[0].n if todo else len(deals) + 1)
    if run.match is None and getattr(first.rules, "bierlachs", None) is not None:
        run.match = bierlachs.start(players)
    for d in todo:
        _deal(spec, run, d, round_len)
    return _computed(spec, run, len(deals), next_dealer(spec, deals), round_len)


def continue_sheet(spec: SheetSpec, before: ComputedSheet, deal: DealRecord) -> ComputedSheet:
    """``compute_sheet`` of ``before``'s deals with ``deal`` appended after them, from
    ``before.state``: the save of the next deal evaluates that deal once, and nothing else.
    ``deal`` must be the next one (its ``n`` one past ``before``'s deals). Unlike
    ``compute_sheet``, a deal that does not evaluate raises :class:`InvalidDeal` (the save
    refuses it) rather than becoming an error row (tests/rules/test_continue_sheet.py holds
    the law: the same result as ``compute_sheet`` from deal 1)."""
    state = before.state
    if deal.n != state.count + 1:
        raise ValueError(f"deal {deal.n} does not follow {state.count} deals")
    run = _Pass.start(spec.players, state)
    round_len = game(spec.game).bock_round(len(spec.players))
    _deal(spec, run, deal, round_len, strict=True)
    dealer = before.next_dealer if deal.struck else dealer_after(spec, deal.dealer)
    return _computed(spec, run, deal.n, dealer, round_len)


def _deal(spec: SheetSpec, run: _Pass, d: DealRecord, round_len: int, strict: bool = False) -> None:
    # Each deal is played under the rules in force when it was dealt (rules that change
    # during the evening apply from their deal on); queued Bock rounds stay.
    at = spec.at(d.n)
    if getattr(at.rules, "bierlachs", None) is not None and run.match is None:
        run.match = bierlachs.start(spec.players)  # from the deal it is played from
    if d.struck:
        run.struck(at, d, round_len)
    else:
        run.play(at, d, round_len, strict)


def _computed(spec: SheetSpec, run: _Pass, count: int, dealer: str,
              round_len: int) -> ComputedSheet:  # fmt: skip
    bockramsch_now = bool(getattr(spec.rules, "bockramsch", False))
    return ComputedSheet(tuple(run.rows), _totals(spec, run), run.bock_queue, dealer,
                         run.state(count), run.ramsch_queue,
                         ramsch_round_next(run.bock_queue, run.ramsch_queue, round_len),
                         bockramsch_now)  # fmt: skip


def _totals(spec: SheetSpec, run: _Pass) -> Totals:
    """The sheet's totals after the pass: balance, the game's extra figures, won and lost,
    and the settlement (per Bierlachs, or per point with a Stock left going back)."""
    players = spec.players
    kind = game(spec.game)
    tallies = Tallies(dict(run.list_tot), dict(run.won), dict(run.lost),
                      dict(run.lost_by_others))  # fmt: skip
    # The stake is the evening's: the one agreed last settles every deal.
    stake = spec.rules.stake_cents
    pot = run.pot
    back = stock_back(players, pot) if pot is not None else None
    net = (bierlachs.cents(run.match, stake) if run.match is not None
           else {p: (run.balance[p] + (back or {}).get(p, 0)) * stake for p in players})  # fmt: skip
    extra = kind.extra_totals(players, tallies)
    if spec.rules.written:  # "nur Gute": the list is what the winners wrote
        extra += (("written", dict(run.list_tot)),)
    return Totals(dict(run.balance), extra, dict(run.won), dict(run.lost), settle(net), net,
                  run.match, pot.cents if pot is not None else None, back)  # fmt: skip


def _shown(spec: SheetSpec, d: DealRecord, in_round: bool) -> DealOutcome | None:
    """What a struck deal was, as if dealt without Bock: in a Bockramsch round or not,
    whichever it reads as (striking it moved the round on)."""
    for ramsch_round in (in_round, not in_round):
        try:
            return evaluate_deal(spec, d.input, d.active, 0, ramsch_round)
        except (InvalidDeal, NotImplementedError):
            continue
    return None


def ramsch_round_next(bock_queue: int, ramsch_queue: int, round_len: int) -> bool:
    """Whether the next deal belongs to a Bockramsch round (docs/rules.md 1.11): the queued
    Bock rounds come first, then as many Ramsch rounds; a Ramsch round once begun is played
    to its end, even when one of its deals queues a new Bock round.

    >>> ramsch_round_next(3, 3, 3), ramsch_round_next(0, 3, 3), ramsch_round_next(3, 2, 3)
    (False, True, True)
    """
    return ramsch_queue > 0 and (bock_queue == 0 or ramsch_queue % round_len != 0)


def stock_back(players: Sequence[str], pot: Pot) -> dict[str, int]:
    """A Stock left at the end goes back in proportion to what each player paid into it
    (docs/rules.md 2.7); the cents a share leaves over go to the largest remainders, ties by
    seat, so exactly the Stock goes back.

    >>> stock_back(("A", "B", "C", "D", "E"), Pot(100, {"A": 40, "B": 40, "C": 20, "D": 20}))
    {'A': 33, 'B': 33, 'C': 17, 'D': 17, 'E': 0}
    """
    paid = sum(pot.paid.get(p, 0) for p in players)
    if paid <= 0 or pot.cents == 0:
        return dict.fromkeys(players, 0)
    share = {p: pot.cents * pot.paid.get(p, 0) // paid for p in players}
    left = pot.cents - sum(share.values())
    order = sorted(
        range(len(players)),
        key=lambda i: (-(pot.cents * pot.paid.get(players[i], 0) % paid), i),
    )
    for i in order[:left]:
        share[players[i]] += 1
    return share


def settle(net: Mapping[str, int]) -> tuple[Transfer, ...]:
    """Who pays whom: largest debtor to largest creditor; at most n − 1 transfers.

    >>> [(t.frm, t.to, t.cents) for t in settle({"A": 360, "B": 0, "C": -560, "D": 200})]
    [('C', 'A', 360), ('C', 'D', 200)]
    """
    debtors = sorted(((-v, p) for p, v in net.items() if v < 0), reverse=True)
    creditors = sorted(((v, p) for p, v in net.items() if v > 0), reverse=True)
    owe = [amount for amount, _ in debtors]
    due = [amount for amount, _ in creditors]
    out: list[Transfer] = []
    i = j = 0
    while i < len(owe) and j < len(due):
        amount = min(owe[i], due[j])
        if amount > 0:
            out.append(Transfer(debtors[i][1], creditors[j][1], amount))
        owe[i] -= amount
        due[j] -= amount
        if owe[i] == 0:
            i += 1
        if due[j] == 0:
            j += 1
    return tuple(out)


def describe_rules(spec: SheetSpec) -> list[Msg]:
    """The house rules in force, for the sheet's heading and the printout."""
    return spec.rules.describe()
