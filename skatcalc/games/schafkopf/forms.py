"""Schafkopf's forms: the calculator's and a sheet entry's game fields
(``templates/games/schafkopf/``), the tariffs, the form -> body mapping
(``schafkopf_input``), when a half-filled form is worth a preview, and the pages' side of the
game (:class:`SchafkopfForms`). Flask, not pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, StringField
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
from .contracts import BY_KEY, CONTRACTS
from .inputs import SK_GAMES
from .values import DEFAULT_TARIFFS, SUIT_GAMES, SUIT_NAMES, party_message
from .values import SUITS as SK_SUITS

# --- Schafkopf -------------------------------------------------------------------------------


def schafkopf_game_choices() -> list[tuple[str, str]]:
    """The entry form's game buttons, from the contracts table."""
    lang = request_lang()
    return [(row.key, translate(row.button, lang)) for row in buttons(CONTRACTS) if row.button]


class SchafkopfGameForm(FlaskForm):
    game = RadioField(validators=[Optional()], validate_choice=False)
    suit = RadioField(validators=[Optional()], validate_choice=False)
    declarers = MultiCheckboxField(validators=[Optional()])
    outcome = RadioField(validators=[Optional()], validate_choice=False)
    player_points = StringField(validators=[Optional()])
    schneider = BooleanField()
    schwarz = BooleanField()
    laufende = RadioField(validators=[Optional()], validate_choice=False, default="0")
    tout = BooleanField()
    sie = BooleanField()
    gestellt = RadioField(validators=[Optional()], validate_choice=False, default="0")
    kontra = RadioField(validators=[Optional()], validate_choice=False, default="0")

    def setup(self, players: list[str]) -> Self:
        self.game.choices = schafkopf_game_choices()
        # card terms of the German deck, the same in both languages
        self.suit.choices = [(k, SUIT_NAMES[k]) for k in SK_SUITS]
        self.declarers.choices = [(p, p) for p in players]
        self.outcome.choices = [
            ("points", _("Augen")),
            ("won", _("gewonnen")),
            ("lost", _("verloren")),
        ]
        self.laufende.choices = [(str(i), str(i)) for i in range(0, 15)]
        self.gestellt.choices = [(str(i), str(i)) for i in range(0, 5)]
        self.kontra.choices = [
            ("0", "—"),
            ("1", "Kontra"),
            ("2", "Re"),
            ("3", "Sub"),
            ("4", "Hirsch"),
        ]
        return self


