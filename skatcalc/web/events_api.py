"""JSON API for club nights and Preisskat (docs/api.md, "Events")."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from skatcalc.rules.common import Errors, Msg, clean_name
from skatcalc.rules.double_entry import difference_msg
from skatcalc.rules.events import Seating, normalize_event, read_payout, read_teams
from skatcalc.rules.inputs import Reader
from skatcalc.services import event_close, events
from skatcalc.services import players as people
from skatcalc.services import sheets as service
from skatcalc.services.events import Event
from skatcalc.text import _, translate
from skatcalc.web.api import (
    BadBody,
    body,
    error,
    json_object_or_nothing,
    json_route,
    pop_group_token,
    require_group_right,
)
from skatcalc.web.event_actor import name_actor
from skatcalc.web.http import can_edit, can_edit_event
from skatcalc.web.i18n import api_lang
from skatcalc.web.request_state import mark_private

bp = Blueprint("events_api", __name__, url_prefix="/api/v1/events")


def _editable(event_id: int) -> Event:
    event = events.get_event(service.get_db(), event_id)
    if not can_edit_event(event):
        raise BadBody(
            error(
                403, "_", _("Ändern nur mit dem Bearbeitungs-Link dieser Veranstaltung.")
            )  # fmt: skip
        )
    name_actor(event)  # the event's history says with which right
    return event


@bp.post("")
@json_route
def create() -> ResponseReturnValue:
    data = body()
    token = pop_group_token(data)
    spec = normalize_event(data, events.today())
    db = service.get_db()
    if spec.group is not None:
        require_group_right(db, people.check_group(db, spec.group, spec.game), token)
    event = events.create_event(db, spec)
    out = events.event_json(db, event.id)
    out["edit_token"] = event.edit_token
    mark_private()
    return jsonify(out), 201


@bp.get("")
@json_route
def index() -> ResponseReturnValue:
    db = service.get_db()
    return jsonify(
        {
            "events": [
                {"id": e.id, "name": e.name, "date": e.day, "game": e.game,
                 "players": e.player_count, "series": e.series_count,
                 "closed": e.closed}
                for e in events.list_events(db)
            ]
        }
    )  # fmt: skip


@bp.get("/<int:event_id>")
@json_route
def show(event_id: int) -> ResponseReturnValue:
    return jsonify(events.event_json(service.get_db(), event_id))


@bp.post("/<int:event_id>/players")
@json_route
def register(event_id: int) -> ResponseReturnValue:
    _editable(event_id)
    r = Reader(body())
    e = r.errors
    raw = r.data.get("names")
    r.seen.add("names")
    r.reject_unknown()
    # a name, or {"name": "…", "category": "Damen", "member_no": "…", "club": "…"}
    categories: dict[str, str] = {}
    members: dict[str, tuple[str | None, str | None]] = {}
    paid: set[str] = set()
    if isinstance(raw, list):
        plain: list[object] = []
        for item in raw:
            if isinstance(item, dict) and set(item) <= {"name", "category", "member_no", "club",
                                                        "paid"}:  # fmt: skip
                plain.append(item.get("name"))
                cat = item.get("category")
                if cat is not None and not isinstance(cat, str):
                    e.add("names", "Die Kategorie ist Text.")
                elif isinstance(cat, str) and isinstance(item.get("name"), str):
                    categories[" ".join(item["name"].split())] = cat
                if item.get("paid") is not None and not isinstance(item.get("paid"), bool):
                    e.add("names.paid", "Erwartet: wahr oder falsch.")
                elif item.get("paid") and isinstance(item.get("name"), str):
                    paid.add(clean_name(item["name"]))
                if isinstance(item.get("name"), str):
                    member = events.read_member(item, e)
                    if member != (None, None):
                        members[clean_name(item["name"])] = member
            else:
                plain.append(item)
        raw = plain
    names = events.check_names(raw, e)
    e.raise_if_any()
    db = service.get_db()
    events.register(db, event_id, names, categories, members, paid)
    return jsonify(events.event_json(db, event_id))


@bp.post("/<int:event_id>/players/category")
@json_route
def category(event_id: int) -> ResponseReturnValue:
    """A registration's category: {"player": "Anna", "category": "Damen"} (null: none)."""
    _editable(event_id)
    r = Reader(body())
    raw_name = r.data.get("player")
    raw_cat = r.data.get("category")
    r.seen.update({"player", "category"})
    if not isinstance(raw_name, str):
        r.errors.add("player", "Bitte einen angemeldeten Namen.")
    if raw_cat is not None and not isinstance(raw_cat, str):
        r.errors.add("category", "Die Kategorie ist Text.")
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        events.set_category(db, event_id, str(raw_name), raw_cat)
    except events.NotFound:
        raise BadBody(error(422, "player", _("Bitte einen angemeldeten Namen."))) from None
    return jsonify(events.event_json(db, event_id))


