"""The deal forms and both directions of the form↔body mapping. Forms render and read fields;
the rules engine judges the values.

Every form is turned into the same JSON-shaped input the API takes, so a deal entered on a
page and one sent to the API go through one parser and one scoring function.
"""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import Optional
from wtforms.widgets import CheckboxInput, ListWidget

from .i18n import _, page_lang
from .rules.common import InvalidDeal
from .rules.inputs import skat_outcome_conflict
from .rules.schafkopf import DEFAULT_TARIFFS, SUIT_GAMES, SUIT_NAMES
from .rules.schafkopf import SUITS as SK_SUITS
from .rules.skat import LEGAL_BIDS, SUITS

SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
RANK_LABEL = {"T": "10", "J": "B", "Q": "D", "K": "K", "A": "A"}


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: Any) -> None:  # choices are checked by the rules engine
        pass


def card_choices() -> list[tuple[str, str]]:
    order = [s + r for s in SUITS for r in "JATKQ987"]
    return [(c, SUIT_SYMBOL[c[0]] + RANK_LABEL.get(c[1], c[1])) for c in order]


def skat_game_choices() -> list[tuple[str, str]]:
    return [
        ("clubs", _("♣ Kreuz")),
        ("spades", _("♠ Pik")),
        ("hearts", _("♥ Herz")),
        ("diamonds", _("♦ Karo")),
        ("grand", "Grand"),
        ("null", "Null"),
    ]


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

    def setup(self) -> SkatForm:
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


def parse_int(text: object) -> int | None:
    """A plain whole number ("-12", "075"), else None: no "²", no "1_000", no 5000 digits."""
    if isinstance(text, str) and re.fullmatch(r"-?[0-9]{1,9}", text.strip().strip('"')):
        return int(text.strip().strip('"'))
    return None


def field_int(field: Field, errors: list[tuple[str, str]]) -> int | None:
    raw = (field.data or "").strip() if isinstance(field.data, str) else field.data
    if raw in (None, ""):
        return None
    if isinstance(raw, int):
        return raw
    value = parse_int(str(raw))
    if value is None:
        errors.append((field.name, _("Bitte eine ganze Zahl eingeben.")))
    return value


def known_game(form: Any, game: str, errors: list[tuple[str, str]]) -> bool:
    """A game from the address that the form does not offer (``/skat?game=xx``): the message
    names the games as the buttons do, in the page's language, not the API's values."""
    names = [label for value, label in form.game.choices]
    if game in [value for value, _label in form.game.choices]:
        return True
    errors.append(("game", _("Unbekanntes Spiel. Möglich: %(names)s.", names=", ".join(names))))
    return False


def skat_input(form: SkatForm, errors: list[tuple[str, str]]) -> dict[str, Any]:
    """The API-shaped input of a Skat form; fields that do not apply to the game are left out."""
    data: dict[str, Any] = {}
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
            errors.append(("declarer_points", conflict.text(page_lang())))
    return data


FIELD_ALIASES = {"with": "spitzen", "matadors": "spitzen"}
# Ramsch on a sheet: Skat nests it under "ramsch", Schafkopf does not; one place each on the form
RAMSCH_ALIASES = {"ramsch.points": "ramsch_points", "points": "ramsch_points",
                  "ramsch.jungfrau": "jungfrau", "ramsch.durchmarsch": "durchmarsch"}  # fmt: skip


def attach_errors(form: FlaskForm, exc: InvalidDeal | None, extra: list[tuple[str, str]],
                  lang: str) -> list[str]:  # fmt: skip
    """Put each message next to its field; what belongs to no field is returned."""
    general: list[str] = []
    pairs = list(extra)
    if exc is not None:
        pairs += [(k, m) for k, msgs in exc.by_field(lang).items() for m in msgs]
    for name, message in pairs:
        attr = FIELD_ALIASES.get(name) or RAMSCH_ALIASES.get(name, name).replace(".", "_")
        field = getattr(form, attr, None) if attr != "_" else None
        if isinstance(field, Field):
            if name in FIELD_ALIASES and field.errors:
                continue  # "with" and "matadors" are one control: one message is enough
            field.errors = list(field.errors or []) + [message]
        else:
            general.append(message)
    return general


# --- Schafkopf -------------------------------------------------------------------------------


def schafkopf_game_choices() -> list[tuple[str, str]]:
    return [
        ("sauspiel", "Sauspiel"),
        ("solo", _("Solo")),
        ("wenz", "Wenz"),
        ("geier", "Geier"),
        ("farbwenz", "Farbwenz"),
        ("farbgeier", "Farbgeier"),
        ("hochzeit", "Hochzeit"),
        ("bettel", "Bettel"),
    ]


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

    def setup(self, players: list[str]) -> SchafkopfGameForm:
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


def schafkopf_input(form: SchafkopfGameForm, errors: list[tuple[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if form.game.data and known_game(form, form.game.data, errors):
        data["game"] = form.game.data
    data["declarers"] = list(form.declarers.data or [])
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
        errors.append(
            (
                "player_points",
                _(
                    "Bitte die Augen der Spielerpartei eingeben oder gewonnen/verloren wählen.",
                ),
            )
        )
    bettel = form.game.data == "bettel"
    for flag in ("schneider", "schwarz", "tout", "sie"):
        if getattr(form, flag).data and not (bettel and flag in ("schneider", "schwarz")):
            data[flag] = True
    for name in ("laufende", "gestellt", "kontra"):
        v = field_int(getattr(form, name), errors)
        if v:
            if not (bettel and name == "laufende"):
                data[name] = v
    return data


TARIFF_KEYS = ("sauspiel", "solo", "bettel", "extra", "ramsch")


class TariffFields:
    """The Schafkopf tariffs (cents) and the Tout setting, on the calculator and a new sheet."""

    t_sauspiel = StringField(default=str(DEFAULT_TARIFFS["sauspiel"]))
    t_solo = StringField(default=str(DEFAULT_TARIFFS["solo"]))
    t_bettel = StringField(default=str(DEFAULT_TARIFFS["bettel"]))
    t_extra = StringField(default=str(DEFAULT_TARIFFS["extra"]))
    t_ramsch = StringField(default="")  # empty: a Ramsch costs the Sauspiel tariff
    tout_counts = BooleanField(default=True)

    def tariff_values(self, errors: list[tuple[str, str]]) -> dict[str, int]:
        """The tariffs filled in; a field left empty keeps its default."""
        out: dict[str, int] = {}
        for key in TARIFF_KEYS:
            value = field_int(getattr(self, f"t_{key}"), errors)
            if value is not None:
                out[key] = value
        return out


class SchafkopfCalcForm(SchafkopfGameForm, TariffFields):
    p1 = StringField(default="A")
    p2 = StringField(default="B")
    p3 = StringField(default="C")
    p4 = StringField(default="D")
    submitted = HiddenField(default="1")

    def player_names(self) -> list[str]:
        return [(f.data or "").strip() for f in (self.p1, self.p2, self.p3, self.p4)]
