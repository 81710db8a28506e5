"""JSON API for players, groups and standings (docs/api.md, "Players, groups and standings")."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from skatcalc.rules.common import parse_day
from skatcalc.services import players, season
from skatcalc.services import sheets as service
from skatcalc.services.events import player_events, player_events_json
from skatcalc.text import _
from skatcalc.web.api import BadBody, body, error, json_route
from skatcalc.web.request_state import mark_private

bp = Blueprint("players_api", __name__, url_prefix="/api/v1")


@bp.get("/players")
@json_route
def list_players() -> ResponseReturnValue:
    return jsonify({"players": [asdict(p) for p in players.list_players(service.get_db())]})


@bp.get("/players/<int:player_id>")
@json_route
def get_player(player_id: int) -> ResponseReturnValue:
    db = service.get_db()
    stats = season.player_stats(db, player_id)
    events = player_events_json(player_events(db, stats.id))
    return jsonify({**season.player_stats_json(stats), "events": events})


@bp.post("/groups")
@json_route
def create_group() -> ResponseReturnValue:
    name, game, rules = players.normalize_group(body())
    group = players.create_group(service.get_db(), name, game, rules)
    out = season.group_json(group)
    out["edit_token"] = group.edit_token  # this once: the group's right (docs/api.md)
    mark_private()
    return jsonify(out), 201


@bp.get("/groups")
@json_route
def list_groups() -> ResponseReturnValue:
    groups = players.list_groups(service.get_db())
    return jsonify({"groups": [season.group_json(g) for g in groups]})


@bp.get("/groups/<int:group_id>")
@json_route
def get_group(group_id: int) -> ResponseReturnValue:
    return jsonify(season.group_json(players.get_group(service.get_db(), group_id)))


def period() -> tuple[date, date]:
    """``from``/``to`` of the query (YYYY-MM-DD), by default the current calendar year."""
    start, end = season.default_period()
    for key in ("from", "to"):
        raw = request.args.get(key)
        if raw is None or raw == "":
            continue
        try:
            day = parse_day(raw)
        except ValueError:
            raise BadBody(error(422, key, _("Ein Datum wie 2026-01-31, bitte."))) from None
        if key == "from":
            start = day
        else:
            end = day
    if start > end:
        raise BadBody(error(422, "to", _("„bis“ liegt vor „von“.")))
    return start, end


@bp.get("/groups/<int:group_id>/standings")
@json_route
def standings(group_id: int) -> ResponseReturnValue:
    db = service.get_db()
    group = players.get_group(db, group_id)
    start, end = period()
    found = season.group_standings(db, group, start, end)
    return jsonify(
        {
            "group": season.group_json(group),
            "from": start.isoformat(),
            "to": end.isoformat(),
            "rows": [season.row_json(r) for r in found.rows],
            "evenings": [season.evening_json(e) for e in found.evenings],
        }
    )
