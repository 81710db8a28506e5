"""Pages for players (/players) and groups with their standings (/groups)."""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import RadioField, SelectField, StringField
from wtforms.validators import Optional

from skatcalc import exports, games
from skatcalc.exports import attachment, safe_name
from skatcalc.exports.charts import ON_PAGE, running_totals_svg
from skatcalc.games.form_fields import parse_int
from skatcalc.rules.common import InvalidDeal, decimal, parse_day
from skatcalc.rules.sheet import GAMES
from skatcalc.services import players, season
from skatcalc.services import sheets as service
from skatcalc.services.events import player_events
from skatcalc.services.players import Group
from skatcalc.services.season import GroupStandings
from skatcalc.text import _, field_errors, translate
from skatcalc.web import rights
from skatcalc.web.http import can_edit, refuse
from skatcalc.web.i18n import flash_errors, page_lang
from skatcalc.web.request_state import mark_private
from skatcalc.web.rights import token_matches
from skatcalc.web.sheet_view import public_url, qr_svg

players_bp = Blueprint("players", __name__, url_prefix="/players")
groups_bp = Blueprint("groups", __name__, url_prefix="/groups")


def contract_names() -> dict[str, str]:
    """Every game's contracts by key, named as a player's page lists them."""
    lang = page_lang()
    return {row.key: translate(row.short or row.name, lang) for row in games.contract_rows()}


# --- Players ----------------------------------------------------------------------------------


class RenameForm(FlaskForm):
    name = StringField()


class MergeForm(FlaskForm):
    other = SelectField(validate_choice=False)


@players_bp.get("")
def index() -> str:
    return render_template("players/list.html", players=players.list_players(service.get_db()))


def _charts(stats: season.PlayerStats) -> dict[str, Markup]:
    """Balance and money after each evening, per game, drawn like the sheet's chart."""
    out: dict[str, Markup] = {}
    for game in GAMES:
        g = stats.games.get(game)
        if not g or not g.evenings:
            continue
        bal = cents = 0
        rows = []
        points, money = _("Punkte (Bilanz)"), _("Geld in Cent")
        for e in g.evenings:
            bal += e.figures.balance
            cents += e.figures.cents
            rows.append({"totals": {points: bal, money: cents}})
        title = _("Bilanz und Geld nach jedem Abend")
        # Drawn narrower than the sheet's chart: on a phone its labels stay readable.
        svg = running_totals_svg([points, money], rows, title=title, **ON_PAGE)
        out[game] = Markup(svg)
    return out


def render_player(
    pid: int, rename: RenameForm | None = None, status: int = 200
) -> ResponseReturnValue:
    db = service.get_db()
    stats = season.player_stats(db, pid)
    merge = MergeForm()
    merge.other.choices = [
        (str(p.id), f"{p.name} ({p.sheets})") for p in players.list_players(db) if p.id != pid
    ]
    html = render_template(
        "players/show.html",
        p=stats,
        charts=_charts(stats),
        contracts=contract_names(),
        order={key: kind.contracts for key, kind in GAMES.items()},
        aliases=players.aliases(db, pid),
        log=players.player_log(db, pid),
        rename=rename or RenameForm(formdata=None, name=stats.name),
        merge=merge,
        manage=may_manage(),
        club_nights=player_events(db, stats.id),
    )
    return html, status


def admin_only() -> str:
    return _("Umbenennen und Zusammenführen nur mit dem Admin-Link des Servers.")


def may_manage() -> bool:
    """Renaming and merging change every sheet's statistics: on the network only with the
    server's admin link (rights.py), never by the client's address."""
    return rights.has_admin_right()


def _player_or_404(player_id: int) -> int:
    try:
        return players.resolve(service.get_db(), player_id)
    except service.NotFound:
        abort(404)


@players_bp.get("/<int:player_id>")
def show(player_id: int) -> ResponseReturnValue:
    pid = _player_or_404(player_id)
    if pid != player_id:  # a merged entry: the player lives on under the other id
        return redirect(url_for("players.show", player_id=pid))
    return render_player(pid)


