"""The sheet pages: create, keep, correct, strike, rename and delete an evening's list."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from sqlite_utils import Database
from werkzeug.wrappers import Response
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import Optional

from . import exports, players, service
from .charts import running_totals_svg
from .deal_forms import (
    MultiCheckboxField,
    SchafkopfGameForm,
    SkatForm,
    TariffFields,
    attach_errors,
    field_int,
    parse_int,
    schafkopf_input,
    skat_input,
)
from .http import BadJSON, can_edit, parse_json, refuse, remember_edit_token, token_matches
from .i18n import _, num, page_lang
from .rules.common import InvalidDeal, number
from .rules.marks import BOCK, LOST, STRUCK, describe_row, legend
from .rules.sheet import (
    BOCK_NAMES,
    SCHAFKOPF_BOCK_TRIGGERS,
    SKAT_BOCK_TRIGGERS,
    SheetSpec,
    default_active,
    describe_rules,
    evaluate_deal,
    forehand,
    normalize_sheet,
    seat_after,
)
from .rules.stats import statistics

bp = Blueprint("sheets", __name__, url_prefix="/sheets")


# --- Forms ------------------------------------------------------------------------------------


class NewSheetForm(FlaskForm, TariffFields):
    game = RadioField(default="skat", validate_choice=False)
    name = StringField(validators=[Optional()])
    p1 = StringField()
    p2 = StringField()
    p3 = StringField()
    p4 = StringField()
    p5 = StringField()
    first_dealer = SelectField(default="1", validate_choice=False)
    kontra_re = BooleanField()
    ramsch = BooleanField()
    bock = MultiCheckboxField(validators=[Optional()])
    stake_cents = StringField()
    group = SelectField(default="", validate_choice=False)

    def setup(self) -> NewSheetForm:
        # Choices are set on the bound fields: WTForms 3.3 deprecates tuples in declarations.
        self.game.choices = [("skat", "Skat"), ("schafkopf", "Schafkopf")]
        self.first_dealer.choices = [(str(i), str(i)) for i in range(1, 6)]
        self.bock.choices = [(b, BOCK_NAMES[b].text(page_lang())) for b in SKAT_BOCK_TRIGGERS]
        self.group.choices = [("", "—")] + [
            (str(g["id"]), f"{g['name']} ({'Skat' if g['game'] == 'skat' else 'Schafkopf'})")
            for g in players.list_groups(service.get_db())
        ]
        # The seats offer the known players (a <datalist>: suggestions without JavaScript).
        self.known_players = [p["name"] for p in players.list_players(service.get_db())]
        return self

    def names(self) -> list[str]:
        fields = (self.p1, self.p2, self.p3, self.p4, self.p5)
        return [(f.data or "").strip() for f in fields if (f.data or "").strip()]


class DealMeta(FlaskForm):
    kind = RadioField(validators=[Optional()], validate_choice=False, default="game")
    declarer = RadioField(validators=[Optional()], validate_choice=False)
    dealer = SelectField(validators=[Optional()], validate_choice=False)
    active = MultiCheckboxField(validators=[Optional()])
    r0 = StringField()
    r1 = StringField()
    r2 = StringField()
    r3 = StringField()
    r4 = StringField()
    jungfrau = MultiCheckboxField(validators=[Optional()])
    ramsch_points = HiddenField()  # no input of its own: carries the messages about r0…r4
    durchmarsch = RadioField(validators=[Optional()], validate_choice=False)
    version = HiddenField()
    idem = HiddenField()
    n = HiddenField()  # the deal number the entry form showed
    dealer_shown = HiddenField()  # the dealer it proposed: unchanged means "the rotation"


class SkatDealForm(SkatForm, DealMeta):
    pass


class SchafkopfDealForm(SchafkopfGameForm, DealMeta):
    pass


def deal_form(sheet: dict[str, Any], formdata: Any = None, **kwargs: Any) -> Any:
    players = sheet["players"]
    if sheet["game"] == "skat":
        form: Any = SkatDealForm(formdata, **kwargs).setup()
    else:
        form = SchafkopfDealForm(formdata, **kwargs).setup(players)
    # Under the Ramsch house rule nobody "passes in": an all-pass deal is played as Ramsch.
    if sheet["rules"].get("ramsch"):
        kinds = [("game", _("Spiel")), ("ramsch", "Ramsch")]
    else:
        kinds = [("game", _("Spiel")), ("passed", _("eingepasst"))]
    form.kind.choices = kinds
    form.declarer.choices = [(p, p) for p in players]
    form.dealer.choices = [(p, p) for p in players]
    form.active.choices = [(p, p) for p in players]
    form.jungfrau.choices = [(p, p) for p in players]
    form.durchmarsch.choices = [("", "—")] + [(p, p) for p in players]
    if not form.kind.data:
        form.kind.data = "game"
    if not form.idem.data:
        form.idem.data = secrets.token_urlsafe(12)
    return form


def deal_body(sheet: dict[str, Any], form: Any, proposed_dealer: str,
              errors: list[tuple[str, str]]) -> dict[str, Any]:  # fmt: skip
    """The API deal body from the sheet's entry form."""
    players = sheet["players"]
    spec = service.spec_of(sheet)
    dealer, active = form_placement(spec, form, proposed_dealer)
    body: dict[str, Any]
    if form.kind.data == "passed":
        body = {"passed": True}
    elif form.kind.data == "ramsch":
        # Only the three who played have points (at 4 and 5 the dealer sits out).
        # (a dealer who is not at the table is refused below, with its message)
        playing = active or (default_active(spec, dealer) if dealer in players else ())
        points: dict[str, int] = {}
        for i, p in enumerate(players):
            raw = (getattr(form, f"r{i}").data or "").strip()
            if raw and p in playing:
                value = parse_int(raw)
                if value is None:
                    errors.append((f"r{i}", _("Bitte eine ganze Zahl eingeben.")))
                else:
                    points[p] = value
        ramsch = {
            "points": points,
            "jungfrau": list(form.jungfrau.data or []),
            "durchmarsch": form.durchmarsch.data or None,
        }
        if sheet["game"] == "skat":
            body = {"ramsch": ramsch}
        else:
            body = {"game": "ramsch", **ramsch}
    elif sheet["game"] == "skat":
        body = skat_input(form, errors)
        if form.declarer.data:
            body["declarer"] = form.declarer.data
    else:
        body = schafkopf_input(form, errors)
    if dealer != proposed_dealer:
        body["dealer"] = dealer
    if active is not None:
        body["active"] = list(active)
    n = parse_int(form.n.data or "") if hasattr(form, "n") else None
    if n is not None and n > 0:
        body["n"] = n
    return body


