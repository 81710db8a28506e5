"""What the server need not do again: 304 for a sheet page that has not changed, gzip for text,
and one parsed WTForms catalogue per language.

A sheet page, its share view and the revision poll change only when the sheet does, and every
write bumps the sheet's revision. So their ``ETag`` is worked out from the stored revision
(one row) *before* the view runs: a phone that asks again with ``If-None-Match`` gets 304
without a page being computed or rendered at all.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import re
import secrets
import struct
import threading
import zlib
from collections.abc import Callable

from babel import support
from flask import Flask, Response, current_app, request, session
from flask_wtf.csrf import generate_csrf
from wtforms.i18n import messages_path

from skatcalc.services import cache
from skatcalc.services import sheets as service
from skatcalc.web.http import can_edit
from skatcalc.web.i18n import current_lang, page_args, page_lang
from skatcalc.web.request_state import (
    csrf_token,
    keep_sheet,
    mark_private,
    private,
    state,
    use_csrf_token,
)

# Pages whose whole content follows from the sheet's revision (plus language and edit rights).
REVISION_PAGES = frozenset({"sheets.show", "sheets.share", "sheets.revision"})
RENDERED_PAGES = frozenset({"sheets.show", "sheets.share"})
# Renders of one page wait for each other at most this long (then render on their own).
RENDER_WAIT = 2.0
# A fixed set of locks, a page's by its hash: bounded, and two pages that share one merely
# render one after the other (CPU-bound renders do not run in parallel under the GIL anyway).
_RENDER_LOCKS = [threading.Lock() for _ in range(64)]
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")
MIN_GZIP = 1024
# Level 1 packs a sheet page to about the same size as level 6 (within ~15 %) in a fraction of
# the time; on a Raspberry Pi serving a club night the CPU is what runs out first.
GZIP_LEVEL = 1
# A page is packed once per revision and kept: level 6 makes a 48-deal sheet page 16 % smaller
# than level 1 (8.4 against 10.0 KiB) for about 0.8 ms more per revision, and a phone on pub
# Wi-Fi waits for bytes, not for that.
PAGE_GZIP_LEVEL = 6


def init_app(app: Flask) -> None:
    # A new start may bring new templates: tags from an older process must not match. The
    # workers of one ``serve --processes N`` are one start: they get the parent's (BUILD_TAG).
    app.extensions["skatcalc_build"] = app.config.get("BUILD_TAG") or secrets.token_hex(6)
    app.jinja_env.globals["url_for"] = kept_url_for
    # a render's own, for this request (the macros a template imports see the global one)
    app.context_processor(lambda: {"url_for": _url_for_here()})
    app.before_request(_before)
    app.after_request(_after)
    app.teardown_request(_release)


# --- Links ------------------------------------------------------------------------------------


def kept_url_for(endpoint: str, **values: object) -> str:
    """The templates' ``url_for``: Flask's, built once per app, the request's root, host and
    scheme, endpoint and values (each with its type: ``True`` and ``1`` are other links)."""
    return _url_for_here()(endpoint, **values)


def _url_for_here() -> Callable[..., str]:
    """``kept_url_for`` for this request, with the request's part of the key found once: a
    render takes it as its ``url_for`` (a page builds ~23 links)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    here = (id(app), request.script_root, request.host, request.scheme)
    blueprint = request.blueprint

    def url_for(endpoint: str, **values: object) -> str:
        try:
            key = (*here, blueprint if endpoint[:1] == "." else None, endpoint,
                   *sorted((k, type(v), v) for k, v in values.items()))  # fmt: skip
            link = cache.LINKS.get(key)
        except TypeError:  # a value that is no key (a list): built as it is
            return app.url_for(endpoint, **values)  # type: ignore[no-any-return]
        if link is None:
            link = app.url_for(endpoint, **values)
            if len(cache.LINKS) >= cache.LINKS_KEPT:
                cache.LINKS.clear()
            cache.LINKS[key] = link
        return link

    return url_for


# --- ETag per sheet revision ------------------------------------------------------------------