@players_bp.post("/<int:player_id>/rename")
def rename(player_id: int) -> ResponseReturnValue:
    pid = _player_or_404(player_id)
    if not may_manage():
        abort(refuse(403, admin_only()))
    form = RenameForm()
    if not form.validate_on_submit():
        form.name.errors = [_("Das Formular ist abgelaufen; bitte noch einmal senden.")]
        return render_player(pid, form, 400)
    try:
        players.rename_player(service.get_db(), pid, form.name.data or "")
    except InvalidDeal as exc:
        form.name.errors = field_errors(exc, page_lang()).get("name", [])
        return render_player(pid, form, 422)
    flash(_("Umbenannt. Die Blätter behalten die Namen, wie sie eingetragen wurden."))
    return redirect(url_for("players.show", player_id=pid))


@players_bp.post("/<int:player_id>/merge")
def merge(player_id: int) -> ResponseReturnValue:
    """Another entry is the same person: its sheets join this player."""
    pid = _player_or_404(player_id)
    if not may_manage():
        abort(refuse(403, admin_only()))
    form = MergeForm()
    if not form.validate_on_submit():
        abort(400)
    other = parse_int(form.other.data or "")
    if other is None:
        flash(_("Bitte einen Spieler wählen."), "error")
        return redirect(url_for("players.show", player_id=pid))
    db = service.get_db()
    try:
        gone = players.get_player(db, other).name
        players.merge_players(db, pid, other)
    except service.NotFound:
        abort(404)
    except InvalidDeal as exc:
        flash_errors(exc)
        return redirect(url_for("players.show", player_id=pid))
    flash(_("„%(name)s“ zusammengeführt.", name=gone))
    return redirect(url_for("players.show", player_id=pid))


# --- Groups -----------------------------------------------------------------------------------


class GroupForm(FlaskForm):
    name = StringField()
    game = RadioField(default=games.first(), validate_choice=False)
    rank_by = SelectField(default="", validate_choice=False)
    min_sheets = StringField(validators=[Optional()])
    best = StringField(validators=[Optional()])

    def setup(self) -> GroupForm:
        self.game.choices = games.choices()
        self.rank_by.choices = rank_choices()
        return self


def rank_choices() -> list[tuple[str, str]]:
    return [
        ("", _("übliche Wertung (Skat: Seeger-Fabian, Schafkopf: Bilanz)")),
        ("seeger_fabian", "Seeger-Fabian"),
        ("list", _("Listenpunkte")),
        ("balance", _("Bilanz")),
    ]


def rank_name(rank_by: str) -> str:
    return dict(rank_choices()).get(rank_by, rank_by)


@groups_bp.get("", endpoint="index")
def group_list() -> str:
    return render_template("groups/list.html", groups=players.list_groups(service.get_db()),
                           form=GroupForm(formdata=None).setup())  # fmt: skip


def form_rules(form: GroupForm) -> dict[str, object]:
    rules: dict[str, object] = {}
    if form.rank_by.data:
        rules["rank_by"] = form.rank_by.data
    for key in ("min_sheets", "best"):
        raw = (getattr(form, key).data or "").strip()
        if raw:
            value = parse_int(raw)
            rules[key] = value if value is not None else raw
    return rules


def attach(form: GroupForm, exc: InvalidDeal) -> list[str]:
    """Each message next to its field; the rest for the top of the form."""
    general: list[str] = []
    for k, msgs in field_errors(exc, page_lang()).items():
        field = getattr(form, k.replace("rules.", ""), None)
        if field is not None:
            field.errors = list(field.errors or []) + msgs
        else:
            general += msgs
    return general


@groups_bp.post("")
def create() -> ResponseReturnValue:
    form = GroupForm().setup()
    general: list[str] = []
    if not form.validate_on_submit():
        general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
    else:
        data = {"name": form.name.data or "", "game": form.game.data, "rules": form_rules(form)}
        try:
            name, game, clean = players.normalize_group(data)
        except InvalidDeal as exc:
            general += attach(form, exc)
        else:
            group = players.create_group(service.get_db(), name, game, clean)
            flash(_("Gruppe „%(name)s“ angelegt.", name=name))
            # The group's link is its right: this browser holds it from now on, and the
            # group page shows the link to keep.
            resp = redirect(url_for("groups.show", group_id=group.id))
            return rights.remember_group_token(resp, group)
    html = render_template("groups/list.html", groups=players.list_groups(service.get_db()),
                           form=form, general=general)  # fmt: skip
    return html, 422


