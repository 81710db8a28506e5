"""The organiser's desk pages at a club night: the table cards of a series (PDF), swapping
two players and re-drawing a series before its first deal (on the series page), correcting
a registered name (from the registration list). Organiser only (the event's link)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Optional

from skatcalc.exports import attachment
from skatcalc.games.form_fields import parse_int
from skatcalc.rules.common import Errors, InvalidDeal
from skatcalc.services import event_desk as desk
from skatcalc.services import events
from skatcalc.services import sheets as service
from skatcalc.text import _, field_errors, translate
from skatcalc.web.events import _filename, editable
from skatcalc.web.i18n import flash_errors, page_lang
from skatcalc.web.request_state import mark_private
from skatcalc.web.sheet_view import public_url

bp = Blueprint("desk", __name__, url_prefix="/events")


class SwapForm(FlaskForm):
    a = StringField(validators=[Optional()])
    b = StringField(validators=[Optional()])


class RedrawForm(FlaskForm):
    seed = StringField(validators=[Optional()])


class NameForm(FlaskForm):
    name = StringField(validators=[Optional()])


@bp.get("/<int:event_id>/series/<int:n>/cards.pdf")
def cards(event_id: int, n: int) -> Response:
    """One card per table of series ``n``; they carry the tables' edit links (QR codes), so
    only the organiser gets them, never from a shared cache."""
    from skatcalc.exports.table_cards import render_cards

    event = editable(event_id)
    db = service.get_db()
    tables = [t for t in events.tables_of(db, event) if t.series == n]
    if not tables:
        abort(404)
    links = {
        t.table: public_url("sheets.edit_link", sheet_id=t.sheet,
                            token=t.sheet_row.edit_token)
        for t in tables
    }  # fmt: skip
    mark_private()
    numbers = desk.start_numbers(events.registrations(db, event_id))
    collect = {m.table: m.total_cents for m in events.table_money(event, tables)}
    data = render_cards(event, n, tables, numbers, links, page_lang(), collect)
    name = _filename(event, "pdf").replace(".pdf", f"_S{n}_Tischkarten.pdf")
    return attachment(data, "application/pdf", name)


def _back(event_id: int, n: int) -> ResponseReturnValue:
    return redirect(url_for("events.series", event_id=event_id, n=n) + "#desk")


@bp.post("/<int:event_id>/series/<int:n>/swap")
def swap(event_id: int, n: int) -> ResponseReturnValue:
    editable(event_id)
    form = SwapForm()
    if not form.validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return _back(event_id, n)
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    if not a or not b:
        flash(_("Bitte zwei Spieler wählen."), "error")
        return _back(event_id, n)
    try:
        desk.swap(service.get_db(), event_id, n, a, b)
    except service.NotFound:
        abort(404)
    except desk.Locked as exc:
        flash(translate(exc.msg, page_lang()), "error")
        return _back(event_id, n)
    except InvalidDeal as exc:
        flash_errors(exc)
        return _back(event_id, n)
    flash(_("Getauscht: %(a)s und %(b)s.", a=a, b=b))
    return _back(event_id, n)


@bp.post("/<int:event_id>/series/<int:n>/redraw")
def redraw(event_id: int, n: int) -> ResponseReturnValue:
    editable(event_id)
    form = RedrawForm()
    if not form.validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return _back(event_id, n)
    raw = (form.seed.data or "").strip()
    seed = parse_int(raw) if raw else None
    if raw and (seed is None or not 0 <= seed <= 2**31):
        flash(_("Der Startwert ist eine ganze Zahl ab 0."), "error")
        return _back(event_id, n)
    try:
        drawn = desk.redraw(service.get_db(), event_id, n, seed)
    except service.NotFound:
        abort(404)
    except desk.Locked as exc:
        flash(translate(exc.msg, page_lang()), "error")
        return _back(event_id, n)
    flash(_("Serie %(n)s neu ausgelost (Startwert %(seed)s).", n=n, seed=drawn))
    return _back(event_id, n)


@bp.route("/<int:event_id>/registrations/<int:reg_id>/name", methods=["GET", "POST"])
def correct_name(event_id: int, reg_id: int) -> ResponseReturnValue:
    """The organiser corrects a registered name; it reaches every table of the event."""
    event = editable(event_id)
    db = service.get_db()
    reg = next((r for r in events.registrations(db, event_id) if r.id == reg_id), None)
    if reg is None:
        abort(404)
    form = NameForm()
    status = 200
    general: list[str] = []
    if request.method == "POST":
        if not form.validate_on_submit():
            general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
            status = 400
        else:
            e = Errors()
            new = desk.check_new_name(form.name.data, e, "name")
            try:
                e.raise_if_any()
                desk.correct_name(db, event_id, reg.name, new)
            except desk.Locked as exc:
                general.append(translate(exc.msg, page_lang()))
                status = 409
            except InvalidDeal as exc:
                form.name.errors = [m for msgs in field_errors(exc, page_lang()).values()
                                    for m in msgs]  # fmt: skip
                status = 422
            else:
                flash(_("Name korrigiert: %(old)s → %(new)s", old=reg.name, new=new))
                return redirect(url_for("events.players", event_id=event_id))
    else:
        form.name.data = reg.name
    html = render_template("events/name.html", event=event, reg=reg, form=form,
                           general=general)  # fmt: skip
    return html, status