def form_placement(spec: SheetSpec, form: Any, proposed_dealer: str
                   ) -> tuple[str, tuple[str, ...] | None]:  # fmt: skip
    """The dealer of the form's deal, and who played when that is not the rotation's."""
    players = spec.players
    dealer = form.dealer.data or proposed_dealer
    chosen = list(form.active.data or [])
    shown = form.dealer_shown.data
    if shown in players and dealer == shown:
        # The person left the proposed dealer alone: the dealer is whoever the rotation says
        # now (another phone may have saved or struck a deal meanwhile), and so are the
        # players unless they were changed on this form.
        dealer = proposed_dealer
        if set(chosen) == set(default_active(spec, shown)):
            chosen = []
    if chosen and dealer in players and set(chosen) != set(default_active(spec, dealer)):
        # from forehand on, as the rotation lists them
        return dealer, tuple(p for k in range(1, len(players) + 1)
                             if (p := seat_after(players, dealer, k)) in chosen)  # fmt: skip
    return dealer, None


@bp.app_template_global("forehand")
def forehand_of(players: list[str], dealer: str, active: list[str]) -> str | None:
    """Vorhand of a deal for the entry and correction forms."""
    return forehand(players, dealer, active)


# --- Edit rights on the network ---------------------------------------------------------------


def require_edit(sheet: dict[str, Any]) -> None:
    if not can_edit(sheet):
        abort(403)


def load_sheet(sheet_id: int) -> dict[str, Any]:
    """The request's sheet, read once: kept in ``g`` for whatever else of the request asks
    (caching.py reads it first for its ETag; the error handlers below ask again)."""
    held = g.get("loaded_sheet")
    if held is not None and held["id"] == sheet_id:
        return held  # type: ignore[no-any-return]
    return reload_sheet(sheet_id)


def reload_sheet(sheet_id: int) -> dict[str, Any]:
    """The sheet read (again): on a 409 another device changed it while this request ran."""
    try:
        sheet = service.load_sheet(service.get_db(), sheet_id)
    except service.NotFound:
        abort(404)
    g.loaded_sheet = sheet
    return sheet


# --- Routes -----------------------------------------------------------------------------------


@bp.get("")
def index() -> str:
    form = NewSheetForm().setup()
    if not form.p1.data:
        form.p1.data, form.p2.data, form.p3.data = "", "", ""
    players.preselect_group(service.get_db(), form, request.args.get("group"))
    return sheets_page(form)


def sheets_page(form: NewSheetForm, general: list[str] | None = None,
                import_errors: list[str] | None = None) -> str:  # fmt: skip
    """The list of sheets with the new-sheet and the import form, each with its messages."""
    return render_template("sheets/list.html", form=form, sheets=sheet_summaries(),
                           general=general or [], import_errors=import_errors or [],
                           schafkopf_bock=SCHAFKOPF_BOCK_TRIGGERS)  # fmt: skip


