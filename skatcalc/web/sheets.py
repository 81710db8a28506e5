"""The sheet pages: create, keep, correct, strike, rename and delete an evening's list."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import RadioField, SelectField, StringField
from wtforms.validators import Optional

from skatcalc import exports, games
from skatcalc.games.form_fields import field_int, parse_int
from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.sheet import normalize_sheet
from skatcalc.services import players
from skatcalc.services import sheets as service
from skatcalc.services.events import event_of_sheet
from skatcalc.services.sheets import Deal, Sheet
from skatcalc.text import _, field_errors
from skatcalc.web import rights
from skatcalc.web.deal_forms import (
    SheetRulesFields,
    attach_errors,
    correction_body,
    correction_form,
    deal_body,
    deal_form,
    deal_taken,
    form_from_deal,
    refresh_entry,
    rules_body,
)
from skatcalc.web.errors import resend_form_on_fault, show_on_refusal
from skatcalc.web.http import BadJSON, can_change_rules, can_edit, parse_json, remember_edit_token
from skatcalc.web.i18n import page_lang
from skatcalc.web.request_state import keep_sheet, kept_sheet
from skatcalc.web.rights import token_matches
from skatcalc.web.sheet_view import (
    render_deal,
    render_preview,
    render_sheet,
    sheets_page,
    taken_message,
)

bp = Blueprint("sheets", __name__, url_prefix="/sheets")
# the sheet page's download links, one per registered format
bp.add_app_template_global(exports.formats, "export_formats")


# --- Forms ------------------------------------------------------------------------------------


class NewSheetForm(FlaskForm, SheetRulesFields):
    game = RadioField(default=games.first(), validate_choice=False)
    name = StringField(validators=[Optional()])
    p1 = StringField()
    p2 = StringField()
    p3 = StringField()
    p4 = StringField()
    p5 = StringField()
    first_dealer = SelectField(default="1", validate_choice=False)
    stake_cents = StringField()
    group = SelectField(default="", validate_choice=False)

    def setup(self) -> NewSheetForm:
        # Choices are set on the bound fields: WTForms 3.3 deprecates tuples in declarations.
        self.game.choices = games.choices()
        self.first_dealer.choices = [(str(i), str(i)) for i in range(1, 6)]
        self.setup_rules()
        self.group.choices = [("", "—")] + [
            (str(g.id), f"{g.name} ({games.game(g.game).label.de})")
            for g in players.list_groups(service.get_db())
            if rights.may_change_group(g)  # only groups this browser may put a sheet into
        ]
        # The seats offer the known players (a <datalist>: suggestions without JavaScript).
        self.known_players = [p.name for p in players.list_players(service.get_db())]
        return self

    def names(self) -> list[str]:
        fields = (self.p1, self.p2, self.p3, self.p4, self.p5)
        return [(f.data or "").strip() for f in fields if (f.data or "").strip()]


# --- Edit rights on the network ---------------------------------------------------------------


def require_edit(sheet: Sheet) -> None:
    if not can_edit(sheet):
        abort(403)


def load_sheet(sheet_id: int) -> Sheet:
    """The request's sheet, read once: kept in the request's state for whatever else of the
    request asks (caching.py reads it first for its ETag; the error handlers below ask again)."""
    held = kept_sheet(sheet_id)
    return held if held is not None else reload_sheet(sheet_id)


def reload_sheet(sheet_id: int) -> Sheet:
    """The sheet read (again): on a 409 another device changed it while this request ran."""
    try:
        sheet = service.load_sheet(service.get_db(), sheet_id)
    except service.NotFound:
        abort(404)
    keep_sheet(sheet)
    return sheet


# --- Routes -----------------------------------------------------------------------------------


@bp.get("")
def index() -> str:
    form = NewSheetForm().setup()
    if not form.p1.data:
        form.p1.data, form.p2.data, form.p3.data = "", "", ""
    players.preselect_group(service.get_db(), form, request.args.get("group"))
    return sheets_page(form)


@bp.post("")
def create() -> ResponseReturnValue:
    form = NewSheetForm().setup()
    names = form.names()
    first_index = (parse_int(form.first_dealer.data or "1") or 0) - 1
    data: dict[str, object] = {
        "game": form.game.data,
        "players": names,
        "first_dealer": names[first_index] if 0 <= first_index < len(names) else None,
    }
    parse_errors: list[tuple[str, str]] = []
    stake = field_int(form.stake_cents, parse_errors)
    rules = rules_body(form, form.game.data, parse_errors)
    if stake is not None:
        rules["stake_cents"] = stake
    data["rules"] = rules
    general: list[str] = []
    if not form.validate_on_submit() and "csrf_token" in form.errors:
        general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))  # fmt: skip
    elif parse_errors:
        general += attach_errors(form, None, parse_errors, page_lang())
    else:
        try:
            spec = normalize_sheet(data)
        except InvalidDeal as exc:
            aliases = {"players": "p1", "first_dealer": "first_dealer"}
            for k, msgs in field_errors(exc, page_lang()).items():
                field = getattr(form, aliases.get(k, k.replace("rules.", "")), None)
                if field is not None and k != "_":
                    field.errors = list(field.errors or []) + msgs
                else:
                    general += msgs
        else:
            db = service.get_db()
            try:
                group_id = players.form_group(db, form.group.data, spec.game)
            except InvalidDeal as exc:
                form.group.errors = field_errors(exc, page_lang()).get("group", [])
            else:
                if group_id is not None and not rights.may_change_group(
                    players.get_group(db, group_id)
                ):
                    form.group.errors = [_("Ändern nur mit dem Link dieser Gruppe.")]
                    return sheets_page(form, general), 403
                sheet = service.create_sheet(
                    db, form.name.data, spec.game, list(spec.players), spec.first_dealer,
                    spec.rules.to_json(), group_id,
                )  # fmt: skip
                return remember_edit_token(
                    redirect(url_for("sheets.show", sheet_id=sheet.id)), sheet
                )
    return sheets_page(form, general), 422


@bp.get("/<int:sheet_id>")
def show(sheet_id: int) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    return render_sheet(sheet, share=not can_edit(sheet))


@bp.get("/<int:sheet_id>/rev")
def revision(sheet_id: int) -> ResponseReturnValue:
    """The sheet's revision, polled by open pages to notice new deals (cheap: one row)."""
    sheet = load_sheet(sheet_id)
    resp = jsonify({"rev": sheet.rev})
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/<int:sheet_id>/edit/<token>")
def edit_link(sheet_id: int, token: str) -> Response:
    sheet = load_sheet(sheet_id)
    if not token_matches(token, sheet.edit_token):
        abort(403)
    return remember_edit_token(redirect(url_for("sheets.show", sheet_id=sheet_id)), sheet)


