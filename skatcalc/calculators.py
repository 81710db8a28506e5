"""The start page, the two calculators and the bid table (templates in ``calculators/``)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from . import service
from .deal_forms import (
    SchafkopfCalcForm,
    SkatForm,
    attach_errors,
    schafkopf_input,
    skat_input,
)
from .i18n import page_lang
from .rules.common import InvalidDeal
from .rules.inputs import schafkopf_deal_from_input, skat_deal_from_input
from .rules.schafkopf import schafkopf_value
from .rules.skat import LEGAL_BIDS, games_with_value, skat_value

bp = Blueprint("calculators", __name__)


@bp.get("/")
def index() -> str:
    sheets = service.list_sheets(service.get_db())[:8]
    return render_template("calculators/index.html", sheets=sheets)


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
    return render_template("calculators/schafkopf.html", form=form, result=result, general=general, names=names)  # fmt: skip


@bp.get("/bids")
def bids() -> str:
    rows = [(b, games_with_value(b)) for b in LEGAL_BIDS]
    return render_template("calculators/bids.html", rows=rows)
