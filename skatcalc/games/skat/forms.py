"""Skat's forms: the calculator's and a sheet entry's game fields (``templates/games/skat/``),
the form -> body mapping (``skat_input``), when a half-filled form is worth a preview, and
the pages' side of the game (:class:`SkatForms`). Flask, not pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Self

from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField
from wtforms.validators import Optional

from skatcalc.games.form_fields import (
    DealMeta,
    FormData,
    GameForms,
    MultiCheckboxField,
    field_int,
    form_as,
    known_game,
)
from skatcalc.text import _, request_lang, translate

from ...rules.contracts import buttons
from ...rules.sheet.base import Result
from .contracts import CONTRACTS
from .inputs import skat_outcome_conflict
from .sheet import SkatHouseRules
from .values import LEGAL_BIDS, SUITS, SkatResult, games_with_value

SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
RANK_LABEL = {"T": "10", "J": "B", "Q": "D", "K": "K", "A": "A"}


def card_choices() -> list[tuple[str, str]]:
    order = [s + r for s in SUITS for r in "JATKQ987"]
    return [(c, SUIT_SYMBOL[c[0]] + RANK_LABEL.get(c[1], c[1])) for c in order]


def skat_game_choices() -> list[tuple[str, str]]:
    """The entry form's game buttons, from the contracts table."""
    lang = request_lang()
    return [(row.key, translate(row.button, lang)) for row in buttons(CONTRACTS) if row.button]


def spitzen_choices(first: bool) -> list[tuple[str, str]]:
    """One tap for "mit 2": values w1…w11 (with) and o1…o11 (without); 1–4 come first."""
    numbers = range(1, 5) if first else range(5, 12)
    return [(f"w{i}", _("mit %(n)s", n=i)) for i in numbers] + [
        (f"o{i}", _("ohne %(n)s", n=i)) for i in numbers
    ]


class SkatForm(FlaskForm):
    game = RadioField(validators=[Optional()], validate_choice=False)
    spitzen = RadioField(validators=[Optional()], validate_choice=False)
    with_ = RadioField(name="with", validators=[Optional()], validate_choice=False)
    matadors = RadioField(validators=[Optional()], validate_choice=False)
    cards = MultiCheckboxField(validators=[Optional()])
    hand = BooleanField()
    ouvert = BooleanField()
    schneider_announced = BooleanField()
    schwarz_announced = BooleanField()
    bid = SelectField(validators=[Optional()], validate_choice=False)
    declarer_points = StringField(validators=[Optional()])
    all_tricks = RadioField(validators=[Optional()], validate_choice=False)
    won = RadioField(validators=[Optional()], validate_choice=False)
    schneider = BooleanField()  # outcome: the losing party ended schneider
    schwarz = BooleanField()  # outcome: one party took every trick (who: from won/lost)
    kontra = BooleanField()
    re = BooleanField()

    def setup(self) -> Self:
        self.game.choices = skat_game_choices()
        self.spitzen.choices = spitzen_choices(True)
        self.with_.choices = [("true", _("mit")), ("false", _("ohne"))]
        self.matadors.choices = [(str(i), str(i)) for i in range(1, 12)]
        self.cards.choices = card_choices()
        self.bid.choices = [(str(b), str(b)) for b in LEGAL_BIDS]
        self.all_tricks.choices = [
            ("", _("—")),
            ("declarer", _("Alleinspieler")),
            ("opponents", _("Gegenspieler")),
        ]
        self.won.choices = [("true", _("gewonnen")), ("false", _("verloren"))]
        return self


