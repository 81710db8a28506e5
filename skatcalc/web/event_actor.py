"""Who changes a club night, for its history: the right the request holds (the app knows
links, not persons; docs/api.md "Rights"). The organiser checks name it to the service
(services.event_history.acting) once they let a request write; the name is forgotten when
the request ends."""

from __future__ import annotations

from flask import current_app, request

from skatcalc.services import event_history
from skatcalc.services.events import Event
from skatcalc.web.rights import bearer_token, holds_admin_token, token_matches


def actor_of(event: Event) -> str:
    """``"organiser"`` (the event's link or token), ``"admin"`` (the admin link) or
    ``"local"`` (a server without ``--lan``: the laptop's own browser needs no link)."""
    token = bearer_token() or request.cookies.get(f"event_{event.id}")
    if token_matches(token, event.edit_token):
        return "organiser"
    if current_app.config.get("LAN") and holds_admin_token():
        return "admin"
    return "local"


def name_actor(event: Event) -> None:
    """The request writes to ``event`` with the right it holds: its history says so."""
    event_history.acting(actor_of(event))


def forget_actor(_exc: BaseException | None = None) -> None:
    event_history.acting(None)
