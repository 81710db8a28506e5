"""Club night and Preisskat pages: create an event, register walk-ins, seat the series with
each table's QR code, the live ranking, the big screen, closing with the prize list, PDF, CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    get_template_attribute,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import BooleanField, RadioField, StringField, TextAreaField
from wtforms.validators import Optional

from skatcalc import exports, games
from skatcalc.exports import attachment, cell, safe_name
from skatcalc.games.form_fields import parse_int
from skatcalc.rules.common import Errors, InvalidDeal
from skatcalc.rules.double_entry import difference_msg
from skatcalc.rules.events import (
    MAX_SERIES_DEALS,
    Payout,
    PayoutKind,
    RankRow,
    Seating,
    check_payout,
    default_deals,
    normalize_event,
    read_payout,
    read_teams,
    table_sizes,
)
from skatcalc.rules.sheet import GAMES, SheetSpec, describe_rules
from skatcalc.rules.sheet import game as game_kind
from skatcalc.services import event_close, event_history, events
from skatcalc.services import players as people
from skatcalc.services import sheets as service
from skatcalc.services.event_desk import start_numbers
from skatcalc.services.events import Event
from skatcalc.services.players import Group
from skatcalc.text import _, field_errors, pgettext, translate
from skatcalc.web import event_settings as settings
from skatcalc.web import rights
from skatcalc.web.deal_forms import SheetRulesFields, attach_errors, rules_body
from skatcalc.web.event_actor import forget_actor, name_actor
from skatcalc.web.event_scale import (
    ScaleFields,
    page_figures,
    page_groups,
    scale_aliases,
    scoring_body,
)
from skatcalc.web.events_api import may_sign, unfinished_message
from skatcalc.web.http import can_edit_event, refuse, remember_edit_token
from skatcalc.web.i18n import flash_errors, money, num, page_lang
from skatcalc.web.request_state import mark_private
from skatcalc.web.rights import token_matches
from skatcalc.web.sheet_view import public_url, qr_svg

bp = Blueprint("events", __name__, url_prefix="/events")


# --- Edit rights ------------------------------------------------------------------------------


def remember_event_token(resp: rights.R, event: Event) -> rights.R:
    return rights.remember_key(resp, f"event_{event.id}", event.edit_token)


def load_event(event_id: int) -> Event:
    try:
        return events.get_event(service.get_db(), event_id)
    except service.NotFound:
        abort(404)


def forbidden_text() -> str:
    """A browser without the organiser's right is told about the event, not a sheet."""
    return _("Ändern nur mit dem Bearbeitungs-Link dieser Veranstaltung.")


def editable(event_id: int) -> Event:
    event = load_event(event_id)
    if not can_edit_event(event):
        abort(refuse(403, forbidden_text()))
    name_actor(event)  # the event's history says with which right
    return event


# the right named for the history is the request's own: forgotten when it ends
bp.teardown_app_request(forget_actor)


def organiser_link(event: Event) -> dict[str, object]:
    """The organiser's link with its QR code for the organiser's pages (on the network): the
    one way back in from another browser, so the pages say to keep it."""
    if not can_edit_event(event) or not current_app.config.get("LAN"):
        return {}
    mark_private()  # a key on the page
    url = public_url("events.edit_link", event_id=event.id, token=event.edit_token)
    return {"organiser_url": url, "qr": qr_svg}


# --- Money on forms ---------------------------------------------------------------------------


def euros(cents: int) -> str:
    """Cents as the form shows them again: "10", "10,50" (German) or "10.50"."""
    return settings.euros(cents, page_lang())


def payout_text(event_payout: Mapping[str, Any]) -> str:
    return settings.values_text(event_payout["kind"], event_payout["values"], page_lang())


def read_payout_fields(kind: str, text: str, errors: list[tuple[str, str]]) -> Payout | None:
    values = settings.parse_values(kind, text)
    if values is None:
        errors.append(("payout", _("Bitte die Preise als Zahlen oder Sachpreise, getrennt durch „/“.")))  # fmt: skip
        return None
    e = Errors()
    check_payout(kind, values, e, "payout")
    if e:
        exc = InvalidDeal(list(e.items))
        errors += [("payout", m) for m in field_errors(exc, page_lang())["payout"]]
        return None
    return Payout(PayoutKind(kind), tuple(values))


# --- Forms ------------------------------------------------------------------------------------


