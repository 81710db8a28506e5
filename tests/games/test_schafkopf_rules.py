"""The Schafkopf engine: the seed's sheet to the cent, a table per rule, and zero-sum."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame, schafkopf_ramsch, schafkopf_value
from skatcalc.rules import InvalidDeal
from skatcalc.text import field_errors
from tests.known_good import evening
from tests.support import explanation

SAU, HOCH, SOLO, WENZ, GEIER = (
    SKGame.SAUSPIEL,
    SKGame.HOCHZEIT,
    SKGame.SOLO,
    SKGame.WENZ,
    SKGame.GEIER,
)
FW, FG, BETTEL = SKGame.FARBWENZ, SKGame.FARBGEIER, SKGame.BETTEL

# The seed 002: the five games with their values and the running totals after each, from the
# one data file (tests/data/seed_schafkopf.json) that the sheet and API tests use too.
SEED = [
    (SchafkopfDeal(SKGame(d["body"]["game"]), tuple(d["body"]["declarers"]),
                   **{k: v for k, v in d["body"].items() if k not in ("game", "declarers")}),
     d["value"], tuple(d["totals"]))
    for d in evening("seed_schafkopf")["deals"]
]  # fmt: skip


def test_seed_sheet_to_the_cent() -> None:
    totals = dict.fromkeys("ABCD", 0)
    for deal, value, expected in SEED:
        r = schafkopf_value(deal)
        assert r.value == value
        for p, d in r.deltas.items():
            totals[p] += d
        assert tuple(totals[p] for p in "ABCD") == expected
    assert totals == {"A": 360, "B": 0, "C": -560, "D": 200}


def test_seed_explanation() -> None:
    r = schafkopf_value(SEED[1][0])
    assert explanation(r) == [
        "Wenz: 20 [Solo] + 10 [Schneider] + 3 × 10 [Laufende] = 60",
        "gestellt × 2 = 120",
        "gewonnen: B",
        "B erhält 3 × 120 = 360, jeder Gegner zahlt 120",
    ]


def sk(game: SKGame, decl: tuple[str, ...] = ("A",), **kw: object) -> SchafkopfDeal:
    return SchafkopfDeal(game, decl, **kw)  # type: ignore[arg-type]


# (id, deal, value, delta of A)
TABLE = [
    ("sauspiel won", sk(SAU, ("A", "B"), player_points=70), 10, 10),
    ("sauspiel 60:60 lost", sk(SAU, ("A", "B"), player_points=60), 10, -10),
    ("sauspiel 61 won", sk(SAU, ("A", "B"), player_points=61), 10, 10),
    ("hochzeit = sauspiel tariff", sk(HOCH, ("A", "B"), player_points=70), 10, 10),
    ("solo won", sk(SOLO, player_points=70), 20, 60),
    ("solo lost", sk(SOLO, player_points=50), 20, -60),
    ("wenz", sk(WENZ, player_points=70), 20, 60),
    ("geier", sk(GEIER, player_points=70), 20, 60),
    ("farbwenz", sk(FW, player_points=70), 20, 60),
    ("farbgeier", sk(FG, player_points=70), 20, 60),
    ("bettel won", sk(BETTEL, won=True), 20, 60),
    ("bettel lost", sk(BETTEL, won=False), 20, -60),
    ("bettel own tariff", sk(BETTEL, won=True, tariffs={"sauspiel": 10, "solo": 20, "bettel": 30, "extra": 10}), 30, 90),
    # schneider thresholds 30/31/90/91
    ("player 30: lost schneider", sk(SOLO, player_points=30), 30, -90),
    ("player 31: lost, no schneider", sk(SOLO, player_points=31), 20, -60),
    ("player 90: won, no schneider", sk(SOLO, player_points=90), 20, 60),
    ("player 91: won schneider", sk(SOLO, player_points=91), 30, 90),
    ("schwarz with points", sk(SOLO, player_points=120, schwarz=True), 40, 120),
    ("schwarz lost with 0", sk(SAU, ("A", "B"), player_points=0, schwarz=True), 30, -30),
    # Laufende minimum and counting
    ("sauspiel 2 laufende pay nothing", sk(SAU, ("A", "B"), player_points=70, laufende=2), 10, 10),
    ("sauspiel 3 laufende", sk(SAU, ("A", "B"), player_points=70, laufende=3), 40, 40),
    ("wenz 2 laufende count", sk(WENZ, player_points=70, laufende=2), 40, 120),
    ("geier 1 laufender pays nothing", sk(GEIER, player_points=70, laufende=1), 20, 60),
    ("laufende min override", sk(SAU, ("A", "B"), player_points=70, laufende=2, laufende_min={"sauspiel": 2}), 30, 30),
    ("solo 14 laufende", sk(SOLO, player_points=120, laufende=14), 170, 510),
    # doublings
    ("gestellt 4", sk(SAU, ("A", "B"), player_points=70, gestellt=4), 160, 160),
    ("kontra re sub hirsch", sk(SAU, ("A", "B"), player_points=70, kontra=4), 160, 160),
    ("tout won (seed default adds schneider schwarz)", sk(SOLO, won=True, tout=True), 80, 240),
    ("tout won, house rule includes them", sk(SOLO, won=True, tout=True, tout_counts_schneider_schwarz=False), 40, 120),
    ("tout lost", sk(SOLO, won=False, tout=True), 40, -120),
    ("tout lost schneider", sk(SOLO, won=False, tout=True, schneider=True), 60, -180),
    ("tout with points: 120 and schwarz", sk(WENZ, player_points=120, schwarz=True, tout=True), 80, 240),
    ("tout with points: 110 is lost", sk(WENZ, player_points=110, tout=True), 60, -180),
    ("sie won", sk(SOLO, won=True, sie=True), 160, 480),
    ("sie lost", sk(SOLO, won=False, sie=True), 80, -240),
    ("wenz tout", sk(WENZ, won=True, tout=True, laufende=4), 160, 480),
]  # fmt: skip


@pytest.mark.parametrize(
    ("deal", "value", "delta_a"), [t[1:] for t in TABLE], ids=[t[0] for t in TABLE]
)
def test_rule_table(deal: SchafkopfDeal, value: int, delta_a: int) -> None:
    r = schafkopf_value(deal)
    assert r.value == value
    assert r.deltas["A"] == delta_a
    assert sum(r.deltas.values()) == 0


INVALID = [
    ("tout in a sauspiel", sk(SAU, ("A", "B"), won=True, tout=True), "tout"),
    ("sie in a wenz", sk(WENZ, won=True, sie=True), "sie"),
    ("laufende above the maximum", sk(WENZ, won=True, laufende=5), "laufende"),
    ("sauspiel laufende 15", sk(SAU, ("A", "B"), won=True, laufende=15), "laufende"),
    ("two declarers in a solo", sk(SOLO, ("A", "B"), won=True), "declarers"),
    ("one declarer in a sauspiel", sk(SAU, ("A",), won=True), "declarers"),
    ("the same player twice", sk(SAU, ("A", "A"), won=True), "declarers"),
    ("unknown player", sk(SOLO, ("Z",), won=True), "declarers"),
    ("duplicate seat", SchafkopfDeal(SOLO, ("A",), players=("A", "A", "C", "D"), won=True), "players"),
    ("bettel with laufende", sk(BETTEL, won=True, laufende=3), "laufende"),
    ("bettel with points", sk(BETTEL, player_points=0), "player_points"),
    ("bettel schneider", sk(BETTEL, won=True, schneider=True), "schneider"),
    ("both points and won", sk(SOLO, won=True, player_points=70), "_"),
    ("neither points nor won", sk(SOLO), "_"),
    ("121 points", sk(SOLO, player_points=121), "player_points"),
    ("gestellt 5", sk(SOLO, won=True, gestellt=5), "gestellt"),
    ("kontra 5", sk(SOLO, won=True, kontra=5), "kontra"),
    ("schwarz with 80 points", sk(SOLO, player_points=80, schwarz=True), "schwarz"),
    ("tout in bettel", sk(BETTEL, won=True, tout=True), "tout"),
]  # fmt: skip


@pytest.mark.parametrize(("deal", "field"), [t[1:] for t in INVALID], ids=[t[0] for t in INVALID])
def test_invalid(deal: SchafkopfDeal, field: str) -> None:
    with pytest.raises(InvalidDeal) as info:
        schafkopf_value(deal)
    assert field in field_errors(info.value, "de")


@st.composite
def valid(draw: st.DrawFn) -> SchafkopfDeal:
    game = draw(st.sampled_from(list(SKGame)))
    players = ("A", "B", "C", "D")
    n = 2 if game.partner_game else 1
    decl = tuple(draw(st.permutations(players))[:n])
    solo_like = not game.partner_game and not game.bettel_class
    tout = solo_like and draw(st.booleans())
    sie = game is SOLO and draw(st.booleans())
    if game.bettel_class or draw(st.booleans()):
        kw: dict[str, object] = {"won": draw(st.booleans())}
        if game is not BETTEL:
            kw["schneider"] = draw(st.booleans())
            kw["schwarz"] = draw(st.booleans())
    else:
        pts = draw(st.integers(0, 120))
        kw = {"player_points": pts, "schwarz": pts in (0, 120) and draw(st.booleans())}
    if game is not BETTEL:
        kw["laufende"] = draw(st.integers(0, game.max_laufende))
    return SchafkopfDeal(
        game, decl, tout=tout, sie=sie, gestellt=draw(st.integers(0, 4)),
        kontra=draw(st.integers(0, 4)), **kw,  # type: ignore[arg-type]
    )  # fmt: skip


@given(valid())
def test_zero_sum_and_solo_pays_three_times(deal: SchafkopfDeal) -> None:
    r = schafkopf_value(deal)
    assert sum(r.deltas.values()) == 0
    if not deal.game.partner_game:
        solo = deal.declarers[0]
        for p in deal.players:
            if p != solo:
                assert r.deltas[solo] == -3 * r.deltas[p]
    else:
        assert sorted(abs(v) for v in r.deltas.values()) == [r.value] * 4


def test_ramsch() -> None:
    r = schafkopf_ramsch(("A", "B", "C", "D"), {"A": 60, "B": 40, "C": 20, "D": 0}, ("D",))
    assert r.deltas == {"A": -40, "B": 10, "C": 10, "D": 20}
    tie = schafkopf_ramsch(("A", "B", "C", "D"), {"A": 50, "B": 50, "C": 20, "D": 0})
    assert tie.deltas == {"A": -20, "B": -20, "C": 20, "D": 20}
    durch = schafkopf_ramsch(("A", "B", "C", "D"), {"A": 120, "B": 0, "C": 0, "D": 0}, (), "A")
    assert durch.deltas == {"A": 120, "B": -40, "C": -40, "D": -40}
    with pytest.raises(InvalidDeal):
        schafkopf_ramsch(("A", "B", "C", "D"), {"A": 60, "B": 40, "C": 20, "D": 10})


def test_seed_sheet_through_the_calculator_page(client: FlaskClient) -> None:  # noqa: F821
    """The seed's five games on /schafkopf: each value and the four payments."""
    common = {"submitted": "1", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "t_sauspiel": "10",
              "t_solo": "20", "t_bettel": "20", "t_extra": "10", "tout_counts": "y"}  # fmt: skip
    totals = dict.fromkeys("ABCD", 0)
    for deal, value, expected in SEED:
        q = {**common, "game": deal.game.value, "declarers": list(deal.declarers),
             "outcome": "won" if deal.won else "lost", "laufende": str(deal.laufende),
             "gestellt": str(deal.gestellt), "kontra": str(deal.kontra)}  # fmt: skip
        for flag in ("schneider", "schwarz", "tout"):
            if getattr(deal, flag):
                q[flag] = "y"
        html = client.get("/schafkopf", query_string=q).data.decode()
        assert f'<span class="big">{value}</span>' in html, html[-3000:]
        deltas = schafkopf_value(deal).deltas
        for p in "ABCD":
            totals[p] += deltas[p]
            shown = f"+{deltas[p]}" if deltas[p] > 0 else f"\u2212{-deltas[p]}"
            assert shown in html
        assert tuple(totals[p] for p in "ABCD") == expected


def test_suits_name_the_game_and_never_change_a_value() -> None:
    from skatcalc.games.schafkopf import schafkopf_title

    plain = schafkopf_value(sk(SOLO, ("C",), won=True, tout=True))
    gras = schafkopf_value(sk(SOLO, ("C",), won=True, tout=True, suit="gras"))
    assert gras.value == plain.value and gras.deltas == plain.deltas
    assert explanation(gras)[0].startswith("Gras-Solo: ")
    assert schafkopf_title(sk(SOLO, ("C",), won=True, suit="gras")).de == "Gras-Solo C"
    assert (
        schafkopf_title(sk(SAU, ("A", "D"), won=True, suit="eichel")).de
        == "Sauspiel A+D (Eichel-Sau)"
    )
    for bad in (sk(SAU, ("A", "D"), won=True, suit="herz"), sk(WENZ, won=True, suit="gras"),
                sk(SOLO, won=True, suit="karo")):  # fmt: skip
        with pytest.raises(InvalidDeal) as info:
            schafkopf_value(bad)
        assert "suit" in field_errors(info.value, "de")
