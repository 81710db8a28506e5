"""Who may change what. Rights come from links (capabilities), never from the client's address.

* a sheet's edit link: cookie ``edit_<id>``, or its ``edit_token`` as ``Authorization: Bearer``
  (``http.can_edit``);
* an event's organiser link: cookie ``event_<id>`` or the event's token as Bearer;
* a group's link: cookie ``group_<id>``, or ``"group_token"`` in the body of an API write that
  puts a sheet or an event into the group;
* the server's admin link ``/admin/<token>``: cookie ``skatcalc_admin`` or the admin token as
  Bearer; it grants every right (players, any group, any sheet or event, the lost links).

Without ``LAN`` (one machine, one person) every right is everyone's. With it, loopback is no
exception: behind a proxy every visitor arrives from 127.0.0.1.

The admin token is made once per database (migration ``m012``, table ``settings``), so it
survives restarts and travels with a backup; ``skatcalc admin-link`` prints it again.
"""

from __future__ import annotations

import hmac
import re
from typing import TypeVar

from flask import Request, current_app, request
from werkzeug.wrappers import Response

from skatcalc.services import sheets as service
from skatcalc.services.players import Group
from skatcalc.web.request_state import mark_private

ADMIN_COOKIE = "skatcalc_admin"
KEY_COOKIE_AGE = 3600 * 24 * 365
R = TypeVar("R", bound=Response)  # Flask's own Response or a redirect's


# Every address that carries a key in its path: a sheet's edit and share links, an
# organiser's and a group's link, the admin link (and anything below it).
_KEYED_PATH = re.compile(r"(/(?:sheets|events|groups)/\d+/(?:edit|share)/|/admin/)[^/?#\s\"']+")


def masked(text: str) -> str:
    """``text`` (a path, a log line) with every link's key replaced by ``***``: logs never
    hold a key, which would be as good as the link."""
    return _KEYED_PATH.sub(r"\1***", text)


def token_matches(given: str | None, expected: str | None) -> bool:
    """Constant-time comparison that takes any text: ``hmac.compare_digest`` raises on
    non-ASCII str, so both sides are compared as UTF-8 bytes."""
    if not given or not expected:
        return False
    a = given.encode("utf-8", "surrogateescape")
    b = expected.encode("utf-8", "surrogateescape")
    return hmac.compare_digest(a, b)


def bearer_token(req: Request | None = None) -> str | None:
    """The token of ``Authorization: Bearer …`` (of ``req``, by default the request being
    answered); the scheme is case-insensitive (RFC 7235)."""
    auth = (request if req is None else req).headers.get("Authorization", "")
    scheme, _, token = auth.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


# --- The request's rights ---------------------------------------------------------------------


def lan() -> bool:
    return bool(current_app.config.get("LAN"))


def admin_token() -> str:
    """This app's admin token, read once (it never changes while the database lives)."""
    held = current_app.extensions.get("skatcalc_admin_token")
    if held is None:
        held = service.read_admin_token(service.get_db())
        current_app.extensions["skatcalc_admin_token"] = held
    return str(held)


def holds_admin_token() -> bool:
    """The admin link's cookie or ``Authorization: Bearer <admin token>``."""
    expected = admin_token()
    return token_matches(bearer_token(), expected) or token_matches(
        request.cookies.get(ADMIN_COOKIE), expected
    )


def has_admin_right() -> bool:
    """Every right: renaming and merging players, any group, the admin page."""
    return not lan() or holds_admin_token()


def group_cookie(group: Group) -> str:
    return f"group_{group.id}"


def may_change_group(group: Group, given: str | None = None) -> bool:
    """Changing the group (name, rules, its sheets) and putting a sheet or an event into it:
    ``given`` (an API body's ``group_token``), the group link's cookie, or the admin right."""
    if not lan():
        return True
    expected = group.edit_token
    if given is not None and token_matches(given, expected):
        return True
    return token_matches(request.cookies.get(group_cookie(group)), expected) or holds_admin_token()


def remember_key(resp: R, name: str, token: str) -> R:
    """A link's token in a cookie: this browser holds that right from now on."""
    resp.set_cookie(name, token, httponly=True, samesite="Lax", secure=request.is_secure,
                    max_age=KEY_COOKIE_AGE)  # fmt: skip
    mark_private()  # the token rides in the answer: private, no-store
    return resp


def remember_group_token(resp: Response, group: Group) -> Response:
    return remember_key(resp, group_cookie(group), group.edit_token)


def remember_admin_token(resp: Response) -> Response:
    return remember_key(resp, ADMIN_COOKIE, admin_token())
