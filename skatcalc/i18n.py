"""German first, English second: the page language comes from ?lang=, then a cookie."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, Response, g, request

LANGS = ("de", "en")


def page_lang() -> str:
    if "lang" not in g:
        chosen = request.args.get("lang") or request.cookies.get("lang") or "de"
        g.lang = chosen if chosen in LANGS else "de"
    return str(g.lang)


def api_lang() -> str:
    return request.accept_languages.best_match(LANGS, default="de") or "de"


def T(de: str, en: str) -> str:
    """The text in the page's language; both are written side by side where used."""
    return en if page_lang() == "en" else de


def num(n: int | None, signed: bool = False) -> str:
    """Numbers with a real minus sign; German and English both group nothing below 10,000."""
    if n is None:
        return ""
    if signed and n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return str(n)


def money(cents: int) -> str:
    euros, rest = divmod(abs(cents), 100)
    sep = "," if page_lang() == "de" else "."
    sign = "\u2212" if cents < 0 else ""
    return f"{sign}{euros}{sep}{rest:02d} €"


def lang_url(code: str) -> str:
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    return request.path + "?" + urlencode(args, doseq=True)


def init_app(app: Flask) -> None:
    @app.context_processor
    def inject() -> dict[str, object]:
        return {"T": T, "lang": page_lang(), "num": num, "money": money, "lang_url": lang_url}

    @app.after_request
    def remember(resp: Response) -> Response:
        chosen = request.args.get("lang")
        if chosen in LANGS and request.cookies.get("lang") != chosen:
            resp.set_cookie("lang", chosen, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
        return resp