@bp.get("/<int:sheet_id>/share/<token>")
def share(sheet_id: int, token: str) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    if not token_matches(token, sheet.share_token):
        abort(404)
    return render_sheet(sheet, share=True)


@bp.post("/<int:sheet_id>/deals")
def add_deal(sheet_id: int) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    form = deal_form(sheet, request.form)
    if not form.validate_on_submit() and "csrf_token" in form.errors:
        return render_sheet(sheet, form, [_("Das Formular ist abgelaufen; bitte noch einmal.")], 400)  # fmt: skip
    db = service.get_db()
    # A retry after a lost answer: its form proposed the dealer of the deal it stored, not the
    # dealer of the deal after it (which would read the same taps as another deal).
    again = service.keyed_number(db, sheet, (form.idem.data or "")[:100] or None)
    # worked out once: the form and the save
    if again is None:
        proposed = service.proposed_dealer(db, sheet)
    else:
        proposed = service.proposed_dealer(db, sheet, again)
    errors: list[tuple[str, str]] = []
    body = deal_body(sheet, form, proposed, errors)
    exc: InvalidDeal | None = None
    general: list[str] = []
    status = 422
    if not errors:
        try:
            key = (form.idem.data or "")[:100] or None
            n, stored, _after = service.add_deal(db, sheet, body, page_lang(), key, proposed)
        except InvalidDeal as e:
            exc = e
        except service.Taken as lost:
            # Another phone saved this number while the request ran: show the sheet as it is.
            sheet = reload_sheet(sheet_id)
            proposed = service.proposed_dealer(db, sheet)
            general.append(taken_message(sheet, lost))
            refresh_entry(sheet, form, proposed)
            status = 409
        except service.KeyReused as reused:
            general.append(_("Dieses Formular war schon als Spiel %(n)s gespeichert, seither wurde es geändert. Bitte prüfen und noch einmal speichern.", n=reused.n))  # fmt: skip
            form.idem.data = secrets.token_urlsafe(12)  # a new save, with a key of its own
            status = 409
        else:
            if stored:
                flash(_("Spiel %(n)s gespeichert.", n=n))
            else:
                flash(_("Spiel %(n)s war schon gespeichert.", n=n))
            # The page shows "Spiel n gespeichert" with an undo of that very deal.
            return redirect(url_for("sheets.show", sheet_id=sheet_id, saved=n))
    taken = deal_taken(sheet, form) if errors or exc is not None else None
    if taken is not None:
        # The number this form meant was saved by another phone meanwhile, and the deal no
        # longer fits the sheet as it is now (its declarer deals the next one, say): what is
        # there comes first, not a message about the deal as it would be next.
        general.append(taken_message(sheet, taken))
        refresh_entry(sheet, form, proposed)
        return render_sheet(sheet, form, general, 409)
    general += attach_errors(form, exc, errors, page_lang())
    return render_sheet(sheet, form, general, status)