def _period() -> tuple[date, date, list[str]]:
    start, end = season.default_period()
    errors = []
    for key in ("from", "to"):
        raw = (request.args.get(key) or "").strip()
        if not raw:
            continue
        try:
            day = parse_day(raw)
        except ValueError:
            errors.append(_("Bitte ein Datum wie 2026-01-31."))
            continue
        if key == "from":
            start = day
        else:
            end = day
    if start > end:
        errors.append(_("„bis“ liegt vor „von“."))
        start, end = season.default_period()
    return start, end, errors


def _group_or_404(group_id: int) -> Group:
    try:
        return players.get_group(service.get_db(), group_id)
    except service.NotFound:
        abort(404)


class StandingsView(TypedDict, total=False):
    """A group's standings page (``templates/groups/show.html``) and what its PDF reads."""

    group: Group
    start: date
    end: date
    errors: object
    rows: object
    sheets: object
    standings: GroupStandings
    manage: bool
    evenings: object
    rank_name: str
    group_url: str
    qr: object
    edit_form: GroupForm
    add_form: GroupSheetForm
    action_form: GroupSheetForm


def _standings_view(group_id: int) -> StandingsView:
    group = _group_or_404(group_id)
    start, end, errors = _period()
    db = service.get_db()
    found = season.group_standings(db, group, start, end)
    view: StandingsView = {"group": group, "start": start, "end": end, "errors": errors,
                            "rows": found.rows, "sheets": found.sheets, "standings": found,
                            "manage": rights.may_change_group(group),
                            "evenings": found.evenings,
                            "rank_name": rank_name(group.rules["rank_by"])}  # fmt: skip
    if view["manage"] and rights.lan():
        # The group's link, a key to it: shown to its holders, in no cache.
        view["group_url"] = public_url("groups.edit_link", group_id=group.id,
                                       token=group.edit_token)  # fmt: skip
        view["qr"] = qr_svg
        mark_private()
    if view["manage"]:
        rules = group.rules
        edit = GroupForm(formdata=None, name=group.name, rank_by=rules["rank_by"],
                         min_sheets=str(rules["min_sheets"] or ""),
                         best="" if rules["best"] is None else str(rules["best"])).setup()  # fmt: skip
        add = GroupSheetForm(formdata=None)
        add.sheet.choices = [
            # short: the select must fit a phone; date and number tell equal names apart
            (str(s.id), f"{players.sheet_day(s):%d.%m.%y} · {s.name} (#{s.id})")
            for s in players.ungrouped_sheets(db, group.game)
            if can_edit(s)  # only the sheets this browser may move (their edit right)
        ]  # fmt: skip
        view["edit_form"], view["add_form"] = edit, add
        view["action_form"] = GroupSheetForm(formdata=None)
    return view


@groups_bp.get("/<int:group_id>", endpoint="show")
def group_show(group_id: int) -> ResponseReturnValue:
    view = _standings_view(group_id)
    status = 422 if view["errors"] else 200
    return render_template("groups/show.html", **view), status


class GroupSheetForm(FlaskForm):
    sheet = SelectField(validate_choice=False)


def _manage_group(group_id: int) -> Group:
    group = _group_or_404(group_id)
    if not rights.may_change_group(group):
        abort(refuse(403, _("Ändern nur mit dem Link dieser Gruppe.")))
    return group


@groups_bp.get("/<int:group_id>/edit/<token>")
def edit_link(group_id: int, token: str) -> Response:
    """The group's link: this browser may change the group from now on."""
    group = _group_or_404(group_id)
    if not token_matches(token, group.edit_token):  # any text, in constant time
        abort(refuse(403, _("Ändern nur mit dem Link dieser Gruppe.")))
    return rights.remember_group_token(redirect(url_for("groups.show", group_id=group_id)), group)


