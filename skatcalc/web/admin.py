"""The server's admin page (``/admin/<token>``): every right, and every lost link found again.

The link itself is printed by ``skatcalc serve`` at start and by ``skatcalc admin-link``;
opening it puts the admin token into this browser's cookie (rights.py)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from skatcalc.services import events as event_service
from skatcalc.services import players
from skatcalc.services import sheets as service
from skatcalc.text import _
from skatcalc.web import rights
from skatcalc.web.http import refuse
from skatcalc.web.rights import token_matches
from skatcalc.web.sheet_view import public_url

bp = Blueprint("admin", __name__, url_prefix="/admin")


def _page() -> Response:
    db = service.get_db()
    sheets = [
        {"name": s.name, "created": s.created, "game": s.game,
         "url": public_url("sheets.show", sheet_id=s.id),
         "edit_url": public_url("sheets.edit_link", sheet_id=s.id, token=s.edit_token),
         "share_url": public_url("sheets.share", sheet_id=s.id, token=s.share_token)}
        for s in service.list_sheets(db)
    ]  # fmt: skip
    events = [
        {"name": e.name, "day": e.day, "url": public_url("events.show", event_id=e.id),
         "edit_url": public_url("events.edit_link", event_id=e.id, token=e.edit_token)}
        for e in event_service.list_events(db)
    ]  # fmt: skip
    groups = [
        {"name": gr.name, "url": public_url("groups.show", group_id=gr.id),
         "edit_url": public_url("groups.edit_link", group_id=gr.id, token=gr.edit_token)}
        for gr in players.list_groups(db)
    ]  # fmt: skip
    html = render_template("admin/index.html", sheets=sheets, events=events, groups=groups,
                           lan=rights.lan())  # fmt: skip
    resp = Response(html, mimetype="text/html")
    return rights.remember_admin_token(resp)  # also: private, no-store (every link is a key)


def _refused() -> ResponseReturnValue:
    abort(refuse(403, _("Nur mit dem Admin-Link des Servers (skatcalc admin-link).")))


@bp.get("/<token>")
def link(token: str) -> Response:
    """The admin link: this browser holds every right from now on."""
    if not token_matches(token, rights.admin_token()):  # any text, in constant time
        _refused()
    return _page()


@bp.get("")
def index() -> Response:
    """The same page for a browser that holds the admin right (or without ``LAN``)."""
    if not rights.has_admin_right():
        _refused()
    return _page()