def sheet_summaries() -> list[dict[str, Any]]:
    """Each sheet with its deal count and leader. The figures come from the summary cache
    (one row per sheet and revision, derived from the deals); only sheets changed since
    their summary was made are computed again."""
    db = service.get_db()

    def summarize(s: dict[str, Any]) -> dict[str, Any]:
        computed = service.computed_sheet(db, s, page_lang())
        return {"balance": computed["totals"]["balance"], "deals": len(computed["deals"])}

    out = []
    for s, summary in service.sheet_summaries(db, summarize):
        out.append({**s, **summary, "leader": leader_of(s["players"], summary)})
    return out


@bp.post("")
def create() -> Any:
    form = NewSheetForm().setup()
    names = form.names()
    first_index = (parse_int(form.first_dealer.data or "1") or 0) - 1
    data: dict[str, Any] = {
        "game": form.game.data,
        "players": names,
        "first_dealer": names[first_index] if 0 <= first_index < len(names) else None,
    }
    parse_errors: list[tuple[str, str]] = []
    rules: dict[str, Any] = {
        "ramsch": bool(form.ramsch.data),
        "bock": [b for b in (form.bock.data or []) if b in (
            SKAT_BOCK_TRIGGERS if form.game.data == "skat" else SCHAFKOPF_BOCK_TRIGGERS)],
    }  # fmt: skip
    stake = field_int(form.stake_cents, parse_errors)
    if stake is not None:
        rules["stake_cents"] = stake
    if form.game.data == "skat":
        rules["kontra_re"] = bool(form.kontra_re.data)
    else:
        rules["tariffs"] = form.tariff_values(parse_errors)
        rules["tout_counts_schneider_schwarz"] = bool(form.tout_counts.data)
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
            for k, msgs in exc.by_field(page_lang()).items():
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
                form.group.errors = exc.by_field(page_lang()).get("group", [])
            else:
                sheet = service.create_sheet(
                    db, form.name.data, spec.game, list(spec.players), spec.first_dealer,
                    spec.rules.to_json(), group_id,
                )  # fmt: skip
                return remember_edit_token(
                    redirect(url_for("sheets.show", sheet_id=sheet["id"])), sheet
                )
    return sheets_page(form, general), 422


def render_sheet(sheet: dict[str, Any], form: Any = None, general: list[str] | None = None,
                 status: int = 200, share: bool = False) -> Any:  # fmt: skip
    db = service.get_db()
    data = service.computed_sheet(db, sheet, page_lang())
    proposed = data["next_dealer"]
    spec = service.spec_of(sheet)
    if form is None:
        form = deal_form(sheet)
        form.dealer.data = proposed
        form.active.data = list(default_active(spec, proposed))
    rules = [m.text(page_lang()) for m in describe_rules(spec)]
    html = render_template(
        "sheets/show.html",
        saved=None if share else saved_line(sheet, data),
        legend=legend(sheet["game"], page_lang()),
        sheet=sheet,
        data=data,
        form=form,
        general=general or [],
        rules=rules,
        share=share,
        lan=bool(current_app.config.get("LAN")),
        share_url=public_url("sheets.share", sheet_id=sheet["id"], token=sheet["share_token"]),
        edit_url=public_url("sheets.edit_link", sheet_id=sheet["id"], token=sheet["edit_token"]),
        qr=qr_svg,
        proposed=proposed,
        proposed_active=default_active(spec, proposed),
        leaders=leaders_of(sheet["players"], data),
        event=table_of_event(db, sheet, data),
        **service.derived(
            sheet, "page", lambda: sheet_view(db, sheet, data, share), page_lang(), share
        ),  # fmt: skip
    )
    resp = make_response(html, status)
    if not share and current_app.config.get("LAN"):
        # This page carries the edit link, a key to the sheet: no cache may keep it.
        resp.headers["Cache-Control"] = "private, no-store"
        g.carries_edit_link = True
    return resp


def table_of_event(db: Database, sheet: dict[str, Any], data: dict[str, Any]
                   ) -> dict[str, Any] | None:  # fmt: skip
    """For a table's sheet at a club night: its event, series, table and deals left."""
    from .event_service import event_of_sheet

    event = event_of_sheet(db, sheet["id"])
    if event is not None:
        played = sum(1 for d in data["deals"] if not d["struck"])
        event["left"] = max(0, event["deals"].get(str(len(sheet["players"])), 0) - played)
    return event


def saved_line(sheet: dict[str, Any], data: dict[str, Any]) -> dict[str, Any] | None:
    """The deal a save just stored (``?saved=<n>`` after the redirect), for the one-line
    confirmation with its undo; None when there is none or it is struck already."""
    n = parse_int(request.args.get("saved", ""))
    row = next((d for d in data["deals"] if d["n"] == n), None) if n else None
    if row is None or row["struck"]:
        return None
    lang = page_lang()
    text = describe_row(sheet["game"], row)
    who = row.get("declarer") if sheet["game"] == "skat" and row.get("kind") == "game" else None
    if sheet["game"] == "skat":  # the list entry, as on paper
        amount = " ".join(num(v, True) for v in row["list"].values() if v)
    elif row.get("kind") == "game" and row.get("party"):
        # like Skat: who played and what it brought each of them, signed (Solo lost: C −60)
        who = "+".join(row["party"])
        amount = num(row["deltas"][row["party"][0]], True)
    else:
        amount = "" if text.value is None else str(text.value)
    return {"n": row["n"], "who": who, "contract": text.contract.text(lang),
            "marks": [m.text(lang) for m in text.marks], "amount": amount}  # fmt: skip