@bp.post("/<int:event_id>/teams")
@json_route
def teams(event_id: int) -> ResponseReturnValue:
    """The teams: {"teams": [{"name": "…", "members": ["…", "…"]}]}, replacing those before."""
    _editable(event_id)
    r = Reader(body())
    raw = r.data.get("teams")
    r.seen.add("teams")
    r.reject_unknown()
    if not isinstance(raw, list):
        r.errors.add(
            "teams", 'Mannschaften: eine Liste wie [{"name": "…", "members": ["…", "…"]}].'
        )
    found = read_teams(raw, r.errors) if isinstance(raw, list) else ()
    r.errors.raise_if_any()
    db = service.get_db()
    events.set_teams(db, event_id, found)
    return jsonify(events.event_json(db, event_id))


@bp.post("/<int:event_id>/series")
@json_route
def series(event_id: int) -> ResponseReturnValue:
    _editable(event_id)
    r = Reader(body())
    seating = r.choice(
        "seating", {"draw": Seating.DRAW, "ranking": Seating.RANKING, "final": Seating.FINAL}
    )
    seed = r.integer("seed")
    if seed is not None and not 0 <= seed <= 2**31:
        r.errors.add("seed", "Startwert: 0 bis 2147483648.")
    n = r.integer("n")
    if n is not None and n < 1:
        r.errors.add("n", "Die Serie ist eine Nummer ab 1.")
    force = r.data.get("force", False)
    r.seen.add("force")
    if not isinstance(force, bool):
        r.errors.add("force", "„force“ ist true oder false.")
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        seated = events.start_series(db, event_id, seating, seed, n, force)
    except events.SeriesTaken as taken:
        msg = _("Serie %(n)s ist schon gesetzt. Nichts geändert.", n=taken.n)
        return jsonify({"errors": {"n": [msg]}, "event": events.event_json(db, event_id)}), 409
    except events.Unfinished as unfinished:
        msg = unfinished_message(unfinished)
        msg += " " + _("Trotzdem setzen: mit „force“: true.")
        return jsonify({"errors": {"_": [msg]}, "event": events.event_json(db, event_id)}), 409
    return jsonify(events.series_json(db, event_id, seated)), 201


def unfinished_message(unfinished: events.Unfinished) -> str:
    """ "Serie 1 ist noch nicht fertig: Tisch 2 (30 von 48 Spielen), …" (API and page)."""
    tables = ", ".join(
        _("Tisch %(t)s (%(played)s von %(planned)s Spielen)", t=t, played=p, planned=planned)
        for t, p, planned in unfinished.tables
    )
    return _("Serie %(n)s ist noch nicht fertig: %(tables)s.", n=unfinished.n, tables=tables)


@bp.post("/<int:event_id>/series/<int:n>/lengthen")
@json_route
def lengthen(event_id: int, n: int) -> ResponseReturnValue:
    """Lengthen series ``n``: its deals per table size, e.g. {"deals": {"4": 52}}."""
    _editable(event_id)
    r = Reader(body())
    raw = r.data.get("deals")
    r.seen.add("deals")
    r.reject_unknown()
    deals = read_series_deals(raw, r.errors)
    r.errors.raise_if_any()
    db = service.get_db()
    events.lengthen_series(db, event_id, n, deals)
    return jsonify(events.event_json(db, event_id))


def read_series_deals(raw: object, e: Errors) -> dict[int, int]:
    """{"4": 52, "3": 39} → {4: 52, 3: 39}; anything else is a message on ``deals``."""
    out: dict[int, int] = {}
    if not isinstance(raw, dict):
        e.add("deals", 'Erwartet: Spiele je Tischgröße, z. B. {"4": 52}.')
        return out
    for k, v in raw.items():
        if k not in ("3", "4", "5") or isinstance(v, bool) or not isinstance(v, int):
            e.add("deals", 'Erwartet: Spiele je Tischgröße, z. B. {"4": 52}.')
            return {}
        out[int(k)] = v
    return out


@bp.get("/<int:event_id>/ranking")
@json_route
def ranking(event_id: int) -> ResponseReturnValue:
    db = service.get_db()
    event = events.get_event(db, event_id)
    out = events.ranking_json(events.ranking_rows(db, event))
    if event.double_entry:  # deals on one list only or differing: not counted yet
        out["pending_deals"] = events.pending_deals(db, event)
    return jsonify(out)


