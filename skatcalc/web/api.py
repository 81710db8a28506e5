"""JSON API v1 (docs/api.md): the same rules code as the pages, JSON in and out."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec

from flask import Blueprint, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from skatcalc import exports, games
from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.sheet import normalize_sheet
from skatcalc.serialize import result_json
from skatcalc.services import cache, players
from skatcalc.services import sheets as service
from skatcalc.text import _, field_errors
from skatcalc.web import rights
from skatcalc.web.caching import MIN_GZIP, gzip_bytes
from skatcalc.web.http import BadJSON, JSONValue, can_change_rules, can_edit, parse_json
from skatcalc.web.i18n import api_lang
from skatcalc.web.request_state import mark_private, state

bp = Blueprint("api", __name__, url_prefix="/api/v1")
P = ParamSpec("P")

Reply = tuple[Response, int]


def error(status: int, field: str, text: str) -> Reply:
    """``text`` already in the request's language (``_()``)."""
    return jsonify({"errors": {field: [text]}}), status


def invalid(exc: InvalidDeal) -> Reply:
    return jsonify({"errors": field_errors(exc, api_lang())}), 422


def not_found() -> Reply:
    return error(404, "_", _("Nicht gefunden."))


class BadBody(Exception):
    def __init__(self, reply: Reply) -> None:
        super().__init__("bad body")
        self.reply = reply


