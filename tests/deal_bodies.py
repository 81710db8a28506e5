"""Deal bodies of both games, generated (hypothesis), and a correction page's form as a
browser without JavaScript sends it: what the correction laws of ``tests/web/`` and the
browser test of ``tests/browser/`` share.

A generated body is one the API may be sent (every house rule, explicit defaults such as
``"hand": false`` now and then); those the sheet refuses are rejected by the tests, which ask
the sheet itself. :func:`normal` is the body as it means the same: what a correction saved
untouched must give back."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from hypothesis import strategies as st

from skatcalc.games.schafkopf.contracts import BY_KEY as SK_ROWS
from skatcalc.games.skat.contracts import CONTRACTS as SKAT_ROWS
from skatcalc.games.skat.sheet import SkatHouseRules
from skatcalc.games.skat.values import LEGAL_BIDS, Game
from skatcalc.rules.sheet import SheetSpec, default_active

SKAT_NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil"]
SKAT_CARDS = [s + r for s in "CSHD" for r in "JATKQ987"]
SKAT_FLAGS = ("hand", "ouvert", "schneider_announced", "schwarz_announced", "kontra", "re",
              "schneider")  # fmt: skip
SK_FLAGS = ("schneider", "schwarz", "tout", "sie")
SK_COUNTS = ("laufende", "gestellt", "kontra")


@st.composite
def skat_rules(draw: st.DrawFn) -> dict[str, Any]:
    """Skat's house rules (docs/api.md "Sheet rules"), any of them on."""
    rules: dict[str, Any] = {
        "kontra_re": draw(st.booleans()),
        "ramsch": draw(st.booleans()),
        "bock": draw(st.lists(st.sampled_from(["60-60", "grand-hand-won", "kontra-lost",
                                               "value-100", "schneider-lost"]), unique=True)),
    }  # fmt: skip
    if rules["ramsch"]:
        rules["schieberamsch"] = draw(st.booleans())
        rules["ramsch_loser"] = draw(st.sampled_from(["most", "each"]))
        rules["ramsch_cap"] = draw(st.sampled_from([None, 50, 120]))
    rules["bockramsch"] = draw(st.booleans())
    rules["bierlachs"] = draw(st.sampled_from([None, 301]))
    for flag in SkatHouseRules.FLAGS:  # every on/off house rule the game declares
        rules[flag.key] = draw(st.booleans())
    return rules


@st.composite
def skat_game(draw: st.DrawFn, playing: list[str], kontra_re: bool) -> dict[str, Any]:
    """A played Skat game (suit, Grand or Null, every flag, by buttons or card points)."""
    game = draw(st.sampled_from([row.key for row in SKAT_ROWS]))  # every contract of the table
    body: dict[str, Any] = {"game": game, "declarer": draw(st.sampled_from(playing))}
    ouvert = draw(st.booleans())
    hand = draw(st.booleans())
    if hand or draw(st.booleans()):
        body["hand"] = hand
    if ouvert or draw(st.booleans()):
        body["ouvert"] = ouvert
    if draw(st.booleans()):
        body["bid"] = draw(st.sampled_from(LEGAL_BIDS[:14]))
    if kontra_re and draw(st.booleans()):
        body["kontra"] = True
        if draw(st.booleans()):
            body["re"] = True
    if Game(game).is_null:
        body["won"] = draw(st.booleans())
        return body
    if draw(st.integers(0, 3)) == 0:
        size = draw(st.sampled_from([10, 12]))
        cards = draw(st.lists(st.sampled_from(SKAT_CARDS), min_size=size, max_size=size,
                              unique=True))  # fmt: skip
        body["cards"] = [c.lower() for c in cards] if draw(st.booleans()) else cards
    else:
        body["with"] = draw(st.booleans())
        body["matadors"] = draw(st.integers(1, Game(game).max_matadors))
    if hand or ouvert:
        for flag in ("schneider_announced", "schwarz_announced"):
            if draw(st.booleans()):
                body[flag] = True
    at = draw(st.sampled_from([None, None, "declarer", "opponents"]))
    if draw(st.booleans()):  # the outcome by the card points
        pts = 120 if at == "declarer" else draw(st.integers(0, 22 if at else 120))
        body["declarer_points"] = pts
    else:  # by the buttons: gewonnen/verloren, Schneider, Schwarz
        body["won"] = at == "declarer" if at else draw(st.booleans())
        if draw(st.booleans()):
            body["schneider"] = True
    if at:
        body["all_tricks"] = at
    return body