@bp.post("/<int:sheet_id>/preview")
def preview(sheet_id: int) -> Response:
    """The entry form's live preview: the form as it would be saved, counted as the next deal
    (Bock included), as an HTML fragment; nothing is stored."""
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    form = deal_form(sheet, request.form)
    errors: list[tuple[str, str]] = []
    body = deal_body(sheet, form, service.proposed_dealer(service.get_db(), sheet), errors)
    body.pop("n", None)  # the number the form showed: the preview is always of the next deal
    return render_preview(sheet, form, body, errors)


@bp.post("/<int:sheet_id>/deals/<int:n>/preview")
def preview_correction(sheet_id: int, n: int) -> Response:
    """The correction form's live preview: deal ``n`` as the correction would make it."""
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    deal = find_deal(sheet, n)
    form = correction_form(sheet, deal, request.form)
    errors: list[tuple[str, str]] = []
    body = correction_body(sheet, form, deal, errors)  # as saving the correction does
    body["n"] = n
    return render_preview(sheet, form, body, errors)


def find_deal(sheet: Sheet, n: int) -> Deal:
    try:
        return service.get_deal(service.get_db(), sheet, n)
    except service.NotFound:
        abort(404)


@bp.route("/<int:sheet_id>/deals/<int:n>/edit", methods=["GET", "POST"])
def edit_deal(sheet_id: int, n: int) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    deal = find_deal(sheet, n)
    general: list[str] = []
    status = 200
    if request.method == "GET":
        form = form_from_deal(sheet, deal)
    else:
        require_edit(sheet)
        form = correction_form(sheet, deal, request.form)
        errors: list[tuple[str, str]] = []
        body = correction_body(sheet, form, deal, errors)
        version = form.version.data
        expected = parse_int(version or "")
        exc: InvalidDeal | None = None
        if not form.validate_on_submit() and "csrf_token" in form.errors:
            general.append(_("Das Formular ist abgelaufen; bitte noch einmal."))  # fmt: skip
            status = 400
        elif not errors:
            if same_body(body, correction_body(sheet, form_from_deal(sheet, deal), deal, [])):
                # the form as the deal filled it: the deal as stored (which may say the same in
                # other words, as an app sent it) goes to the one write path, which stores
                # nothing and leaves the version, the history and the revision as they are;
                # with the form's version, so a change another phone made meanwhile is a
                # conflict, never undone
                body = dict(deal.input)
            try:
                saved = service.correct_deal(service.get_db(), sheet, n, body, page_lang(),
                                             expected, current=deal)  # fmt: skip
            except InvalidDeal as e:
                exc = e
            except service.Conflict as conflict:
                # The deal as it is now on top, the correction below as typed (through the
                # one mapping, now meaning the current version): nothing typed is lost, and
                # saving again is a choice made knowing the other change.
                general.append(_("Dieses Spiel wurde inzwischen auf einem anderen Gerät geändert. Oben steht der aktuelle Stand, unten die Korrektur wie eingegeben; bitte prüfen und noch einmal speichern."))  # fmt: skip
                sheet, deal = reload_sheet(sheet_id), conflict.current
                form = form_from_deal(sheet, deal, body)
                status = 409
            else:
                if saved.rev == sheet.rev:
                    flash(_("Spiel %(n)s unverändert: nichts gespeichert.", n=n))
                else:
                    flash(_("Spiel %(n)s korrigiert.", n=n))
                return redirect(url_for("sheets.show", sheet_id=sheet_id) + f"#deal-{n}")
        if status == 200:
            status = 422
        general += attach_errors(form, exc, errors, page_lang())
    return render_deal(sheet, deal, form, general, status)