def body(hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> JSONValue:
    """The request's JSON; only JSON is accepted (415), and it must parse (422). ``hook``
    makes its objects (``parse_json``)."""
    if request.mimetype != "application/json":
        raise BadBody(error(415, "_", _("Bitte JSON senden (Content-Type: application/json).")))
    raw = request.get_data(cache=True)
    try:
        return parse_json(raw, hook)
    except BadJSON:
        raise BadBody(error(422, "_", _("Das ist kein gültiges JSON."))) from None


def json_route(fn: Callable[P, ResponseReturnValue]) -> Callable[P, ResponseReturnValue]:
    """Turn the known failures of a route into the documented error answers."""

    def wrapper(*args: P.args, **kwargs: P.kwargs) -> ResponseReturnValue:
        try:
            return fn(*args, **kwargs)
        except BadBody as exc:
            return exc.reply
        except InvalidDeal as exc:
            return invalid(exc)
        except service.NotFound:
            return not_found()
        except service.KeyReused:
            return error(
                422,
                "_",
                _(
                    "Dieser Idempotency-Key wurde schon für ein anderes Spiel benutzt; nichts wurde gespeichert."
                ),
            )
        except service.Conflict as exc:
            resp = jsonify(
                {
                    "errors": {"_": [_("Dieses Spiel wurde inzwischen anders geändert.")]},
                    "current": exc.current,
                }
            )
            return resp, 409

    wrapper.__name__ = fn.__name__
    return wrapper


def value_route(key: str) -> Callable[[], ResponseReturnValue]:
    """``POST /api/v1/<game>/value`` of a registered game: one deal's value (its
    ``GameKind.deal_value``)."""

    def route() -> ResponseReturnValue:
        return jsonify(result_json(games.game(key).deal_value(body()), api_lang()))

    route.__name__ = f"{key}_value_route"
    return route


for _key in games.keys():
    bp.post(f"/{_key}/value")(json_route(value_route(_key)))


def forbidden() -> Reply:
    return error(403, "_", _("Ändern nur mit dem Bearbeitungs-Link dieses Blatts."))


def sheet_reply(sheet: service.Sheet, status: int = 200) -> Reply:
    """The sheet as loaded, or as the write just made left it: never read again by id. Its
    JSON (and that packed with gzip) is kept per revision and language: a 1,000-deal sheet
    read again costs neither building its ~9 MB of JSON nor packing them, and from
    ``PACK_ABOVE`` on only the packed bytes are kept."""
    lang = api_lang()

    def pieces() -> Iterator[bytes]:
        return service.api_pieces(service.get_db(), sheet, lang, current_app.json.dumps)

    data, packed = exports.packed(service.get_db(), sheet, lang, "api", pieces)
    # (no header, as many apps send: nothing to parse)
    takes_gzip = (
        bool(request.headers.get("Accept-Encoding")) and request.accept_encodings["gzip"] > 0
    )
    if packed and takes_gzip and status == 200:  # a large sheet: kept packed, sent as kept
        resp = Response(data, mimetype="application/json")
        resp.headers["Content-Encoding"] = "gzip"
        state().prepacked = True
        return resp, status
    if packed:
        data = gzip.decompress(data)  # for this client only; zlib lets the other threads run
    if status == 200 and takes_gzip and MIN_GZIP <= len(data) < cache.PACK_ABOVE:
        small = service.sheet_bytes(sheet, lang, "api.gz", lambda: gzip_bytes(data))
        resp = Response(small, mimetype="application/json")
        resp.headers["Content-Encoding"] = "gzip"
        state().prepacked = True  # compress() adds its Vary and packs nothing again
        return resp, status
    return Response(data, mimetype="application/json"), status


def load(sheet_id: int) -> service.Sheet:
    """The request's sheet, read once (NotFound: 404 through json_route)."""
    return service.load_sheet(service.get_db(), sheet_id)


def created(sheet: service.Sheet) -> Reply:
    """201 with the new sheet and, this once, its edit token (docs/api.md)."""
    out = service.sheet_json(service.get_db(), sheet, api_lang())
    out["edit_token"] = sheet.edit_token
    out["share_token"] = sheet.share_token
    mark_private()
    return jsonify(out), 201


def group_forbidden() -> Reply:
    return error(403, "_", _("Ändern nur mit dem Link dieser Gruppe."))


def pop_group_token(data: JSONValue) -> str | None:
    """The body's ``group_token`` (taken out before the body is read), a text or None."""
    if not isinstance(data, dict) or "group_token" not in data:
        return None
    token = data.pop("group_token")
    if token is not None and not isinstance(token, str):
        raise BadBody(error(422, "group_token", _("Bitte als Text.")))
    return token


def require_group_right(db: Database, group_id: int | None, token: str | None) -> None:
    """A sheet or an event goes into a group only with the group's right (rights.py): its
    ``group_token`` in the same body, the group link's cookie or the admin right; else 403."""
    if group_id is not None and not rights.may_change_group(players.get_group(db, group_id), token):
        raise BadBody(group_forbidden())


@bp.post("/sheets")
@json_route
def create_sheet() -> ResponseReturnValue:
    data = body()
    group = data.pop("group", None) if isinstance(data, dict) else None
    token = pop_group_token(data)
    spec = normalize_sheet(data)
    name = data.get("name") if isinstance(data, dict) else None
    db = service.get_db()
    group_id = None if group is None else players.check_group(db, group, spec.game)
    require_group_right(db, group_id, token)
    sheet = service.create_sheet(db, name, spec.game, list(spec.players), spec.first_dealer,
                                 spec.rules.to_json(), group_id)  # fmt: skip
    return created(sheet)


@bp.get("/sheets/<int:sheet_id>")
@json_route
def get_sheet(sheet_id: int) -> ResponseReturnValue:
    return sheet_reply(load(sheet_id))


@bp.patch("/sheets/<int:sheet_id>")
@json_route
def change_rules(sheet_id: int) -> ResponseReturnValue:
    """The house rules changed during the evening: ``{"rules": {...}}``, from the next deal
    on (docs/api.md)."""
    db = service.get_db()
    sheet = load(sheet_id)
    event = service.rules_event(db, sheet)
    if not can_change_rules(sheet, event):
        if event is not None:
            raise BadBody(error(403, "_", _("Die Regeln eines Tisches ändert nur die Turnierleitung.")))  # fmt: skip
        raise BadBody(forbidden())
    return sheet_reply(service.change_rules(db, sheet, body()).sheet)


def _editable(sheet_id: int) -> service.Sheet:
    """The request's sheet, loaded once, when this client may change it; else 403."""
    sheet = load(sheet_id)
    if not can_edit(sheet):
        raise BadBody(forbidden())
    return sheet


@bp.post("/sheets/<int:sheet_id>/deals")
@json_route
def add_deal(sheet_id: int) -> ResponseReturnValue:
    sheet = _editable(sheet_id)
    key = request.headers.get("Idempotency-Key", "").strip() or None
    if key is not None and len(key) > 100:
        raise BadBody(error(422, "_", _("Idempotency-Key: höchstens 100 Zeichen.")))  # fmt: skip
    try:
        saved = service.add_deal(service.get_db(), sheet, body(), api_lang(), key)
    except service.Taken as taken:
        # Another client saved this number while the request ran: answer with the sheet as it is.
        return deal_number_taken(load(sheet_id), taken)
    resp, status = sheet_reply(saved.sheet, 201)
    if not saved.stored:
        resp.headers["Idempotent-Replayed"] = "true"
    return resp, status


@bp.post("/sheets/<int:sheet_id>/preview")
@json_route
def preview_deal(sheet_id: int) -> ResponseReturnValue:
    """A deal body as the sheet's next deal would count it (deltas, Bock, explanation);
    nothing is stored, so no edit right is needed."""
    data = body()  # a bad body is told before an unknown sheet, as always
    row = service.preview_deal(service.get_db(), load(sheet_id), data, api_lang())
    return jsonify({"deal": row})


def deal_number_taken(loaded: service.Sheet, taken: service.Taken) -> Reply:
    """409 with the sheet as it is when the deal's number is already taken (another phone
    saved first); 422 for a number beyond the next one, which no sheet has shown."""
    lang = api_lang()
    if taken.n > taken.next_n:
        return error(422, "n", _("Das nächste Spiel ist Nummer %(next_n)s, nicht %(n)s.",
                                 next_n=taken.next_n, n=taken.n))  # fmt: skip
    sheet = service.sheet_json(service.get_db(), loaded, lang)
    row = service.computed(service.get_db(), loaded).rows[taken.n - 1]
    there = service.describe_row(loaded.game, row, lang)
    msg = _(
        "Spiel %(n)s ist schon eingetragen: %(there)s. Nichts gespeichert; das nächste Spiel ist Nummer %(next_n)s.",
        n=taken.n,
        there=there,
        next_n=taken.next_n,
    )
    return jsonify({"errors": {"n": [msg]}, "sheet": sheet}), 409


@bp.put("/sheets/<int:sheet_id>/deals/<int:n>")
@json_route
def correct_deal(sheet_id: int, n: int) -> ResponseReturnValue:
    sheet = _editable(sheet_id)
    data = body()
    expected = if_match(sheet, n)
    return sheet_reply(service.correct_deal(service.get_db(), sheet, n, data, api_lang(), expected))


def if_match(sheet: service.Sheet, n: int) -> int | None:
    """The version a correction expects (API.md: ``If-Match`` is a bare version number).

    No header, or ``*``, expects nothing. Anything else that is not a bare number (``W/"3"``,
    ``3, 3``, ``abc``) can match no version: 412 with the deal as it is, nothing changed."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    text = raw.strip()
    if re.fullmatch(r"[0-9]{1,40}", text):
        return int(text)
    current = service.get_deal(service.get_db(), sheet, n)
    msg = _("If-Match muss die Version des Spiels als bloße Zahl sein; nichts wurde geändert.")
    raise BadBody((jsonify({"errors": {"_": [msg]}, "current": current}), 412))


@bp.delete("/sheets/<int:sheet_id>/deals/<int:n>")
@json_route
def strike_deal(sheet_id: int, n: int) -> ResponseReturnValue:
    sheet = _editable(sheet_id)
    return sheet_reply(service.strike_deal(service.get_db(), sheet, n).sheet)


@bp.post("/sheets/<int:sheet_id>/deals/<int:n>/restore")
@json_route
def restore_deal(sheet_id: int, n: int) -> ResponseReturnValue:
    sheet = _editable(sheet_id)
    # JSON only, like every API route: a cross-site form cannot send it (API.md additions).
    # The body may be empty or an object; there is nothing in it to read.
    json_object_or_nothing()
    return sheet_reply(service.restore_deal(service.get_db(), sheet, n).sheet)


def json_object_or_nothing() -> None:
    """A body-less action (restore, close, reopen): JSON only, like every API route, so a
    cross-site form cannot send it; the body may be empty or an object."""
    if request.mimetype != "application/json":
        body()
    if request.get_data(cache=True).strip() and not isinstance(body(), dict):
        raise BadBody(error(422, "_", _("Bitte ein JSON-Objekt senden.")))


@bp.post("/sheets/<int:sheet_id>/close")
@json_route
def close_sheet(sheet_id: int) -> ResponseReturnValue:
    """Close the sheet ("Abend abschließen"): every later write answers 409 until reopened."""
    return _set_closed(sheet_id, True)


@bp.post("/sheets/<int:sheet_id>/reopen")
@json_route
def reopen_sheet(sheet_id: int) -> ResponseReturnValue:
    return _set_closed(sheet_id, False)


def _set_closed(sheet_id: int, closed: bool) -> Reply:
    sheet = _editable(sheet_id)
    json_object_or_nothing()
    try:
        changed = service.close_sheet(service.get_db(), sheet, closed)
    except service.TableOfEvent as table:
        name = table.event.name
        msg = (
            _(
                "Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr abgeschlossen.",
                name=name,
            )  # fmt: skip
            if closed
            else _(
                "Diese Liste gehört zur Veranstaltung „%(name)s“ und wird mit ihr wieder geöffnet.",
                name=name,
            )  # fmt: skip
        )
        out = service.sheet_json(service.get_db(), sheet, api_lang())
        return jsonify({"errors": {"_": [msg]}, "sheet": out}), 409
    return sheet_reply(changed.sheet)


@bp.get("/sheets/<int:sheet_id>/export.<fmt>")
@json_route
def export(sheet_id: int, fmt: str) -> ResponseReturnValue:
    return exports.download(service.get_db(), load(sheet_id), fmt, api_lang())


@bp.post("/sheets/import")
@json_route
def import_sheet() -> ResponseReturnValue:
    return created(exports.import_json(service.get_db(), body(exports.import_object)))