def _move(sheet_id: int, group_id: int | None) -> None:
    """``players.join_group``; a closed sheet or a club night's table: 409, nothing changed."""
    try:
        players.join_group(service.get_db(), sheet_id, group_id)
    except players.NotMovable as exc:
        abort(refuse(409, translate(exc.msg, page_lang())))


@groups_bp.post("/<int:group_id>/sheets")
def add_sheet(group_id: int) -> Response:
    """A sheet that was created without its group joins it afterwards: with the group's right
    and the sheet's (its edit link, or the admin's), else 403 — a group's link alone pulls
    no one else's evening into its standings."""
    group = _manage_group(group_id)
    form = GroupSheetForm()
    sid = parse_int(form.sheet.data or "")
    if not form.validate_on_submit() or sid is None:
        abort(400)
    try:
        sheet = service.load_sheet(service.get_db(), sid)
    except service.NotFound:
        abort(404)
    if not can_edit(sheet):
        abort(refuse(403, _("Ein Blatt kommt nur mit seinem Bearbeitungs-Link in eine Gruppe.")))
    try:
        _move(sid, group.id)
    except InvalidDeal as exc:
        flash_errors(exc)
    else:
        flash(_("Blatt zur Gruppe hinzugefügt."))
    return redirect(url_for("groups.show", group_id=group_id))


@groups_bp.post("/<int:group_id>/sheets/<int:sheet_id>/remove")
def remove_sheet(group_id: int, sheet_id: int) -> Response:
    """The group's right takes a sheet out of it (a sheet put in by mistake goes again)."""
    _manage_group(group_id)
    if not GroupSheetForm().validate_on_submit():
        abort(400)
    db = service.get_db()
    try:
        sheet = service.load_sheet(db, sheet_id)
    except service.NotFound:
        abort(404)
    if sheet.group_id != group_id:
        abort(404)
    _move(sheet_id, None)
    flash(_("Blatt „%(name)s“ aus der Gruppe genommen.", name=sheet.name))
    return redirect(url_for("groups.show", group_id=group_id))


@groups_bp.post("/<int:group_id>/edit")
def edit(group_id: int) -> ResponseReturnValue:
    """Rename the group or change its club rules; the standings follow at once."""
    group = _manage_group(group_id)
    form = GroupForm().setup()
    general: list[str] = []
    if not form.validate_on_submit():
        general.append(_("Das Formular ist abgelaufen; bitte noch einmal senden."))
    else:
        data = {"name": form.name.data or "", "game": group.game,
                "rules": form_rules(form)}  # fmt: skip
        try:
            name, _game, clean = players.normalize_group(data)
        except InvalidDeal as exc:
            general += attach(form, exc)
        else:
            players.update_group(service.get_db(), group_id, name, clean)
            flash(_("Gruppe gespeichert."))
            return redirect(url_for("groups.show", group_id=group_id))
    view = _standings_view(group_id)
    view["edit_form"] = form
    return render_template("groups/show.html", **view, general=general), 422


@groups_bp.get("/<int:group_id>/standings.pdf")
def pdf(group_id: int) -> Response:
    from skatcalc.exports.standings_pdf import render_standings_pdf

    group = _group_or_404(group_id)
    start, end, _errors = _period()
    lang = page_lang()
    db = service.get_db()

    def render() -> bytes:
        view = _standings_view(group_id)
        return render_standings_pdf(view["standings"], view["rank_name"], lang)

    # A tenth of a second of CPU for anyone who asks: rendered once per state of the group
    # (its sheets, their players, its rules), one render at a time, like every PDF.
    key = ("standings", group_id, group.created, start, end, lang)
    data = exports.cached_pdf(key, lambda: season.group_version(db, group_id), render)
    name = f"{safe_name(group.name, 'gruppe')}-{start}-{end}.pdf"
    return attachment(data, "application/pdf", name)


@players_bp.app_context_processor
def _helpers() -> dict[str, object]:
    def dec(value: float | None, digits: int = 1) -> str:
        """A figure with decimals as the page's language writes it: 12,5 / 12.5."""
        return "—" if value is None else decimal(value, page_lang(), digits)

    return {"dec": dec}