def same_body(a: Mapping[str, object], b: Mapping[str, object]) -> bool:
    """Whether two bodies of one correction form say the same: a hand of cards is a set (the
    form lists them in the page's order, the stored body in the order they were sent)."""

    def plain(body: Mapping[str, object]) -> dict[str, object]:
        cards = body.get("cards")
        if not isinstance(cards, list):
            return dict(body)
        return {**body, "cards": sorted(str(c).upper() for c in cards)}

    return plain(a) == plain(b)


class ActionForm(FlaskForm):
    pass


def _checked_post(sheet: Sheet) -> None:
    require_edit(sheet)
    if not ActionForm().validate_on_submit():
        abort(400)


@bp.post("/<int:sheet_id>/deals/<int:n>/strike")
def strike(sheet_id: int, n: int) -> Response:
    sheet = load_sheet(sheet_id)
    _checked_post(sheet)
    try:
        service.strike_deal(service.get_db(), sheet, n)
    except service.NotFound:
        abort(404)
    # what a strike keeps: said where it happens, so nobody fears the deal is gone
    flash(
        _(
            "Spiel %(n)s gestrichen: es zählt nicht mehr und bleibt durchgestrichen in der Liste; „Wiederherstellen“ auf seiner Seite holt es zurück.",
            n=n,
        )
    )
    return redirect(url_for("sheets.show", sheet_id=sheet_id) + f"#deal-{n}")


@bp.post("/<int:sheet_id>/deals/<int:n>/restore")
def restore(sheet_id: int, n: int) -> Response:
    sheet = load_sheet(sheet_id)
    _checked_post(sheet)
    try:
        service.restore_deal(service.get_db(), sheet, n)
    except service.NotFound:
        abort(404)
    flash(_("Spiel %(n)s wiederhergestellt: es zählt wieder.", n=n))
    return redirect(url_for("sheets.show", sheet_id=sheet_id) + f"#deal-{n}")


@bp.post("/<int:sheet_id>/undo")
def undo(sheet_id: int) -> Response:
    """Take back a save: strike deal ``n``, the one the button named. A second tap, or a
    tap on a page that was out of date, strikes nothing more."""
    sheet = load_sheet(sheet_id)
    _checked_post(sheet)
    db = service.get_db()
    n = parse_int(request.form.get("n", ""))
    if n is None:
        flash(_("Welches Spiel? Bitte die Seite neu laden und noch einmal tippen."), "error")
        return redirect(url_for("sheets.show", sheet_id=sheet_id))
    try:
        struck = service.undo_save(db, sheet, n).changed
    except service.NotFound:
        flash(_("Spiel %(n)s gibt es nicht.", n=n), "error")
        return redirect(url_for("sheets.show", sheet_id=sheet_id))
    if struck:
        flash(
            _(
                "Spiel %(n)s gestrichen (rückgängig): es bleibt durchgestrichen in der Liste; „Wiederherstellen“ auf seiner Seite holt es zurück.",
                n=n,
            )
        )
    else:
        flash(_("Spiel %(n)s war schon gestrichen; nichts weiter geändert.", n=n))
    return redirect(url_for("sheets.show", sheet_id=sheet_id))


class RulesForm(FlaskForm, SheetRulesFields):
    """A sheet's house rules during the evening (the "Hausregeln" page)."""

    stake_cents = StringField()


def rules_page(sheet: Sheet, form: RulesForm, general: list[str],
               status: int = 200) -> ResponseReturnValue:  # fmt: skip
    n = len(service.computed(service.get_db(), sheet).rows) + 1
    html = render_template("sheets/rules.html", sheet=sheet, form=form, general=general,
                           from_n=n, changes=service.rule_changes_json(sheet))  # fmt: skip
    return html, status