@bp.get("/<int:event_id>/prizes")
@json_route
def prizes(event_id: int) -> ResponseReturnValue:
    db = service.get_db()
    event = events.get_event(db, event_id)
    return jsonify(events.prizes_json(db, event, events.ranking_rows(db, event)))


@bp.get("/<int:event_id>/fees")
@json_route
def fees(event_id: int) -> ResponseReturnValue:
    """Per player what is due, item by item (0: entry fee), what was ticked as paid, and the
    cash check: collected against due."""
    db = service.get_db()
    event = events.get_event(db, event_id)
    rows = events.ranking_rows(db, event)
    return jsonify({"fees": events.fees_json(event),
                    **events.cash_json(events.cash_of(db, event, rows))})  # fmt: skip


@bp.post("/<int:event_id>/fees/paid")
@json_route
def paid(event_id: int) -> ResponseReturnValue:
    """The organiser's tick: {"player": "Anna", "series": 1, "paid": true}; series 0 is the
    entry fee. Allowed on a closed event too: the money is counted after the last deal."""
    _editable(event_id)
    r = Reader(body())
    raw_name = r.data.get("player")
    r.seen.add("player")
    if not isinstance(raw_name, str):
        r.errors.add("player", "Bitte einen angemeldeten Namen.")
    series = r.integer("series")
    if series is None or series < 0:
        r.errors.add("series", "Die Serie ist eine Nummer ab 1 (0: das Startgeld).")
    is_paid = r.boolean("paid", True)
    r.reject_unknown()
    r.errors.raise_if_any()
    db = service.get_db()
    try:
        events.set_paid(db, event_id, str(raw_name), int(series or 0), bool(is_paid))
    except events.NotFound:
        raise BadBody(error(422, "player", _("Bitte einen angemeldeten Namen."))) from None
    event = events.get_event(db, event_id)
    rows = events.ranking_rows(db, event)
    return jsonify(events.cash_json(events.cash_of(db, event, rows)))


@bp.post("/<int:event_id>/close")
@json_route
def close(event_id: int) -> ResponseReturnValue:
    """Close the event, optionally setting the payout scheme and the pot first; refused (409)
    while a double-entry table is open unless ``"force": true``, and on a closed event with
    another payout or pot."""
    event = _editable(event_id)
    r = Reader(body())
    e = r.errors
    raw_payout = r.data.get("payout")
    r.seen.add("payout")
    payout = read_payout(raw_payout, e) if raw_payout is not None else events.payout_of(event)
    # "pot_cents": null goes back to the fees collected; left out keeps what was set
    pot = r.integer("pot_cents") if "pot_cents" in r.data else event.pot_cents
    if pot is not None and not 0 <= pot <= 100_000_000:
        e.add("pot_cents", "Topf: 0 bis 1000000 €.")
    force = r.data.get("force", False)
    r.seen.add("force")
    if not isinstance(force, bool):
        e.add("force", "„force“ ist true oder false.")
    r.reject_unknown()
    e.raise_if_any()
    db = service.get_db()
    try:
        event_close.close(db, event_id, payout, pot, bool(force))
    except event_close.OpenLists as still_open:
        return refused_close(db, event_id, open_lists_messages(still_open.tables))
    except event_close.Refused as refusal:
        return refused_close(db, event_id, [translate(refusal.msg, api_lang())])
    event = events.get_event(db, event_id)
    return jsonify(events.prizes_json(db, event, events.ranking_rows(db, event)))


def open_lists_messages(tables: tuple[event_close.OpenTable, ...]) -> list[str]:
    """One line per open table, then how to close anyway."""
    lang = api_lang()
    return [translate(t.msg(), lang) for t in tables] + [
        translate("Trotzdem abschließen: mit „force“: true.", lang)
    ]


def refused_close(db: Database, event_id: int, messages: list[str]) -> ResponseReturnValue:
    return jsonify({"errors": {"_": messages}, "event": events.event_json(db, event_id)}), 409


@bp.post("/<int:event_id>/reopen")
@json_route
def reopen(event_id: int) -> ResponseReturnValue:
    """Reopen a closed event: its tables' sheets take writes again; in the history."""
    _editable(event_id)
    json_object_or_nothing()
    db = service.get_db()
    event_close.reopen(db, event_id)
    return jsonify(events.event_json(db, event_id))


# --- Double entry and sign-off ------------------------------------------------------------------


def may_sign(event: Event, t: events.EventTable) -> bool:
    """The table's own links (list A or B) or the organiser's."""
    if can_edit_event(event) or can_edit(t.sheet_row):
        return True
    entry = t.double_entry
    return entry is not None and can_edit(entry.sheet_b)