def sheet_view(db: Database, sheet: dict[str, Any], data: dict[str, Any], share: bool
               ) -> dict[str, Any]:  # fmt: skip
    """Everything on the sheet page that follows from the deals alone, rendered once per
    revision of the sheet (the row loop is most of the page's work)."""
    chart = None
    if data["deals"]:
        title = _("Verlauf der Stände")
        chart = Markup(running_totals_svg(sheet["players"], data["deals"], title=title))
    return {
        "rows_html": table_rows_html(sheet, data, share),
        "history_html": Markup(
            render_template(
                "sheets/_history.html",
                history=history_rows(sheet, service.history(db, sheet)),
            )
        ),  # fmt: skip
        "chart": chart,
        "stats": statistics(sheet["game"], sheet["players"], data["deals"]),
    }


def table_rows_html(sheet: dict[str, Any], data: dict[str, Any], share: bool) -> Markup:
    """The sheet's rows as HTML. This is the page's hot path (a row per deal), so it is built
    here in one pass rather than in a template loop; every text from a player or the rules
    goes through ``escape``, the rest are numbers and fixed class names.

    A row depends only on its deal and the deals before it (running totals, Bock), so while
    the deals' ``(n, version, struck)`` are unchanged from the first on, the rows rendered for
    an earlier revision are taken as they are: a save renders one new row, a correction of
    deal 3 the rows from 3 on (the same reasoning as the computation's resume in the service).

    On a phone the stylesheet lays each row out as a card: number, contract, marks and the
    row's number on one line, the players' running totals in the columns of the standings
    strip below it."""
    lang = page_lang()
    base = url_for("sheets.show", sheet_id=sheet["id"])
    key = (sheet["share_token"], lang, share, base, tuple(sheet["players"]),
           json.dumps(sheet["rules"], sort_keys=True), sheet["game"])  # fmt: skip
    rows = data["deals"]
    signature = tuple(row_signature(d) for d in rows)
    with _ROWS_LOCK:
        held = _ROWS.get(key)
    done: list[str] = []
    if held is not None:
        old_sig, old_html = held
        same = 0
        for a, b in zip(old_sig, signature, strict=False):
            if a != b:
                break
            same += 1
        done = old_html[:same]
    if len(done) < len(rows):
        ctx = RowContext(sheet, lang, base, share)
        done = [*done, *(table_row_html(ctx, d) for d in rows[len(done) :])]
    _keep_rows(key, signature, done)
    return Markup("".join(done))


def row_signature(d: Any) -> tuple[int, int, bool]:
    """What identifies a computed row's deal as stored: number, version and struck flag."""
    return (d["n"], d.get("version", 0), bool(d["struck"]))


class RowContext:
    """What every row of one sheet page shares (computed once per page, not per row)."""

    def __init__(self, sheet: dict[str, Any], lang: str, base: str, share: bool) -> None:
        self.game = sheet["game"]
        self.players = sheet["players"]
        self.skat = sheet["game"] == "skat"
        self.lang = lang
        self.base = base
        self.share = share
        self.trig = escape(_("löst Bock aus"))
        self.calc = escape(_("Rechnung"))


def table_row_html(ctx: RowContext, d: dict[str, Any]) -> str:
    """One deal's row of the sheet table."""
    lang = ctx.lang
    n = d["n"]
    text = describe_row(ctx.game, d)
    cls = " ".join(c for c, on in (("struck", d["struck"]), ("bock", d["bock"])) if on)
    parts = [f'<tr id="deal-{n}"', f' class="{cls}">' if cls else ">",
             f'<td class=k>{n}</td><td class=d>{escape(d["dealer"])}</td>',
             '<td class="game">']  # fmt: skip
    who = ""
    if ctx.skat and d.get("kind") == "game" and d.get("declarer"):
        who = f"<b>{escape(d['declarer'])}</b> "
    contract = escape(text.contract.text(lang))
    if ctx.share:
        parts.append(f"{who}{contract}")
    else:  # the deal's own page: its calculation, correction and strike
        parts.append(f'<a href="{ctx.base}/deals/{n}/edit">{who}{contract}</a>')
    for m in text.marks:
        word = escape(m.text(lang))
        mark = MARK_CLASS.get(m, "")
        parts.append(f" <span class=mk{mark}>{word}</span>")
    if d.get("bock_trigger"):
        parts.append(f' <span class="mk trig" title="{ctx.trig}">→Bock</span>')
    steps = d.get("explanation") or []
    if steps and ctx.share:
        items = "".join(f"<li>{escape(x)}</li>" for x in steps)
        parts.append(f'<details class="why"><summary>{ctx.calc}</summary>'
                     f'<ol class="steps">{items}</ol></details>')  # fmt: skip
    value = "" if text.value is None else text.value
    parts.append(f"</td><td class=v>{value}</td>")
    if ctx.skat:  # the classic list: only the declarer's entry (Ramsch: the loser's)
        entries = [number(v, lang, True) for v in d["list"].values() if v]
        parts.append(f"<td class=l>{' '.join(entries)}</td>")
    for p in ctx.players:
        # <td class=m>: the running total is negative; <i>: the deal's change, sign-coloured
        tot, delta = d["totals"][p], d["deltas"][p]
        small = (
            f"<i class={'m' if delta < 0 else 'p'}>{number(delta, lang, True)}</i>" if delta else ""
        )
        parts.append(f"<td{' class=m' if tot < 0 else ''}>{number(tot, lang, True)}{small}</td>")
    row_sum = sum(d["deltas"].values())
    parts.append(f"<td class={'bad' if row_sum else 's'}>{row_sum}</td>")
    parts.append("</tr>\n")
    return "".join(parts)