@bp.route("/<int:sheet_id>/rules", methods=["GET", "POST"])
def house_rules(sheet_id: int) -> ResponseReturnValue:
    """Change the house rules from the next deal on (the stake: for the whole evening)."""
    sheet = load_sheet(sheet_id)
    db = service.get_db()
    if not can_change_rules(sheet, service.rules_event(db, sheet)):
        abort(403)
    form = RulesForm()
    form.setup_rules()
    if request.method == "GET":
        form.fill_rules(sheet.rules)
        form.stake_cents.data = str(sheet.rules.get("stake_cents", 0))
        return rules_page(sheet, form, [])
    if not form.validate_on_submit():
        return rules_page(sheet, form, [_("Das Formular ist abgelaufen; bitte noch einmal senden.")], 400)  # fmt: skip
    errors: list[tuple[str, str]] = []
    rules = rules_body(form, sheet.game, errors)
    if "stake" in games.game(sheet.game).rule_controls:
        stake = field_int(form.stake_cents, errors)
        if stake is not None:
            rules["stake_cents"] = stake
    if errors:
        return rules_page(sheet, form, attach_errors(form, None, errors, page_lang()), 422)
    try:
        changed = service.change_rules(db, sheet, {"rules": rules}, whole=True)
    except InvalidDeal as exc:
        general = []
        for k, msgs in field_errors(exc, page_lang()).items():
            field = getattr(form, k.replace("rules.", ""), None)
            if field is not None and k != "_":
                field.errors = list(field.errors or []) + msgs
            else:
                general += msgs
        return rules_page(sheet, form, general, 422)
    flash(_("Hausregeln geändert: sie gelten ab Spiel %(n)s.", n=len(
        service.computed(db, changed.sheet).rows) + 1) if changed.changed
        else _("Die Hausregeln bleiben, wie sie sind."))  # fmt: skip
    was, now = sheet.rules.get("bierlachs"), changed.sheet.rules.get("bierlachs")
    if not was and now:  # the settlement's unit changed with it: said, not left to find out
        flash(_("Bierlachs ist an: der Einsatz gilt jetzt je Bierlachs, nicht mehr je Punkt."))
    elif was and not now:
        flash(_("Bierlachs ist aus: der Einsatz gilt wieder je Punkt."))
    return redirect(url_for("sheets.show", sheet_id=sheet_id))


class RenameForm(FlaskForm):
    name = StringField()


@bp.post("/<int:sheet_id>/rename")
def rename(sheet_id: int) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    form = RenameForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        service.rename_sheet(service.get_db(), sheet, form.name.data)
    except service.BadName:
        flash(_("Der Name muss 1 bis 80 Zeichen haben."),
              "error")  # fmt: skip
    else:
        flash(_("Umbenannt."))
    return redirect(url_for("sheets.show", sheet_id=sheet_id))


@bp.post("/<int:sheet_id>/close")
def close(sheet_id: int) -> ResponseReturnValue:
    """ "Abend abschließen": the sheet becomes read-only until reopened."""
    return _set_closed(sheet_id, True)


@bp.post("/<int:sheet_id>/reopen")
def reopen(sheet_id: int) -> ResponseReturnValue:
    return _set_closed(sheet_id, False)


def _set_closed(sheet_id: int, closed: bool) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    _checked_post(sheet)
    try:
        service.close_sheet(service.get_db(), sheet, closed)
    except service.TableOfEvent as table:
        return render_sheet(sheet, None, [table_of_event_message(table, closed)], 409)
    flash(_("Abend abgeschlossen.") if closed else _("Abend wieder geöffnet."))
    return redirect(url_for("sheets.show", sheet_id=sheet_id))


def table_of_event_message(table: service.TableOfEvent, closed: bool) -> str:
    name = table.event.name
    if closed:
        return _("Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr abgeschlossen.", name=name)  # fmt: skip
    return _("Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr wieder geöffnet.", name=name)  # fmt: skip


