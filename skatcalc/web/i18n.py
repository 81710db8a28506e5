"""German first, English second: the request's side of it.

Pages take the language from ?lang=, then a cookie; the API from Accept-Language. The
catalogues and the one translation path, ``translate(text, lang, **params)``, are in
``skatcalc/text.py``; ``_()`` and ``pgettext()`` there are that function with the language
found here (:func:`current_lang`, named to it by :func:`init_app`); templates keep ``_()``.
Numbers, money and dates here are in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Protocol, cast
from urllib.parse import urlencode

from flask import Flask, Response, flash, request
from flask_babel import Babel
from markupsafe import Markup

from skatcalc.games.form_fields import parse_int
from skatcalc.rules.common import InvalidDeal, number
from skatcalc.rules.common import money as common_money
from skatcalc.services import cache, dates
from skatcalc.text import LANGS, catalog, field_errors, translate, use_request_lang
from skatcalc.web.request_state import state

__all__ = ["api_lang", "current_lang", "day", "flash_errors", "init_app", "lang_url", "money",
           "num", "page_args", "page_lang", "select_locale", "when"]  # fmt: skip


def current_lang() -> str:
    st = state()
    if st.ui_lang is None:
        st.ui_lang = select_locale()
    return st.ui_lang


def flash_errors(exc: InvalidDeal) -> None:
    """A refused page action's messages, in the page's language, for the page it goes back to
    (a form that redirects shows them at the top)."""
    for msgs in field_errors(exc, page_lang()).values():
        for m in msgs:
            flash(m, "error")


def page_lang() -> str:
    st = state()  # decided once: a page asks ~100 times (numbers, texts)
    if st.page_lang is None:
        chosen = request.args.get("lang") or request.cookies.get("lang") or "de"
        st.page_lang = chosen if chosen in LANGS else "de"
    return st.page_lang


def api_lang() -> str:
    if request.path.startswith("/api/"):
        return current_lang()  # decided once: an API answer asks several times
    return _accepted_lang()


def _accepted_lang() -> str:
    if not request.headers.get("Accept-Language"):  # an app that names none: parsed for nothing
        return "de"
    return request.accept_languages.best_match(LANGS, default="de") or "de"


def select_locale() -> str:
    return _accepted_lang() if request.path.startswith("/api/") else page_lang()


def num(n: int | None, signed: bool = False) -> str:
    """A score as the table writes it, in the page's language (``rules.common.number``)."""
    return "" if n is None else number(n, page_lang(), signed)


def money(cents: int) -> str:
    """An amount in the page's language (``rules.common.money``)."""
    return common_money(cents, page_lang())


def day(value: str | date | datetime) -> str:
    """A date in the page's locale (``services.dates.day``)."""
    return dates.day(value, page_lang())


def when(value: str) -> str:
    """A stored time in the page's locale (``services.dates.when``)."""
    return dates.when(value, page_lang())


# The query arguments a page whose rendering is kept per revision reads (besides ``lang``):
# any other argument changes nothing on it, so it neither makes a new kept page
# (web/caching.py) nor is carried into the page's links.
KEPT_PAGE_ARGS = {"sheets.show": ("saved",), "sheets.share": ()}


def page_args() -> tuple[tuple[str, str], ...]:
    """The query arguments that shape this page: all of them, except on a kept page, where
    only those it reads count (one value each, as the page reads them)."""
    known = KEPT_PAGE_ARGS.get(request.endpoint or "")
    if known is None:
        return tuple((k, v) for k, vs in request.args.lists() for v in vs)
    # a number read the way the page reads it (``parse_int``): "?saved=01" is "?saved=1", and
    # a value that is no number is no argument
    kept = ((k, parse_int(request.args[k])) for k in known if k in request.args)
    return tuple((k, str(n)) for k, n in kept if n is not None)


def lang_url(code: str) -> str:
    if (request.endpoint or "") in KEPT_PAGE_ARGS:
        args = {k: [v] for k, v in page_args()}
    else:
        args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    # Only the query: the link stays on the page it is on. The path as requested could lead
    # away ("/\\evil.example/x" is "//evil.example/x" to a browser).
    return "?" + urlencode(args, doseq=True)


def _jinja_gettext(text: str, **variables: object) -> Markup:
    return _gettext(current_lang(), text, variables)


