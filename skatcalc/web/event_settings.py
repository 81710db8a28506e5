"""An event's money and prize settings: the new-event page's fields and the API body's part
they stand for, one mapping in both directions (``settings_body``, ``settings_fields``).

The page's fields are text as a browser posts them; the body is what
``POST /api/v1/events`` takes (``fees``, ``payout``, ``pot_cents``, the prize plan,
``double_entry``). The rules check the body (``rules.events.normalize_event``); the page's
errors come back to its fields through ``FIELD_OF_KEY``. A field left empty is left out of the
body, and a body's default (0 €, no prizes) is an empty field, so page → body → page and
body → page → body give back what they started from (tests/web/test_event_settings.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, StringField, TextAreaField
from wtforms.validators import Optional

from skatcalc.games.form_fields import parse_int
from skatcalc.text import _

#: the fee fields and their keys in ``fees``
MONEY_FIELDS = (("entry", "entry_cents"), ("table_fee", "table_cents"), ("team_fee", "team_cents"))
#: the lost-game tiers after the first (which starts at the 1st lost game: ``lost_fee``)
TIER_FIELDS = (("tier_from", "tier_fee"), ("tier3_from", "tier3_fee"), ("tier4_from", "tier4_fee"))
#: each payout of the prize plan: its body key and its fields' prefix
PAYOUTS = (("payout", "payout"), ("series_prizes", "series"), ("category_prizes", "category"),
           ("team_payout", "team"))  # fmt: skip


def values_field(prefix: str) -> str:
    """The field of a payout's values: ``payout`` for the overall prizes (as the close page
    has it), ``series_values`` … for the others."""
    return "payout" if prefix == "payout" else f"{prefix}_values"


#: every text field of the mapping (``double_entry`` is a checkbox: "y" or "")
FIELDS = (
    "entry", "lost_fee", *[f for pair in TIER_FIELDS for f in pair], "table_fee", "team_fee",
    *[values_field(p) for _k, p in PAYOUTS],
    *[f"{p}{s}" for _k, p in PAYOUTS for s in ("_kind", "_places", "_per")],
    "categories", "teams", "pot", "double_entry",
)  # fmt: skip


def _field_of_key() -> dict[str, str]:
    out = {f"fees.{key}": name for name, key in MONEY_FIELDS}
    out |= {"fees.lost_game_cents": "lost_fee", "fees.lost_game_tiers": "tier_from",
            "fees": "entry", "pot_cents": "pot", "categories": "categories", "teams": "teams",
            "double_entry": "double_entry"}  # fmt: skip
    for key, prefix in PAYOUTS:
        out |= {key: values_field(prefix), f"{key}.values": values_field(prefix),
                f"{key}.kind": f"{prefix}_kind", f"{key}.places": f"{prefix}_places",
                f"{key}.per_players": f"{prefix}_per"}  # fmt: skip
    return out


#: the body's keys the mapping fills
BODY_KEYS = frozenset({"fees", "pot_cents", "categories", "teams", "double_entry",
                       *[key for key, _p in PAYOUTS]})  # fmt: skip

#: an error's key in the API body → the page's field that shows it
FIELD_OF_KEY = _field_of_key()


def field_of(key: str) -> str:
    """The page's field for an error on ``key`` (``teams.2.members`` → ``teams``)."""
    if key in FIELD_OF_KEY:
        return FIELD_OF_KEY[key]
    head = key.split(".")[0]
    return FIELD_OF_KEY.get(head, key)


# --- Money as typed ---------------------------------------------------------------------------


def parse_euros(text: str | None) -> int | None:
    """ "10", "10,50", "10.5", "2 €" → cents; "" → 0; anything else → None."""
    raw = (text or "").replace("€", "").strip()
    if not raw:
        return 0
    m = re.fullmatch(r"([0-9]{1,7})(?:[.,]([0-9]{1,2}))?", raw)
    if not m:
        return None
    return int(m.group(1)) * 100 + int((m.group(2) or "0").ljust(2, "0"))


