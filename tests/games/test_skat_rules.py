"""The Skat engine against worked examples (docs/rules.md, the seeds, ISkO) and its laws."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.games.skat import LEGAL_BIDS, Game, Party, SkatDeal, skat_value
from skatcalc.games.skat.values import (
    MAX_LEVELS_ABOVE_MATADORS,
    all_game_values,
    games_with_value,
    matadors_from_cards,
)
from skatcalc.rules import InvalidDeal
from skatcalc.text import field_errors
from tests.support import explanation

D, H, S, C, G, N = Game.DIAMONDS, Game.HEARTS, Game.SPADES, Game.CLUBS, Game.GRAND, Game.NULL


# (description, deal, value, score, won, overbid)
EXAMPLES = [
    # docs/api.md and docs/rules.md 1.4
    ("grand mit 2, 75", SkatDeal(G, 2, True, declarer_points=75), 72, 72, True, False),
    ("bid 22, karo mit 1 → 27, −54", SkatDeal(D, 1, True, bid=22, declarer_points=70), 27, -54, False, True),
    ("bid 72, pik hand mit 1 → 77, −154", SkatDeal(S, 1, True, hand=True, bid=72, declarer_points=70), 77, -154, False, True),
    # ISkO: clubs ouvert with 2 = 108; grand ouvert with 4 = 264
    ("kreuz ouvert mit 2", SkatDeal(C, 2, True, ouvert=True, declarer_points=120, all_tricks=Party.DECLARER), 108, 108, True, False),
    ("grand ouvert mit 4", SkatDeal(G, 4, True, ouvert=True, declarer_points=120, all_tricks=Party.DECLARER), 264, 264, True, False),
    # German seed: "Reizfaktor × Grundwert" table
    ("mit 1 karo", SkatDeal(D, 1, True, declarer_points=61), 18, 18, True, False),
    ("mit 1 herz", SkatDeal(H, 1, True, declarer_points=61), 20, 20, True, False),
    ("mit 1 pik", SkatDeal(S, 1, True, declarer_points=61), 22, 22, True, False),
    ("mit 1 kreuz", SkatDeal(C, 1, True, declarer_points=61), 24, 24, True, False),
    ("mit 2 karo", SkatDeal(D, 2, True, declarer_points=61), 27, 27, True, False),
    ("mit 2 herz (seed: 3 × 10 = 30)", SkatDeal(H, 2, True, declarer_points=61), 30, 30, True, False),
    ("mit 2 pik", SkatDeal(S, 2, True, declarer_points=61), 33, 33, True, False),
    ("mit 2 kreuz", SkatDeal(C, 2, True, declarer_points=61), 36, 36, True, False),
    ("mit 3 karo", SkatDeal(D, 3, True, declarer_points=61), 36, 36, True, False),
    ("mit 3 herz", SkatDeal(H, 3, True, declarer_points=61), 40, 40, True, False),
    ("mit 3 pik", SkatDeal(S, 3, True, declarer_points=61), 44, 44, True, False),
    ("mit 3 kreuz", SkatDeal(C, 3, True, declarer_points=61), 48, 48, True, False),
    ("mit 4 karo", SkatDeal(D, 4, True, declarer_points=61), 45, 45, True, False),
    ("mit 4 herz", SkatDeal(H, 4, True, declarer_points=61), 50, 50, True, False),
    ("mit 4 pik", SkatDeal(S, 4, True, declarer_points=61), 55, 55, True, False),
    ("mit 4 kreuz", SkatDeal(C, 4, True, declarer_points=61), 60, 60, True, False),
    ("grand mit 1", SkatDeal(G, 1, True, declarer_points=61), 48, 48, True, False),
    ("grand mit 3", SkatDeal(G, 3, True, declarer_points=61), 96, 96, True, False),
    ("grand mit 4", SkatDeal(G, 4, True, declarer_points=61), 120, 120, True, False),
    ("mit 5 karo", SkatDeal(D, 5, True, declarer_points=61), 54, 54, True, False),
    ("mit 5 herz", SkatDeal(H, 5, True, declarer_points=61), 60, 60, True, False),
    ("mit 5 pik", SkatDeal(S, 5, True, declarer_points=61), 66, 66, True, False),
    ("mit 5 kreuz", SkatDeal(C, 5, True, declarer_points=61), 72, 72, True, False),
    ("ohne 2 herz (same as mit 2)", SkatDeal(H, 2, False, declarer_points=61), 30, 30, True, False),
    ("ohne 5 karo", SkatDeal(D, 5, False, declarer_points=80), 54, 54, True, False),
    # Italian seed: mit 2, hearts = 30; lost = −60
    ("italian: herz mit 2 lost", SkatDeal(H, 2, True, declarer_points=59), 30, -60, False, False),
    # Levels
    ("hand", SkatDeal(G, 1, True, hand=True, declarer_points=61), 72, 72, True, False),
    ("schneider reached", SkatDeal(H, 1, True, declarer_points=90), 30, 30, True, False),
    ("89 is no schneider", SkatDeal(H, 1, True, declarer_points=89), 20, 20, True, False),
    ("schneider announced won", SkatDeal(G, 2, True, hand=True, schneider_announced=True, declarer_points=95), 144, 144, True, False),
    ("schneider announced missed", SkatDeal(G, 2, True, hand=True, schneider_announced=True, declarer_points=85), 144, -288, False, False),
    ("schwarz reached", SkatDeal(C, 1, True, declarer_points=120, all_tricks=Party.DECLARER), 48, 48, True, False),
    ("schwarz announced", SkatDeal(C, 1, True, hand=True, schwarz_announced=True, declarer_points=120, all_tricks=Party.DECLARER), 84, 84, True, False),
    ("schwarz announced missed", SkatDeal(C, 1, True, hand=True, schwarz_announced=True, declarer_points=118), 84, -168, False, False),
    ("ouvert missed (opponents took a trick)", SkatDeal(G, 1, True, ouvert=True, declarer_points=110), 192, -384, False, False),
    ("zero-point trick: 120 points, not schwarz", SkatDeal(G, 1, True, declarer_points=120), 72, 72, True, False),
    # Losing
    ("60 is lost", SkatDeal(G, 2, True, declarer_points=60), 72, -144, False, False),
    ("lost hand game doubles too", SkatDeal(G, 2, True, hand=True, declarer_points=50), 96, -192, False, False),
    ("lost schneider", SkatDeal(D, 1, True, declarer_points=30), 27, -54, False, False),
    ("31 not schneider", SkatDeal(D, 1, True, declarer_points=31, bid=18), 18, -36, False, False),
    ("lost schwarz", SkatDeal(D, 1, True, declarer_points=0, all_tricks=Party.OPPONENTS), 36, -72, False, False),
    ("kein Eigenschneider: announced and ≤ 30", SkatDeal(H, 1, True, hand=True, schneider_announced=True, declarer_points=25), 50, -100, False, False),
    # Overbid: schneider reached in play counts towards the bid
    ("schneider saves the bid", SkatDeal(D, 1, True, bid=27, declarer_points=95), 27, 27, True, False),
    ("lost and overbid", SkatDeal(D, 1, True, bid=24, declarer_points=50), 27, -54, False, True),
    ("lost schneider reaches the bid", SkatDeal(D, 1, True, bid=27, declarer_points=25), 27, -54, False, False),
    ("overbid grand", SkatDeal(G, 1, True, bid=50, declarer_points=70), 72, -144, False, True),
    # Null
    ("null won", SkatDeal(N, won=True), 23, 23, True, False),
    ("null hand won", SkatDeal(N, hand=True, won=True), 35, 35, True, False),
    ("null ouvert won", SkatDeal(N, ouvert=True, won=True), 46, 46, True, False),
    ("null ouvert hand won", SkatDeal(N, hand=True, ouvert=True, won=True), 59, 59, True, False),
    ("null lost", SkatDeal(N, won=False), 23, -46, False, False),
    ("null hand lost", SkatDeal(N, hand=True, won=False), 35, -70, False, False),
    ("null ouvert lost", SkatDeal(N, ouvert=True, won=False), 46, -92, False, False),
    ("null ouvert hand lost", SkatDeal(N, hand=True, ouvert=True, won=False), 59, -118, False, False),
    ("null bid 23", SkatDeal(N, won=True, bid=23), 23, 23, True, False),
    # Kontra / Re
    ("kontra won", SkatDeal(G, 2, True, declarer_points=75, kontra=True), 72, 144, True, False),
    ("re lost", SkatDeal(G, 2, True, declarer_points=55, kontra=True, re=True), 72, -576, False, False),
    ("kontra overbid", SkatDeal(D, 1, True, bid=22, declarer_points=70, kontra=True), 27, -108, False, True),
]  # fmt: skip


@pytest.mark.parametrize(("deal", "value", "score", "won", "overbid"),
                         [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])  # fmt: skip
def test_worked_examples(deal: SkatDeal, value: int, score: int, won: bool, overbid: bool) -> None:
    r = skat_value(deal)
    assert (r.value, r.score, r.won, r.overbid) == (value, score, won, overbid)


def test_explanation_shows_the_levels_in_german_and_english() -> None:
    deal = SkatDeal(G, 2, True, hand=True, schneider_announced=True, declarer_points=95)
    r = skat_value(deal)
    assert "mit 2, Spiel 3, Hand 4, Schneider 5, Schneider angesagt 6 × 24 = 144" in explanation(r)
    assert "with 2, game 3, hand 4, schneider 5, schneider announced 6 × 24 = 144" in explanation(
        r, "en"
    )


def test_overbid_explanation() -> None:
    r = skat_value(SkatDeal(D, 1, True, bid=24, declarer_points=70))
    assert "überreizt: Reizwert 24 → nächstes Vielfaches von 9 = 27" in explanation(r)
    assert "verloren doppelt: −54" in explanation(r)
    assert "overbid: bid 24 → next multiple of 9 = 27" in explanation(r, "en")


# (description, deal, field)
INVALID = [
    ("announcement without hand", SkatDeal(G, 2, True, schneider_announced=True, declarer_points=95), "schneider_announced"),
    ("schwarz announced without hand", SkatDeal(G, 2, True, schwarz_announced=True, declarer_points=120), "schwarz_announced"),
    ("matadors 0", SkatDeal(H, 0, True, declarer_points=70), "matadors"),
    ("matadors 12", SkatDeal(H, 12, True, declarer_points=70), "matadors"),
    ("grand with 5", SkatDeal(G, 5, True, declarer_points=70), "matadors"),
    ("121 points", SkatDeal(G, 2, True, declarer_points=121), "declarer_points"),
    ("negative points", SkatDeal(G, 2, True, declarer_points=-1), "declarer_points"),
    ("all tricks with 80", SkatDeal(G, 2, True, declarer_points=80, all_tricks=Party.DECLARER), "all_tricks"),
    ("no trick with 30", SkatDeal(G, 2, True, declarer_points=30, all_tricks=Party.OPPONENTS), "all_tricks"),
    ("bid 19", SkatDeal(G, 2, True, declarer_points=80, bid=19), "bid"),
    ("null below the bid", SkatDeal(N, won=True, bid=24), "bid"),
    ("null with matadors", SkatDeal(N, 2, True, won=True), "matadors"),
    ("null without result", SkatDeal(N), "won"),
    ("suit game with won", SkatDeal(H, 2, True, declarer_points=70, won=True), "won"),
    ("missing points", SkatDeal(H, 2, True), "declarer_points"),
    ("missing matadors", SkatDeal(H, None, True, declarer_points=70), "matadors"),
    ("missing with", SkatDeal(H, 2, None, declarer_points=70), "with"),
    ("re without kontra", SkatDeal(H, 2, True, declarer_points=70, re=True), "re"),
]  # fmt: skip


@pytest.mark.parametrize(("deal", "field"), [e[1:] for e in INVALID], ids=[e[0] for e in INVALID])
def test_invalid_input_is_refused_with_a_reason(deal: SkatDeal, field: str) -> None:
    with pytest.raises(InvalidDeal) as info:
        skat_value(deal)
    assert field in field_errors(info.value, "de")
    assert all(msgs for msgs in field_errors(info.value, "en").values())


def test_null_below_bid_names_the_variants_that_reach_it() -> None:
    with pytest.raises(InvalidDeal) as info:
        skat_value(SkatDeal(N, won=True, bid=36))
    msg = field_errors(info.value, "de")["bid"][0]
    assert "Null ouvert (46)" in msg and "Null ouvert Hand (59)" in msg
    assert "Null Hand (35)" not in msg


def test_the_63_legal_bids_are_exactly_the_game_values() -> None:
    assert len(LEGAL_BIDS) == 63
    assert all_game_values() == set(LEGAL_BIDS)
    assert games_with_value(264)[0].multiplier == 11


# --- Matadors from cards ----------------------------------------------------------------------

CARD_CASES = [
    ("with 2 (gap after SJ)", H, ["CJ", "SJ", "DJ", "HA", "HK", "S7", "S8", "D7", "DA", "C9"], 2, True),
    ("italian: all jacks, ace, no ten → with 5", H, ["CJ", "SJ", "HJ", "DJ", "HA", "HK", "S7", "S8", "D7", "C9"], 5, True),
    ("without 2 (has HJ)", H, ["HJ", "HA", "HK", "S7", "S8", "D7", "DA", "C9", "C8", "C7"], 2, False),
    ("without 4 in hearts (top trump ace)", H, ["HA", "HT", "HK", "S7", "S8", "D7", "DA", "C9", "C8", "C7"], 4, False),
    ("grand without 4", G, ["HA", "HT", "HK", "S7", "S8", "D7", "DA", "C9", "C8", "C7"], 4, False),
    ("grand with 4", G, ["CJ", "SJ", "HJ", "DJ", "HA", "HK", "S7", "S8", "D7", "C9"], 4, True),
    ("the skat counts", C, ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "HA"], 11, True),
    ("with 7 (english seed)", H, ["CJ", "SJ", "HJ", "DJ", "HA", "HT", "HK", "S7", "D7", "C9"], 7, True),
]  # fmt: skip


@pytest.mark.parametrize(("game", "cards", "count", "with_"), [c[1:] for c in CARD_CASES],
                         ids=[c[0] for c in CARD_CASES])  # fmt: skip
def test_matadors_from_cards(game: Game, cards: list[str], count: int, with_: bool) -> None:
    m = matadors_from_cards(game, cards)
    assert (m.count, m.with_) == (count, with_)


# --- Laws -------------------------------------------------------------------------------------

suit_games = st.sampled_from([D, H, S, C, G])


@st.composite
def valid_deals(draw: st.DrawFn) -> SkatDeal:
    game = draw(st.sampled_from([D, H, S, C, G, N]))
    if game is N:
        hand, ouvert = draw(st.booleans()), draw(st.booleans())
        value = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}[
            (hand, ouvert)
        ]
        bid = draw(st.sampled_from([b for b in LEGAL_BIDS if b <= value]))
        return SkatDeal(N, hand=hand, ouvert=ouvert, won=draw(st.booleans()), bid=bid)
    matadors = draw(st.integers(1, game.max_matadors))
    ouvert = draw(st.booleans())
    hand = ouvert or draw(st.booleans())
    sa = hand and draw(st.booleans())
    swa = hand and draw(st.booleans())
    all_tricks = draw(st.sampled_from([None, Party.DECLARER, Party.OPPONENTS]))
    if all_tricks is Party.DECLARER:
        pts = 120
    elif all_tricks is Party.OPPONENTS:
        pts = draw(st.integers(0, 22))
    else:
        pts = draw(st.integers(0, 120))
    kontra = draw(st.booleans())
    return SkatDeal(
        game, matadors, draw(st.booleans()), hand=hand, schneider_announced=sa,
        schwarz_announced=swa, ouvert=ouvert, bid=draw(st.sampled_from(LEGAL_BIDS)),
        declarer_points=pts, all_tricks=all_tricks, kontra=kontra,
        re=kontra and draw(st.booleans()),
    )  # fmt: skip


@given(valid_deals())
def test_won_games_reach_the_bid(deal: SkatDeal) -> None:
    r = skat_value(deal)
    if r.won:
        assert r.value >= deal.bid


@given(valid_deals())
def test_values_that_are_not_overbid_are_legal_bids(deal: SkatDeal) -> None:
    r = skat_value(deal)
    if not r.overbid:
        assert r.value in LEGAL_BIDS
    else:
        assert r.base is not None and r.value % r.base == 0 and r.value >= deal.bid


@given(valid_deals())
def test_lost_games_score_minus_twice_the_value(deal: SkatDeal) -> None:
    r = skat_value(deal)
    factor = (2 if deal.kontra else 1) * (2 if deal.re else 1)
    assert r.score == (r.value if r.won else -2 * r.value) * factor


def test_every_legal_bid_is_the_value_of_some_game() -> None:
    for bid in LEGAL_BIDS:
        games = games_with_value(bid)
        assert games, bid
        g = games[0]
        if g.game is N:
            continue
        assert g.multiplier is not None
        assert 2 <= g.multiplier <= g.game.max_matadors + MAX_LEVELS_ABOVE_MATADORS


def test_lost_by_the_buttons_is_explained_as_entered_not_by_points() -> None:
    """Without card points nothing is known about 61: the explanation says lost as entered."""
    r = skat_value(SkatDeal(game=Game.GRAND, matadors=1, with_=True, won=False))
    assert "verloren: so eingetragen (ohne Augen)" in explanation(r)
    assert "lost: as entered (no card points)" in explanation(r, "en")
    assert not any("61" in s for s in explanation(r) + explanation(r, "en"))
    # with card points the reason is still the points
    p = skat_value(SkatDeal(game=Game.GRAND, matadors=1, with_=True, declarer_points=50))
    assert any("61 sind nötig" in s for s in explanation(p))
