"""The start page, the calculators (one per game) and the bid table (templates in ``calculators/``).

Each calculator is its game's (``GameForms`` in ``skatcalc/games/<game>/forms.py``: the form,
the body read from it, when it is worth a preview; the value is ``GameKind.deal_value``)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
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


def calculator(key: str) -> ResponseReturnValue:
    """``/<game>``: the game's calculator (``GAME_FORMS[key]``); with ``part=result`` the
    result alone, for the live preview."""
    calc = GAME_FORMS[key]
    form = calc.calculator_form(request.args)
    if request.args.get("part") == "result":
        return calculator_part(key, form)
    result = None
    general: list[str] = []
    if calc.calculator_submitted(request.args):
        errors: list[tuple[str, str]] = []
        data = calc.calculator_body(form, errors)
        exc: InvalidDeal | None = None
        if not errors:
            try:
                result = game(key).deal_value(data)
            except InvalidDeal as e:
                exc = e
        general = attach_errors(form, exc, errors, page_lang())
        if result is not None:
            calc.calculator_shown(form, result)
    else:
        calc.calculator_fresh(form)
    context = calc.calculator_context(form)
    return render_template(
        f"calculators/{key}.html", form=form, result=result, general=general, **context
    )


def calculator_part(key: str, form: FlaskForm) -> Response:
    """The result alone, as the page below the form would show it (an unfinished form: an
    empty answer, or only what is wrong already)."""
    errors: list[tuple[str, str]] = []
    data = GAME_FORMS[key].calculator_body(form, errors)
    ready = GAME_FORMS[key].calculator_ready(data)
    messages = preview_messages(errors, ready)
    if not messages and ready:
        try:
            result = game(key).deal_value(data)
        except InvalidDeal as e:
            messages = exc_messages(e, page_lang())
        else:
            html = render_template(f"calculators/_{key}_result.html", result=result)
            return preview_answer([], html)
    return preview_answer(messages)


def _page(key: str) -> Callable[[], ResponseReturnValue]:
    def page() -> ResponseReturnValue:
        return calculator(key)

    # a named view, as Flask-WTF's CSRF exemptions look views up by module and name
    page.__name__ = page.__qualname__ = key
    return page


# One page per registered game, at the game's key (``/skat``, ``/schafkopf``: fixed addresses)
for _key in GAME_FORMS:
    bp.add_url_rule(f"/{_key}", endpoint=_key, view_func=_page(_key))


@bp.get("/bids")
def bids() -> str:
    rows = [row for forms in GAME_FORMS.values() for row in forms.bid_table()]
    return render_template("calculators/bids.html", rows=rows)