def euros(cents: int, lang: str) -> str:
    """Cents as the form shows them again: "10", "10,50" (German) or "10.50"."""
    whole, rest = divmod(cents, 100)
    if not rest:
        return str(whole)
    return f"{whole}{',' if lang == 'de' else '.'}{rest:02d}"


def parse_values(kind: str, text: str) -> list[int | str] | None:
    """A payout's values as typed, separated by "/": numbers (percent for shares, euros for
    fixed amounts) or the name of a goods prize ("50 / 30 / Gans"); None: not readable."""
    values: list[int | str] = []
    for part in re.split(r"[/;]", text or ""):
        words = part.replace("€", " ").replace("%", " ").split()
        if not words:
            continue
        nums = [parse_int(w) if kind == "shares" else parse_euros(w) for w in words]
        if all(n is not None for n in nums):
            values += [n for n in nums if n is not None]  # "50 30 20" reads as three
        elif any(ch.isalpha() for ch in part):
            values.append(" ".join(part.split()))  # a goods prize
        else:
            return None
    return values


def values_text(kind: str, values: Sequence[int | str], lang: str) -> str:
    return " / ".join(
        v if isinstance(v, str) else str(v) if kind == "shares" else euros(int(v), lang)
        for v in values
    )


class TeamBody(TypedDict):
    """A team as the API's body names it."""

    name: str
    members: list[str]


def teams_body(text: str) -> list[TeamBody]:
    """Teams as typed, one a line: "Name: Anna, Bernd" (the new-event and players pages)."""
    teams: list[TeamBody] = []
    for line in text.splitlines():
        if line.strip():
            name, _sep, members = line.partition(":")
            teams.append({"name": " ".join(name.split()),
                          "members": [" ".join(m.split()) for m in re.split(r"[,;]", members)
                                      if m.strip()]})  # fmt: skip
    return teams


def teams_text(teams: Sequence[TeamBody]) -> str:
    return "\n".join(f"{t['name']}: {', '.join(t['members'])}" for t in teams)


# --- Page → body ------------------------------------------------------------------------------


def settings_body(
    form: Mapping[str, str], lang: str
) -> tuple[dict[str, object], list[tuple[str, str]]]:
    """The API body's part for the page's fields, and the errors the page finds before the
    rules see the body (text that is no amount, no number). Empty fields are left out."""
    errors: list[tuple[str, str]] = []
    body: dict[str, object] = {}
    fees: dict[str, object] = {}

    def cents(name: str) -> int | None:
        v = parse_euros(form.get(name, ""))
        if v is None:
            errors.append((name, _("Bitte einen Betrag in Euro, z. B. 10 oder 0,50.")))
        return v

    for name, key in MONEY_FIELDS:
        v = cents(name)
        if v:
            fees[key] = v
    first = cents("lost_fee")
    tiers: list[dict[str, int]] = []
    for from_name, fee_name in TIER_FIELDS:
        raw_from = (form.get(from_name) or "").strip()
        fee = cents(fee_name)
        if not raw_from:
            if fee:
                errors.append((from_name, _("Ab welchem verlorenen Spiel gilt dieser Betrag?")))
            continue
        start = parse_int(raw_from)
        if start is None or start < 2:
            errors.append((from_name, _("Eine weitere Stufe beginnt ab dem 2. verlorenen Spiel oder später.")))  # fmt: skip
        elif fee is not None:
            tiers.append({"from": start, "cents": fee})
    if tiers:
        fees["lost_game_tiers"] = [{"from": 1, "cents": first or 0}, *tiers]
    elif first:
        fees["lost_game_cents"] = first
    if fees:
        body["fees"] = fees
    for key, prefix in PAYOUTS:
        payout = _payout_body(form, prefix, errors)
        if payout is not None:
            body[key] = payout
    cats = [" ".join(c.split()) for c in re.split(r"[,;\n]", form.get("categories") or "")]
    if any(cats):
        body["categories"] = [c for c in cats if c]
    teams = teams_body(form.get("teams") or "")
    if teams:
        body["teams"] = teams
    raw_pot = (form.get("pot") or "").strip()
    if raw_pot:
        pot = cents("pot")
        if pot is not None:
            body["pot_cents"] = pot
    if form.get("double_entry"):
        body["double_entry"] = True
    return body, errors


