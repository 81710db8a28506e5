"""A tournament in points on the new-event page (docs/rules.md 2.8): the scales by name, each
with its source, and every figure of the chosen one editable.

A figure left empty keeps the preset's (the page shows it as the field's placeholder), so a
preset picked without JavaScript counts exactly as its source writes; a figure typed overrides
it, as ``"scale"`` does in the API. The page reads nothing but the game's presets
(``GameKind.point_preset``): no figure is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wtforms import RadioField, SelectField, StringField
from wtforms.validators import Optional

from skatcalc.games.form_fields import parse_int
from skatcalc.rules.sheet import game as game_kind
from skatcalc.text import _

GAME = "schafkopf"  # the one game with a tournament scale (GameKind.has_point_scale)
MONEY = "money"

#: the games whose Laufende count from the same number on the page's first "ab" field, and
#: those (Wenz, Geier) on its second
_LAUF_FROM = ("sauspiel", "hochzeit", "solo", "farbwenz", "farbgeier")
_LAUF_FROM_WENZ = ("wenz", "geier")


@dataclass(frozen=True)
class Figure:
    """One figure of the scale on the page: its field, its place in the scale's JSON."""

    name: str
    path: tuple[str, ...]
    low: int
    high: int


FIGURES = (
    Figure("sc_ruf_plain", ("rufspiel", "plain"), 0, 1000),
    Figure("sc_ruf_schneider", ("rufspiel", "schneider"), 0, 1000),
    Figure("sc_ruf_schwarz", ("rufspiel", "schwarz"), 0, 1000),
    Figure("sc_solo_plain", ("solo", "plain"), 0, 1000),
    Figure("sc_solo_schneider", ("solo", "schneider"), 0, 1000),
    Figure("sc_solo_schwarz", ("solo", "schwarz"), 0, 1000),
    Figure("sc_bettel", ("bettel",), 0, 1000),
    Figure("sc_herz_solo", ("herz_solo",), 0, 1000),
    Figure("sc_lauf_ruf", ("laufender_rufspiel",), 0, 1000),
    Figure("sc_lauf_solo", ("laufender_solo",), 0, 1000),
    Figure("sc_lauf_from", ("laufende_min", _LAUF_FROM[0]), 1, 14),
    Figure("sc_lauf_from_wenz", ("laufende_min", _LAUF_FROM_WENZ[0]), 1, 4),
    Figure("sc_lauf_max", ("laufende_max",), 0, 14),
    Figure("sc_tout", ("tout",), 1, 10),
    Figure("sc_sie", ("sie",), 1, 10),
    Figure("sc_kontra", ("kontra",), 1, 10),
)
#: a figure where 0 on the page means "none" (null in the API)
_ZERO_IS_NONE = frozenset({"sc_herz_solo", "sc_lauf_max"})


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
    return game_kind(GAME).point_presets


def preset_label(name: str) -> str:
    """The preset's name and its source, as the page offers it."""
    return {
        "default": _("Plus/Minus, Solo 6/9/12, Tout 24 (Grossreuth, Münchsmünster, "
                     "Vohenstrauß)"),
        "self": _("SELF (Schafkopfturnier 2022): Solo 15/18/21, Tout 42, Sie 84, kein Kontra"),
        "donauries": _("Donauries-Schafkopfcup (Turnierregeln 2019/2020): wie SELF, Tout 30, "
                       "Sie 60, keine Laufenden"),
        "nur-gute": _("Nur Gute schreiben (TSG Niederfüllbach): Rufspiel 5/10/15, Solo 20, "
                      "Herz-Solo 30, Laufende ab 2"),
    }.get(name, name)  # fmt: skip


def _at(scale: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = scale
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def page_figures() -> dict[str, dict[str, str]]:
    """Every preset's figures by field, as the page shows them (placeholders): 0 for none."""
    out: dict[str, dict[str, str]] = {}
    for name in presets():
        scale = game_kind(GAME).point_preset(name)
        shown = {f.name: str(_at(scale, f.path) or 0) for f in FIGURES}
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
    for f in FIGURES:
        raw = (getattr(form, f.name).data or "").strip()
        if not raw:
            continue
        v = parse_int(raw)
        if v is None or not f.low <= v <= f.high:
            errors.append((f.name, _("Ganze Zahl von %(low)s bis %(high)s.", low=f.low,
                                     high=f.high)))  # fmt: skip
            continue
        value: int | None = None if v == 0 and f.name in _ZERO_IS_NONE else v
        if f.path[0] == "laufende_min":
            games_of = _LAUF_FROM if f.name == "sc_lauf_from" else _LAUF_FROM_WENZ
            scale.setdefault("laufende_min", {}).update(dict.fromkeys(games_of, value))
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
           "scoring.scale.written": "sc_written",
           "scoring.scale.laufende_min": "sc_lauf_from"}  # fmt: skip
    for f in FIGURES:
        if f.path[0] != "laufende_min":
            out["scoring.scale." + ".".join(f.path)] = f.name
    for g in _LAUF_FROM:
        out[f"scoring.scale.laufende_min.{g}"] = "sc_lauf_from"
    for g in _LAUF_FROM_WENZ:
        out[f"scoring.scale.laufende_min.{g}"] = "sc_lauf_from_wenz"
    return out