def table_json(event: Event, t: events.EventTable, lang: str) -> dict[str, Any]:
    out = {"series": t.series, "table": t.table, "players": list(t.players),
           "sheet": t.sheet, "deals": t.planned, "played": t.played,
           "left": t.left, **events.sign_off_json(t)}  # fmt: skip
    foot = events.foot_json(t)
    if foot is not None:
        out["paper"] = True
        out["foot"] = foot
    entry = t.double_entry
    if entry is not None:
        out["list_b"]["messages"] = [
            translate(difference_msg(d), lang) for d in entry.comparison.differences
        ]
    return out


def refused(db: Database, event_id: int, n: int, table: int, msg: Msg) -> ResponseReturnValue:
    event = events.get_event(db, event_id)
    t = events.find_table(db, event, n, table)
    return jsonify({"errors": {"_": [translate(msg, api_lang())]},
                    "table": table_json(event, t, api_lang())}), 409  # fmt: skip


@bp.get("/<int:event_id>/series/<int:n>/tables/<int:table>")
@json_route
def table_state(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """One table of a series: its progress, double entry (list B, differences) and sign-off."""
    db = service.get_db()
    event = events.get_event(db, event_id)
    return jsonify(table_json(event, events.find_table(db, event, n, table), api_lang()))


@bp.post("/<int:event_id>/series/<int:n>/tables/<int:table>/confirm")
@json_route
def confirm(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """A player confirms the table's list ({"player": name}) or the captain for all
    ({"captain": true}); with the table's edit link (A or B) or the organiser's."""
    db = service.get_db()
    event = events.get_event(db, event_id)
    t = events.find_table(db, event, n, table)
    if not may_sign(event, t):
        raise BadBody(error(403, "_", _("Bestätigen nur mit dem Link dieses Tisches.")))
    r = Reader(body())
    player = r.data.get("player")
    r.seen.add("player")
    captain = bool(r.boolean("captain"))
    if player is not None and not isinstance(player, str):
        r.errors.add("player", "Der Name ist Text.")
    if not captain and not player:
        r.errors.add("player", 'Wer bestätigt? {"player": Name} oder {"captain": true}.')
    r.reject_unknown()
    r.errors.raise_if_any()
    try:
        t = events.confirm_table(db, event_id, n, table, player, captain)
    except events.SignOffRefused as exc:
        return refused(db, event_id, n, table, exc.msg)
    return jsonify(table_json(event, t, api_lang()))


@bp.post("/<int:event_id>/series/<int:n>/tables/<int:table>/unlock")
@json_route
def unlock(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """The organiser unlocks a confirmed table: its lists take writes again."""
    event = _editable(event_id)
    json_object_or_nothing()
    db = service.get_db()
    try:
        t = events.unlock_table(db, event_id, n, table)
    except events.SignOffRefused as exc:
        return refused(db, event_id, n, table, exc.msg)
    return jsonify(table_json(event, t, api_lang()))


# --- Paper lists typed at the desk, penalty points ----------------------------------------------


@bp.put("/<int:event_id>/series/<int:n>/tables/<int:table>/foot")
@json_route
def foot(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """The desk types (or corrects) a paper list's foot: docs/rules.md 1.12."""
    event = _editable(event_id)
    data = body()
    db = service.get_db()
    try:
        t = events.set_foot(db, event_id, n, table, data)
    except events.FootRefused as exc:
        return refused(db, event_id, n, table, exc.msg)
    return jsonify(table_json(event, t, api_lang()))


@bp.get("/<int:event_id>/penalties")
@json_route
def penalties(event_id: int) -> ResponseReturnValue:
    db = service.get_db()
    events.get_event(db, event_id)
    return jsonify({"penalties": [events.penalty_json(p) for p in events.penalties(db, event_id)]})


@bp.post("/<int:event_id>/penalties")
@json_route
def add_penalty(event_id: int) -> ResponseReturnValue:
    _editable(event_id)
    db = service.get_db()
    try:
        given = events.add_penalty(db, event_id, body())
    except events.FootRefused as exc:
        return error(409, "_", translate(exc.msg, api_lang()))
    return jsonify(events.penalty_json(given)), 201


@bp.delete("/<int:event_id>/penalties/<int:penalty_id>")
@json_route
def delete_penalty(event_id: int, penalty_id: int) -> ResponseReturnValue:
    _editable(event_id)
    json_object_or_nothing()
    db = service.get_db()
    try:
        events.delete_penalty(db, event_id, penalty_id)
    except events.FootRefused as exc:
        return error(409, "_", translate(exc.msg, api_lang()))
    return jsonify({"penalties": [events.penalty_json(p) for p in events.penalties(db, event_id)]})
