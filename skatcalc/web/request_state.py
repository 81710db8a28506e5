"""What one request carries from one module to another, in one typed place.

A hook decides something that another hook, later in the same request, acts on: a view puts
an edit link into its answer and the last hook makes the answer ``private, no-store``; the
ETag hook loads the sheet and the view uses it; the write limit takes a slot and the teardown
gives it back. All of it lives in one :class:`RequestState` per request (kept on ``flask.g``
under one private name, made on first use), read and written through the functions below.
No other module touches ``flask.g`` for it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from flask.globals import _cv_app

# The record through a service: web/ never imports store/.
from skatcalc.services.players import Sheet

_KEY = "_skatcalc_request"  # the one name on flask.g


@dataclass(slots=True)
class RequestState:
    """One request's state; every field starts empty with the request."""

    # The answer holds a key (an edit link or token, in the body or a cookie): no cache may
    # keep it. Set by mark_private() (views and helpers that put one in: http, rights,
    # sheet_view, sheets' API, players', events' and the desk's pages, and caching when a kept
    # page says its render did); read by http's last hook (Cache-Control: private, no-store)
    # and by caching, which keeps the mark with the rendered page.
    private: bool = False
    # http's write limit let this request in: a slot to give back at its teardown.
    write_slot: bool = False
    # The pages' language (?lang=, then the cookie): i18n.page_lang, asked ~100 times a page.
    page_lang: str | None = None
    # The request's language for texts (the API's Accept-Language, else page_lang):
    # i18n.current_lang.
    ui_lang: str | None = None
    # The request's sheet, read once: loaded by caching (for its ETag) or the sheets' views,
    # read by the sheets' views, forgotten by errors when a write was refused (read it again).
    sheet: Sheet | None = None
    # caching.py only, from its hook before the view to its hooks after it: the rendered
    # page's variant (sheet, view, language, …) and revision ETag, the render lock this
    # request holds, whether the answer came from the kept pages (nothing to keep again) and
    # whether it is gzipped already (compress() then packs nothing).
    page_variant: tuple[object, ...] | None = None
    revision_etag: str | None = None
    render_lock: threading.Lock | None = None
    page_kept: bool = False
    prepacked: bool = False
    # heavy.py only: this request holds a heavy-read slot (give it back at teardown), and its
    # answer was large (hand the freed memory back to the system afterwards).
    heavy: bool = False
    large: bool = False


def state() -> RequestState:
    """This request's state (made on first use).

    Kept on ``flask.g``, reached through the app context's own variable rather than the ``g``
    proxy: a request asks ~10 times (the hooks, the view, the page's helpers), and each proxy
    read cost more than the rest of the call."""
    ctx = _cv_app.get(None)
    if ctx is None:
        raise RuntimeError("Working outside of application context.")
    kept = ctx.g.__dict__
    held: RequestState | None = kept.get(_KEY)
    if held is None:
        held = kept[_KEY] = RequestState()
    return held


def mark_private() -> None:
    """The answer carries a key (edit link, token, its cookie): private, no-store."""
    state().private = True


def private() -> bool:
    """Whether something in this request marked the answer private."""
    return state().private


def keep_sheet(sheet: Sheet) -> None:
    """The request's sheet as just read: whoever asks next takes it from here."""
    state().sheet = sheet


def kept_sheet(sheet_id: int) -> Sheet | None:
    """The sheet ``sheet_id`` if this request has read it already."""
    held = state().sheet
    return held if held is not None and held.id == sheet_id else None


def forget_sheet() -> None:
    """The sheet is to be read again (another device changed it meanwhile)."""
    state().sheet = None


def take_write_slot() -> None:
    """http's write limit gave this request a slot."""
    state().write_slot = True


def give_back_write_slot() -> bool:
    """Whether this request held a write slot; it holds none afterwards."""
    st = state()
    held, st.write_slot = st.write_slot, False
    return held


def csrf_token() -> str | None:
    """Flask-WTF's form token of this request, if a form made one (Flask-WTF keeps it on g)."""
    ctx = _cv_app.get(None)
    token = ctx.g.get("csrf_token") if ctx is not None else None
    return str(token) if token else None


def use_csrf_token(token: str) -> None:
    """This request's form token, signed before (web/caching.py): Flask-WTF takes it from g
    instead of signing one."""
    _cv_app.get().g.csrf_token = token