def revision_etag() -> str | None:
    """The tag of the page this GET asks for, from the sheet's stored revision; None when the
    answer is not one of those pages or is not cacheable (a message to show once, a wrong
    share token, an unknown sheet: the view answers those)."""
    if request.method not in ("GET", "HEAD") or request.endpoint not in REVISION_PAGES:
        return None
    args = request.view_args or {}
    if "_flashes" in session:
        return None
    try:
        sheet = service.load_sheet(service.get_db(), int(args["sheet_id"]))
    except (service.NotFound, KeyError, ValueError, OverflowError):
        return None
    keep_sheet(sheet)  # the view reads it from there instead of loading it again
    if request.endpoint == "sheets.share":
        token = str(args.get("token", "")).encode("utf-8", "surrogatepass")
        if not hmac.compare_digest(token, sheet.share_token.encode()):
            return None
    mode = "edit" if request.endpoint == "sheets.show" and can_edit(sheet) else "view"
    # Everything besides the revision that the page depends on; links other phones open are
    # built from the Host the request came by.
    variant = (
        sheet.share_token,  # random per sheet: a reused id is another sheet
        request.endpoint,
        mode,
        page_lang(),
        bool(current_app.config.get("LAN")),
        current_app.config.get("PUBLIC_URL"),
        request.host_url,
        page_args(),  # only those the page reads: a random ``?x=`` is the same page
    )
    state().page_variant = variant
    parts = (current_app.extensions["skatcalc_build"], sheet.rev, variant)
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _form_secret() -> str | None:
    secret = session.get("csrf_token")  # Flask-WTF's, that a page's form tokens are signed from
    return secret if isinstance(secret, str) else None


def client_etag(etag: str, secret: str | None) -> str:
    """The tag a client holding the form secret ``secret`` in its session has for the page of
    revision tag ``etag``. A page the browser keeps carries form tokens of the session it was
    rendered for; once that session is gone (its cookie cleared or expired) a 304 would show
    the kept page, whose save the server then refuses as an expired form: so the tag is bound
    to the secret too. The kept page itself (``keep_page``) stays one per revision for every
    phone. A render that makes the client's session (and its secret) answers with the tag of
    that session, whose cookie comes with the same answer."""
    if secret is None:
        return etag
    return f"{etag}.{hashlib.blake2b(secret.encode(), digest_size=6).hexdigest()}"


def _before() -> Response | None:
    # Flask-WTF loads WTForms' message catalogue from disk for every request that builds a
    # form, unless the request already carries one: hand it the parsed one (in Flask-WTF's
    # own slot on the request, which Flask's Request type does not declare).
    # (the request's language as Flask-Babel would name it, without its parsed Locale)
    request.wtforms_translations = _wtforms_catalog(current_lang())  # type: ignore[attr-defined]
    etag = revision_etag()
    if etag is None:
        return None
    _reuse_form_token()
    st = state()
    st.revision_etag = etag
    tag = client_etag(etag, _form_secret())
    if request.if_none_match.contains_weak(tag):
        resp = Response(status=304)
        _cache_headers(resp, tag)
        return resp
    variant = st.page_variant
    assert variant is not None  # revision_etag() set it with the tag
    held = cached_page(variant, etag)
    if held is None and request.endpoint in RENDERED_PAGES:
        # One render per page and revision: after a save, the phones at the table ask for
        # the new page at about the same time; rendering it once each would only share one
        # CPU (and the GIL) between copies of the same work. The others wait for the first
        # and take its result (or render themselves if it kept none).
        lock = _RENDER_LOCKS[hash(variant) % len(_RENDER_LOCKS)]
        if lock.acquire(timeout=RENDER_WAIT):
            st.render_lock = lock
            held = cached_page(variant, etag)
    if held is not None:
        st.page_kept = True  # nothing to keep again after it
    return held


def _form_token_key() -> tuple[str, str] | None:
    """What a form token signed for this request follows from: the signing key and the
    session's form secret; None where a token must be signed for each page (a time limit, a
    field name of its own, no secret yet)."""
    config = current_app.config
    own_name = config.get("WTF_CSRF_FIELD_NAME", "csrf_token") != "csrf_token"
    if own_name or config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return None
    secret = _form_secret()
    key = config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    return None if secret is None or not isinstance(key, str) else (key, secret)


def _reuse_form_token() -> None:
    """Flask-WTF signs the session's form secret for every request that shows a form (~0.1 ms
    a sheet page). Its tokens have no time limit here, so the token signed for the same
    secret and key before is as good: the page takes that one (and keeps it for the next)."""
    key = _form_token_key()
    if key is None:
        return
    token = cache.FORM_TOKENS.get(key)
    if token is not None:
        use_csrf_token(token)


def _keep_form_token() -> None:
    token = csrf_token()
    key = _form_token_key() if token else None
    if token and key is not None and cache.FORM_TOKENS.get(key) != token:
        cache.FORM_TOKENS.put(key, token)


