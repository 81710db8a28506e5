"""Response headers every page gets: security headers and gzip for text."""

from __future__ import annotations

import gzip
import hmac
from typing import Any

from flask import Flask, Response, current_app, request

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")


def can_edit(sheet: dict[str, Any]) -> bool:
    """On loopback everyone at the machine may edit; on the network only holders of the
    sheet's edit token, from the edit link's cookie or as ``Authorization: Bearer``."""
    return holds_token(f"edit_{sheet['id']}", sheet["edit_token"])


def holds_token(cookie: str, edit_token: str) -> bool:
    """The same check for anything with an edit token (sheets, events)."""
    if not current_app.config.get("LAN"):
        return True
    auth = request.headers.get("Authorization", "")
    token = auth[7:].strip() if auth.startswith("Bearer ") else None
    token = token or request.cookies.get(cookie)
    return token is not None and hmac.compare_digest(token, edit_token)


def remember_edit_token(resp: Response, sheet: dict[str, Any]) -> Response:
    """The edit link's cookie: this browser may change this sheet from now on."""
    resp.set_cookie(f"edit_{sheet['id']}", sheet["edit_token"], httponly=True, samesite="Lax",
                    max_age=3600 * 24 * 365)  # fmt: skip
    return resp


def init_app(app: Flask) -> None:
    @app.after_request
    def headers(resp: Response) -> Response:
        h = resp.headers
        h.setdefault("Content-Security-Policy", CSP)
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("X-Frame-Options", "DENY")
        return _gzip(resp)


def _gzip(resp: Response) -> Response:
    # waitress serves uncompressed; pub Wi-Fi is slow, and text shrinks five- to tenfold.
    if (
        resp.status_code != 200
        or "gzip" not in request.headers.get("Accept-Encoding", "")
        or "Content-Encoding" in resp.headers
        or not (resp.mimetype or "").startswith(COMPRESSIBLE)
        or resp.is_streamed
        and not resp.direct_passthrough
    ):
        return resp
    resp.direct_passthrough = False
    data = resp.get_data()
    if len(data) < 1024:
        return resp
    resp.set_data(gzip.compress(data, compresslevel=6))
    resp.headers["Content-Encoding"] = "gzip"
    resp.headers["Vary"] = "Accept-Encoding"
    etag = resp.headers.get("ETag")
    if etag and not etag.startswith("W/"):
        resp.headers["ETag"] = "W/" + etag  # the bytes differ from the file's, the content not
    return resp
