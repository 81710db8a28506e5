"""The desk's page for paper lists ("Listenerfassung", docs/rules.md 1.12): one form per table
of a series with the seated names in order, typed by keyboard alone (Tab to the next field,
Enter saves the table and the next table's first field takes the focus); the scores are the
server's, shown as the foot is typed. Organiser only (the event's link)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from skatcalc.games.form_fields import parse_int
from skatcalc.rules.common import InvalidDeal
from skatcalc.services import events
from skatcalc.services import sheets as service
from skatcalc.services.event_desk import start_numbers
from skatcalc.text import _, field_errors, translate
from skatcalc.web.events import editable
from skatcalc.web.i18n import flash_errors, num, page_lang
from skatcalc.web.request_state import mark_private

bp = Blueprint("paper", __name__, url_prefix="/events")

COLUMNS = ("points", "won", "lost")


class FootForm(FlaskForm):
    """Only the CSRF token: the fields are per seat (``p0_points`` …) and read by hand."""


def _typed(form: Mapping[str, str], seats: int) -> dict[str, str]:
    """The page's fields as typed (the form shows them again when refused)."""
    names = [f"p{i}_{c}" for i in range(seats) for c in COLUMNS] + ["passed"]
    return {k: str(form.get(k, ""))[:20] for k in names}


def _value(raw: str, blank_zero: bool) -> object:
    """A typed figure: a whole number (a typed "−" counts as minus); empty is 0 for the
    counts, which are mostly 0, and missing for the Summe; anything else is passed on as
    typed, for the foot's own message."""
    text = raw.strip().replace("−", "-")
    if not text:
        return 0 if blank_zero else None
    value = parse_int(text)
    return text if value is None else value


def foot_body(form: Mapping[str, str], players: tuple[str, ...]) -> dict[str, object]:
    """The page's fields as the API's body (``PUT …/foot``): one code path for both."""
    return {
        "players": {p: {"points": _value(str(form.get(f"p{i}_points", "")), False),
                        "won": _value(str(form.get(f"p{i}_won", "")), True),
                        "lost": _value(str(form.get(f"p{i}_lost", "")), True)}
                    for i, p in enumerate(players)},
        "passed": _value(str(form.get("passed", "")), True),
    }  # fmt: skip


def seat_errors(exc: InvalidDeal, players: tuple[str, ...]) -> dict[str, list[str]]:
    """The foot's messages under the page's field names (``players.Anna.won`` → ``p2_won``);
    the table's own under ``_``."""
    seat = {p: i for i, p in enumerate(players)}
    out: dict[str, list[str]] = {}
    for field, msgs in field_errors(exc, page_lang()).items():
        parts = field.split(".")
        if len(parts) == 3 and parts[0] == "players" and parts[1] in seat:
            key = f"p{seat[parts[1]]}_{parts[2]}"
        elif field == "passed":
            key = "passed"
        else:
            key = "_"
        out.setdefault(key, []).extend(msgs)
    return out


@dataclass(frozen=True)
class PaperTable:
    """A table on the desk's page: the table, what is typed in its fields, its messages."""

    t: events.EventTable
    typed: dict[str, str]
    errors: dict[str, list[str]]


def _stored(t: events.EventTable) -> dict[str, str]:
    if t.foot is None:
        return {}
    out = {"passed": str(t.foot.passed)}
    for i, f in enumerate(t.foot.lines.values()):
        out.update({f"p{i}_points": str(f.points), f"p{i}_won": str(f.won),
                    f"p{i}_lost": str(f.lost)})  # fmt: skip
    return out


def _page(event_id: int, n: int, refused: PaperTable | None = None) -> ResponseReturnValue:
    event = editable(event_id)
    db = service.get_db()
    try:
        events.get_series(db, event_id, n)
    except events.NotFound:
        abort(404)
    tables = []
    for t in events.snapshot(db, event).tables:
        if t.series != n:
            continue
        if refused is not None and refused.t.table == t.table:
            tables.append(refused)
        else:
            tables.append(PaperTable(t, _stored(t), {}))
    wanted = parse_int(request.args.get("next", "")) if refused is None else None
    focus = refused.t.table if refused is not None else next(
        (p.t.table for p in tables
         if p.t.foot is None and not p.t.played and (wanted is None or p.t.table >= wanted)),
        None,
    )  # fmt: skip
    mark_private()
    return render_template(
        "events/paper.html", event=event, n=n, tables=tables, focus=focus, editor=True,
        form=FootForm(formdata=None), numbers=start_numbers(events.registrations(db, event_id)),
        n_series=events.series_count(db, event_id), num=num,
    ), 422 if refused is not None else 200  # fmt: skip


