"""JSON API for club nights and Preisskat (docs/api.md, "Events")."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, jsonify

from . import event_service as events
from . import players as people
from . import service
from .api import BadBody, body, error, json_route, pop_group_token, require_group_right
from .http import holds_token
from .i18n import _
from .rules.events import Seating, normalize_event, read_payout
from .rules.inputs import Reader

bp = Blueprint("events_api", __name__, url_prefix="/api/v1/events")


def can_edit_event(event: dict[str, Any]) -> bool:
    return holds_token(f"event_{event['id']}", event["edit_token"])


def _editable(event_id: int) -> dict[str, Any]:
    event = events.get_event(service.get_db(), event_id)
    if not can_edit_event(event):
        raise BadBody(
            error(
                403, "_", _("Ändern nur mit dem Bearbeitungs-Link dieser Veranstaltung.")
            )  # fmt: skip
        )
    return event


@bp.post("")
@json_route
def create() -> Any:
    data = body()
    token = pop_group_token(data)
    spec = normalize_event(data, events.today())
    db = service.get_db()
    if spec.group is not None:
        require_group_right(db, people.check_group(db, spec.group, spec.game), token)
    event = events.create_event(db, spec)
    out = events.event_json(db, event["id"])
    out["edit_token"] = event["edit_token"]
    g.carries_edit_link = True  # private, no-store
    return jsonify(out), 201


@bp.get("")
@json_route
def index() -> Any:
    db = service.get_db()
    return jsonify(
        {
            "events": [
                {"id": e["id"], "name": e["name"], "date": e["day"], "game": e["game"],
                 "players": e["player_count"], "series": e["series_count"],
                 "closed": e["closed"]}
                for e in events.list_events(db)
            ]
        }
    )  # fmt: skip


@bp.get("/<int:event_id>")
@json_route
def show(event_id: int) -> Any:
    return jsonify(events.event_json(service.get_db(), event_id))


@bp.post("/<int:event_id>/players")
@json_route
def register(event_id: int) -> Any:
    _editable(event_id)
    r = Reader(body())
    e = r.errors
    raw = r.data.get("names")
    r.seen.add("names")
    r.reject_unknown()
    names = events.check_names(raw, e)
    e.raise_if_any()
    db = service.get_db()
    events.register(db, event_id, names)
    return jsonify(events.event_json(db, event_id))


@bp.post("/<int:event_id>/series")
@json_route
def series(event_id: int) -> Any:
    _editable(event_id)
    r = Reader(body())
    seating = r.choice("seating", {"draw": Seating.DRAW, "ranking": Seating.RANKING})
    seed = r.integer("seed")
    if seed is not None and not 0 <= seed <= 2**31:
        r.errors.add("seed", "Startwert: 0 bis 2147483648.")
    n = r.integer("n")
    if n is not None and n < 1:
        r.errors.add("n", "Die Serie ist eine Nummer ab 1.")
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        return jsonify(events.start_series(db, event_id, seating, seed, n)), 201
    except events.SeriesTaken as taken:
        msg = _("Serie %(n)s ist schon gesetzt. Nichts geändert.", n=taken.n)
        return jsonify({"errors": {"n": [msg]}, "event": events.event_json(db, event_id)}), 409


@bp.get("/<int:event_id>/ranking")
@json_route
def ranking(event_id: int) -> Any:
    db = service.get_db()
    event = events.get_event(db, event_id)
    return jsonify(events.ranking_json(events.ranking_rows(db, event)))


@bp.get("/<int:event_id>/prizes")
@json_route
def prizes(event_id: int) -> Any:
    db = service.get_db()
    event = events.get_event(db, event_id)
    return jsonify(events.prizes_json(event, events.ranking_rows(db, event)))


@bp.post("/<int:event_id>/close")
@json_route
def close(event_id: int) -> Any:
    """Close the event, optionally setting the payout scheme and the pot first."""
    event = _editable(event_id)
    r = Reader(body())
    e = r.errors
    raw_payout = r.data.get("payout")
    r.seen.add("payout")
    payout = read_payout(raw_payout, e) if raw_payout is not None else events.payout_of(event)
    # "pot_cents": null goes back to the fees collected; left out keeps what was set
    pot = r.integer("pot_cents") if "pot_cents" in r.data else event["pot_cents"]
    if pot is not None and not 0 <= pot <= 100_000_000:
        e.add("pot_cents", "Topf: 0 bis 1000000 €.")
    r.reject_unknown()
    e.raise_if_any()
    db = service.get_db()
    events.set_money(db, event_id, payout, pot)
    events.set_closed(db, event_id, True)
    event = events.get_event(db, event_id)
    return jsonify(events.prizes_json(event, events.ranking_rows(db, event)))