def _release(_exc: BaseException | None = None) -> None:
    st = state()
    lock, st.render_lock = st.render_lock, None
    if lock is not None:
        lock.release()


def _cache_headers(resp: Response, etag: str) -> None:
    resp.set_etag(etag)
    # Always ask again (the sheet changes under other phones), but a 304 is enough. A page
    # carrying the edit link is made no-store by http.py's last hook, cached or not.
    resp.headers["Cache-Control"] = "private, no-cache"
    resp.vary.add("Cookie")


def _after(resp: Response) -> Response:
    st = state()
    etag, st.revision_etag = st.revision_etag, None
    if etag is not None and resp.status_code == 200:
        _keep_form_token()
        _cache_headers(resp, client_etag(etag, _form_secret()))  # as the render left it
        if not st.page_kept:
            keep_page(st.page_variant, etag, resp)
    return compress(resp)


# --- Rendered pages per revision ---------------------------------------------------------------

# The rendered page per variant (sheet, view, language, …) for its latest revision only, with
# the per-request tokens cut out: another phone's first view, or a reload, costs a join instead
# of a render. The text between the tokens is kept as UTF-8 and also deflated, each piece on
# its own (a full flush resets the compressor), so a gzipped answer is the kept pieces plus the
# two tokens deflated: no page is compressed per request. Bounded by bytes (1,000-deal pages
# are large), oldest use first.
_PAGES = cache.PAGES  # kept in cache.py with every other process cache
CSRF, IDEM = "\x00csrf\x00", "\x00idem\x00"
TOKENS = (CSRF.encode(), IDEM.encode())
# The deal form's idempotency key: new for every page shown, so two saves are two deals.
IDEM_AT = b'name="idem" value="'
TOKEN_BYTES = re.compile(b"(\x00csrf\x00|\x00idem\x00)")
# A gzip member (RFC 1952): header (deflate, no name, no time), the deflate blocks, a final
# empty block, then CRC-32 and length of the plain bytes.
GZIP_HEAD = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
DEFLATE_END = zlib.compressobj(PAGE_GZIP_LEVEL, zlib.DEFLATED, -15).flush()


