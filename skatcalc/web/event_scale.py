"""A tournament in points on the new-event page (docs/rules.md 2.8): the scales by name, each
with its source, and every figure of the chosen one editable.

A figure left empty keeps the preset's (the page shows it as the field's placeholder), so a
preset picked without JavaScript counts exactly as its source writes; a figure typed overrides
it, as ``"scale"`` does in the API. The page reads nothing but the game's presets
(``GameKind.point_preset``): no figure is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wtforms import RadioField, SelectField, StringField
from wtforms.validators import Optional

from skatcalc.games.form_fields import parse_int
from skatcalc.rules.sheet import GAMES
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.sheet.base import PointFigure
from skatcalc.text import _, translate
from skatcalc.web.i18n import page_lang

MONEY = "money"


def scale_game() -> str:
    """The game a tournament scale is kept for (``GameKind.has_point_scale``)."""
    return next(key for key in GAMES if game_kind(key).has_point_scale)


def figures() -> tuple[PointFigure, ...]:
    """The scale's figures as the game declares them (``GameKind.point_figures``)."""
    return game_kind(scale_game()).point_figures


class ScaleFields:
    """The new-event form's scoring: money or a preset by name, and every figure."""

    scoring = RadioField(default=MONEY, validate_choice=False)
    sc_ruf_plain = StringField(validators=[Optional()])
    sc_ruf_schneider = StringField(validators=[Optional()])
    sc_ruf_schwarz = StringField(validators=[Optional()])
    sc_solo_plain = StringField(validators=[Optional()])
    sc_solo_schneider = StringField(validators=[Optional()])
    sc_solo_schwarz = StringField(validators=[Optional()])
    sc_bettel = StringField(validators=[Optional()])
    sc_herz_solo = StringField(validators=[Optional()])
    sc_lauf_ruf = StringField(validators=[Optional()])
    sc_lauf_solo = StringField(validators=[Optional()])
    sc_lauf_from = StringField(validators=[Optional()])
    sc_lauf_from_wenz = StringField(validators=[Optional()])
    sc_lauf_max = StringField(validators=[Optional()])
    sc_tout = StringField(validators=[Optional()])
    sc_sie = StringField(validators=[Optional()])
    sc_kontra = StringField(validators=[Optional()])
    sc_tout_level = SelectField(default="", validate_choice=False)
    sc_written = SelectField(default="", validate_choice=False)

    def setup_scale(self) -> None:
        self.scoring.choices = [(MONEY, _("Geld (die Tarife an jedem Tisch)")),
                                *((name, preset_label(name)) for name in presets())]  # fmt: skip
        self.sc_tout_level.choices = [("", _("wie die Vorlage")),
                                      ("schwarz", _("den Schwarz-Wert")),
                                      ("plain", _("den einfachen Wert"))]  # fmt: skip
        self.sc_written.choices = [("", _("wie die Vorlage")),
                                   ("no", _("Plus und Minus (Summe 0)")),
                                   ("yes", _("nur die Gewinner schreiben"))]  # fmt: skip


def presets() -> tuple[str, ...]:
    return game_kind(scale_game()).point_presets


def preset_label(name: str) -> str:
    """The preset's name and its source, as the page offers it."""
    return translate(game_kind(scale_game()).point_preset_source(name), page_lang())


def page_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The figures in the groups the page shows them in, each group's words translated."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for f in figures():
        words = translate(f.group, page_lang())
        if not out or out[-1][0] != words:
            out.append((words, []))
        out[-1][1].append((f.name, translate(f.label, page_lang())))
    return out


def _at(scale: Mapping[str, object], path: tuple[str, ...]) -> object:
    value: object = scale
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def page_figures() -> dict[str, dict[str, str]]:
    """Every preset's figures by field, as the page shows them (placeholders): 0 for none."""
    out: dict[str, dict[str, str]] = {}
    for name in presets():
        scale = game_kind(scale_game()).point_preset(name)
        shown = {f.name: str(_at(scale, f.path + f.games[:1]) or 0) for f in figures()}
        shown["sc_tout_level"] = str(scale["tout_level"])
        shown["sc_written"] = "yes" if scale["written"] else "no"
        out[name] = shown
    return out


def scoring_body(form: ScaleFields, errors: list[tuple[str, str]]) -> dict[str, Any] | None:
    """The API's ``scoring`` from the page: None for money, else the preset and the figures
    typed (each checked here for a number; its range the rules check)."""
    chosen = str(form.scoring.data or MONEY)
    if chosen == MONEY:
        return None
    if chosen not in presets():
        errors.append(("scoring", _("Bitte eine Wertung aus der Liste wählen.")))
        return None
    scale: dict[str, Any] = {}
    for f in figures():
        raw = (getattr(form, f.name).data or "").strip()
        if not raw:
            continue
        v = parse_int(raw)
        if v is None or not f.low <= v <= f.high:
            errors.append((f.name, _("Ganze Zahl von %(low)s bis %(high)s.", low=f.low,
                                     high=f.high)))  # fmt: skip
            continue
        value: int | None = None if v == 0 and f.zero_is_none else v
        if f.games:  # one figure for several games (the Laufende's start)
            scale.setdefault(f.path[0], {}).update(dict.fromkeys(f.games, value))
        elif len(f.path) == 2:
            scale.setdefault(f.path[0], {})[f.path[1]] = value
        else:
            scale[f.path[0]] = value
    level = form.sc_tout_level.data
    if level in ("schwarz", "plain"):
        scale["tout_level"] = level
    if form.sc_written.data in ("yes", "no"):
        scale["written"] = form.sc_written.data == "yes"
    return {"kind": "points", "preset": chosen, **({"scale": scale} if scale else {})}


def scale_aliases() -> dict[str, str]:
    """The API's error fields of the scale → the page's fields."""
    out = {"scoring": "scoring", "scoring.kind": "scoring", "scoring.preset": "scoring",
           "scoring.scale": "scoring", "scoring.scale.tout_level": "sc_tout_level",
           "scoring.scale.written": "sc_written"}  # fmt: skip
    for f in figures():
        if f.games:
            out["scoring.scale." + f.path[0]] = f.name
            out.update({f"scoring.scale.{f.path[0]}.{g}": f.name for g in f.games})
        else:
            out["scoring.scale." + ".".join(f.path)] = f.name
    return out