class NewEventForm(FlaskForm, SheetRulesFields, ScaleFields, settings.EventSettingsFields):
    name = StringField(validators=[Optional()])
    day = StringField(validators=[Optional()])
    game = RadioField(default=games.first(), validate_choice=False)
    group = StringField(validators=[Optional()])
    deals4 = StringField(validators=[Optional()])
    deals3 = StringField(validators=[Optional()])
    # fees, the prize plan and double entry: settings.EventSettingsFields
    points = BooleanField(default=False)  # Schafkopf: the tournament scale (docs/rules.md 2.8)

    def setup(self) -> NewEventForm:
        self.game.choices = games.choices()
        self.setup_rules()
        self.setup_scale()
        for _key, prefix in settings.PAYOUTS:
            getattr(self, f"{prefix}_kind").choices = settings.kind_choices()
        return self


class RegisterForm(FlaskForm):
    names = TextAreaField(validators=[Optional()])
    paid = BooleanField()  # the entry fee taken at the door
    # for the association's report: a member number names one player, a club may be many's
    member_no = StringField(validators=[Optional()])
    club = StringField(validators=[Optional()])


class SeriesForm(FlaskForm):
    seating = RadioField(default="draw", validate_choice=False)
    seed = StringField(validators=[Optional()])
    n = StringField(validators=[Optional()])  # the series the page offered: no double seating
    force = BooleanField(default=False)  # seat it though the series before is not finished


class LengthenForm(FlaskForm):
    deals4 = StringField(validators=[Optional()])
    deals3 = StringField(validators=[Optional()])


class CloseForm(FlaskForm):
    payout_kind = RadioField(default="shares", validate_choice=False)
    payout = StringField(validators=[Optional()])
    places = StringField(validators=[Optional()])  # so many prizes (the last value repeats)
    per_players = StringField(validators=[Optional()])  # or one prize per so many players
    pot = StringField(validators=[Optional()])


class ActionForm(FlaskForm):
    pass


def groups_for_form() -> list[Group]:
    """Only the groups this browser may put an event into (rights.py)."""
    return [g for g in people.list_groups(service.get_db()) if rights.may_change_group(g)]


# --- List and create --------------------------------------------------------------------------


@bp.get("")
def index() -> str:
    form = NewEventForm().setup()
    form.day.data = events.today()
    series = game_kind(str(form.game.default)).series_deals  # the default game's series lengths
    form.deals4.data, form.deals3.data = str(series[4]), str(series[3])
    return render_index(form, [])


def render_index(form: NewEventForm, general: list[str]) -> str:
    return render_template(
        "events/index.html",
        form=form,
        general=general,
        events=events.list_events(service.get_db()),
        groups=groups_for_form(),
        defaults={g: default_deals(g) for g in GAMES},
        scale_figures=page_figures(),
        scale_groups=page_groups(),
    )


@bp.post("")
def create() -> ResponseReturnValue:
    form = NewEventForm().setup()
    errors: list[tuple[str, str]] = []
    general: list[str] = []
    if not form.validate_on_submit() and "csrf_token" in form.errors:
        general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
        return render_index(form, general), 400
    data = new_event_body(form, errors)
    exc: InvalidDeal | None = None
    if not errors:
        try:
            spec = normalize_event(data, events.today())
            event = events.create_event(service.get_db(), spec)
        except InvalidDeal as e:
            exc = e
        else:
            flash(_("Veranstaltung angelegt. Jetzt die Spieler anmelden."))
            resp = redirect(url_for("events.players", event_id=event.id))
            return remember_event_token(resp, event)
    if exc is not None:
        errors += new_event_errors(exc)
    general += attach_errors(form, None, errors, page_lang())
    return render_index(form, general), 422


def new_event_body(form: NewEventForm, errors: list[tuple[str, str]]) -> dict[str, object]:
    """The API's body of a new event from the page's form; what the page finds wrong before
    the rules see it goes to ``errors``."""
    game = form.game.data if form.game.data in GAMES else games.first()
    data: dict[str, object] = {"game": form.game.data, "name": form.name.data or ""}
    day = (form.day.data or "").strip()
    if day:
        data["date"] = day
    group = (form.group.data or "").strip()
    if group:
        gid = parse_int(group)
        if gid is None:
            errors.append(("group", _("Bitte eine Gruppe aus der Liste wählen.")))
        else:
            data["group"] = gid
            if gid not in {grp.id for grp in groups_for_form()}:
                # an unknown group is told by normalize_event, one without the right here
                known = {grp.id for grp in people.list_groups(service.get_db())}
                if gid in known:
                    errors.append(("group", _("Ändern nur mit dem Link dieser Gruppe.")))
    data["deals"] = series_deals_fields(form, game, errors)
    # fees, the prize plan and double entry: the one mapping of page and API body
    body, found = settings.settings_body(settings.form_values(form), page_lang())
    data |= body
    errors += found
    data["rules"] = rules_body(form, game, errors)
    if game_kind(game).has_point_scale:  # a tournament in points (docs/rules.md 2.8)
        if form.points.data and form.scoring.data in (None, "", "money"):
            form.scoring.data = "default"  # the old tick box: the default scale
        scoring = scoring_body(form, errors)
        if scoring is not None:
            data["scoring"] = scoring
    return data