def _payout_body(
    form: Mapping[str, str], prefix: str, errors: list[tuple[str, str]]
) -> dict[str, object] | None:
    text = form.get(values_field(prefix)) or ""
    kind = form.get(f"{prefix}_kind") or "shares"
    kind = kind if kind in ("fixed", "shares") else "shares"
    values = parse_values(kind, text)
    if values is None:
        errors.append((values_field(prefix), _("Bitte die Preise als Zahlen oder Sachpreise, getrennt durch „/“.")))  # fmt: skip
        return None
    out: dict[str, object] = {"kind": kind, "values": values}
    for suffix, key in (("_places", "places"), ("_per", "per_players")):
        raw = (form.get(prefix + suffix) or "").strip()
        if raw:
            v = parse_int(raw)
            if v is None:
                errors.append((prefix + suffix, _("Bitte eine ganze Zahl.")))
            else:
                out[key] = v
    if not values and len(out) == 2:
        return None  # nothing typed: no such prizes (the overall payout: the default)
    return out


# --- Body → page ------------------------------------------------------------------------------


def settings_fields(body: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The page's fields for the body's part (what the page shows again)."""
    out = dict.fromkeys(FIELDS, "")
    fees = body.get("fees") or {}
    for name, key in MONEY_FIELDS:
        if fees.get(key):
            out[name] = euros(fees[key], lang)
    tiers = fees.get("lost_game_tiers") or []
    first = tiers[0]["cents"] if tiers else fees.get("lost_game_cents", 0)
    out["lost_fee"] = euros(first, lang) if first else ""
    for (from_name, fee_name), tier in zip(TIER_FIELDS, tiers[1:], strict=False):
        out[from_name] = str(tier["from"])
        out[fee_name] = euros(tier["cents"], lang) if tier["cents"] else ""
    for key, prefix in PAYOUTS:
        payout = body.get(key)
        out[f"{prefix}_kind"] = "shares"
        if payout:
            out[f"{prefix}_kind"] = payout["kind"]
            out[values_field(prefix)] = values_text(payout["kind"], payout["values"], lang)
            out[f"{prefix}_places"] = str(payout.get("places") or "")
            out[f"{prefix}_per"] = str(payout.get("per_players") or "")
    out["categories"] = ", ".join(body.get("categories") or [])
    out["teams"] = teams_text(body.get("teams") or [])
    if body.get("pot_cents") is not None:
        out["pot"] = euros(body["pot_cents"], lang)
    out["double_entry"] = "y" if body.get("double_entry") else ""
    return out


# --- The page's fields ------------------------------------------------------------------------


class EventSettingsFields:
    """The mapping's fields on the new-event form (``web/events.NewEventForm``), declared from
    ``FIELDS`` so the form and the mapping cannot drift apart."""


for _name in FIELDS:
    if _name.endswith("_kind"):
        setattr(EventSettingsFields, _name,
                RadioField(default="shares", validate_choice=False))  # fmt: skip
    elif _name == "double_entry":
        setattr(EventSettingsFields, _name, BooleanField(default=False))
    elif _name in ("teams",):
        setattr(EventSettingsFields, _name, TextAreaField(validators=[Optional()]))
    else:
        setattr(EventSettingsFields, _name, StringField(validators=[Optional()]))


def form_values(form: FlaskForm) -> dict[str, str]:
    """The mapping's fields of a posted form (with ``EventSettingsFields``) as text."""
    out = {n: str(form[n].data or "") for n in FIELDS}
    out["double_entry"] = "y" if form["double_entry"].data else ""
    return out


def fill_form(form: FlaskForm, values: Mapping[str, str]) -> None:
    for n in FIELDS:
        form[n].data = values.get(n, "") if n != "double_entry" else bool(values.get(n))


def kind_choices() -> list[tuple[str, str]]:
    return [("shares", _("Anteile am Topf (%)")), ("fixed", _("feste Beträge (€)"))]