@bp.route("/<int:sheet_id>/delete", methods=["GET", "POST"])
def delete(sheet_id: int) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    event = event_of_sheet(service.get_db(), sheet_id)
    if event is not None:  # a table's list is part of its event's ranking and printout
        flash(_("Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr gelöscht.",
                name=event.name), "error")  # fmt: skip
        return redirect(url_for("sheets.show", sheet_id=sheet_id))
    if sheet.closed:  # a settled evening goes only after it was reopened
        flash(_("Der Abend ist abgeschlossen; zum Löschen erst wieder öffnen."), "error")
        return redirect(url_for("sheets.show", sheet_id=sheet_id))
    if request.method == "POST":
        _checked_post(sheet)
        service.delete_sheet(service.get_db(), sheet_id)
        flash(_("Blatt „%(name)s“ gelöscht.", name=sheet.name))
        return redirect(url_for("sheets.index"))
    return render_template("sheets/delete.html", sheet=sheet)


@bp.get("/<int:sheet_id>/export.<fmt>")
def export(sheet_id: int, fmt: str) -> ResponseReturnValue:
    sheet = load_sheet(sheet_id)
    try:
        return exports.download(service.get_db(), sheet, fmt, page_lang())
    except service.NotFound:
        abort(404)


class ImportForm(FlaskForm):
    pass


@bp.post("/import")
def import_file() -> ResponseReturnValue:
    if not ImportForm().validate_on_submit():
        abort(400)
    upload = request.files.get("file")
    general: list[str] = []
    if upload is None or not upload.filename:
        general.append(_("Bitte eine .json-Datei wählen."))
    else:
        try:
            data = parse_json(upload.read(), exports.import_object)
            # "… (Import)": in the list the copy is told apart from the sheet it came from
            sheet = exports.import_json(service.get_db(), data, service.IMPORT_SUFFIX)
        except BadJSON:
            general.append(_("Die Datei ist kein gültiges JSON."))
        except InvalidDeal as exc:
            for msgs in field_errors(exc, page_lang()).values():
                general += msgs
        else:
            flash(_("Blatt importiert."))
            # Whoever imports the evening may keep it, on the network too (the edit cookie).
            url = url_for("sheets.show", sheet_id=sheet.id)
            return remember_edit_token(redirect(url), sheet)
    form = NewSheetForm(formdata=None).setup()
    return make_response(sheets_page(form, import_errors=general), 422)


# --- Storage faults: the form comes back with everything typed --------------------------------


@resend_form_on_fault("sheets.add_deal", "sheets.edit_deal", "sheets.create", "sheets.import_file")
def form_again(text: str, status: int) -> Response | None:
    """The page of the form just sent, filled in as it was sent, with ``text`` above it
    (errors.py calls it for a storage fault on a post of one of these endpoints)."""
    endpoint, args = request.endpoint, request.view_args or {}
    db = service.get_db()
    if endpoint == "sheets.add_deal":
        sheet = load_sheet(args["sheet_id"])
        return render_sheet(sheet, deal_form(sheet, request.form), [text], status)
    if endpoint == "sheets.edit_deal":
        sheet = load_sheet(args["sheet_id"])
        deal = service.get_deal(db, sheet, args["n"])
        return render_deal(sheet, deal, correction_form(sheet, deal, request.form), [text], status)
    if endpoint == "sheets.create":
        return make_response(sheets_page(NewSheetForm().setup(), general=[text]), status)
    if endpoint == "sheets.import_file":
        form = NewSheetForm(formdata=None).setup()
        return make_response(sheets_page(form, import_errors=[text]), status)
    return None


@show_on_refusal("sheets.add_deal", "sheets.edit_deal", "sheets.strike", "sheets.restore",
                 "sheets.undo", "sheets.rename")  # fmt: skip
def refused_page(text: str, status: int) -> Response | None:
    """A write refused as settled (closed, or its series finished): the sheet as it is now
    with the message, and an entry or correction as typed (errors.settled calls it)."""
    endpoint, args = request.endpoint, request.view_args or {}
    sheet = reload_sheet(args["sheet_id"])
    if endpoint == "sheets.add_deal":
        return render_sheet(sheet, deal_form(sheet, request.form), [text], status)
    if endpoint == "sheets.edit_deal":
        deal = service.get_deal(service.get_db(), sheet, args["n"])
        return render_deal(sheet, deal, correction_form(sheet, deal, request.form), [text], status)
    return render_sheet(sheet, None, [text], status)
