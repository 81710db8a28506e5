"""JSON API of the organiser's desk (docs/api.md, "Events"): swap two players, re-draw a
series, correct a registered name. Organiser only; a closed event or a started table: 409."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from skatcalc.rules.inputs import Reader
from skatcalc.services import event_desk as desk
from skatcalc.services import events
from skatcalc.services import sheets as service
from skatcalc.text import translate
from skatcalc.web.api import body, json_route
from skatcalc.web.events_api import _editable
from skatcalc.web.i18n import api_lang

bp = Blueprint("desk_api", __name__, url_prefix="/api/v1/events")


def locked(db: Database, event_id: int, exc: desk.Locked) -> ResponseReturnValue:
    text = translate(exc.msg, api_lang())
    return jsonify({"errors": {"_": [text]}, "event": events.event_json(db, event_id)}), 409


@bp.post("/<int:event_id>/series/<int:n>/swap")
@json_route
def swap(event_id: int, n: int) -> ResponseReturnValue:
    """{"a": name, "b": name} → the series with the two players' seats exchanged."""
    _editable(event_id)
    r = Reader(body())
    names = {}
    for field in ("a", "b"):
        raw = r.data.get(field)
        r.seen.add(field)
        if not isinstance(raw, str) or not raw.strip():
            r.errors.add(field, "Bitte einen Spieler der Serie nennen.")
        names[field] = raw if isinstance(raw, str) else ""
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        desk.swap(db, event_id, n, names["a"], names["b"])
    except desk.Locked as exc:
        return locked(db, event_id, exc)
    return jsonify(events.series_json(db, event_id, n))


@bp.post("/<int:event_id>/series/<int:n>/redraw")
@json_route
def redraw(event_id: int, n: int) -> ResponseReturnValue:
    """{} or {"seed": int} → the series drawn again."""
    _editable(event_id)
    r = Reader(body())
    seed = r.integer("seed")
    if seed is not None and not 0 <= seed <= 2**31:
        r.errors.add("seed", "Startwert: 0 bis 2147483648.")
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        desk.redraw(db, event_id, n, seed)
    except desk.Locked as exc:
        return locked(db, event_id, exc)
    return jsonify(events.series_json(db, event_id, n))


@bp.post("/<int:event_id>/players/rename")
@json_route
def rename(event_id: int) -> ResponseReturnValue:
    """{"from": registered name, "to": corrected name} → the event."""
    _editable(event_id)
    r = Reader(body())
    old = r.data.get("from")
    r.seen.add("from")
    if not isinstance(old, str) or not old.strip():
        r.errors.add("from", "Bitte den angemeldeten Namen.")
    new = desk.check_new_name(r.data.get("to"), r.errors)
    r.seen.add("to")
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        desk.correct_name(db, event_id, str(old), new)
    except desk.Locked as exc:
        return locked(db, event_id, exc)
    return jsonify(events.event_json(db, event_id))
