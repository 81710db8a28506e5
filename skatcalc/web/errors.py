"""Every error answer of the app in one place: HTTP errors (the error page, or JSON under
``/api/``), storage faults a player can act on, a busy PDF renderer and the crash.

A page whose form post meets a storage fault shows that form again, filled in as it was sent,
with the message above it: a feature names the endpoint and how its page is drawn with
``resend_form_on_fault`` (the sheets do, for the entry, correction, new-sheet and import forms).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable

from flask import Flask, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from skatcalc import exports
from skatcalc.services import sheets as service
from skatcalc.text import _
from skatcalc.web.http import (
    IMPORT_BODY_MAX,
    IMPORT_PATHS,
    Refused,
    busy_text,
    error_page,
    refuse,
)
from skatcalc.web.i18n import api_lang
from skatcalc.web.request_state import forget_sheet
from skatcalc.web.rights import masked

# endpoint -> the page of its form, as sent, with a message above it (None: no such page)
FormAgain = Callable[[str, int], Response | None]
_FORM_AGAIN: dict[str, FormAgain] = {}
# endpoint -> the page a write refused as settled (service.Settled) shows instead
_REFUSED: dict[str, FormAgain] = {}


def resend_form_on_fault(*endpoints: str) -> Callable[[FormAgain], FormAgain]:
    """Register the page that shows a form post of ``endpoints`` again after a storage fault:
    called with the message and the status, inside the failed request."""

    def register(draw: FormAgain) -> FormAgain:
        for endpoint in endpoints:
            _FORM_AGAIN[endpoint] = draw
        return draw

    return register


def show_on_refusal(*endpoints: str) -> Callable[[FormAgain], FormAgain]:
    """Register the page shown when a write of ``endpoints`` is refused because the sheet is
    settled (closed, or its series finished): called with the message and 409."""

    def register(draw: FormAgain) -> FormAgain:
        for endpoint in endpoints:
            _REFUSED[endpoint] = draw
        return draw

    return register


def settled(exc: service.Settled) -> ResponseReturnValue:
    """409 for a write to a settled sheet, from wherever it came (service.sheet_write):
    the API answers ``{"errors": {"_": [message]}, "sheet": {...}}`` with the sheet as it
    is; a page shows the sheet with the message and what was typed."""
    text = _(exc.msg)
    forget_sheet()  # the request's sheet is read again: closed meanwhile?
    if request.path.startswith("/api/"):
        db = service.get_db()
        sheet = service.sheet_json(db, service.load_sheet(db, exc.sheet_id), api_lang())
        return jsonify({"errors": {"_": [text]}, "sheet": sheet}), 409
    draw = _REFUSED.get(request.endpoint or "")
    resp = draw(text, 409) if draw is not None else None
    return resp if resp is not None else refuse(409, text, None)


def storage_fault_answer(exc: BaseException) -> tuple[int, str, float | None] | None:
    """Status, message and Retry-After for a storage fault a player can act on, else None.

    Every write runs in one transaction, so when one of these comes, nothing of the write
    was kept: the messages can say so."""
    kind = service.fault_of(exc)
    if kind == "busy":
        return 503, busy_text(), 2
    if kind == "full":
        return 507, _("Der Speicher des Servers ist voll – nichts wurde gespeichert. Bitte Platz schaffen und noch einmal speichern."), None  # fmt: skip
    if kind == "readonly":
        return 503, _("Die Datenbank ist schreibgeschützt – nichts wurde gespeichert."), None
    if kind == "io":
        return 503, _("Die Datenbank kann gerade nicht gelesen oder geschrieben werden – nichts wurde gespeichert."), None  # fmt: skip
    return None


def http_error(exc: HTTPException) -> ResponseReturnValue:
    code = exc.code or 500
    if request.path.startswith("/api/"):
        # under /api/ the catalogue speaks the API's language (Accept-Language)
        text = {
            404: _("Nicht gefunden."),
            405: _("Diese Methode geht hier nicht."),
            413: _("Die Datei ist zu groß (höchstens %(mib)s MiB).", mib=IMPORT_BODY_MAX >> 20)
            if request.path in IMPORT_PATHS
            else _("Die Anfrage ist zu groß (höchstens 1 MB)."),
            415: _("Bitte JSON senden."),
        }.get(code) or _("Fehlerhafte Anfrage.")
        return jsonify({"errors": {"_": [text]}}), code
    return error_page(code), code


def render_busy(_exc: exports.RenderBusy) -> ResponseReturnValue:
    return refuse(503, _("Gerade entstehen viele PDFs – bitte gleich noch einmal versuchen."), 10)


def storage_fault(exc: sqlite3.Error) -> ResponseReturnValue:
    answer = storage_fault_answer(exc)
    if answer is None:
        return crash(exc)
    where = masked(request.path)  # the path may hold a link's key
    current_app.logger.warning("storage fault on %s %s: %s", request.method, where, exc)
    return _form_again_or_refuse(*answer)


def refused(exc: Refused) -> ResponseReturnValue:
    return _form_again_or_refuse(exc.status, exc.text, exc.retry_after)


def _form_again_or_refuse(status: int, text: str, retry: float | None) -> ResponseReturnValue:
    """The page of the form just posted, filled in as it was sent, with ``text`` above it;
    the plain message where there is no such page (the API, a read, a page without one)."""
    draw = _FORM_AGAIN.get(request.endpoint or "") if request.method == "POST" else None
    resp = None
    if draw is not None:
        try:
            resp = draw(text, status)
        except sqlite3.Error:
            resp = None  # the database cannot even be read: the plain message must do
    if resp is None:
        return refuse(status, text, retry)
    if retry is not None:
        resp.headers["Retry-After"] = str(max(1, math.ceil(retry)))
    return resp


def crash(exc: Exception) -> ResponseReturnValue:
    current_app.logger.exception("unhandled error on %s %s", request.method, masked(request.path))
    if request.path.startswith("/api/"):
        return jsonify({"errors": {"_": [_("Interner Fehler.")]}}), 500
    return error_page(500), 500


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(exports.RenderBusy, render_busy)
    app.register_error_handler(service.Settled, settled)
    app.register_error_handler(Refused, refused)
    app.register_error_handler(sqlite3.Error, storage_fault)
    app.register_error_handler(Exception, crash)
