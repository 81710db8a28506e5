"""The start page, the two calculators and the bid table (templates in ``calculators/``).

Each calculator is its game's (``GameForms`` in ``skatcalc/games/<game>/forms.py``: the form,
the body read from it, when it is worth a preview; the value is ``GameKind.deal_value``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from skatcalc.games import game
from skatcalc.games.forms import GAME_FORMS
from skatcalc.rules.common import InvalidDeal
from skatcalc.services import sheets as service
from skatcalc.web.deal_forms import attach_errors, exc_messages, preview_answer, preview_messages
from skatcalc.web.i18n import page_lang

bp = Blueprint("calculators", __name__)


@bp.get("/")
def index() -> str:
    sheets = service.list_sheets(service.get_db())[:8]
    return render_template("calculators/index.html", sheets=sheets)


SKAT, SCHAFKOPF = "skat", "schafkopf"  # the calculators' games (and addresses) by key


@bp.get("/skat")
def skat() -> Any:
    calc = GAME_FORMS[SKAT]
    form = calc.calculator_form(request.args)
    if request.args.get("part") == "result":
        return skat_part(form)
    result = None
    general: list[str] = []
    if "game" in request.args:
        errors: list[tuple[str, str]] = []
        data = calc.calculator_body(form, errors)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = game(SKAT).deal_value(data)
            except InvalidDeal as e:
                exc = e
        general = attach_errors(form, exc, errors, page_lang())
        if result is not None:
            calc.calculator_shown(form, result)
    else:
        form.bid.data = "18"
    return render_template("calculators/skat.html", form=form, result=result, general=general)


def skat_part(form: Any) -> Response:
    """``/skat?…&part=result``: the result alone, as the page below the form would show it,
    for the live preview (an unfinished form: an empty answer)."""
    errors: list[tuple[str, str]] = []
    data = GAME_FORMS[SKAT].calculator_body(form, errors)
    ready = GAME_FORMS[SKAT].calculator_ready(data)
    messages = preview_messages(errors, ready)
    if not messages and ready:
        try:
            result = game(SKAT).deal_value(data)
        except InvalidDeal as e:
            messages = exc_messages(e, page_lang())
        else:
            return preview_answer(
                [], render_template("calculators/_skat_result.html", result=result)
            )
    return preview_answer(messages)


@bp.get("/schafkopf")
def schafkopf() -> Any:
    calc = GAME_FORMS[SCHAFKOPF]
    form = calc.calculator_form(request.args)
    submitted = "submitted" in request.args
    names = form.player_names()
    result = None
    general: list[str] = []
    ready = False
    if submitted:
        errors: list[tuple[str, str]] = []
        data = calc.calculator_body(form, errors)
        ready = calc.calculator_ready(data)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = game(SCHAFKOPF).deal_value(data)
            except InvalidDeal as e:
                exc = e
        if request.args.get("part") == "result":
            messages = preview_messages(errors, ready)
            if ready and not messages and exc is not None:
                messages = exc_messages(exc, page_lang())
            if ready and not messages and result is not None:
                html = render_template("calculators/_schafkopf_result.html", result=result)
                return preview_answer([], html)
            return preview_answer(messages)
        general = attach_errors(form, exc, errors, page_lang())
    elif request.args.get("part") == "result":
        return preview_answer([])
    return render_template("calculators/schafkopf.html", form=form, result=result, general=general, names=names)  # fmt: skip


@bp.get("/bids")
def bids() -> str:
    rows = [row for forms in GAME_FORMS.values() for row in forms.bid_table()]
    return render_template("calculators/bids.html", rows=rows)