# The rows of each sheet page variant (sheet, language, share view, …) as last rendered, with
# their deals' signatures: only the latest rendering is kept, since an older revision can no
# longer be asked for. Bounded by bytes (a 1,000-deal sheet's rows are ~0.5 MB), least
# recently used first.
_ROWS: OrderedDict[tuple[Any, ...], tuple[tuple[tuple[int, int, bool], ...], list[str]]] = (
    OrderedDict()
)
_ROWS_BYTES = 16 * 1024 * 1024
_ROWS_LOCK = threading.Lock()
_rows_size = 0


def _keep_rows(key: tuple[Any, ...], signature: tuple[tuple[int, int, bool], ...],
               rows: list[str]) -> None:  # fmt: skip
    global _rows_size
    size = sum(len(r) for r in rows)
    with _ROWS_LOCK:
        old = _ROWS.pop(key, None)
        if old is not None:
            _rows_size -= sum(len(r) for r in old[1])
        _ROWS[key] = (signature, rows)
        _rows_size += size
        while _rows_size > _ROWS_BYTES and len(_ROWS) > 1:
            _, (_, gone) = _ROWS.popitem(last=False)
            _rows_size -= sum(len(r) for r in gone)


# The marks that get their own colour in a row (lost, Bock, struck); the rest look alike.
MARK_CLASS = {LOST: " lost", BOCK: " bock", STRUCK: " lost"}


