"""The start page, the two calculators and the bid table."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    jsonify,
    render_template,
    request,
    send_from_directory,
)
from werkzeug.exceptions import HTTPException

from . import db as store
from . import exports
from .forms import (
    SchafkopfCalcForm,
    SkatForm,
    attach_errors,
    schafkopf_input,
    skat_input,
)
from .http import busy_text, refuse
from .i18n import _, api_lang, page_lang
from .rules.common import InvalidDeal
from .rules.inputs import schafkopf_deal_from_input, skat_deal_from_input
from .rules.schafkopf import schafkopf_value
from .rules.skat import LEGAL_BIDS, games_with_value, skat_value

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    sheets = store.list_sheets(store.get_db())[:8]
    return render_template("index.html", sheets=sheets)


@bp.get("/skat")
def skat() -> str:
    form = SkatForm(request.args, meta={"csrf": False}).setup()
    result = None
    general: list[str] = []
    if "game" in request.args:
        errors: list[tuple[str, str]] = []
        data = skat_input(form, errors)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = skat_value(skat_deal_from_input(data))
            except InvalidDeal as e:
                exc = e
        general = attach_errors(form, exc, errors, page_lang())
        if result is not None and result.matadors is not None:
            form.spitzen.data = f"{'w' if result.with_ else 'o'}{result.matadors}"
    else:
        form.bid.data = "18"
    return render_template("calculators/skat.html", form=form, result=result, general=general)


@bp.get("/schafkopf")
def schafkopf() -> str:
    form = SchafkopfCalcForm(request.args, meta={"csrf": False})
    submitted = "submitted" in request.args
    if not submitted:
        form.tout_counts.data = True
    names = form.player_names()
    form.setup([n or "?" for n in names])
    result = None
    general: list[str] = []
    if submitted:
        errors: list[tuple[str, str]] = []
        data = schafkopf_input(form, errors)
        data["players"] = names
        data["tariffs"] = form.tariff_values(errors)
        data["tout_counts_schneider_schwarz"] = bool(form.tout_counts.data)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = schafkopf_value(schafkopf_deal_from_input(data))
            except InvalidDeal as e:
                exc = e
        general = attach_errors(form, exc, errors, page_lang())
    return render_template("calculators/schafkopf.html", form=form, result=result, general=general, names=names)


@bp.get("/sw.js")
def service_worker() -> Any:
    # Served from the root so that its scope covers every page.
    resp = send_from_directory(current_app.static_folder or "", "sw.js", max_age=0)
    resp.headers["Content-Type"] = "text/javascript; charset=utf-8"
    resp.headers["Service-Worker-Allowed"] = "/"
    return resp


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")


@bp.get("/bids")
def bids() -> str:
    rows = [(b, games_with_value(b)) for b in LEGAL_BIDS]
    return render_template("calculators/bids.html", rows=rows)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        code = exc.code or 500
        if request.path.startswith("/api/"):
            msg = {
                404: ("Nicht gefunden.", "Not found."),
                405: ("Diese Methode geht hier nicht.", "Method not allowed here."),
                413: (
                    "Die Anfrage ist zu groß (höchstens 1 MB).",
                    "The request is too large (1 MB at most).",
                ),
                415: ("Bitte JSON senden.", "Please send JSON."),
            }.get(code, ("Fehlerhafte Anfrage.", "Bad request."))
            text = msg[1] if api_lang() == "en" else msg[0]
            return jsonify({"errors": {"_": [text]}}), code
        return render_template("error.html", code=code, exc=exc), code

    @app.errorhandler(exports.RenderBusy)
    def render_busy(_exc: exports.RenderBusy) -> Any:
        return refuse(
            503, _("Gerade entstehen viele PDFs – bitte gleich noch einmal versuchen."), 10
        )

    @app.errorhandler(sqlite3.Error)
    def storage_fault(exc: sqlite3.Error) -> Any:
        answer = storage_fault_answer(exc)
        if answer is None:
            return crash(exc)
        status, text, retry = answer
        app.logger.warning("storage fault on %s %s: %s", request.method, request.path, exc)
        return refuse(status, text, retry)

    @app.errorhandler(Exception)
    def crash(exc: Exception) -> Any:
        app.logger.exception("unhandled error")
        if request.path.startswith("/api/"):
            text = _("Interner Fehler.")
            return jsonify({"errors": {"_": [text]}}), 500
        return render_template("error.html", code=500, exc=None), 500


def storage_fault_answer(exc: BaseException) -> tuple[int, str, float | None] | None:
    """Status, message and Retry-After for a storage fault a player can act on, else None.

    Every write runs in one transaction, so when one of these comes, nothing of the write
    was kept: the messages can say so."""
    kind = store.fault_of(exc)
    if kind == "busy":
        return 503, busy_text(), 2
    if kind == "full":
        return 507, _("Der Speicher des Servers ist voll – nichts wurde gespeichert. Bitte Platz schaffen und noch einmal speichern."), None  # fmt: skip
    if kind == "readonly":
        return 503, _("Die Datenbank ist schreibgeschützt – nichts wurde gespeichert."), None
    if kind == "io":
        return 503, _("Die Datenbank kann gerade nicht gelesen oder geschrieben werden – nichts wurde gespeichert."), None  # fmt: skip
    return None