def schafkopf_input(form: SchafkopfGameForm,
                    errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
    data: dict[str, object] = {}
    if form.game.data and known_game(form, form.game.data, errors):
        data["game"] = form.game.data
    data["declarers"] = list(form.declarers.data or [])
    if not data["declarers"]:
        # said with the other missing choices at once, not only after they are made: in the
        # rules' words where the game says how many play
        game = SK_GAMES.get(form.game.data or "")
        said = translate(party_message(game), request_lang()) if game else None
        errors.append(("declarers", said or _("Bitte die Spielerpartei nennen.")))
    if form.suit.data and form.game.data in SUIT_GAMES:
        data["suit"] = form.suit.data
    pts = field_int(form.player_points, errors)
    if form.outcome.data in ("won", "lost"):
        data["won"] = form.outcome.data == "won"
    elif pts is not None:
        data["player_points"] = pts
    elif (form.outcome.data == "points" or not form.outcome.data) and not any(
        f == "player_points" for f, _m in errors
    ):  # letters in the field already have their message: one is enough
        # under the outcome's choice while none is made: the points' field is shown only once
        # "Augen" is chosen
        field = "player_points" if form.outcome.data == "points" else "outcome"
        errors.append(
            (field, _("Bitte die Augen der Spielerpartei eingeben oder gewonnen/verloren wählen."))
        )
    row = BY_KEY.get(form.game.data or "")
    bettel = row is not None and row.tariff == "bettel"  # the Bettel class: no Augen levels
    for flag in ("schneider", "schwarz", "tout", "sie"):
        if getattr(form, flag).data and not (bettel and flag in ("schneider", "schwarz")):
            data[flag] = True
    for name in ("laufende", "gestellt", "kontra"):
        v = field_int(getattr(form, name), errors)
        if v:
            if not (bettel and name == "laufende"):
                data[name] = v
    return data


TARIFF_KEYS = ("sauspiel", "solo", "bettel", "extra", "schneider", "laufende", "ramsch")


class TariffFields:
    """The Schafkopf tariffs (cents) and the Tout setting, on the calculator and a new sheet."""

    t_sauspiel = StringField(default=str(DEFAULT_TARIFFS["sauspiel"]))
    t_solo = StringField(default=str(DEFAULT_TARIFFS["solo"]))
    t_bettel = StringField(default=str(DEFAULT_TARIFFS["bettel"]))
    t_extra = StringField(default=str(DEFAULT_TARIFFS["extra"]))
    t_ramsch = StringField(default="")  # empty: a Ramsch costs the Sauspiel tariff
    t_schneider = StringField(default="")  # empty: Schneider and Schwarz cost extra
    t_laufende = StringField(default="")  # empty: a Laufender costs extra
    tout_counts = BooleanField(default=True)

    def tariff_values(self, errors: list[tuple[str, str]]) -> dict[str, int]:
        """The tariffs filled in; a field left empty keeps its default."""
        out: dict[str, int] = {}
        for key in TARIFF_KEYS:
            value = field_int(getattr(self, f"t_{key}"), errors)
            if value is not None:
                out[key] = value
        return out


class SchafkopfRulesFields(TariffFields):
    """Schafkopf's own house rules on the new-sheet, Hausregeln and club-night forms
    (``templates/games/schafkopf/_rules.html``): the tariffs and the Tout setting, and the
    Stock (docs/rules.md 2.7: cents per player when a deal is passed); read by
    ``SchafkopfForms.house_rules``, filled by ``SchafkopfForms.fill_rules``."""

    stock_cents = StringField(default="")
    stock_taken_by = RadioField(default="any", validate_choice=False)
    stock_lost = RadioField(default="leave", validate_choice=False)


class SchafkopfCalcForm(SchafkopfGameForm, TariffFields):
    p1 = StringField(default="A")
    p2 = StringField(default="B")
    p3 = StringField(default="C")
    p4 = StringField(default="D")
    submitted = HiddenField(default="1")

    def player_names(self) -> list[str]:
        return [(f.data or "").strip() for f in (self.p1, self.p2, self.p3, self.p4)]


def schafkopf_ready(data: Mapping[str, object]) -> bool:
    """A Schafkopf body from ``schafkopf_input`` complete enough to be valued: the game, its
    declarer (both partners in a Sauspiel or Hochzeit) and the outcome."""
    game = data.get("game")
    if not game or not isinstance(game, str):
        return False
    row = BY_KEY.get(game)
    declarers = data.get("declarers")
    named = len(declarers) if isinstance(declarers, list) else 0
    if named < (2 if row is not None and row.partner else 1):
        return False
    return "won" in data or "player_points" in data


class SchafkopfDealForm(SchafkopfGameForm, DealMeta):
    pass


class SchafkopfForms(GameForms):
    def deal_form(self, players: list[str], formdata: FormData | None,
                  **kwargs: object) -> SchafkopfDealForm:  # fmt: skip
        return SchafkopfDealForm(formdata, **kwargs).setup(players)

    def setup_rules(self, form: object) -> None:
        form = form_as(form, SchafkopfRulesFields)
        form.stock_taken_by.choices = stock_taken_by_choices()
        form.stock_lost.choices = [("leave", _("Stock bleibt")),
                                   ("double", _("Stock wird verdoppelt"))]  # fmt: skip

    def fill_rules(self, form: object, rules: Mapping[str, object]) -> None:
        form = form_as(form, SchafkopfRulesFields)
        tariffs = rules.get("tariffs")
        if not isinstance(tariffs, Mapping):
            tariffs = {}
        for key in TARIFF_KEYS:
            value = tariffs.get(key)
            getattr(form, f"t_{key}").data = "" if value is None else str(value)
        form.tout_counts.data = bool(rules.get("tout_counts_schneider_schwarz", True))
        stock = rules.get("stock")
        if isinstance(stock, dict):
            form.stock_cents.data = str(stock.get("cents", ""))
            form.stock_taken_by.data = stock.get("taken_by", "any")
            form.stock_lost.data = stock.get("lost", "leave")

    def house_rules(self, form: object, errors: list[tuple[str, str]]) -> dict[str, object]:
        form = form_as(form, SchafkopfRulesFields)
        rules: dict[str, object] = {
            "tariffs": form.tariff_values(errors),
            "tout_counts_schneider_schwarz": bool(form.tout_counts.data),
        }
        cents = field_int(form.stock_cents, errors) if hasattr(form, "stock_cents") else None
        rules["stock"] = None
        if cents is not None:
            rules["stock"] = {"cents": cents, "taken_by": form.stock_taken_by.data or "any",
                              "lost": form.stock_lost.data or "leave"}  # fmt: skip
        return rules

    def game_body(self, form: DealMeta, errors: list[tuple[str, str]]) -> dict[str, object]:
        return schafkopf_input(form_as(form, SchafkopfGameForm), errors)

    def calculator_form(self, args: FormData) -> SchafkopfCalcForm:
        form = SchafkopfCalcForm(args, meta={"csrf": False})
        if "submitted" not in args:
            form.tout_counts.data = True
        form.setup([n or "?" for n in form.player_names()])
        return form

    def calculator_body(self, form: FlaskForm,
                        errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
        form = form_as(form, SchafkopfCalcForm)
        data = schafkopf_input(form, errors)
        data["players"] = form.player_names()
        data["tariffs"] = form.tariff_values(errors)
        data["tout_counts_schneider_schwarz"] = bool(form.tout_counts.data)
        return data

    def calculator_ready(self, body: Mapping[str, object]) -> bool:
        return schafkopf_ready(body)

    def calculator_context(self, form: FlaskForm) -> dict[str, object]:
        return {"names": form_as(form, SchafkopfCalcForm).player_names()}

    def game_ready(self, body: Mapping[str, object]) -> bool:
        return schafkopf_ready(body)

    def keep_unsaid(self, body: dict[str, object], stored: Mapping[str, object]) -> None:
        # The first named of the player party is who played (called the Sau): he counts the
        # game in the statistics and takes an odd cent of the Stock. The boxes list the party
        # in seat order, so while the same two are ticked the stored order stays.
        old = stored.get("declarers")
        new = body.get("declarers")
        if isinstance(old, list) and isinstance(new, list) and sorted(map(str, old)) == sorted(new):
            body["declarers"] = list(old)

    def fill_game(self, form: DealMeta, inp: Mapping[str, object]) -> None:
        form = form_as(form, SchafkopfDealForm)
        form.game.data = inp.get("game")
        form.suit.data = inp.get("suit")
        declarers = inp.get("declarers")
        form.declarers.data = list(declarers) if isinstance(declarers, list) else []
        if "won" in inp:
            form.outcome.data = "won" if inp["won"] else "lost"
        else:
            form.outcome.data = "points"
            form.player_points.data = str(inp.get("player_points", ""))
        for flag in ("schneider", "schwarz", "tout", "sie"):
            getattr(form, flag).data = bool(inp.get(flag))
        for name in ("laufende", "gestellt", "kontra"):
            getattr(form, name).data = str(inp.get(name, 0))


def stock_taken_by_choices() -> list[tuple[str, str]]:
    """Who takes the Stock (docs/rules.md 2.7), on a sheet's house rules form."""
    return [("any", _("jedes gewonnene Spiel")), ("rufspiel", _("nur ein gewonnenes Sauspiel"))]
