"""German first, English second, through Flask-Babel message catalogues.

The msgids are the German texts (the default language); ``translations/en`` holds English.
Pages take the language from ?lang=, then a cookie; the API from Accept-Language.

Every text a person reads goes through ``translate(text, lang, **params)``: pages, API answers,
CSV, PDF and the command line. ``_()`` and ``pgettext()`` are that function with the current
request's language (templates keep ``_()``).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from babel.dates import format_date
from babel.support import NullTranslations, Translations
from flask import Flask, Response, flash, request
from flask_babel import Babel
from markupsafe import Markup

from skatcalc.rules.common import InvalidDeal, Msg, number
from skatcalc.rules.common import money as common_money
from skatcalc.services import cache
from skatcalc.web.request_state import state

LANGS = ("de", "en")
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
__all__ = ["LANGS", "_", "api_lang", "day", "init_app", "money", "num", "page_lang", "pgettext",
           "ptranslate", "translate", "field_errors"]  # fmt: skip

# One parsed catalogue per language for the life of the process (Flask-Babel would parse the
# .mo file again on every request and look up its context on every one of ~250 calls a page).
# Not in services/cache.py: a file of the installation read once per language (two), like an
# import, not data derived from what is stored or asked.
_CATALOGS: dict[str, NullTranslations] = {}


def catalog(lang: str) -> NullTranslations:
    if lang not in _CATALOGS:
        # German is the source language: its texts are the message ids themselves.
        _CATALOGS[lang] = (
            NullTranslations() if lang == "de" else Translations.load(str(TRANSLATIONS), [lang])
        )
    return _CATALOGS[lang]


def current_lang() -> str:
    st = state()
    if st.ui_lang is None:
        st.ui_lang = select_locale()
    return st.ui_lang


def translate(text: str | Msg, lang: str, /, *, context: str | None = None, **params: Any) -> str:
    """The one translation path: ``text`` is the German msgid, looked up in ``lang``'s
    catalogue (German: the msgid itself) and its ``%(name)s`` placeholders filled from
    ``params`` (a text without params is taken as it is, so a lone "%" needs no escaping).
    ``context`` tells msgids apart that read alike in German but not in English (written
    ``ptranslate(context, text, lang)`` so that pybabel finds it). A rules message
    (``rules.common.Msg``) brings its msgid, context and params along; messages among its
    params are translated the same way.

    >>> translate("Liste", "en"), translate("Spiel %(n)s", "de", n=3)
    ('List', 'Spiel 3')
    >>> translate(Msg("%(what)s: %(n)s", what=Msg("verloren"), n="−54"), "en")
    'lost: −54'
    """
    cat = catalog(lang)
    if isinstance(text, Msg):
        return text.render(lambda m: _lookup(cat, m.id, m.context))
    out = _lookup(cat, text, context)
    return out % params if params else out


def _lookup(cat: NullTranslations, text: str, context: str | None) -> str:
    return cat.ugettext(text) if context is None else cat.upgettext(context, text)


def field_errors(exc: InvalidDeal, lang: str) -> dict[str, list[str]]:
    """Every problem of an input, by field, in ``lang`` (the 422 answer's ``errors``)."""
    out: dict[str, list[str]] = {}
    for err in exc.errors:
        out.setdefault(err.field, []).append(translate(err.msg, lang))
    return out


def flash_errors(exc: InvalidDeal) -> None:
    """A refused page action's messages, in the page's language, for the page it goes back to
    (a form that redirects shows them at the top)."""
    for msgs in field_errors(exc, page_lang()).values():
        for m in msgs:
            flash(m, "error")


def ptranslate(context: str, text: str, lang: str, /, **params: Any) -> str:
    return translate(text, lang, context=context, **params)


def _(text: str | Msg, **variables: Any) -> str:
    return translate(text, current_lang(), **variables)


def pgettext(context: str, text: str, **variables: Any) -> str:
    return translate(text, current_lang(), context=context, **variables)


def page_lang() -> str:
    st = state()  # decided once: a page asks ~100 times (numbers, texts)
    if st.page_lang is None:
        chosen = request.args.get("lang") or request.cookies.get("lang") or "de"
        st.page_lang = chosen if chosen in LANGS else "de"
    return st.page_lang


def api_lang() -> str:
    return request.accept_languages.best_match(LANGS, default="de") or "de"


def select_locale() -> str:
    return api_lang() if request.path.startswith("/api/") else page_lang()


def num(n: int | None, signed: bool = False) -> str:
    """A score as the table writes it, in the page's language (``rules.common.number``)."""
    return "" if n is None else number(n, page_lang(), signed)


def money(cents: int) -> str:
    """An amount in the page's language (``rules.common.money``)."""
    return common_money(cents, page_lang())


def day(value: str | date | datetime) -> str:
    """A date in the page's locale: 22.11.2026 / Nov 22, 2026."""
    if isinstance(value, str):
        # stored in UTC; the table lives in the server's local time
        value = (
            datetime.fromisoformat(value).astimezone()
            if len(value) > 10
            else date.fromisoformat(value)
        )
    return _medium_date(value if isinstance(value, date) and not isinstance(value, datetime)
                        else value.date(), page_lang())  # fmt: skip


def when(value: str) -> str:
    """A stored time (UTC) as date and the server's local time: 22.11.2026, 21:03."""
    moment = datetime.fromisoformat(value).astimezone()
    return f"{day(moment)}, {moment:%H:%M}"


def _medium_date(value: date, lang: str) -> str:
    # Babel takes ~0.5 ms a date; the list of sheets shows hundreds of them, mostly the same:
    # kept in cache.py with every other process cache
    return cache.kept(cache.DATES, (value, lang),
                      lambda: format_date(value, format="medium", locale=lang))  # fmt: skip


def lang_url(code: str) -> str:
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    # Only the query: the link stays on the page it is on. The path as requested could lead
    # away ("/\\evil.example/x" is "//evil.example/x" to a browser).
    return "?" + urlencode(args, doseq=True)


def _jinja_gettext(text: str, **variables: Any) -> Markup:
    return Markup(catalog(current_lang()).ugettext(text)) % variables


def _jinja_ngettext(singular: str, plural: str, n: int, **variables: Any) -> Markup:
    variables.setdefault("num", n)
    return Markup(catalog(current_lang()).ungettext(singular, plural, n)) % variables


def _jinja_pgettext(context: str, text: str, **variables: Any) -> Markup:
    variables.setdefault("context", context)
    return Markup(catalog(current_lang()).upgettext(context, text)) % variables


def _jinja_npgettext(context: str, singular: str, plural: str, n: int, **variables: Any
                     ) -> Markup:  # fmt: skip
    variables.setdefault("context", context)
    variables.setdefault("num", n)
    return Markup(catalog(current_lang()).unpgettext(context, singular, plural, n)) % variables


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="translations")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
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
        return {"lang": page_lang(), "num": num, "money": money, "lang_url": lang_url}

    @app.after_request
    def remember(resp: Response) -> Response:
        chosen = request.args.get("lang")
        if chosen in LANGS and request.cookies.get("lang") != chosen:
            resp.set_cookie("lang", chosen, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
        return resp