@bp.get("/<int:event_id>/series/<int:n>/paper")
def page(event_id: int, n: int) -> ResponseReturnValue:
    return _page(event_id, n)


def _table(event_id: int, n: int, table: int) -> events.EventTable:
    event = editable(event_id)
    try:
        return events.find_table(service.get_db(), event, n, table)
    except events.NotFound:
        abort(404)


@bp.post("/<int:event_id>/series/<int:n>/paper/<int:table>")
def save(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """One table's foot, typed: saved, and on to the next table; refused, the page again
    with the typed figures and each message beside its field."""
    t = _table(event_id, n, table)
    back = url_for("paper.page", event_id=event_id, n=n)
    if not FootForm().validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return redirect(f"{back}#paper-{table}")
    try:
        events.set_foot(service.get_db(), event_id, n, table,
                        foot_body(request.form, t.players))  # fmt: skip
    except events.FootRefused as exc:
        flash(translate(exc.msg, page_lang()), "error")
        return redirect(f"{back}#paper-{table}")
    except InvalidDeal as exc:
        return _page(event_id, n, PaperTable(t, _typed(request.form, len(t.players)),
                                             seat_errors(exc, t.players)))  # fmt: skip
    flash(_("Tisch %(t)s gespeichert.", t=table))
    # no "#paper-…" in the address: a browser moves the focus to such a target and off the
    # next table's first field (autofocus), which scrolls into view by itself
    return redirect(url_for("paper.page", event_id=event_id, n=n, next=table + 1))


@bp.post("/<int:event_id>/series/<int:n>/paper/<int:table>/preview")
def preview(event_id: int, n: int, table: int) -> Response:
    """The scores of the foot as typed so far, computed by the server (nothing stored):
    ``{"scores": {seat: text}, "check": text, "ok": bool, "errors": {field: [text]}}``."""
    t = _table(event_id, n, table)
    event = events.get_event(service.get_db(), event_id)
    if not FootForm().validate_on_submit():
        abort(400)
    shown = events.preview_foot(service.get_db(), event, n, table,
                                foot_body(request.form, t.players))  # fmt: skip
    scores = {str(i): num(shown.scores[p]) for i, p in enumerate(t.players) if p in shown.scores}
    check = ""
    if shown.games is not None:
        check = _("%(n)s von %(deals)s Spielen", n=shown.games, deals=shown.deals)
    errors = seat_errors(shown.errors, t.players) if shown.errors else {}
    mark_private()
    return jsonify({"scores": scores, "check": check, "ok": shown.errors is None,
                    "errors": errors})  # fmt: skip


# --- Penalty points from the close page ----------------------------------------------------------


def _to_penalties(event_id: int) -> Response:
    return redirect(url_for("events.close", event_id=event_id) + "#penalties")


@bp.post("/<int:event_id>/penalties")
def add_penalty(event_id: int) -> Response:
    """The organiser gives penalty points (the close page's form); refused: the messages."""
    editable(event_id)
    if not FootForm().validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return _to_penalties(event_id)
    form = request.form
    body = {"player": form.get("player", ""), "reason": form.get("reason", ""),
            "series": _value(form.get("series", ""), False),
            "points": _value(form.get("points", ""), False)}  # fmt: skip
    try:
        given = events.add_penalty(service.get_db(), event_id, body)
    except events.FootRefused as exc:
        flash(translate(exc.msg, page_lang()), "error")
    except InvalidDeal as exc:
        flash_errors(exc)
    else:
        flash(_("Strafpunkte für %(name)s gespeichert.", name=given.player))
    return _to_penalties(event_id)


@bp.post("/<int:event_id>/penalties/<int:penalty_id>/delete")
def delete_penalty(event_id: int, penalty_id: int) -> Response:
    editable(event_id)
    if not FootForm().validate_on_submit():
        abort(400)
    try:
        events.delete_penalty(service.get_db(), event_id, penalty_id)
    except events.NotFound:
        abort(404)
    except events.FootRefused as exc:
        flash(translate(exc.msg, page_lang()), "error")
    else:
        flash(_("Strafpunkte zurückgenommen."))
    return _to_penalties(event_id)