def _gettext(lang: str, text: str, variables: dict[str, object]) -> Markup:
    if variables:
        return Markup(catalog(lang).ugettext(text)) % variables
    # a text without parameters, as most of a page's are: looked up once per language
    key = (lang, text)
    done = cache.TEMPLATE_TEXTS.get(key)
    if done is None:
        if len(cache.TEMPLATE_TEXTS) >= cache.TEXTS_KEPT:
            cache.TEMPLATE_TEXTS.clear()  # a text passed in as a variable: not a bound to trust
        done = cache.TEMPLATE_TEXTS[key] = Markup(catalog(lang).ugettext(text)) % variables
    return done


def _gettext_in(lang: str) -> Callable[..., Markup]:
    """The templates' ``_()`` in ``lang``: a page's ~70 texts do not each ask the request for
    its language."""

    def gettext(text: str, **variables: object) -> Markup:
        return _gettext(lang, text, variables)

    return gettext


def _num_in(lang: str) -> Callable[..., str]:
    """The templates' ``num()`` (:func:`num`) in ``lang``."""

    def num_in(n: int | None, signed: bool = False) -> str:
        return "" if n is None else number(n, lang, signed)

    return num_in


def _jinja_ngettext(singular: str, plural: str, n: int, **variables: object) -> Markup:
    variables.setdefault("num", n)
    return Markup(catalog(current_lang()).ungettext(singular, plural, n)) % variables


def _jinja_pgettext(context: str, text: str, **variables: object) -> Markup:
    variables.setdefault("context", context)
    return Markup(catalog(current_lang()).upgettext(context, text)) % variables


def _jinja_npgettext(context: str, singular: str, plural: str, n: int, **variables: object
                     ) -> Markup:  # fmt: skip
    variables.setdefault("context", context)
    variables.setdefault("num", n)
    return Markup(catalog(current_lang()).unpgettext(context, singular, plural, n)) % variables


class _GettextCallables(Protocol):
    """What Jinja's i18n extension adds to the environment (its types do not say it)."""

    def install_gettext_callables(
        self,
        gettext: Callable[[str], str],
        ngettext: Callable[[str, str, int], str],
        newstyle: bool | None = None,
        pgettext: Callable[[str, str], str] | None = None,
        npgettext: Callable[[str, str, str, int], str] | None = None,
    ) -> None: ...


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="translations")
    use_request_lang(current_lang)  # skatcalc.text's _() and pgettext(): the request's language
    # the i18n extension (added by Flask-Babel) gives the environment this method
    cast(_GettextCallables, app.jinja_env).install_gettext_callables(
        gettext=lambda s: catalog(current_lang()).ugettext(s),
        ngettext=lambda s, p, n: catalog(current_lang()).ungettext(s, p, n),
        pgettext=lambda c, s: catalog(current_lang()).upgettext(c, s),
        npgettext=lambda c, s, p, n: catalog(current_lang()).unpgettext(c, s, p, n),
        newstyle=True,
    )
    # The same four, without Jinja's context argument: a context-passing call inside a block
    # or loop copies the whole template context first (~60 copies per sheet page, a quarter
    # of its render). Every template is HTML (autoescaped), so each does what Jinja's
    # newstyle gettext does there: the translation as Markup, always %-formatted.
    app.jinja_env.globals.update(
        _=_jinja_gettext,
        gettext=_jinja_gettext,
        ngettext=_jinja_ngettext,
        pgettext=_jinja_pgettext,
        npgettext=_jinja_npgettext,
    )
    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["when"] = when
    # a rules message (Msg) in a template: {{ g.name|tr }}
    app.jinja_env.filters["tr"] = lambda msg: translate(msg, current_lang())
    # an explanation's steps (rules.cite.Step) as the API writes them: {"text", "rule"}
    app.jinja_env.filters["step"] = lambda st: {
        "text": translate(st.text, current_lang()),
        "rule": translate(st.rule, current_lang()),
    }

    @app.context_processor
    def inject() -> dict[str, object]:
        lang = page_lang()
        # the language found once per render: templates (not the macros they import, which
        # see only the globals) take these before the globals of the same name
        text = _gettext_in(current_lang())
        return {"lang": lang, "num": _num_in(lang), "money": money, "lang_url": lang_url,
                "_": text, "gettext": text}  # fmt: skip

    @app.after_request
    def remember(resp: Response) -> Response:
        if not request.query_string:  # no ?lang= (an app's call): its arguments not parsed
            return resp
        chosen = request.args.get("lang")
        if chosen in LANGS and request.cookies.get("lang") != chosen:
            resp.set_cookie("lang", chosen, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
        return resp