def series_deals_fields(form: NewEventForm, game: str,
                        errors: list[tuple[str, str]]) -> dict[str, int]:  # fmt: skip
    """The deals per series typed for each table size the game plays at."""
    deals: dict[str, int] = {}
    for key, field in (("4", form.deals4), ("3", form.deals3)):
        raw = (field.data or "").strip()
        if int(key) not in game_kind(game).event_tables:
            continue
        if raw:
            v = parse_int(raw)
            if v is None or not 1 <= v <= MAX_SERIES_DEALS:
                errors.append((field.name, _("Spiele je Serie: 1 bis %(n)s.", n=MAX_SERIES_DEALS)))
            else:
                deals[key] = v
    return deals


def new_event_errors(exc: InvalidDeal) -> list[tuple[str, str]]:
    """The rules' messages on a new event, each by the page's field it belongs to."""
    aliases = {"deals.4": "deals4", "deals.3": "deals3", "date": "day", **scale_aliases()}
    return [(aliases.get(k) or (settings.field_of(k) if k.split(".")[0]
                                in settings.BODY_KEYS else k.replace("rules.", "")), m)
            for k, msgs in field_errors(exc, page_lang()).items() for m in msgs]  # fmt: skip


@bp.get("/<int:event_id>/edit/<token>")
def edit_link(event_id: int, token: str) -> ResponseReturnValue:
    event = load_event(event_id)
    if not token_matches(token, event.edit_token):  # any text, in constant time
        abort(refuse(403, forbidden_text()))
    return remember_event_token(redirect(url_for("events.show", event_id=event_id)), event)


# --- The event's views ------------------------------------------------------------------------


def view_data(event: Event, screen: bool = False) -> dict[str, object]:
    snap = events.snapshot(service.get_db(), event)
    tables, rows, n_series = snap.tables, snap.rows, snap.n_series
    current = [t for t in tables if t.series == n_series]
    return {
        "event": event,
        "tables": tables,
        "current": current,
        "playing": [t for t in current if t.left > 0],
        "rows": rows,
        "rows_html": ranking_rows_html(rows, n_series, screen, start_numbers(snap.regs)),
        "numbers": start_numbers(snap.regs),
        # the projector shows the newest seating until every table has started
        "seating": [t for t in current if t.played == 0] and current,
        "n_series": n_series,
        "fees_total": sum(r.fees_cents for r in rows),
        "regs": snap.regs,
        "editor": can_edit_event(event),
        "live": url_for("events.live", event_id=event.id),
        "token": snap.token,
        # double entry: deals the ranking does not count yet, tables whose lists differ
        "pending": sum(t.double_entry.comparison.pending for t in tables
                       if t.double_entry is not None),
        "differing": [t.table for t in current if t.double_entry is not None
                      and t.double_entry.comparison.differences],
    }  # fmt: skip


def ranking_rows_html(rows: tuple[RankRow, ...], n_series: int, screen: bool,
                      numbers: dict[str, int] | None = None) -> Markup:  # fmt: skip
    """The ranking's rows (templates/events/_ranking.html), drawn in one macro call: a
    Preisskat has a hundred players and the screens reload this after every deal."""
    draw_rows = get_template_attribute("events/_ranking.html", "rows")
    return Markup(draw_rows(rows, n_series, screen, numbers or {}, num, money))


@bp.get("/<int:event_id>")
def show(event_id: int) -> str:
    event = load_event(event_id)
    rules = [translate(m, page_lang()) for m in describe_rules(_spec(event))]
    fee_rule = events.fees_line(event, page_lang())
    return render_template("events/show.html", rules=rules, fee_rule=fee_rule, **view_data(event),
                           **organiser_link(event))  # fmt: skip


