"""The start page, the two calculators and the bid table (templates in ``calculators/``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from skatcalc.games.schafkopf import schafkopf_deal_from_input, schafkopf_value
from skatcalc.games.schafkopf.forms import SchafkopfCalcForm, schafkopf_input, schafkopf_ready
from skatcalc.games.skat import LEGAL_BIDS, games_with_value, skat_deal_from_input, skat_value
from skatcalc.games.skat.forms import SkatForm, skat_input, skat_ready
from skatcalc.rules.common import InvalidDeal
from skatcalc.services import sheets as service
from skatcalc.web.deal_forms import attach_errors, exc_messages, preview_answer, preview_messages
from skatcalc.web.i18n import page_lang

bp = Blueprint("calculators", __name__)


@bp.get("/")
def index() -> str:
    sheets = service.list_sheets(service.get_db())[:8]
    return render_template("calculators/index.html", sheets=sheets)


@bp.get("/skat")
def skat() -> Any:
    form = SkatForm(request.args, meta={"csrf": False}).setup()
    if request.args.get("part") == "result":
        return skat_part(form)
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


def skat_part(form: SkatForm) -> Response:
    """``/skat?…&part=result``: the result alone, as the page below the form would show it,
    for the live preview (an unfinished form: an empty answer)."""
    errors: list[tuple[str, str]] = []
    data = skat_input(form, errors)
    ready = skat_ready(data)
    messages = preview_messages(errors, ready)
    if not messages and ready:
        try:
            result = skat_value(skat_deal_from_input(data))
        except InvalidDeal as e:
            messages = exc_messages(e, page_lang())
        else:
            return preview_answer(
                [], render_template("calculators/_skat_result.html", result=result)
            )
    return preview_answer(messages)


@bp.get("/schafkopf")
def schafkopf() -> Any:
    form = SchafkopfCalcForm(request.args, meta={"csrf": False})
    submitted = "submitted" in request.args
    if not submitted:
        form.tout_counts.data = True
    names = form.player_names()
    form.setup([n or "?" for n in names])
    result = None
    general: list[str] = []
    ready = False
    if submitted:
        errors: list[tuple[str, str]] = []
        data = schafkopf_input(form, errors)
        data["players"] = names
        data["tariffs"] = form.tariff_values(errors)
        data["tout_counts_schneider_schwarz"] = bool(form.tout_counts.data)
        ready = schafkopf_ready(data)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = schafkopf_value(schafkopf_deal_from_input(data))
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
    rows = [(b, games_with_value(b)) for b in LEGAL_BIDS]
    return render_template("calculators/bids.html", rows=rows)
