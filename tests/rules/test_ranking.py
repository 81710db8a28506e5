"""Who is ahead is decided one way (skatcalc.rules.ranking) and games won and lost are counted
once (DealOutcome.party_won): a sheet's strip, its statistics, the club night and the standings
all read the same rule, so they cannot disagree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.rules.ranking import competition_ranks, leader, leaders, order_key, rank_figure
from skatcalc.rules.sheet import (
    DealRecord,
    compute_sheet,
    dealer_after,
    default_active,
    normalize_sheet,
)
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.standings import SERIES_DEALS, default_rank_by, sheet_figures
from skatcalc.rules.stats import statistics
from tests.known_good import EVENINGS, evening

PACKAGE = Path(__file__).resolve().parents[2] / "skatcalc"
SEATS = ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    ("scores", "expected_leaders", "expected_leader"),
    [
        ({"A": 0, "B": 0, "C": 0}, [], None),
        ({"A": 10, "B": -5, "C": -5}, ["A"], "A"),
        ({"A": -5, "B": 10, "C": 10}, ["B", "C"], "B"),  # a tie marks both; the strip names B
        ({"A": -1, "B": -1, "C": 2}, ["C"], "C"),
    ],
)
def test_leaders_of_a_sheet(
    scores: dict[str, int], expected_leaders: list[str], expected_leader: str | None
) -> None:
    seats = list(scores)
    assert leaders(seats, scores) == expected_leaders
    assert leader(seats, scores) == expected_leader


@given(st.lists(st.integers(-500, 500), min_size=3, max_size=4))
def test_the_leader_is_the_first_of_the_leaders_at_the_top(values: list[int]) -> None:
    seats = SEATS[: len(values)]
    scores = dict(zip(seats, values, strict=True))
    top = leaders(seats, scores)
    if not any(values):
        assert top == [] and leader(seats, scores) is None
        return
    assert top == [p for p in seats if scores[p] == max(values)]
    assert leader(seats, scores) == top[0]


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 9), st.integers(0, 9))))
def test_rankings_share_ranks_only_on_equal_scores(rows: list[tuple[int, int, int]]) -> None:
    ordered = sorted(rows, key=lambda r: order_key(*r))
    ranks = competition_ranks([r[0] for r in ordered])
    for i in range(1, len(ordered)):
        assert ordered[i - 1][0] >= ordered[i][0]
        assert (ranks[i] == ranks[i - 1]) == (ordered[i][0] == ordered[i - 1][0])


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_the_club_night_and_the_standings_rank_by_the_same_figure(game: str) -> None:
    assert default_rank_by(game).value == rank_figure(game) == game_kind(game).rank_figures[0]


@pytest.mark.parametrize("name", EVENINGS)
def test_won_and_lost_agree_on_the_totals_the_statistics_and_the_standings(name: str) -> None:
    ev = evening(name)
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records, last = [], None
    for n, deal in enumerate(ev["deals"], start=1):
        dealer = dealer_after(spec, last)
        records.append(DealRecord(n, dealer, default_active(spec, dealer), deal["body"]))
        last = dealer
    computed = compute_sheet(spec, records)
    stats = statistics(spec.game, spec.players, computed.rows)
    for p in spec.players:
        figures = sheet_figures(1, "2026-11-27", spec.game, spec.players, computed, p, 0)
        won, lost = ev["expected"]["won"][p], ev["expected"]["lost"][p]
        assert (computed.totals.won[p], computed.totals.lost[p]) == (won, lost)
        assert (stats[p]["won"], stats[p]["lost"]) == (won, lost)
        assert (figures.won, figures.lost) == (won, lost)
        assert sum(t.games for t in figures.declared.values()) == won + lost
        assert sum(t.won for t in figures.declared.values()) == won


def test_the_series_length_is_the_skat_series_of_the_rule_book() -> None:
    assert SERIES_DEALS[3] == 36 and SERIES_DEALS[4] == 48  # RULES.md 1.9
    assert SERIES_DEALS is game_kind("skat").series_deals


def _sources() -> list[tuple[str, str]]:
    return [(str(f.relative_to(PACKAGE)), f.read_text(encoding="utf-8"))
            for f in sorted(PACKAGE.rglob("*.py"))]  # fmt: skip


def test_no_list_picks_its_ranking_figure_or_tie_order_by_itself() -> None:
    for path, text in _sources():
        if path != "rules/ranking.py":
            assert "rank_figures[0]" not in text, path
            assert not re.search(r"(?<![\w-])-[\w.(]*won(_series)?\b[^\n]*\blost", text), path


def test_the_series_length_is_written_once() -> None:
    for path, text in _sources():
        lines = text.splitlines()
        for before, line in zip([""] + lines, lines, strict=False):
            if path == "rules/standings.py" or before.strip().startswith(">>>"):
                continue  # the one table, and docstring examples printing what it says
            assert not re.search(r"\b(3|4): (36|48)\b|\"48\", \"36\"", line), (path, line)