def _spec(event: Event) -> SheetSpec:
    return SheetSpec(event.game, (), "", event.rules)


@bp.get("/<int:event_id>/part")
def part(event_id: int) -> str:
    """The ranking and the tables' progress, for the open ranking pages to swap in."""
    event = load_event(event_id)
    return render_template("events/_live.html", **view_data(event))


@bp.get("/<int:event_id>/screen")
def screen(event_id: int) -> str:
    event = load_event(event_id)
    return render_template("events/screen.html", **view_data(event, screen=True))


@bp.get("/<int:event_id>/screen/part")
def screen_part(event_id: int) -> str:
    event = load_event(event_id)
    return render_template("events/_screen.html", **view_data(event, screen=True))


@bp.get("/<int:event_id>/live")
def live(event_id: int) -> Response:
    """Polled by the ranking pages: changes whenever a table enters or corrects a deal."""
    try:
        token = events.live_token(service.get_db(), event_id)
    except service.NotFound:
        abort(404)
    resp = jsonify({"live": token})
    resp.headers["Cache-Control"] = "no-store"
    return resp


# --- Registration -----------------------------------------------------------------------------


def split_names(text: str) -> list[str]:
    """One name a line, or several separated by commas."""
    # Spaces are tidied by check_names, which also refuses control characters among them.
    return [n for n in re.split(r"[,\n;]+", text or "") if n.strip()]


@bp.route("/<int:event_id>/players", methods=["GET", "POST"])
def players(event_id: int) -> ResponseReturnValue:
    event = editable(event_id)
    form = RegisterForm()
    general: list[str] = []
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
            status = 400
        else:
            e = Errors()
            names = events.check_names(split_names(form.names.data or ""), e)
            typed = {"member_no": form.member_no.data or None, "club": form.club.data or None}
            member_no, club = events.read_member(typed, e)
            if member_no and len(names) > 1:
                e.add("names.member_no",
                      "Eine Mitgliedsnummer gehört zu einem Namen: bitte einzeln anmelden.")  # fmt: skip
            members = {n: (member_no, club) for n in names} if member_no or club else None
            try:
                e.raise_if_any()
                added, already = events.register(service.get_db(), event_id, names,
                                                 members=members,
                                                 paid=set(names) if form.paid.data else None)  # fmt: skip
            except InvalidDeal as exc:
                found = field_errors(exc, page_lang())
                form.member_no.errors = found.pop("names.member_no", [])
                form.club.errors = found.pop("names.club", [])
                form.names.errors = [m for msgs in found.values() for m in msgs]
                status = 422
            else:
                if added:
                    flash(_("Angemeldet: %(names)s", names=", ".join(added)))
                if already:
                    flash(_("Schon angemeldet: %(names)s", names=", ".join(already)), "error")
                return redirect(url_for("events.players", event_id=event_id) + "#add")
    db = service.get_db()
    regs = events.registrations(db, event_id)
    n_series = events.series_count(db, event_id)
    present = [r for r in regs if r.from_series <= n_series + 1 and not r.away]
    try:
        sizes: tuple[int, ...] | None = table_sizes(event.game, len(present))
        refusal = None
    except InvalidDeal as exc:
        sizes, refusal = None, field_errors(exc, page_lang())["players"][0]
    tables = events.snapshot(db, event).tables
    seated = {p for t in tables for p in t.players}
    playing = [t for t in tables if t.series == n_series and t.left > 0]
    cash = {c.player: c for c in events.cash_of(db, event, events.ranking_rows(db, event)).rows}
    html = render_template(
        "events/players.html", event=event, form=form, general=general, regs=regs, cash=cash,
        action_form=ActionForm(),
        known=[n for n in events.known_names(db)], n_series=n_series, sizes=sizes,
        refusal=refusal, present=present, seated=seated, playing=playing,
        **organiser_link(event),
        categories=events.plan_of(event).categories, teams=events.plan_of(event).teams,
    )  # fmt: skip
    return html, status


