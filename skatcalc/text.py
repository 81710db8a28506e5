"""Texts in German and English, without a request: the message catalogues and the one
translation path.

The msgids are the German texts (the default language); ``translations/en`` holds English.
Every text a person reads goes through ``translate(text, lang, **params)``: pages, API answers,
CSV, PDF and the command line. ``_()`` and ``pgettext()`` are that function in the language of
the request being answered, which the web layer finds (``web/i18n.py``: ?lang=, the cookie,
Accept-Language) and names here when the app is made (:func:`use_request_lang`), so a game's
forms translate without importing the web layer.

Below the games in the layers (docs/architecture.md): of the package it imports only
``rules/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from babel.support import NullTranslations, Translations

from skatcalc.rules.common import InvalidDeal, Msg

LANGS = ("de", "en")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
__all__ = ["LANGS", "_", "catalog", "field_errors", "pgettext", "ptranslate", "request_lang",
           "translate", "use_request_lang"]  # fmt: skip

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


def translate(
    text: str | Msg, lang: str, /, *, context: str | None = None, **params: object
) -> str:
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


def ptranslate(context: str, text: str, lang: str, /, **params: object) -> str:
    return translate(text, lang, context=context, **params)


def _german() -> str:
    return "de"


# How the language of the request being answered is found: set once by the web layer
# (web/i18n.init_app); without a web app (a script, a doctest) German.
_find_lang: Callable[[], str] = _german


def use_request_lang(find: Callable[[], str]) -> None:
    """Name the function that tells the language of the request being answered."""
    global _find_lang
    _find_lang = find


def request_lang() -> str:
    """The language of the request being answered (a page's ?lang= or cookie, an API call's
    Accept-Language), as the web layer finds it."""
    return _find_lang()


def _(text: str | Msg, **variables: object) -> str:
    return translate(text, request_lang(), context=None, **variables)


def pgettext(context: str, text: str, **variables: object) -> str:
    return translate(text, request_lang(), context=context, **variables)