@st.composite
def skat_deal(draw: st.DrawFn, players: list[str], rules: dict[str, Any]) -> dict[str, Any]:
    """A deal body of a Skat sheet of these players and rules (the first deal: the first
    player deals)."""
    dealer = players[0]
    body: dict[str, Any] = {}
    playing = list(default_active(SheetSpec("skat", tuple(players), dealer), dealer))
    if len(players) > 3 and draw(st.booleans()):  # another three than the rotation's
        playing = draw(st.lists(st.sampled_from(players), min_size=3, max_size=3, unique=True))
        body["active"] = playing
    kind = draw(st.sampled_from(["game", "game", "game", "ramsch", "passed"]))
    if kind == "passed":
        return {**body, "passed": True}
    if kind == "ramsch":
        points = draw(st.lists(st.integers(0, 120), min_size=2, max_size=2))
        if sum(points) > 120:
            points = [points[0] % 61, points[1] % 60]
        pts = dict(zip(playing, [*points, 120 - sum(points)], strict=True))
        ramsch: dict[str, Any] = {"points": pts}
        zero = [p for p, v in pts.items() if v == 0]
        if zero and draw(st.booleans()):
            ramsch["jungfrau"] = zero
        full = [p for p, v in pts.items() if v == 120]
        if full and draw(st.booleans()):
            ramsch["durchmarsch"] = full[0]
        elif draw(st.booleans()):
            ramsch["durchmarsch"] = None
        if rules.get("schieberamsch") and draw(st.booleans()):
            ramsch["pushes"] = draw(st.integers(0, 3))
        return {**body, "ramsch": ramsch}
    return {**body, **draw(skat_game(playing, bool(rules.get("kontra_re"))))}


@st.composite
def schafkopf_rules(draw: st.DrawFn) -> dict[str, Any]:
    """Schafkopf's house rules: tariffs, Tout, Ramsch, the Stock, Bock."""
    rules: dict[str, Any] = {
        "tout_counts_schneider_schwarz": draw(st.booleans()),
        "ramsch": draw(st.booleans()),
        "bock": draw(
            st.lists(st.sampled_from(["60-60", "kontra-lost", "value-100"]), unique=True)
        ),  # fmt: skip
    }
    if draw(st.booleans()):
        rules["tariffs"] = {"sauspiel": 10, "solo": 50, "schneider": 5, "laufende": 10}
    if draw(st.booleans()):
        rules["stock"] = {"cents": 20, "taken_by": draw(st.sampled_from(["any", "rufspiel"])),
                          "lost": draw(st.sampled_from(["leave", "double"]))}  # fmt: skip
    return rules


@st.composite
def schafkopf_game(draw: st.DrawFn, playing: list[str]) -> dict[str, Any]:
    """A played Schafkopf game: every contract with Laufende, Schneider, Schwarz, Tout, Sie,
    Kontra, gestellt and the suit."""
    key = draw(st.sampled_from(list(SK_ROWS)))  # every contract of the table
    row = SK_ROWS[key]
    body: dict[str, Any] = {"game": key}
    body["declarers"] = draw(st.lists(st.sampled_from(playing), min_size=2 if row.partner else 1,
                                      max_size=2 if row.partner else 1, unique=True))  # fmt: skip
    bettel = row.tariff == "bettel"
    if row.names_suit and draw(st.booleans()):
        body["suit"] = draw(st.sampled_from([s for s in ("eichel", "gras", "herz", "schellen")
                                             if s not in row.barred_suits]))  # fmt: skip
    if bettel or draw(st.booleans()):
        body["won"] = draw(st.booleans())
    else:
        body["player_points"] = draw(st.integers(0, 120))
    if not bettel:
        for flag in ("schneider", "schwarz"):
            if draw(st.booleans()):
                body[flag] = draw(st.booleans())
        if draw(st.booleans()):
            body["laufende"] = draw(st.integers(0, row.laufende_max))
    if not row.partner and not bettel and draw(st.booleans()):
        body["tout"] = True
    if key == "solo" and draw(st.booleans()):
        body["sie"] = True
    for name in ("gestellt", "kontra"):
        if draw(st.booleans()):
            body[name] = draw(st.integers(0, 4))
    return body