@bp.post("/<int:event_id>/players/<int:reg_id>/<action>")
def player_action(event_id: int, reg_id: int, action: str) -> Response:
    editable(event_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    db = service.get_db()
    reg = next((r for r in events.registrations(db, event_id) if r.id == reg_id), None)
    if reg is None or action not in ("away", "back", "remove"):
        abort(404)
    try:
        if action == "remove":
            events.unregister(db, event_id, reg.name)
            flash(_("Abgemeldet: %(name)s", name=reg.name))
        else:
            events.set_away(db, event_id, reg.name, action == "away")
    except InvalidDeal as exc:
        flash_errors(exc)
    return redirect(url_for("events.players", event_id=event_id))


@bp.post("/<int:event_id>/players/<int:reg_id>/category")
def player_category(event_id: int, reg_id: int) -> Response:
    """The organiser sets a registration's category (women, youth, seniors …)."""
    editable(event_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    db = service.get_db()
    reg = next((r for r in events.registrations(db, event_id) if r.id == reg_id), None)
    if reg is None:
        abort(404)
    try:
        events.set_category(db, event_id, reg.name, request.form.get("category") or None)
    except InvalidDeal as exc:
        flash_errors(exc)
    return redirect(url_for("events.players", event_id=event_id))


@bp.post("/<int:event_id>/teams")
def teams(event_id: int) -> Response:
    """The organiser's teams, one a line: "Name: Anna, Bernd" (an empty box: no teams)."""
    editable(event_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    raw = settings.teams_body(request.form.get("teams") or "")
    e = Errors()
    found = read_teams(raw, e)
    try:
        e.raise_if_any()
        events.set_teams(service.get_db(), event_id, found)
    except InvalidDeal as exc:
        for key, msgs in field_errors(exc, page_lang()).items():
            line = key.split(".")[1] if key.count(".") else ""
            for m in msgs:
                flash(_("Zeile %(n)s: %(msg)s", n=int(line) + 1, msg=m) if line else m, "error")
    else:
        flash(_("Mannschaften gespeichert."))
    return redirect(url_for("events.players", event_id=event_id) + "#teams")


# --- Series -----------------------------------------------------------------------------------


@bp.post("/<int:event_id>/series")
def new_series(event_id: int) -> ResponseReturnValue:
    event = editable(event_id)
    form = SeriesForm()
    if not form.validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return redirect(url_for("events.players", event_id=event_id))
    seating = {"ranking": Seating.RANKING, "final": Seating.FINAL}.get(
        str(form.seating.data), Seating.DRAW
    )
    raw_seed = (form.seed.data or "").strip()
    seed = parse_int(raw_seed) if raw_seed else None
    if raw_seed and (seed is None or seed < 0):
        flash(_("Der Startwert ist eine ganze Zahl ab 0."), "error")
        return redirect(url_for("events.players", event_id=event_id) + "#series")
    db = service.get_db()
    offered = parse_int(form.n.data or "")
    if offered is not None and offered < 1:
        offered = None
    try:
        n = events.start_series(db, event_id, seating, seed, offered, bool(form.force.data))
    except events.SeriesTaken as taken:  # a second tap on the same button
        flash(_("Serie %(n)s ist schon gesetzt.", n=taken.n))
        return redirect(url_for("events.series", event_id=event_id, n=taken.n))
    except events.Unfinished as unfinished:
        msg = unfinished_message(unfinished)
        flash(msg + " " + _("Trotzdem setzen: „Auch wenn noch gespielt wird“ ankreuzen."), "error")
        return redirect(url_for("events.players", event_id=event_id) + "#series")
    except InvalidDeal as exc:
        flash_errors(exc)
        return redirect(url_for("events.players", event_id=event_id) + "#series")
    flash(_("Serie %(n)s ist gesetzt.", n=n))
    resp = redirect(url_for("events.series", event_id=event_id, n=n))
    # The organiser may correct any table's list from this device.
    for t in events.tables_of(db, event):
        if t.series == n:
            remember_edit_token(resp, t.sheet_row)
            if t.double_entry is not None:  # and list B's, with double entry
                remember_edit_token(resp, t.double_entry.sheet_b)
    return resp


@bp.get("/<int:event_id>/series/<int:n>")
def series(event_id: int, n: int) -> ResponseReturnValue:
    event = load_event(event_id)
    db = service.get_db()
    try:
        row = events.get_series(db, event_id, n)
    except events.NotFound:
        abort(404)
    editor = can_edit_event(event)
    entered = events.entered_counts(db, event_id, n)
    tables = [table_card(t, editor, entered.get(t.sheet, 0))
              for t in events.tables_of(db, event) if t.series == n]  # fmt: skip
    if editor:
        mark_private()  # the tables' edit links and QR codes
    planned = events.series_deals(event, row.deals)
    sizes = sorted({len(t.players) for t in tables}, reverse=True)
    return render_template(
        "events/series.html", event=event, s=row, tables=tables, editor=editor, qr=qr_svg,
        numbers=start_numbers(events.registrations(db, event_id)),
        n_series=events.series_count(db, event_id), planned=planned, sizes=sizes,
        lengthen=LengthenForm(formdata=None),
        repeated=events.repeated_at(db, event, n) if n > 1 else None,
    )  # fmt: skip


@bp.post("/<int:event_id>/series/<int:n>/lengthen")
def lengthen(event_id: int, n: int) -> ResponseReturnValue:
    """The organiser lengthens a series: its deals per table size."""
    editable(event_id)
    form = LengthenForm()
    back = redirect(url_for("events.series", event_id=event_id, n=n) + "#lengthen")
    if not form.validate_on_submit():
        flash(_("Das Formular ist abgelaufen; bitte noch einmal senden."), "error")
        return back
    deals: dict[int, int] = {}
    for size, field in ((4, form.deals4), (3, form.deals3)):
        raw = (field.data or "").strip()
        if raw:
            v = parse_int(raw)
            if v is None:
                flash(_("Spiele je Serie: 1 bis %(n)s.", n=MAX_SERIES_DEALS), "error")
                return back
            deals[size] = v
    try:
        events.lengthen_series(service.get_db(), event_id, n, deals)
    except service.NotFound:
        abort(404)
    except InvalidDeal as exc:
        flash_errors(exc)
        return back
    flash(_("Serie %(n)s verlängert.", n=n))
    return back


# --- Closing ----------------------------------------------------------------------------------


@bp.route("/<int:event_id>/close", methods=["GET", "POST"])
def close(event_id: int) -> ResponseReturnValue:
    event = load_event(event_id)
    editor = can_edit_event(event)
    form = CloseForm()
    status = 200
    general: list[str] = []
    if request.method == "POST":
        if not editor:
            abort(refuse(403, forbidden_text()))
        if not form.validate_on_submit():
            general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
            status = 400
        else:
            done = close_action(event_id, form)
            if isinstance(done, Response):
                return done
            general, status = done
    else:
        form.payout_kind.data = event.payout["kind"]
        form.payout.data = payout_text(event.payout)
        form.pot.data = euros(event.pot_cents) if event.pot_cents is not None else ""
        form.places.data = str(event.payout.get("places") or "")
        form.per_players.data = str(event.payout.get("per_players") or "")
    form.payout_kind.choices = [("shares", _("Anteile am Topf (%)")),
                                ("fixed", _("feste Beträge (€)"))]  # fmt: skip
    return close_page(event, form, general, editor), status


def close_action(event_id: int, form: CloseForm) -> Response | tuple[list[str], int]:
    """The close form's action (close, reopen, or the payout and pot saved): a redirect to
    the page when done, else the page's messages and status."""
    errors: list[tuple[str, str]] = []
    kind = form.payout_kind.data if form.payout_kind.data in ("fixed", "shares") else ""
    payout = read_payout_fields(kind or "shares", form.payout.data or "", errors)
    pot_raw = (form.pot.data or "").strip()
    pot = settings.parse_euros(pot_raw) if pot_raw else None
    if pot_raw and pot is None:
        errors.append(("pot", _("Bitte einen Betrag in Euro, z. B. 10 oder 0,50.")))
    if payout is not None:
        payout = read_places(form, payout, errors)
    if errors or payout is None:
        return attach_errors(form, None, errors, page_lang()), 422
    db = service.get_db()
    action = request.form.get("action")
    try:
        if action == "close":
            force = request.form.get("force") == "1"
            if event_close.close(db, event_id, payout, pot, force):
                flash(_("Veranstaltung abgeschlossen."))
        elif action == "reopen":  # the payout stays as it was closed
            event_close.reopen(db, event_id)
            flash(_("Veranstaltung wieder geöffnet."))
        else:
            event_close.set_money(db, event_id, payout, pot)
            flash(_("Auszahlung gespeichert."))
        return redirect(url_for("events.close", event_id=event_id))
    except event_close.OpenLists as still_open:
        general = [translate(t.msg(), page_lang()) for t in still_open.tables]
        general.append(_("Trotzdem abschließen: „Trotz offener Listen "
                         "abschließen“ ankreuzen."))  # fmt: skip
        return general, 409
    except event_close.Refused as refusal:
        return [translate(refusal.msg, page_lang())], 409


def close_page(event: Event, form: CloseForm, general: list[str], editor: bool) -> str:
    """The close page: the payout form, the prizes, the cash, the history."""
    db = service.get_db()
    rows = events.ranking_rows(db, event)
    prizes = events.prize_list(db, event, rows)
    return render_template(
        "events/close.html", event=event, form=form, general=general, prizes=prizes,
        action_form=ActionForm(),
        history=[(h, event_history.line(h)) for h in events.event_history(db, event.id)],
        still_open=(event_close.open_tables(db, event, shared=True)
                    if editor and not event.closed else ()),
        editor=editor, rows=rows, n_series=events.series_count(db, event.id),
        playing=[t for t in events.tables_of(db, event)
                                           if t.left > 0],
        table_money=events.table_money(event, events.snapshot(db, event).tables),
        penalties=events.penalties(db, event.id), regs=events.registrations(db, event.id),
    )  # fmt: skip


@bp.post("/<int:event_id>/paid/<int:series>")
def paid(event_id: int, series: int) -> Response:
    """The organiser's tick on the close page: a player paid (or not) for a series, 0 the
    entry fee."""
    editable(event_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    name = request.form.get("player", "")
    try:
        events.set_paid(service.get_db(), event_id, name, series, request.form.get("paid") == "1")
    except service.NotFound:
        abort(404)
    except InvalidDeal as exc:
        flash_errors(exc)
    if request.form.get("back") == "players":  # ticked at the door, on the registration list
        return redirect(url_for("events.players", event_id=event_id) + "#regs")
    return redirect(url_for("events.close", event_id=event_id) + "#cash")


def read_places(form: CloseForm, payout: Payout, errors: list[tuple[str, str]]) -> Payout | None:
    """The number of prizes from the close form: ``places`` or one per ``per_players``,
    checked by the rules as the API's payout is."""
    data: dict[str, object] = {"kind": payout.kind.value, "values": list(payout.values)}
    for key, field in (("places", form.places), ("per_players", form.per_players)):
        raw = (field.data or "").strip()
        if raw:
            v = parse_int(raw)
            if v is None:
                errors.append((key, _("Bitte eine ganze Zahl.")))
                return None
            data[key] = v
    if len(data) == 2:
        return payout
    e = Errors()
    checked = read_payout(data, e)
    if e:
        exc = InvalidDeal(list(e.items))
        for key, msgs in field_errors(exc, page_lang()).items():
            name = key.removeprefix("payout.")
            errors += [(name if name in ("places", "per_players") else "payout", m) for m in msgs]
        return None
    return checked


@bp.route("/<int:event_id>/delete", methods=["GET", "POST"])
def delete(event_id: int) -> ResponseReturnValue:
    event = editable(event_id)
    if request.method == "POST":
        if not ActionForm().validate_on_submit():
            abort(400)
        events.delete_event(service.get_db(), event_id)
        flash(_("Veranstaltung „%(name)s“ gelöscht.", name=event.name))
        return redirect(url_for("events.index"))
    return render_template("events/delete.html", event=event)


# --- Files ------------------------------------------------------------------------------------


def _filename(event: Event, ext: str) -> str:
    return f"{event.day}_{safe_name(event.name, 'event')}.{ext}"


@bp.get("/<int:event_id>/ranking.csv")
def export_csv(event_id: int) -> Response:
    event = load_event(event_id)
    rows = events.ranking_rows(service.get_db(), event)
    won = events.prizes_of(service.get_db(), event, rows)
    out = io.StringIO()
    # the separator a spreadsheet of the language expects (German decimals take the comma)
    w = csv.writer(out, delimiter=";" if page_lang() != "en" else ",", lineterminator="\r\n")
    n = len(rows[0].series) if rows else 0
    head = [pgettext("rank", "Platz"), _("Name"), _("Punkte")]
    head += [_("Serie %(n)s", n=i) for i in range(1, n + 1)]
    head += [_("gewonnen"), _("verloren"), _("Gebühren (Cent)"), _("Preis (Cent)"), _("Sachpreis")]
    head += [_("Strafpunkte"), _("Mitgliedsnummer"), _("Verein")]
    w.writerow(head)
    regs = {r.name: r for r in events.registrations(service.get_db(), event_id)}
    for r in rows:
        reg = regs.get(r.player)
        w.writerow([r.rank, cell(r.player), r.score, *r.series, r.won, r.lost, r.fees_cents,
                    won.cents_of(r.player), cell(won.goods_of(r.player) or ""), r.penalty,
                    cell(reg.member_no or "") if reg else "",
                    cell(reg.club or "") if reg else ""])  # fmt: skip
    return attachment(out.getvalue().encode("utf-8-sig"), "text/csv", _filename(event, "csv"))


@bp.get("/<int:event_id>/event.pdf")
def export_pdf(event_id: int) -> Response:
    from skatcalc.exports.event_pdf import render_event_pdf

    event = load_event(event_id)
    db = service.get_db()
    lang = page_lang()

    def render() -> bytes:
        fresh = events.get_event(db, event_id)
        rows = events.ranking_rows(db, fresh)
        return render_event_pdf(db, fresh, rows, events.prize_list(db, fresh, rows), lang)

    # Seconds of CPU for a big Preisskat: rendered once per state of the event and its tables'
    # sheets (the live token changes with every write to either), one render at a time.
    key = ("event", event_id, event.created, lang)
    data = exports.cached_pdf(key, lambda: events.live_token(db, event_id), render)
    return attachment(data, "application/pdf", _filename(event, "pdf"))


# --- Double entry and sign-off ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableCard(events.EventTable):
    """A table on the series page: the table, its lists' links (the edit links for the
    organiser only), the lists' differences as sentences, the deals not counted yet and the
    deals entered (struck ones too: the desk's swap and re-draw wait for none)."""

    edit_url: str | None
    share_url: str
    edit_url_b: str | None
    messages: list[str]
    pending: int
    entered: int


def table_card(t: events.EventTable, editor: bool, entered: int) -> TableCard:
    sheet, entry = t.sheet_row, t.double_entry
    edit_url_b, messages, pending = None, [], 0
    if entry is not None:
        b = entry.sheet_b
        if editor:
            edit_url_b = public_url("sheets.edit_link", sheet_id=b.id, token=b.edit_token)
        messages = [translate(difference_msg(d), page_lang()) for d in entry.comparison.differences]
        pending = entry.comparison.pending
    return TableCard(
        **{f.name: getattr(t, f.name) for f in fields(t)},
        edit_url=public_url("sheets.edit_link", sheet_id=sheet.id, token=sheet.edit_token)
        if editor
        else None,
        share_url=public_url("sheets.share", sheet_id=sheet.id, token=sheet.share_token),
        edit_url_b=edit_url_b,
        messages=messages,
        pending=pending,
        entered=entered,
    )


def _back_to(event: Event, t: events.EventTable) -> str:
    """The table's sheet page the tap came from (list A or B), else the series page."""
    back = parse_int(request.form.get("back", ""))
    entry = t.double_entry
    sheets = {t.sheet, entry.sheet_b.id if entry else None}
    if back is not None and back in sheets:
        return url_for("sheets.show", sheet_id=back) + "#signoff"
    return url_for("events.series", event_id=event.id, n=t.series) + f"#table-{t.table}"


@bp.post("/<int:event_id>/series/<int:n>/tables/<int:table>/confirm")
def confirm_table(event_id: int, n: int, table: int) -> Response:
    """A player's tap ("player") or the table captain's ("captain") on the table's sheet page."""
    event = load_event(event_id)
    db = service.get_db()
    try:
        t = events.find_table(db, event, n, table)
    except events.NotFound:
        abort(404)
    if not ActionForm().validate_on_submit():
        abort(400)
    if not may_sign(event, t):
        abort(refuse(403, _("Bestätigen nur mit dem Link dieses Tisches.")))
    captain = request.form.get("captain") == "1"
    try:
        events.confirm_table(db, event_id, n, table, request.form.get("player"), captain)
    except events.SignOffRefused as exc:
        flash(translate(exc.msg, page_lang()), "error")
    except InvalidDeal as exc:
        flash_errors(exc)
    return redirect(_back_to(event, t))


@bp.post("/<int:event_id>/series/<int:n>/tables/<int:table>/unlock")
def unlock_table(event_id: int, n: int, table: int) -> Response:
    """The organiser takes a table's confirmation back (series page)."""
    event = editable(event_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    db = service.get_db()
    try:
        t = events.unlock_table(db, event_id, n, table)
    except events.NotFound:
        abort(404)
    except events.SignOffRefused as exc:
        flash(translate(exc.msg, page_lang()), "error")
        return redirect(url_for("events.series", event_id=event_id, n=n))
    flash(_("Tisch %(t)s freigegeben: die Listen nehmen wieder Spiele an.", t=table))
    return redirect(_back_to(event, t))
