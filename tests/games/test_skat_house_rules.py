"""The Skat house rules of real tables (docs/rules.md 1.11): Schieberamsch with pushes, the cap
on a Ramsch loss, "each" books his own points, Bockramsch, the Bock triggers schneider-lost,
grand-hand-lost and re, and Bierlachs. Worked examples at 3, 4 and 5 players, and the law that
every row sums to 0 under any mix of them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.sheet import (
    ComputedSheet,
    DealRecord,
    SheetSpec,
    compute_sheet,
    default_active,
    evaluate_deal,
    seat_after,
)

NAMES = ("A", "B", "C", "D", "E")


def spec_of(n: int, rules: dict[str, Any]) -> SheetSpec:
    return SheetSpec("skat", NAMES[:n], "A", rules)


def play(spec: SheetSpec, bodies: list[dict[str, Any]]) -> ComputedSheet:
    """The deals in the rotation from the first dealer on (docs/rules.md 1.8)."""
    deals = []
    dealer = spec.first_dealer
    for i, body in enumerate(bodies, 1):
        deals.append(DealRecord(i, dealer, default_active(spec, dealer), body))
        dealer = seat_after(spec.players, dealer)
    return compute_sheet(spec, deals)


def ramsch(active: tuple[str, ...], pts: tuple[int, int, int], **more: Any) -> dict[str, Any]:
    return {"ramsch": {"points": dict(zip(active, pts, strict=True)), **more}}


def first_active(spec: SheetSpec) -> tuple[str, ...]:
    return default_active(spec, spec.first_dealer)


# --- Schieberamsch and the cap ----------------------------------------------------------------

# (points of the three who play, Jungfrau among them by index, Durchmarsch by index, pushes,
#  cap, Bock, the list entries of the three)
SCHIEBE = [
    # the rules' example: 103 points, one Jungfrau, one push → −412; cap 250 → −250
    ((103, 17, 0), [2], None, 1, None, 0, (-412, 0, 0)),
    ((103, 17, 0), [2], None, 1, 250, 0, (-250, 0, 0)),
    ((60, 40, 20), [], None, 0, None, 0, (-60, 0, 0)),
    ((60, 40, 20), [], None, 3, None, 0, (-480, 0, 0)),
    # Bock before the cap: 60 × 4 × 2 = 480 → 250
    ((60, 40, 20), [], None, 2, None, 1, (-480, 0, 0)),
    ((60, 40, 20), [], None, 2, 250, 1, (-250, 0, 0)),
    # a cap above the loss changes nothing
    ((60, 40, 20), [], None, 1, 250, 0, (-120, 0, 0)),
    # tie: each tied player, each capped
    ((50, 50, 20), [], None, 2, 150, 0, (-150, -150, 0)),
    # Durchmarsch doubled per push, never capped (it is no loss)
    ((120, 0, 0), [1, 2], 0, 2, 250, 0, (480, 0, 0)),
]  # fmt: skip


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize(("pts", "jf", "durch", "pushes", "cap", "bock", "entries"), SCHIEBE)
def test_schieberamsch_doubles_per_push_and_the_cap_comes_last(
    n: int, pts: tuple[int, int, int], jf: list[int], durch: int | None, pushes: int,
    cap: int | None, bock: int, entries: tuple[int, int, int],
) -> None:  # fmt: skip
    spec = spec_of(n, {"ramsch": True, "schieberamsch": True, "ramsch_cap": cap})
    active = first_active(spec)
    body = ramsch(active, pts, jungfrau=[active[i] for i in jf], pushes=pushes,
                  durchmarsch=None if durch is None else active[durch])  # fmt: skip
    out = evaluate_deal(spec, body, active, bock)
    assert tuple(out.list[p] for p in active) == entries
    assert all(out.list[p] == 0 for p in spec.players if p not in active)
    total = sum(entries)
    assert out.deltas == {p: n * out.list[p] - total for p in spec.players}
    assert sum(out.deltas.values()) == 0


def test_a_push_needs_the_rule_and_at_most_three() -> None:
    spec = spec_of(3, {"ramsch": True})
    active = first_active(spec)
    with pytest.raises(InvalidDeal) as exc:
        evaluate_deal(spec, ramsch(active, (60, 40, 20), pushes=1), active)
    assert [e.field for e in exc.value.errors] == ["ramsch.pushes"]
    evaluate_deal(spec, ramsch(active, (60, 40, 20), pushes=0), active)  # 0 is no push
    spec = spec_of(3, {"ramsch": True, "schieberamsch": True})
    for bad in (4, -1, "2", True):
        with pytest.raises(InvalidDeal) as exc:
            evaluate_deal(spec, ramsch(active, (60, 40, 20), pushes=bad), active)
        assert [e.field for e in exc.value.errors] == ["ramsch.pushes"]


# --- "each" books his own card points ---------------------------------------------------------

EACH = [
    ((60, 40, 20), [], None, 0, None, (-60, -40, -20)),
    ((60, 40, 20), [], None, 1, None, (-120, -80, -40)),
    ((60, 40, 20), [], None, 1, 100, (-100, -80, -40)),
    # no Jungfrau doubling: the Jungfrau books her 0
    ((70, 50, 0), [2], None, 0, None, (-70, -50, 0)),
    # Durchmarsch as today
    ((120, 0, 0), [1, 2], 0, 0, None, (120, 0, 0)),
]  # fmt: skip


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize(("pts", "jf", "durch", "pushes", "cap", "entries"), EACH)
def test_ramsch_each_books_his_own_points(
    n: int, pts: tuple[int, int, int], jf: list[int], durch: int | None, pushes: int,
    cap: int | None, entries: tuple[int, int, int],
) -> None:  # fmt: skip
    rules = {"ramsch": True, "schieberamsch": True, "ramsch_loser": "each", "ramsch_cap": cap}
    spec = spec_of(n, rules)
    active = first_active(spec)
    body = ramsch(active, pts, jungfrau=[active[i] for i in jf], pushes=pushes,
                  durchmarsch=None if durch is None else active[durch])  # fmt: skip
    out = evaluate_deal(spec, body, active)
    assert tuple(out.list[p] for p in active) == entries
    assert sum(out.deltas.values()) == 0
    assert out.party == tuple(p for p, e in zip(active, entries, strict=True) if e < 0)


# --- The three Bock triggers ------------------------------------------------------------------

CLUBS = {"game": "clubs", "matadors": 1, "with": True}
GRAND_HAND = {"game": "grand", "matadors": 1, "with": True, "hand": True}
TRIGGERS = [
    ({**CLUBS, "declarer_points": 25}, ["schneider-lost"]),
    ({**CLUBS, "declarer_points": 30}, ["schneider-lost"]),
    ({**CLUBS, "declarer_points": 31}, []),
    ({**CLUBS, "won": False, "schneider": True}, ["schneider-lost"]),
    ({**CLUBS, "won": False, "all_tricks": "opponents"}, ["schneider-lost"]),
    ({**CLUBS, "won": False}, []),
    ({**CLUBS, "declarer_points": 95}, []),  # the defenders Schneider: not the declarer's loss
    ({"game": "null", "won": False}, []),
    ({**GRAND_HAND, "declarer_points": 50}, ["grand-hand-lost"]),
    ({**GRAND_HAND, "declarer_points": 20}, ["schneider-lost", "grand-hand-lost"]),
    # overbid: bid 96, worth 72 (mit 1, Spiel 2, Hand 3 × 24) → lost
    ({**GRAND_HAND, "bid": 96, "declarer_points": 70}, ["grand-hand-lost"]),
    ({**GRAND_HAND, "declarer_points": 70}, ["grand-hand-won"]),
    ({"game": "grand", "matadors": 1, "with": True, "declarer_points": 50}, []),
    ({**CLUBS, "declarer_points": 70, "kontra": True, "re": True}, ["re"]),
    ({**CLUBS, "declarer_points": 50, "kontra": True, "re": True}, ["kontra-lost", "re"]),
    ({**CLUBS, "declarer_points": 70, "kontra": True}, []),
]  # fmt: skip


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize(("game", "fired"), TRIGGERS)
def test_new_bock_triggers_fire_and_queue_a_round(
    n: int, game: dict[str, Any], fired: list[str]
) -> None:
    triggers = ["schneider-lost", "grand-hand-lost", "re", "grand-hand-won", "kontra-lost"]
    spec = spec_of(n, {"kontra_re": True, "bock": triggers})
    active = first_active(spec)
    sheet = play(spec, [{**game, "declarer": active[0]}, {"passed": True}])
    assert [t.value for t in sheet.rows[0].bock_trigger or ()] == fired
    assert sheet.rows[1].bock is bool(fired)
    assert sheet.bock_pending == (n - 1 if fired else 0)


def test_a_trigger_the_table_does_not_play_queues_nothing() -> None:
    spec = spec_of(3, {"bock": ["60-60"]})
    sheet = play(spec, [{**GRAND_HAND, "declarer_points": 50, "declarer": "B"}])
    assert sheet.rows[0].bock_trigger == () and sheet.bock_pending == 0


# --- Bockramsch -------------------------------------------------------------------------------

LOST_60 = {**CLUBS, "declarer_points": 60}  # fires 60-60


def round_bodies(spec: SheetSpec, start: int, count: int) -> list[dict[str, Any]]:
    """``count`` Ramsch bodies for the deals from number ``start`` on (the rotation)."""
    out = []
    for k in range(count):
        dealer = seat_after(spec.players, spec.first_dealer, start - 1 + k)
        out.append(ramsch(default_active(spec, dealer), (60, 40, 20)))
    return out


def game_by(spec: SheetSpec, n: int, game: dict[str, Any]) -> dict[str, Any]:
    dealer = seat_after(spec.players, spec.first_dealer, n - 1)
    return {**game, "declarer": default_active(spec, dealer)[0]}


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("ramsch_on", [False, True])
def test_bockramsch_follows_each_bock_round(n: int, ramsch_on: bool) -> None:
    """One trigger: n Bock deals, then n Ramsch deals (Ramsch also where it is off otherwise),
    none of them Bock; then the evening goes on as before."""
    spec = spec_of(n, {"bock": ["60-60"], "bockramsch": True, "ramsch": ramsch_on})
    won = {**CLUBS, "declarer_points": 70}
    bodies = [game_by(spec, 1, LOST_60)]
    bodies += [game_by(spec, 2 + k, won) for k in range(n)]
    bodies += round_bodies(spec, 2 + n, n)
    bodies.append(game_by(spec, 2 + 2 * n, won))
    sheet = play(spec, bodies)
    assert all(r.error is None for r in sheet.rows)
    assert [r.bock for r in sheet.rows] == [False] + [True] * n + [False] * (n + 1)
    assert [r.ramsch_round for r in sheet.rows] == [False] * (n + 1) + [True] * n + [False]
    assert sheet.rows[n + 1].list[sheet.rows[n + 1].party[0]] == -60  # not Bock
    assert (sheet.bock_pending, sheet.ramsch_pending, sheet.next_ramsch_round) == (0, 0, False)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_queued_bock_rounds_come_first_then_as_many_ramsch_rounds(n: int) -> None:
    spec = spec_of(n, {"bock": ["60-60"], "bockramsch": True})
    bodies = [game_by(spec, 1, LOST_60), game_by(spec, 2, LOST_60)]  # a Bock deal fires too
    bodies += [game_by(spec, 3 + k, {**CLUBS, "declarer_points": 70}) for k in range(2 * n - 1)]
    sheet = play(spec, bodies)
    assert sheet.bock_pending == 0 and sheet.ramsch_pending == 2 * n
    assert sheet.next_ramsch_round
    sheet = play(spec, bodies + round_bodies(spec, 2 * n + 2, 2 * n))
    assert [r.ramsch_round for r in sheet.rows][-2 * n :] == [True] * (2 * n)
    assert sheet.ramsch_pending == 0 and not sheet.next_ramsch_round


def test_a_bockramsch_round_is_played_to_its_end_before_a_new_bock_round() -> None:
    """A Grand Hand won in the round (a trigger) queues a Bock round and a Ramsch round: the
    round under way ends first, then the Bock round, then the new Ramsch round."""
    spec = spec_of(3, {"bock": ["60-60", "grand-hand-won"], "bockramsch": True})
    gh = {**GRAND_HAND, "declarer_points": 70}
    bodies = [game_by(spec, 1, LOST_60)]
    bodies += [game_by(spec, k, {**CLUBS, "declarer_points": 70}) for k in (2, 3, 4)]
    bodies += [game_by(spec, 5, gh)] + round_bodies(spec, 6, 2)
    bodies += [game_by(spec, k, {**CLUBS, "declarer_points": 70}) for k in (8, 9, 10)]
    bodies += round_bodies(spec, 11, 3)
    sheet = play(spec, bodies)
    assert all(r.error is None for r in sheet.rows)
    assert [r.ramsch_round for r in sheet.rows] == [False] * 4 + [True] * 3 + [False] * 3 + [
        True
    ] * 3
    assert [r.bock for r in sheet.rows] == [False] + [True] * 3 + [False] * 3 + [True] * 3 + [
        False
    ] * 3
    gh_row = sheet.rows[4]
    assert gh_row.declarer is not None and gh_row.list[gh_row.declarer] == 72  # not Bock
    assert gh_row.bock_trigger == ("grand-hand-won",)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**CLUBS, "declarer_points": 70}, "game"),
        ({"game": "grand", "matadors": 1, "with": True, "declarer_points": 70}, "game"),
        ({"game": "null", "hand": True, "won": True}, "game"),
        ({"passed": True}, "passed"),
    ],
)  # fmt: skip
def test_a_bockramsch_round_takes_ramsch_or_grand_hand_only(
    body: dict[str, Any], field: str
) -> None:
    spec = spec_of(3, {"bock": ["60-60"], "bockramsch": True})
    with pytest.raises(InvalidDeal) as exc:
        evaluate_deal(spec, {**body, "declarer": "B"} if "game" in body else body,
                      ("B", "C", "A"), ramsch_round=True)  # fmt: skip
    assert [e.field for e in exc.value.errors] == [field]
    from skatcalc.text import translate

    assert "Bockramsch" in translate(exc.value.errors[0].msg, "de")
    ok = evaluate_deal(spec, {**GRAND_HAND, "ouvert": True, "declarer_points": 120,
                              "all_tricks": "declarer", "declarer": "B"},
                       ("B", "C", "A"), ramsch_round=True)  # fmt: skip
    assert ok.won


# --- Bierlachs --------------------------------------------------------------------------------

GRAND2 = {"game": "grand", "matadors": 2, "with": True}


@pytest.mark.parametrize(
    ("n", "lost", "round_", "minus", "cents"),
    [
        # the rules' example: B Grand mit 2 won (72) → A 72, C 72; C Kreuz mit 1 won (24) →
        # A 96, B 24: A is the Bierlachs; stake 100 per Bierlachs
        (3, {"A": 1, "B": 0, "C": 0}, 2, {"A": 0, "B": 0, "C": 0},
         {"A": -200, "B": 100, "C": 100}),
        # at 4 the dealer A sits out of deal 1 and gets the 72 too; D reaches 96 as well: both
        (4, {"A": 1, "B": 0, "C": 0, "D": 1}, 2, {"A": 0, "B": 0, "C": 0, "D": 0},
         {"A": -200, "B": 200, "C": 200, "D": -200}),
        # at 5: A, D and E reach it in the same deal
        (5, {"A": 1, "B": 0, "C": 0, "D": 1, "E": 1}, 2, dict.fromkeys("ABCDE", 0),
         {"A": -200, "B": 300, "C": 300, "D": -200, "E": -200}),
    ],
)  # fmt: skip
def test_bierlachs_worked_example(n: int, lost: dict[str, int], round_: int,
                                  minus: dict[str, int], cents: dict[str, int]) -> None:  # fmt: skip
    spec = spec_of(n, {"bierlachs": 96, "stake_cents": 100})
    sheet = play(spec, [game_by(spec, 1, {**GRAND2, "declarer_points": 70}),
                        game_by(spec, 2, {**CLUBS, "declarer_points": 70})])  # fmt: skip
    assert sheet.rows[0].declarer == "B" and sheet.rows[1].declarer == "C"
    b = sheet.totals.bierlachs
    assert b is not None
    assert (dict(b.lost), b.round, dict(b.minus)) == (lost, round_, minus)
    assert sheet.totals.cents == cents
    # the list and the balance stay the evening's
    assert sheet.totals.balance["B"] == (n - 1) * 72 - 24
    settled = {p: 0 for p in spec.players}
    for t in sheet.totals.settlement:
        settled[t.frm] -= t.cents
        settled[t.to] += t.cents
    assert settled == cents


def test_bierlachs_counts_lost_games_ramsch_and_bock_and_starts_again_from_zero() -> None:
    spec = spec_of(3, {"bierlachs": 301, "ramsch": True, "bock": ["60-60"], "kontra_re": True})
    sheet = play(spec, [
        {**CLUBS, "declarer_points": 60, "declarer": "B"},  # lost 60:60: B 48
        {**CLUBS, "declarer_points": 70, "declarer": "C", "kontra": True},  # Bock, Kontra: 96
        ramsch(("A", "B", "C"), (60, 40, 20)),  # Bock: A −120
        ramsch(("B", "C", "A"), (0, 50, 70), jungfrau=["B"]),
    ])  # fmt: skip
    b = sheet.totals.bierlachs
    assert b is not None
    # A: 96 + 120 + 280 (70 × Jungfrau × Bock) = 496 ≥ 301: Bierlachs, round 2 from 0
    assert (b.round, dict(b.lost), dict(b.minus)) == (2, {"A": 1, "B": 0, "C": 0},
                                                    {"A": 0, "B": 0, "C": 0})  # fmt: skip
    sheet = play(spec, [{**CLUBS, "declarer_points": 60, "declarer": "B"}])
    assert sheet.totals.bierlachs is not None
    assert dict(sheet.totals.bierlachs.minus) == {"A": 0, "B": 48, "C": 0}


def test_without_bierlachs_the_settlement_is_per_point() -> None:
    spec = spec_of(3, {"stake_cents": 10})
    sheet = play(spec, [game_by(spec, 1, {**GRAND2, "declarer_points": 70})])
    assert sheet.totals.bierlachs is None
    assert sheet.totals.cents == {"A": -720, "B": 1440, "C": -720}


# --- The law: every row sums to 0, whatever the mix --------------------------------------------

GAMES = [
    {**CLUBS, "declarer_points": 70},
    {**CLUBS, "declarer_points": 60},
    {**CLUBS, "declarer_points": 20},
    {**CLUBS, "won": False, "schneider": True},
    {**CLUBS, "declarer_points": 70, "kontra": True, "re": True},
    {**GRAND_HAND, "declarer_points": 70},
    {**GRAND_HAND, "declarer_points": 40},
    {**GRAND2, "declarer_points": 95},
    {"game": "null", "won": False},
    {"game": "grand", "matadors": 4, "with": True, "hand": True, "declarer_points": 120,
     "all_tricks": "declarer", "schwarz_announced": True},
]  # fmt: skip


@st.composite
def evenings(draw: st.DrawFn) -> tuple[SheetSpec, list[dict[str, Any]]]:
    n = draw(st.integers(3, 5))
    rules = {
        "kontra_re": draw(st.booleans()),
        "ramsch": draw(st.booleans()),
        "schieberamsch": draw(st.booleans()),
        "ramsch_cap": draw(st.none() | st.integers(1, 500)),
        "ramsch_loser": draw(st.sampled_from(["most", "each"])),
        "bockramsch": draw(st.booleans()),
        "bierlachs": draw(st.none() | st.integers(1, 400)),
        "bock": draw(st.lists(st.sampled_from(["60-60", "grand-hand-won", "kontra-lost",
                                               "value-100", "schneider-lost",
                                               "grand-hand-lost", "re"]), unique=True)),
        "stake_cents": draw(st.integers(0, 100)),
    }  # fmt: skip
    spec = spec_of(n, rules)
    bodies: list[dict[str, Any]] = []
    for k in range(draw(st.integers(0, 25))):
        active = default_active(spec, seat_after(spec.players, "A", k))
        kind = draw(st.sampled_from(["game", "ramsch", "passed"]))
        if kind == "game":
            bodies.append({**draw(st.sampled_from(GAMES)),
                           "declarer": draw(st.sampled_from(active))})  # fmt: skip
        elif kind == "passed":
            bodies.append({"passed": True})
        else:
            a = draw(st.integers(0, 120))
            b = draw(st.integers(0, 120 - a))
            pts = (a, b, 120 - a - b)
            zero = [p for p, v in zip(active, pts, strict=True) if v == 0]
            full = [p for p, v in zip(active, pts, strict=True) if v == 120]
            bodies.append(ramsch(
                active, pts, jungfrau=draw(st.lists(st.sampled_from(zero), unique=True))
                if zero else [], pushes=draw(st.integers(0, 3)),
                durchmarsch=draw(st.sampled_from([None, *full])),
            ))  # fmt: skip
    return spec, bodies


@given(evenings())
def test_every_row_and_the_settlement_sum_to_zero_under_any_mix(
    evening: tuple[SheetSpec, list[dict[str, Any]]],
) -> None:
    spec, bodies = evening
    sheet = play(spec, bodies)
    for row in sheet.rows:
        assert sum(row.deltas.values()) == 0
    assert sum(sheet.totals.balance.values()) == 0
    assert sheet.totals.cents is not None and sum(sheet.totals.cents.values()) == 0
    cap = spec.rules.ramsch_cap  # type: ignore[attr-defined]
    for row in sheet.rows:
        if row.counts and row.kind == "ramsch":
            assert not row.bock or not row.ramsch_round
            if cap is not None:
                assert min(row.list.values()) >= -cap
    b = sheet.totals.bierlachs
    if spec.rules.bierlachs is None:  # type: ignore[attr-defined]
        assert b is None
    else:
        assert b is not None
        assert all(0 <= m < spec.rules.bierlachs for m in b.minus.values())  # type: ignore[attr-defined]
        # each round that ended made at least one Bierlachs
        assert 1 <= b.round <= 1 + sum(b.lost.values())
    # resuming after appended deals gives the same sheet
    if bodies:
        part = play(spec, bodies[:-1])
        deals = [DealRecord(r.n, r.dealer, r.active, r.input) for r in sheet.rows]
        resumed = compute_sheet(spec, deals, part.state)
        assert resumed.totals == sheet.totals
        assert [r.ramsch_round for r in resumed.rows] == [r.ramsch_round for r in sheet.rows]