@st.composite
def schafkopf_deal(draw: st.DrawFn, players: list[str], rules: dict[str, Any]) -> dict[str, Any]:
    """A deal body of a Schafkopf sheet of four or five (at five the dealer sits out)."""
    dealer = players[0]
    playing = list(default_active(SheetSpec("schafkopf", tuple(players), dealer), dealer))
    body: dict[str, Any] = {}
    kind = draw(st.sampled_from(["game", "game", "game", "ramsch", "passed"]))
    if kind == "passed":
        return {**body, "passed": True}
    if kind == "ramsch":
        cuts = sorted(draw(st.lists(st.integers(0, 120), min_size=3, max_size=3)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 120 - cuts[2]]
        pts = dict(zip(playing, parts, strict=True))
        out: dict[str, Any] = {"game": "ramsch", "points": pts}
        zero = [p for p, v in pts.items() if v == 0]
        if zero and draw(st.booleans()):
            out["jungfrau"] = zero
        full = [p for p, v in pts.items() if v == 120]
        if full and draw(st.booleans()):
            out["durchmarsch"] = full[0]
        return {**body, **out}
    return {**body, **draw(schafkopf_game(playing))}


def normal(game: str, body: dict[str, Any], dealer: str) -> dict[str, Any]:
    """A deal body as it means the same (docs/api.md "Deal bodies"): ``bid`` 18 and the
    dealer filled in, no flag that is off, no count that is 0, no empty Jungfrau,
    Durchmarsch or pushes; an ouvert suit game or Grand is a hand game with Schneider and
    Schwarz announced. Who played is compared as the sheet stores it (the deal's
    ``active``), not as the body names it."""
    out = {k: v for k, v in body.items() if k not in ("n", "active")}
    out["dealer"] = dealer
    if game == "skat":
        ramsch = out.get("ramsch")
        if isinstance(ramsch, dict):
            out["ramsch"] = _ramsch_normal(ramsch)
            if not out["ramsch"].get("pushes"):
                out["ramsch"].pop("pushes", None)
        elif not out.get("passed"):
            out.setdefault("bid", 18)
            if "cards" in out:  # a hand of cards: their order and case mean nothing
                out["cards"] = sorted(str(c).upper() for c in out["cards"])
            if out.get("ouvert") and out.get("game") != "null":
                out.update(hand=True, schneider_announced=True, schwarz_announced=True)
            for flag in SKAT_FLAGS:
                if out.get(flag) is False:
                    del out[flag]
    elif out.get("game") == "ramsch":
        out = _ramsch_normal(out)
    elif not out.get("passed"):
        for flag in SK_FLAGS:
            if out.get(flag) is False:
                del out[flag]
        for name in SK_COUNTS:
            if out.get(name) == 0:
                del out[name]
    return out


def _ramsch_normal(ramsch: dict[str, Any]) -> dict[str, Any]:
    out = dict(ramsch)
    if not out.get("jungfrau"):
        out.pop("jungfrau", None)
    if not out.get("durchmarsch"):
        out.pop("durchmarsch", None)
    return out


class _FormFields(HTMLParser):
    """The fields a browser without JavaScript sends with the first form whose action
    contains ``action``: checked boxes and radios, text and hidden inputs, each select's
    selected option (else its first); disabled fields are not sent."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.done = False
        self.pairs: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str | None, bool]] = []
        self.option_text: list[str] = []
        self.in_option = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and not self.done and self.action in (a.get("action") or ""):
            self.inside = True
        if not self.inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    value = a.get("value")
                    self.pairs.append((name, "on" if value is None else value))
            elif kind not in ("submit", "button", "reset", "file"):
                self.pairs.append((name, a.get("value") or ""))  # no value: empty
        elif tag == "select" and name:
            self.select, self.options, self.option_text = name, [], []
        elif tag == "option" and self.select:
            self.options.append((a.get("value"), "selected" in a))
            self.option_text.append("")
            self.in_option = True

    def handle_data(self, data: str) -> None:
        if self.in_option and self.option_text:
            self.option_text[-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option":
            self.in_option = False
        if tag == "select" and self.select:
            values = [v if v is not None else t for (v, _s), t in
                      zip(self.options, self.option_text, strict=True)]  # fmt: skip
            chosen = [v for v, (_v, s) in zip(values, self.options, strict=True) if s]
            if chosen or values:
                self.pairs.append((self.select, (chosen or values)[0]))
            self.select, self.option_text = None, []
        if tag == "form" and self.inside:
            self.inside, self.done = False, True


def form_fields(html: str, action: str) -> list[tuple[str, str]]:
    """What the form posting to ``action`` sends untouched (see :class:`_FormFields`)."""
    parser = _FormFields(action)
    parser.feed(html)
    return parser.pairs