def history_rows(sheet: dict[str, Any], history: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Newest first, in the server's local time (the laptop on the table), with the previous
    version of a deal in words."""
    words = {"add": _("eingetragen"), "correct": _("korrigiert"),
             "strike": _("gestrichen"), "restore": _("wiederhergestellt")}  # fmt: skip
    spec = service.spec_of(sheet)
    lang = page_lang()
    out = []
    for h in reversed(history):
        try:
            when = datetime.fromisoformat(h["at"]).astimezone().strftime("%d.%m. %H:%M")
        except (ValueError, OverflowError):
            when = h["at"][:16]
        before = ""
        b = h.get("before")
        if b and h["action"] == "correct":
            try:
                o = evaluate_deal(spec, b["input"], tuple(b["active"]))
                who = f"{o.declarer}: " if o.declarer and sheet["game"] == "skat" else ""
                before = f"{who}{o.title.text(lang)}" + (
                    f" ({o.value})" if o.kind == "game" else ""
                )
            except (InvalidDeal, KeyError, TypeError):
                before = json.dumps(b.get("input"), ensure_ascii=False)[:200]
        out.append({"when": when, "what": words.get(h["action"], h["action"]), "n": str(h["n"]),
                    "before": before})  # fmt: skip
    return out


def leader_of(players: list[str], computed: dict[str, Any]) -> str | None:
    bal = computed["totals"]["balance"] if "totals" in computed else computed["balance"]
    if not any(bal.values()):
        return None
    return max(players, key=lambda p: bal[p])


def leaders_of(players: list[str], computed: dict[str, Any]) -> list[str]:
    """Everyone who shares the lead (a tie marks them all); nobody while all are at 0."""
    bal = computed["totals"]["balance"]
    if not any(bal.values()):
        return []
    top = max(bal[p] for p in players)
    return [p for p in players if bal[p] == top]


@bp.get("/<int:sheet_id>")
def show(sheet_id: int) -> Any:
    sheet = load_sheet(sheet_id)
    return render_sheet(sheet, share=not can_edit(sheet))


@bp.get("/<int:sheet_id>/rev")
def revision(sheet_id: int) -> Any:
    """The sheet's revision, polled by open pages to notice new deals (cheap: one row)."""
    sheet = load_sheet(sheet_id)
    resp = jsonify({"rev": sheet["rev"]})
    resp.headers["Cache-Control"] = "no-store"
    return resp


def public_url(endpoint: str, **values: Any) -> str:
    """A link other phones can open: on the network the server's address, not localhost."""
    base = current_app.config.get("PUBLIC_URL")
    path = url_for(endpoint, **values)
    return f"{base.rstrip('/')}{path}" if base else url_for(endpoint, _external=True, **values)


def qr_svg(url: str) -> Markup:
    return Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#1d1d1b", light="#fff"))


@bp.get("/<int:sheet_id>/edit/<token>")
def edit_link(sheet_id: int, token: str) -> Response:
    sheet = load_sheet(sheet_id)
    if not token_matches(token, sheet["edit_token"]):
        abort(403)
    return remember_edit_token(redirect(url_for("sheets.show", sheet_id=sheet_id)), sheet)


@bp.get("/<int:sheet_id>/share/<token>")
def share(sheet_id: int, token: str) -> Any:
    sheet = load_sheet(sheet_id)
    if not token_matches(token, sheet["share_token"]):
        abort(404)
    return render_sheet(sheet, share=True)


@bp.post("/<int:sheet_id>/deals")
def add_deal(sheet_id: int) -> Any:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    form = deal_form(sheet, request.form)
    if not form.validate_on_submit() and "csrf_token" in form.errors:
        return render_sheet(sheet, form, [_("Das Formular ist abgelaufen; bitte noch einmal.")], 400)  # fmt: skip
    db = service.get_db()
    proposed = service.proposed_dealer(db, sheet)  # worked out once: the form and the save
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
        except service.Taken as taken:
            # Another phone saved this number while the request ran: show the sheet as it is.
            sheet = reload_sheet(sheet_id)
            proposed = service.proposed_dealer(db, sheet)
            general.append(taken_message(sheet, taken))
            refresh_entry(sheet, form, proposed)
            status = 409
        else:
            if stored:
                flash(_("Spiel %(n)s gespeichert.", n=n))
            else:
                flash(_("Spiel %(n)s war schon gespeichert.", n=n))
            # The page shows "Spiel n gespeichert" with an undo of that very deal.
            return redirect(url_for("sheets.show", sheet_id=sheet_id, saved=n))
    general += attach_errors(form, exc, errors, page_lang())
    return render_sheet(sheet, form, general, status)


def taken_message(sheet: dict[str, Any], taken: service.Taken) -> str:
    """What the page says when another phone saved this deal's number first."""
    if taken.n > taken.next_n:
        return _("Das nächste Spiel ist Nummer %(next)s. Bitte noch einmal speichern.",
                 next=taken.next_n)  # fmt: skip
    data = service.computed_sheet(service.get_db(), sheet, page_lang())
    there = service.describe_row(sheet["game"], data["deals"][taken.n - 1], page_lang())
    return _(
        "Spiel %(n)s ist schon eingetragen (von einem anderen Gerät?): %(deal)s. Nichts "
        "gespeichert. Die Eingabe steht noch unten: War es ein anderes Spiel, bitte als "
        "Spiel %(next)s speichern; sonst nichts tun.",
        n=taken.n, deal=there, next=taken.next_n,
    )  # fmt: skip


def refresh_entry(sheet: dict[str, Any], form: Any, proposed: str) -> None:
    """A kept entry after another phone's save: it now means the next free number, and an
    untouched dealer follows the rotation as it is now."""
    data = service.computed_sheet(service.get_db(), sheet, page_lang())
    form.n.data = str(len(data["deals"]) + 1)
    if form.dealer.data == form.dealer_shown.data:
        spec = service.spec_of(sheet)
        shown = form.dealer_shown.data
        # (a post without the proposed dealer, not from the page, has no rotation to follow)
        chosen = set(form.active.data or [])
        if shown in spec.players and chosen == set(default_active(spec, shown)):
            form.active.data = list(default_active(spec, proposed))
        form.dealer.data = proposed
        form.dealer_shown.data = proposed


def form_from_deal(sheet: dict[str, Any], deal: dict[str, Any]) -> Any:
    """The entry form filled in with a stored deal, for a correction."""
    inp = deal["input"]
    form = deal_form(sheet)
    form.dealer.data = deal["dealer"]
    form.active.data = list(deal["active"])
    form.version.data = str(deal["version"])
    if inp.get("passed"):
        if not any(k == "passed" for k, _label in form.kind.choices):
            form.kind.choices.append(("passed", _("eingepasst")))  # an old or imported deal
        form.kind.data = "passed"
        return form
    ramsch = inp.get("ramsch") if sheet["game"] == "skat" else (
        inp if inp.get("game") == "ramsch" else None)  # fmt: skip
    if ramsch:
        form.kind.data = "ramsch"
        for i, p in enumerate(sheet["players"]):
            getattr(form, f"r{i}").data = str(ramsch.get("points", {}).get(p, ""))
        form.jungfrau.data = list(ramsch.get("jungfrau") or [])
        form.durchmarsch.data = ramsch.get("durchmarsch") or ""
        return form
    form.kind.data = "game"
    if sheet["game"] == "skat":
        form.game.data = inp.get("game")
        form.declarer.data = inp.get("declarer")
        if "with" in inp and "matadors" in inp:
            form.spitzen.data = f"{'w' if inp['with'] else 'o'}{inp['matadors']}"
        form.cards.data = list(inp.get("cards") or [])
        for flag in ("hand", "ouvert", "schneider_announced", "schwarz_announced", "kontra", "re"):
            getattr(form, flag).data = bool(inp.get(flag))
        form.bid.data = str(inp.get("bid", 18))
        pts = inp.get("declarer_points")
        form.declarer_points.data = "" if pts is None else str(pts)
        form.all_tricks.data = inp.get("all_tricks") or ""
        if "won" in inp:
            form.won.data = "true" if inp["won"] else "false"
    else:
        form.game.data = inp.get("game")
        form.suit.data = inp.get("suit")
        form.declarers.data = list(inp.get("declarers") or [])
        if "won" in inp:
            form.outcome.data = "won" if inp["won"] else "lost"
        else:
            form.outcome.data = "points"
            form.player_points.data = str(inp.get("player_points", ""))
        for flag in ("schneider", "schwarz", "tout", "sie"):
            getattr(form, flag).data = bool(inp.get(flag))
        for name in ("laufende", "gestellt", "kontra"):
            getattr(form, name).data = str(inp.get(name, 0))
    return form


def find_deal(sheet: dict[str, Any], n: int) -> dict[str, Any]:
    try:
        return service.get_deal(service.get_db(), sheet, n)
    except service.NotFound:
        abort(404)


@bp.route("/<int:sheet_id>/deals/<int:n>/edit", methods=["GET", "POST"])
def edit_deal(sheet_id: int, n: int) -> Any:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    deal = find_deal(sheet, n)
    general: list[str] = []
    status = 200
    if request.method == "GET":
        form = form_from_deal(sheet, deal)
    else:
        require_edit(sheet)
        form = deal_form(sheet, request.form)
        errors: list[tuple[str, str]] = []
        body = deal_body(sheet, form, deal["dealer"], errors)
        if "dealer" not in body:
            body["dealer"] = deal["dealer"]
        version = form.version.data
        expected = parse_int(version or "")
        exc: InvalidDeal | None = None
        if not form.validate_on_submit() and "csrf_token" in form.errors:
            general.append(_("Das Formular ist abgelaufen; bitte noch einmal."))  # fmt: skip
            status = 400
        elif not errors:
            try:
                service.correct_deal(service.get_db(), sheet, n, body, page_lang(), expected,
                                     current=deal)  # fmt: skip
            except InvalidDeal as e:
                exc = e
            except service.Conflict as conflict:
                general.append(_("Dieses Spiel wurde inzwischen auf einem anderen Gerät geändert. Unten steht der aktuelle Stand; bitte noch einmal korrigieren.",
                ))  # fmt: skip
                form = form_from_deal(sheet, conflict.current)
                status = 409
            else:
                flash(_("Spiel %(n)s korrigiert.", n=n))
                return redirect(url_for("sheets.show", sheet_id=sheet_id) + f"#deal-{n}")
        if status == 200:
            status = 422
        general += attach_errors(form, exc, errors, page_lang())
    spec = service.spec_of(sheet)
    computed = service.sheet_json(service.get_db(), sheet, page_lang(), full=False)
    row = next((r for r in computed["deals"] if r["n"] == n), None)
    html = render_template(
        "deals/edit.html", sheet=sheet, deal=deal, form=form, general=general, row=row,
        proposed=deal["dealer"], proposed_active=default_active(spec, deal["dealer"]),
    )  # fmt: skip
    return html, status


class ActionForm(FlaskForm):
    pass


def _checked_post(sheet: dict[str, Any]) -> None:
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
    flash(_("Spiel %(n)s gestrichen.", n=n))
    return redirect(url_for("sheets.show", sheet_id=sheet_id) + f"#deal-{n}")


@bp.post("/<int:sheet_id>/deals/<int:n>/restore")
def restore(sheet_id: int, n: int) -> Response:
    sheet = load_sheet(sheet_id)
    _checked_post(sheet)
    try:
        service.restore_deal(service.get_db(), sheet, n)
    except service.NotFound:
        abort(404)
    flash(_("Spiel %(n)s wiederhergestellt.", n=n))
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
        flash(_("Spiel %(n)s gestrichen (rückgängig).", n=n))
    else:
        flash(_("Spiel %(n)s war schon gestrichen; nichts weiter geändert.", n=n))
    return redirect(url_for("sheets.show", sheet_id=sheet_id))


class RenameForm(FlaskForm):
    name = StringField()


@bp.post("/<int:sheet_id>/rename")
def rename(sheet_id: int) -> Any:
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


@bp.route("/<int:sheet_id>/delete", methods=["GET", "POST"])
def delete(sheet_id: int) -> Any:
    sheet = load_sheet(sheet_id)
    require_edit(sheet)
    from .event_service import event_of_sheet

    event = event_of_sheet(service.get_db(), sheet_id)
    if event is not None:  # a table's list is part of its event's ranking and printout
        flash(_("Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr gelöscht.",
                name=event["name"]), "error")  # fmt: skip
        return redirect(url_for("sheets.show", sheet_id=sheet_id))
    if request.method == "POST":
        _checked_post(sheet)
        service.delete_sheet(service.get_db(), sheet_id)
        flash(_("Blatt „%(name)s“ gelöscht.", name=sheet["name"]))
        return redirect(url_for("sheets.index"))
    return render_template("sheets/delete.html", sheet=sheet)


@bp.get("/<int:sheet_id>/export.<fmt>")
def export(sheet_id: int, fmt: str) -> Any:
    sheet = load_sheet(sheet_id)
    try:
        return exports.download(service.get_db(), sheet, fmt, page_lang())
    except service.NotFound:
        abort(404)


class ImportForm(FlaskForm):
    pass


@bp.post("/import")
def import_file() -> Any:
    if not ImportForm().validate_on_submit():
        abort(400)
    upload = request.files.get("file")
    general: list[str] = []
    if upload is None or not upload.filename:
        general.append(_("Bitte eine .json-Datei wählen."))
    else:
        try:
            data = parse_json(upload.read())
            # "… (Import)": in the list the copy is told apart from the sheet it came from
            sheet = exports.import_json(service.get_db(), data, service.IMPORT_SUFFIX)
        except BadJSON:
            general.append(_("Die Datei ist kein gültiges JSON."))
        except InvalidDeal as exc:
            for msgs in exc.by_field(page_lang()).values():
                general += msgs
        else:
            flash(_("Blatt importiert."))
            # Whoever imports the evening may keep it, on the network too (the edit cookie).
            url = url_for("sheets.show", sheet_id=sheet["id"])
            return remember_edit_token(redirect(url), sheet)
    form = NewSheetForm(formdata=None).setup()
    return make_response(sheets_page(form, import_errors=general), 422)


# --- Storage faults and reused keys: the form comes back with everything typed ----------------


def form_again(text: str, status: int) -> Any:
    """The page of the form just sent, filled in as it was sent, with ``text`` above it;
    None for posts that have no typed-in form (the buttons)."""
    endpoint, args = request.endpoint, request.view_args or {}
    if request.method != "POST":
        return None
    db = service.get_db()
    if endpoint == "sheets.add_deal":
        sheet = load_sheet(args["sheet_id"])
        return render_sheet(sheet, deal_form(sheet, request.form), [text], status)
    if endpoint == "sheets.edit_deal":
        sheet = load_sheet(args["sheet_id"])
        deal = service.get_deal(db, sheet, args["n"])
        spec = service.spec_of(sheet)
        computed = service.sheet_json(db, sheet, page_lang(), full=False)
        row = next((r for r in computed["deals"] if r["n"] == args["n"]), None)
        html = render_template(
            "deals/edit.html", sheet=sheet, deal=deal, form=deal_form(sheet, request.form),
            general=[text], row=row, proposed=deal["dealer"],
            proposed_active=default_active(spec, deal["dealer"]),
        )  # fmt: skip
        return make_response(html, status)
    if endpoint == "sheets.create":
        return make_response(sheets_page(NewSheetForm().setup(), general=[text]), status)
    if endpoint == "sheets.import_file":
        form = NewSheetForm(formdata=None).setup()
        return make_response(sheets_page(form, import_errors=[text]), status)
    return None


@bp.errorhandler(sqlite3.Error)
def storage_fault(exc: sqlite3.Error) -> Any:
    from .errors import storage_fault_answer

    answer = storage_fault_answer(exc)
    if answer is None:
        current_app.logger.exception("unhandled storage error")
        return render_template("error.html", code=500, exc=None), 500
    status, text, retry = answer
    current_app.logger.warning("storage fault on %s %s: %s", request.method, request.path, exc)
    try:
        resp = form_again(text, status)
    except sqlite3.Error:
        resp = None  # the database cannot even be read: the plain message must do
    if resp is None:
        return refuse(status, text, retry)
    if retry is not None:
        resp.headers["Retry-After"] = str(int(retry))
    return resp


@bp.errorhandler(service.KeyReused)
def key_reused(exc: service.KeyReused) -> Any:
    text = _("Dieses Formular war schon als Spiel %(n)s gespeichert, seither wurde es geändert. Bitte prüfen und noch einmal speichern.", n=exc.n)  # fmt: skip
    sheet = load_sheet((request.view_args or {})["sheet_id"])
    form = deal_form(sheet, request.form)
    form.idem.data = secrets.token_urlsafe(12)  # a new save, with a key of its own
    return render_sheet(sheet, form, [text], 409)