def deflate_piece(data: bytes) -> bytes:
    """Raw deflate blocks of ``data`` that stand on their own: byte-aligned and with the
    compressor's history reset, so they can be joined with other such pieces."""
    c = zlib.compressobj(PAGE_GZIP_LEVEL, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush(zlib.Z_FULL_FLUSH)


def keep_page(variant: tuple[object, ...] | None, etag: str, resp: Response) -> None:
    if (
        variant is None
        or resp.mimetype != "text/html"
        or resp.is_streamed
        or "_flashes" in session  # a message shown once was rendered into this one
    ):
        return
    # Kept as rendered, with this request's form token: its tokens are cut out at the first
    # answer from the kept page (``cut_page``), and deflated at the first gzipped one. The
    # render after a save is what a table waits for; the phones that ask next share the cut.
    token = csrf_token()
    with cache.PAGES_LOCK:
        _PAGES.put(variant, (etag, [resp.get_data(), (token or "").encode()], None, private()))


def cut_page(rendered: bytes, token: bytes) -> list[bytes]:
    """A rendered page's pieces between its tokens (the form token ``token`` and each
    idempotency key), the tokens as marks. Cut as bytes: decoding the page and encoding its
    pieces again cost more than the cuts."""
    data = rendered.replace(token, TOKENS[0]) if token else rendered
    return TOKEN_BYTES.split(_cut_idem(data))


def _cut_idem(data: bytes) -> bytes:
    """``data`` with each idempotency key's value (after ``IDEM_AT``, up to its closing
    quote) as the mark: found with ``bytes.find``, which a 50 KB page takes in a fraction of a
    regular expression's time."""
    out, pos = [], 0
    while (start := data.find(IDEM_AT, pos)) >= 0:
        start += len(IDEM_AT)
        end = data.find(b'"', start)
        if end < 0:
            break
        out += [data[pos:start], TOKENS[1]]
        pos = end
    return b"".join([*out, data[pos:]]) if out else data


def cached_page(variant: tuple[object, ...], etag: str) -> Response | None:
    held = _PAGES.get(variant, touch=True)
    if held is None or held[0] != etag:
        return None
    if held[2] is None:  # as rendered: cut once, kept cut unless a newer render came
        pieces = cut_page(*held[1])
        unpacked: list[bytes | None] = [None] * len(pieces)
        cut = (held[0], pieces, unpacked, held[3])
        with cache.PAGES_LOCK:
            if _PAGES.get(variant, touch=False) is held:
                _PAGES.put(variant, cut)
        held = cut
    _, pieces, packed, edit_link = held
    assert packed is not None
    if edit_link:
        mark_private()  # as the render that made it said
    fresh = {TOKENS[1]: secrets.token_urlsafe(12).encode()}
    if TOKENS[0] in pieces:
        fresh[TOKENS[0]] = generate_csrf().encode()  # this client's session, as a render would
    body = [fresh.get(p, p) for p in pieces]
    data = b"".join(body)
    if request.accept_encodings["gzip"] <= 0 or len(data) < MIN_GZIP:
        return Response(data, mimetype="text/html")
    if any(z is None for p, z in zip(pieces, packed, strict=True) if p not in TOKENS):
        packed = [None if p in TOKENS else deflate_piece(p) for p in pieces]
        with cache.PAGES_LOCK:  # kept again (and measured again) unless a newer render came
            if _PAGES.get(variant, touch=False) is held:
                _PAGES.put(variant, (held[0], pieces, packed, edit_link))
    deflated = [z if z is not None else deflate_piece(b) for b, z in zip(body, packed, strict=True)]
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    resp = Response(GZIP_HEAD + b"".join(deflated) + DEFLATE_END + trailer, mimetype="text/html")
    resp.headers["Content-Encoding"] = "gzip"
    state().prepacked = True  # compress() adds what it adds to a packed answer, and packs nothing
    return resp


# Not in services/cache.py: WTForms' catalogue file read once per language (two), like an
# import, not data derived from what is stored or asked.
_WTF: dict[str, support.NullTranslations] = {}
_WTF_LOCK = threading.Lock()


def _wtforms_catalog(locale: str) -> support.NullTranslations:
    with _WTF_LOCK:
        if locale not in _WTF:
            _WTF[locale] = support.Translations.load(messages_path(), [locale], domain="wtforms")
        return _WTF[locale]


# --- gzip -------------------------------------------------------------------------------------

# Static files are the same bytes for every phone: packed once per file version (their ETag),
# kept in cache.py with every other process cache.
_PACKED = cache.STATIC_GZIP
_PACKED_LOCK = cache.STATIC_GZIP_LOCK


def gzip_bytes(data: bytes) -> bytes:
    """``data`` packed as every answer here is packed (level 1, no time stamp)."""
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def compress(resp: Response) -> Response:
    """gzip a text answer of 1 KB or more for a client that takes it; pub Wi-Fi is slow, and
    text shrinks five- to tenfold (waitress itself never compresses)."""
    st = state()
    prepacked, st.prepacked = st.prepacked, False
    if prepacked and resp.status_code == 200:  # a kept page, packed already
        resp.vary.add("Accept-Encoding")
        etag, weak = resp.get_etag()
        if etag is not None and not weak:
            resp.set_etag(etag, weak=True)
        return resp
    if not (resp.mimetype or "").startswith(COMPRESSIBLE) or "Content-Encoding" in resp.headers:
        return resp
    resp.vary.add("Accept-Encoding")
    if (
        resp.status_code != 200
        or request.accept_encodings["gzip"] <= 0
        or (resp.is_streamed and not resp.direct_passthrough)
    ):
        return resp
    static = request.endpoint == "static"
    etag, weak = resp.get_etag()
    cached = _PACKED.get(request.path) if static else None
    if cached is not None and etag is not None and cached[0] == etag:
        packed = cached[1]
        close = getattr(resp.response, "close", None)  # the file send_file opened
        if close is not None:
            resp.call_on_close(close)
        resp.direct_passthrough = False
    else:
        resp.direct_passthrough = False
        data = resp.get_data()
        if len(data) < MIN_GZIP:
            return resp
        level = PAGE_GZIP_LEVEL if resp.mimetype == "text/html" else GZIP_LEVEL
        packed = gzip.compress(data, compresslevel=level, mtime=0)
        if static and etag is not None:
            with _PACKED_LOCK:
                _PACKED[request.path] = (etag, packed)
    resp.set_data(packed)
    resp.headers["Content-Encoding"] = "gzip"
    if etag is not None and not weak:
        resp.set_etag(etag, weak=True)  # the bytes differ from the plain answer's, the content not
    return resp