def skat_input(form: SkatForm, errors: list[tuple[str, str]]) -> dict[str, object]:
    """The API-shaped input of a Skat form; fields that do not apply to the game are left out."""
    data: dict[str, object] = {}
    game = form.game.data or None
    if game and not known_game(form, game, errors):
        game = None
    if game:
        data["game"] = game
    if form.cards.data and game != "null":
        data["cards"] = list(form.cards.data)
    elif game != "null" and re.fullmatch(r"[wo](1[01]|[1-9])", form.spitzen.data or ""):
        data["with"] = form.spitzen.data[0] == "w"
        data["matadors"] = int(form.spitzen.data[1:])
    elif game != "null":
        if form.with_.data in ("true", "false"):
            data["with"] = form.with_.data == "true"
        m = field_int(form.matadors, errors)
        if m is not None:
            data["matadors"] = m
    for flag in ("hand", "ouvert", "kontra", "re"):
        if getattr(form, flag).data:
            data[flag] = True
    won = {"true": True, "false": False}.get(form.won.data or "")
    if game != "null":
        for flag in ("schneider_announced", "schwarz_announced"):
            if getattr(form, flag).data:
                data[flag] = True
        # The outcome: typed card points decide; otherwise the buttons gewonnen/verloren,
        # Schneider and Schwarz (who was schwarz follows from who won).
        pts = field_int(form.declarer_points, errors)
        schwarz = bool(form.schwarz.data)
        if form.all_tricks.data in ("declarer", "opponents"):
            data["all_tricks"] = form.all_tricks.data
        if pts is not None:
            data["declarer_points"] = pts
            if schwarz and "all_tricks" not in data:
                data["all_tricks"] = (
                    "declarer" if (won if won is not None else pts > 60) else "opponents"
                )
        elif won is not None:
            data["won"] = won
            if form.schneider.data:
                data["schneider"] = True
            if schwarz and "all_tricks" not in data:
                data["all_tricks"] = "declarer" if won else "opponents"
    elif won is not None:
        data["won"] = won
    bid = field_int(form.bid, errors)
    if bid is not None:
        data["bid"] = bid
    if game != "null" and "declarer_points" in data and (won is not None or form.schneider.data):
        conflict = skat_outcome_conflict(data, won, bool(form.schneider.data))
        if conflict is not None:
            errors.append(("declarer_points", translate(conflict, request_lang())))
    return data


def skat_fill(form: SkatForm, inp: Mapping[str, object]) -> None:
    """The inverse of :func:`skat_input`: a Skat body's fields as the form's controls, so a
    correction saved untouched gives back the same deal. Every part of the body goes into a
    control the page draws (``templates/games/skat/_fields.html``): who took every trick is
    the Schwarz box (who follows from gewonnen/verloren or the card points), not
    ``all_tricks``, which the page has no input for."""
    form.game.data = inp.get("game")
    form.spitzen.data = None
    if "with" in inp and "matadors" in inp:
        form.spitzen.data = f"{'w' if inp['with'] else 'o'}{inp['matadors']}"
    # the grid's values are upper case; the API also takes "cj" for CJ
    cards = inp.get("cards")
    form.cards.data = [str(c).upper() for c in cards] if isinstance(cards, list) else []
    for flag in ("hand", "ouvert", "schneider_announced", "schwarz_announced", "kontra", "re"):
        getattr(form, flag).data = bool(inp.get(flag))
    form.bid.data = str(inp.get("bid", 18))
    pts = inp.get("declarer_points")
    form.declarer_points.data = "" if pts is None else str(pts)
    won = inp.get("won")
    form.won.data = "" if won is None else ("true" if won else "false")
    form.schneider.data = bool(inp.get("schneider"))
    form.schwarz.data = inp.get("all_tricks") in ("declarer", "opponents")
    form.all_tricks.data = ""


def skat_ready(data: Mapping[str, object]) -> bool:
    """A Skat body from ``skat_input`` complete enough to be valued."""
    game = data.get("game")
    if not game:
        return False
    if game != "null":
        cards = data.get("cards")
        if isinstance(cards, list) and len(cards) not in (10, 12):
            return False  # still tapping the cards
        if cards is None and "matadors" not in data:
            return False
    return any(k in data for k in ("won", "declarer_points", "all_tricks"))


class SkatDealForm(SkatForm, DealMeta):
    pass


class SkatRulesFields:
    """Skat's own house rules (docs/rules.md 1.10 Kontra/Re, 1.11 those of real tables) on the
    new-sheet, Hausregeln and club-night forms (``templates/games/skat/_rules.html``); read by
    ``SkatForms.house_rules``, filled by ``SkatForms.fill_rules``."""

    kontra_re = BooleanField()
    schieberamsch = BooleanField()
    ramsch_loser = RadioField(validators=[Optional()], validate_choice=False, default="most")
    ramsch_cap = StringField(default="")  # empty: no cap
    bockramsch = BooleanField()
    bierlachs = StringField(default="")  # empty: no Bierlachs


