"""The HTTP edge: which hosts and clients are served, edit rights, security headers.

Everything here runs for every request before or after the feature code, so the feature
code can trust what it gets: a known Host, a body that is real JSON, a bounded number of
writes per client and at once.
"""

from __future__ import annotations

import collections
import ipaddress
import json
import math
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeAlias, TypeVar

from flask import (
    Flask,
    Request,
    Response,
    current_app,
    has_request_context,
    jsonify,
    render_template,
    request,
    session,
)
from flask.globals import _cv_request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature
from markupsafe import Markup, escape
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response as BaseResponse

from skatcalc.services import cache
from skatcalc.services.events import Event
from skatcalc.services.sheets import MAX_ID, Sheet, TableEvent
from skatcalc.text import _
from skatcalc.web.assets import assets
from skatcalc.web.i18n import current_lang, lang_url, page_lang
from skatcalc.web.request_state import give_back_write_slot, private, take_write_slot
from skatcalc.web.rights import bearer_token, holds_admin_token, remember_key, token_matches

R = TypeVar("R", bound=BaseResponse)  # Flask's own Response or a redirect's

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
# POSTed like writes, but they only calculate (the live preview asks them on every change).
CALCULATORS = frozenset({"/api/v1/skat/value", "/api/v1/schafkopf/value"})
# a deal as it would be, nothing stored (the API's, and the entry and correction forms')
PREVIEWS = frozenset({"api.preview_deal", "sheets.preview", "sheets.preview_correction"})
PAGE_BODIES = ("", "application/x-www-form-urlencoded", "multipart/form-data")
# Request bodies: 1 MiB, but an export file taken back in may be as large as the largest
# export the app makes (a 1,000-deal sheet of five 40-character names, every deal corrected
# once: docs/operations.md gives the measured size). `skatcalc serve` refuses a larger body
# from its header, before reading it (cli.CappedParser); the app checks it again.
BODY_MAX = 1024 * 1024
IMPORT_BODY_MAX = 16 * 1024 * 1024
IMPORT_PATHS = frozenset({"/sheets/import", "/api/v1/sheets/import"})
# MAX_ID: SQLite stores signed 64-bit integers; a larger id in a URL names nothing (404), it
# is not an error of the server (the same bound as for ids in bodies: service.is_id).


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` in every route: 0 … 2^63−1, else the route does not match (404)."""

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None,
                 max: int | None = MAX_ID, signed: bool = False) -> None:  # fmt: skip
        super().__init__(map, fixed_digits, min, max, signed)


# --- JSON bodies ------------------------------------------------------------------------------


#: a parsed JSON body: what ``parse_json`` gives, before the rules read it
JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"


class BadJSON(ValueError):
    pass


def _reject_constant(name: str) -> NoReturn:
    raise BadJSON(f"{name} is not JSON")


_MAX_DEPTH = 200  # nesting of a body's arrays and objects


def _storable(value: object, depth: int = 0) -> None:
    """One walk over a parsed body: every string encodable as UTF-8 (a lone surrogate such as
    "\\ud800" is valid JSON syntax but no character: it can neither be stored nor sent back)
    and every number finite (1e400 parses to inf)."""
    if depth > _MAX_DEPTH:
        raise BadJSON("nested too deeply")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadJSON("lone surrogate") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise BadJSON("number out of range")
    elif isinstance(value, dict):
        for k, v in value.items():
            _storable(k, depth + 1)
            _storable(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _storable(v, depth + 1)


def parse_json(raw: bytes, hook: Callable[[list[tuple[str, Any]]], Any] | None = None
               ) -> JSONValue:  # fmt: skip
    """Strict JSON (RFC 8259): UTF-8, no NaN/Infinity, no lone surrogates, no 1e400.

    Raises ``BadJSON`` (a ValueError) for anything else, so no later step meets a value it
    could not store or send back as JSON. ``hook`` makes each object from its pairs (json's
    ``object_pairs_hook``): the import drops what it never reads as the file is parsed."""
    try:
        value: JSONValue = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant,
                                      parse_float=_finite, object_pairs_hook=hook)  # fmt: skip
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise BadJSON(str(exc)) from None
    # The walk finds nothing in a body that has no ``\u`` escape (strict UTF-8 decodes no
    # lone surrogate; only an escape makes one) and fewer brackets than the walk's depth
    # (numbers were checked as parsed): an app's deal, the usual body, is not walked.
    if b"\\u" in raw or raw.count(b"[") + raw.count(b"{") > _MAX_DEPTH:
        _storable(value)
    return value


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused where it is no finite float."""
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON("number out of range")
    return value


# --- Edit rights ------------------------------------------------------------------------------


def can_edit(sheet: Sheet) -> bool:
    """Without ``LAN`` everyone at the machine may edit; on the network only holders of the
    sheet's edit token, from the edit link's cookie or as ``Authorization: Bearer`` (or of
    the admin link; rights.py). Never by the client's address."""
    return holds_token(f"edit_{sheet.id}", sheet.edit_token)


def can_change_rules(sheet: Sheet, event: TableEvent | None) -> bool:
    """The house rules of a sheet change with its edit right; on a club night's table
    (``event``: the event it is a table of) only with the organiser's."""
    if event is not None:
        return can_edit_event(event)
    return can_edit(sheet)


def can_edit_event(event: Event | TableEvent) -> bool:
    """A club night's organiser right: its link's cookie, its token as Bearer, or the admin's."""
    return holds_token(f"event_{event.id}", event.edit_token)


def holds_token(cookie: str, edit_token: str) -> bool:
    """The same check for anything with an edit token (sheets, events)."""
    if not current_app.config.get("LAN"):
        return True
    token = bearer_token() or request.cookies.get(cookie)
    return token_matches(token, edit_token) or holds_admin_token()


def remember_edit_token(resp: R, sheet: Sheet) -> R:
    """The edit link's cookie: this browser may change this sheet from now on."""
    return remember_key(resp, f"edit_{sheet.id}", sheet.edit_token)


# --- Hosts ------------------------------------------------------------------------------------


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def host_allowed(host: str, app: Flask) -> bool:
    """Is ``host`` (the Host header) one this server answers to?

    Configured ``ALLOWED_HOSTS`` decide alone ("example.org", or ".example.org" for it and its
    subdomains). Without them: on loopback only localhost, 127.0.0.1 and [::1], so a page of
    another site that rebinds its DNS name to 127.0.0.1 gets 400; on the network also any IP
    address and this machine's own names, which is how phones at the table reach it."""
    name = _host_name(host)
    if not name:
        return False
    trusted = app.config.get("ALLOWED_HOSTS")
    if trusted:
        for t in trusted:
            t = t.strip().lower()
            if t == "*" or name == t or (t.startswith(".") and (name == t[1:] or name.endswith(t))):
                return True
        return False
    if name in LOOPBACK_HOSTS:
        return True
    if not app.config.get("LAN"):
        return False
    if _is_ip_literal(name):
        return True
    return name in _own_names()


_OWN_NAMES: set[str] = set()


def _own_names() -> set[str]:
    if not _OWN_NAMES:
        short = socket.gethostname().lower()
        _OWN_NAMES.update({short, f"{short}.local", socket.getfqdn().lower()})
    return _OWN_NAMES


# --- Writes per client ------------------------------------------------------------------------


class RateLimiter:
    """A token bucket per client: ``rate`` writes per ``per`` seconds, in bursts up to ``rate``.

    In memory and per process: a limit against a runaway script or a flood from one
    address, not an accounting."""

    def __init__(self, rate: int, per: float = 60.0, max_clients: int = 10_000) -> None:
        self.rate = rate
        self.per = per
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def hit(self, client: str, now: float | None = None) -> float:
        """0 if the write may go ahead, else the seconds until it may."""
        now = time.monotonic() if now is None else now
        fill = self.rate / self.per
        with self._lock:
            tokens, last = self._buckets.get(client, (float(self.rate), now))
            tokens = min(float(self.rate), tokens + (now - last) * fill)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return (1 - tokens) / fill
            self._buckets[client] = (tokens - 1, now)
            if len(self._buckets) > self.max_clients:
                # forget the clients that have been quiet longest (their buckets are full)
                for key in sorted(self._buckets, key=lambda k: self._buckets[k][1])[
                    : self.max_clients // 10
                ]:
                    del self._buckets[key]
        return 0.0


WRITE_WAIT = 10.0  # seconds a write waits for a write slot before 503 (docs/operations.md)


class WriteSlots:
    """At most ``limit`` writing requests in progress at once.

    A write computes its sheet and waits for SQLite's write lock; the bound keeps that work
    from taking every thread at once. Beyond it a write waits its turn, first come first
    served, up to ``wait`` seconds, and only then is told to come back (503 + Retry-After):
    a table's save is never refused in milliseconds because seven others saved too."""

    def __init__(self, limit: int, wait: float = WRITE_WAIT) -> None:
        self.limit = limit
        self.wait = wait
        self.busy = 0
        self._ready = threading.Condition()
        self._queue: collections.deque[object] = collections.deque()

    def enter(self) -> bool:
        """True once a slot is this request's; False after ``wait`` seconds without one."""
        with self._ready:
            if not self._queue and self.busy < self.limit:  # nobody waits and a slot is free
                self.busy += 1
                return True
        me = object()
        deadline = time.monotonic() + self.wait
        with self._ready:
            self._queue.append(me)
            try:
                while self._queue[0] is not me or self.busy >= self.limit:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._ready.wait(left)
                self.busy += 1
                return True
            finally:
                self._queue.remove(me)
                self._ready.notify_all()  # the next in line may go, or a slot is still free

    def leave(self) -> None:
        with self._ready:
            self.busy -= 1
            self._ready.notify_all()


def _is_api() -> bool:
    return request.path.startswith("/api/")


def refuse(status: int, text: str, retry_after: float | None = None) -> Response:
    """An error answer in the shape of the route: JSON for the API, the error page else."""
    if _is_api():
        resp = jsonify({"errors": {"_": [text]}})
    else:
        resp = Response(error_page(status, text))
    resp.status_code = status
    if retry_after is not None:
        resp.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return resp


_LANG_MARK = re.compile("(\x00lang-[a-z]+\x00)")


def error_page(code: int, message: str | None = None) -> str:
    """``error.html`` for ``code`` (with ``message``, else the code's own text).

    The page follows from the code, the message, the language and the app's root alone, but
    for the link to the other language (the request's arguments): rendered once per such
    variant with a mark there, and kept. A flood of requests for pages that are not there
    (bots on the internet) then costs no template work; a message to show once (a flash)
    is rendered with the page."""
    if "_flashes" in session or _flashes_read() or "\x00" in (message or ""):
        return render_template("error.html", code=code, exc=None, message=message)
    key = (code, message, page_lang(), current_lang(), request.script_root, assets().names)

    def render() -> list[str]:
        marked = render_template("error.html", code=code, exc=None, message=message,
                                 lang_url=lambda lang: Markup(f"\x00lang-{lang}\x00"))  # fmt: skip
        return _LANG_MARK.split(marked)

    pieces = cache.ERROR_PAGES.get(key)
    if pieces is None:
        pieces = render()
        cache.ERROR_PAGES.put(key, pieces)
    return "".join([str(escape(lang_url(p[6:-1]))) if p[:1] == "\x00" else p for p in pieces])


def _flashes_read() -> bool:
    """Whether this request took messages to show once from the session already (a page that
    failed after drawing them): they are on the request now, and an error page shows them."""
    ctx = _cv_request.get(None)
    return bool(ctx is not None and ctx.flashes)


class Refused(Exception):
    """A write turned away before it began (too many writes, every write slot taken):
    errors.py answers it like a storage fault, so a page's form comes back as it was sent."""

    def __init__(self, status: int, text: str, retry_after: float | None) -> None:
        super().__init__(text)
        self.status, self.text, self.retry_after = status, text, retry_after


def busy_text() -> str:
    return _("Die Liste ist gerade belegt – bitte gleich noch einmal speichern.")


def client_address() -> str:
    return request.remote_addr or "?"


_PLAIN = (str, int, float, bool, type(None))  # values a copy of the dict does not share


class AppSession(SecureCookieSession):
    """The session of an API request with a Bearer token: empty, and never written."""


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over https (directly or, with
    ``PROXY_COUNT``, as the TLS proxy says), not only when configured.

    An API request with a Bearer token is an app's: its right comes with it, and the session
    holds only what the pages use (their forms' token, messages shown once). Its cookie, if a
    browser sent one, is neither decoded nor written (it stays as it was)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app) or (has_request_context() and request.is_secure))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/api/") and bearer_token(request):
            return AppSession()
        value = request.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, request)
        # A phone sends the same cookie with every page: its signature is checked once per
        # signing keys and cookie, and its age on every request, as itsdangerous would.
        key = ((app.secret_key, *(app.config.get("SECRET_KEY_FALLBACKS") or ())), value)
        max_age = app.permanent_session_lifetime.total_seconds()
        held = cache.SESSIONS.get(key)
        if held is not None and 0 <= time.time() - held[0] <= max_age:
            return self.session_class(held[1])
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        try:
            data, signed = signer.loads(value, max_age=int(max_age), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if isinstance(data, dict) and all(type(v) in _PLAIN for v in data.values()):
            cache.SESSIONS.put(key, (signed.timestamp(), dict(data)))
        return self.session_class(data)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if isinstance(session, AppSession):
            if session.accessed:  # as Flask says of any session read
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def _limiter(app: Flask, key: str, per: float = 60.0) -> RateLimiter | None:
    """The rate limit ``app.config[key]`` (hits per ``per`` seconds and client), if set."""
    limit = app.config.get(key)
    return RateLimiter(int(limit), per=per) if limit else None


@dataclass(frozen=True, slots=True)
class Gate:
    """What every request passes first: a known host, a page's body on a page, and for a
    write its limits and a write slot."""

    writes: RateLimiter | None
    # Previews need no edit right but compute the sheet: a bucket of their own per client,
    # so a loop of them cannot starve the others (and typing never eats the write limit).
    previews: RateLimiter | None
    # Imports need no right and each may bring a 16 MiB sheet of 1,000 deals: a budget of
    # their own per client and hour, beside the write limit they count against too.
    imports: RateLimiter | None
    slots: WriteSlots

    @classmethod
    def of(cls, app: Flask) -> Gate:
        slots = WriteSlots(int(app.config.get("WRITE_SLOTS") or 4),
                           float(app.config.get("WRITE_WAIT") or WRITE_WAIT))  # fmt: skip
        return cls(_limiter(app, "WRITE_LIMIT"), _limiter(app, "PREVIEW_LIMIT"),
                   _limiter(app, "IMPORT_LIMIT", per=3600.0), slots)  # fmt: skip

    def check(self, app: Flask) -> Response | None:
        if not host_allowed(request.headers.get("Host", ""), app):
            return _unknown_host()
        if request.method not in WRITE_METHODS:
            return None
        if request.path in IMPORT_PATHS:
            request.max_content_length = IMPORT_BODY_MAX
        if not _is_api() and request.mimetype not in PAGE_BODIES:
            # The pages take their forms, nothing else: a JSON body here is not a browser.
            return refuse(415, _("Bitte das Formular der Seite benutzen."))
        if request.path in CALCULATORS:
            return None  # only calculates (cheap): no limit, no write slot
        if request.endpoint in PREVIEWS:
            wait = self.previews.hit(client_address()) if self.previews is not None else 0.0
            if wait:
                return refuse(
                    429, _("Zu viele Vorschauen in kurzer Zeit – bitte kurz warten."), wait
                )
            return None  # nothing stored: no write slot
        self.enter_write()
        return None

    def enter_write(self) -> None:
        """A write's limits, then a write slot (given back when the request ends); else
        :class:`Refused`."""
        if self.imports is not None and request.path in IMPORT_PATHS:
            wait = self.imports.hit(client_address())
            if wait:
                raise Refused(
                    429, _("Zu viele Importe in kurzer Zeit – bitte später noch einmal."), wait
                )
        if self.writes is not None:
            wait = self.writes.hit(client_address())
            if wait:
                raise Refused(
                    429, _("Zu viele Änderungen in kurzer Zeit – bitte kurz warten."), wait
                )
        if not self.slots.enter():
            raise Refused(503, busy_text(), 2)
        take_write_slot()


def _unknown_host() -> Response:
    # Plain text: no page of ours, no link, is built for a host we do not know.
    resp = Response(_("Unbekannter Hostname."), 400, mimetype="text/plain")
    if _is_api():
        resp = jsonify({"errors": {"_": [_("Unbekannter Hostname.")]}})
        resp.status_code = 400
    return resp


# What every answer says of itself unless its view said otherwise (lower-case name, name, value).
_ALWAYS = tuple(
    (name.lower(), name, value)
    for name, value in (
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    )
)


def security_headers(resp: Response) -> Response:
    """What every answer says of itself: its content policy, no framing, its privacy, Secure
    cookies and HSTS over https."""
    h = resp.headers
    # as setdefault each (a view's own stays), the answer's names looked at once, not per header
    have = {name.lower() for name in h.keys()}
    for low, name, value in _ALWAYS:
        if low not in have:
            h.add(name, value)
    if private():
        # An edit link or token in the answer is a key: no cache may keep it, whoever
        # built the answer (a view, or the page cache in caching.py).
        h["Cache-Control"] = "private, no-store"
    if not request.is_secure:
        return resp  # gzip: caching.py, whose hook runs before this one
    # Over https every cookie is Secure (the edit cookie is a key to the sheet).
    cookies = h.getlist("Set-Cookie")
    if cookies:
        del h["Set-Cookie"]
        for c in cookies:
            secure = c if "; secure" in c.lower() else f"{c}; Secure"
            h.add("Set-Cookie", secure)
    hsts = current_app.config.get("HSTS_SECONDS")
    if hsts:
        h.setdefault("Strict-Transport-Security", f"max-age={int(hsts)}")
    return resp


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    gate = Gate.of(app)
    app.extensions["skatcalc_write_slots"] = gate.slots

    def check_request() -> Response | None:
        return gate.check(app)

    # First of all hooks: a request for an unknown host is refused before CSRF and the rest.
    app.before_request_funcs.setdefault(None, []).insert(0, check_request)

    @app.teardown_request
    def release(_exc: BaseException | None = None) -> None:
        if give_back_write_slot():
            gate.slots.leave()

    app.after_request(security_headers)