# every on/off house rule declared in sheet.py's SkatHouseRules.FLAGS is a checkbox too, so
# a new one is a row there and nothing here
for _flag in SkatHouseRules.FLAGS:
    setattr(SkatRulesFields, _flag.key, BooleanField())


def house_flags() -> list[tuple[str, str]]:
    """The checkboxes of the on/off house rules: field name and label (``_rules.html``)."""
    return [(f.key, translate(f.words, request_lang())) for f in SkatHouseRules.FLAGS]


class SkatForms(GameForms):
    def deal_form(self, players: list[str], formdata: FormData | None,
                  **kwargs: object) -> SkatDealForm:  # fmt: skip
        return SkatDealForm(formdata, **kwargs).setup()

    def setup_rules(self, form: object) -> None:
        form = form_as(form, SkatRulesFields)
        form.ramsch_loser.choices = [("most", _("wer die meisten Augen hat")),
                                     ("each", _("jeder seine Augen"))]  # fmt: skip

    def fill_rules(self, form: object, rules: Mapping[str, object]) -> None:
        form = form_as(form, SkatRulesFields)
        form.kontra_re.data = bool(rules.get("kontra_re"))
        form.schieberamsch.data = bool(rules.get("schieberamsch"))
        form.ramsch_loser.data = rules.get("ramsch_loser") or "most"
        form.ramsch_cap.data = "" if rules.get("ramsch_cap") is None else str(rules["ramsch_cap"])
        form.bockramsch.data = bool(rules.get("bockramsch"))
        form.bierlachs.data = "" if rules.get("bierlachs") is None else str(rules["bierlachs"])
        for flag in SkatHouseRules.FLAGS:
            getattr(form, flag.key).data = bool(rules.get(flag.key))

    def house_rules(self, form: object, errors: list[tuple[str, str]]) -> dict[str, object]:
        form = form_as(form, SkatRulesFields)
        # every key, off ones too: the "Hausregeln" page sends the rules whole and they merge
        # into those in force, so a rule left out there would stay on
        rules: dict[str, object] = {
            "kontra_re": bool(form.kontra_re.data),
            "schieberamsch": bool(form.schieberamsch.data),
            "ramsch_loser": "each" if form.ramsch_loser.data == "each" else "most",
            "bockramsch": bool(form.bockramsch.data),
            **{f.key: bool(getattr(form, f.key).data) for f in SkatHouseRules.FLAGS},
        }
        for key in ("ramsch_cap", "bierlachs"):  # empty: the rule is off (null)
            rules[key] = field_int(getattr(form, key), errors)
        return rules

    def game_body(self, form: DealMeta, errors: list[tuple[str, str]]) -> dict[str, object]:
        body = skat_input(form_as(form, SkatDealForm), errors)
        if form.declarer.data:
            body["declarer"] = form.declarer.data
        return body

    def game_ready(self, body: Mapping[str, object]) -> bool:
        return "declarer" in body and skat_ready(body)

    def calculator_form(self, args: FormData) -> SkatForm:
        return SkatForm(args, meta={"csrf": False}).setup()

    def calculator_body(self, form: FlaskForm,
                        errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
        return skat_input(form_as(form, SkatForm), errors)

    def calculator_submitted(self, args: FormData) -> bool:
        return "game" in args

    def calculator_fresh(self, form: FlaskForm) -> None:
        form_as(form, SkatForm).bid.data = "18"  # the lowest bid, where most games are taken

    def calculator_ready(self, body: Mapping[str, object]) -> bool:
        return skat_ready(body)

    def calculator_shown(self, form: FlaskForm, result: Result) -> None:
        result = form_as(result, SkatResult)
        if result.matadors is not None:  # the Spitzen the cards gave, as their button
            form_as(
                form, SkatForm
            ).spitzen.data = f"{'w' if result.with_ else 'o'}{result.matadors}"

    def bid_table(self) -> list[tuple[int, Sequence[object]]]:
        return [(b, list(games_with_value(b))) for b in LEGAL_BIDS]

    def template_globals(self) -> dict[str, Callable[..., object]]:
        # the Spitzen buttons of _fields.html; the on/off house rules of _rules.html
        return {"spitzen_choices": spitzen_choices, "skat_house_flags": house_flags}

    def fill_game(self, form: DealMeta, inp: Mapping[str, object]) -> None:
        skat_fill(form_as(form, SkatDealForm), inp)
        form.declarer.data = inp.get("declarer")
