"""The evening as files: PDF, CSV and JSON (imports back), each a registered format
(``registry``): the download routes, the sheet page's links and the service worker's list of
downloads all read the registry, so a new format is one ``register`` call beside its render."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import threading
import unicodedata
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast
from urllib.parse import quote

from flask import Response, current_app, has_app_context, has_request_context, request
from sqlite_utils import Database

from skatcalc import serialize
from skatcalc.jsontypes import JSONObject
from skatcalc.services import cache
from skatcalc.services import sheets as service
from skatcalc.services.events import tournament_of_sheet
from skatcalc.services.sheets import Sheet
from skatcalc.store.records import DealFile, HistoryFile
from skatcalc.text import ptranslate, translate

from ..rules.common import Errors, InvalidDeal, money
from ..rules.marks import describe_row
from ..rules.sheet import (
    MAX_DEALS,
    DealRecord,
    HouseRules,
    Row,
    RuleChange,
    SheetSpec,
    compute_sheet,
    describe_rules,
    evaluate_deal,
    normalize_sheet,
    read_rules,
    seat_names,
)
from . import apart
from .records import Deal, SheetDoc, Totals, sheet_doc
from .registry import FORMATS, Format, register
from .registry import formats as formats  # the sheet page's links and sw.js read the list

ACTIONS = {"add", "correct", "strike", "restore", "rules"}
SHEET_ACTIONS = {"close", "reopen"}  # of the whole sheet: no deal (n = 0)


def safe_name(text: str, fallback: str) -> str:
    """A name as part of a file name: letters of any script, digits, _ and -, at most 60."""
    return re.sub(r"[^\w-]+", "_", text)[:60].strip("_") or fallback


def filename(sheet: Sheet, ext: str) -> str:
    day = sheet.day or sheet.created[:10]  # a club night's table: its date
    return f"{sheet.game}_{day}_{safe_name('-'.join(sheet.players), 'sheet')}.{ext}"


def attachment(data: bytes, mimetype: str, name: str) -> Response:
    """Every download's answer. Header values travel as Latin-1, so the name goes as RFC 6266
    ``filename*`` (UTF-8, percent-encoded) with an ASCII ``filename`` for old clients:
    "Łódź" would otherwise fail the whole answer."""
    resp = Response(data, mimetype=mimetype)
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = re.sub(r"[^A-Za-z0-9._-]+", "_", plain).strip("_") or "download"
    if "." in name and "." not in plain:
        plain += name[name.rindex(".") :]
    resp.headers["Content-Disposition"] = (
        f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"
    )
    return resp


def download(db: Database, loaded: service.Sheet, fmt: str, lang: str = "de") -> Response:
    """The sheet the request loaded, as a file; NotFound for a format there is none of."""
    found = FORMATS.get(fmt)
    if found is None:
        raise service.NotFound(fmt)
    packer = PACKED.get(fmt)
    if packer is not None:
        data, packed = packer(db, loaded, lang)
        if packed and has_request_context() and request.accept_encodings["gzip"] > 0:
            # kept packed, sent as kept (the web layer's compress() leaves it so)
            resp = attachment(data, found.mimetype, filename(loaded, fmt))
            resp.headers["Content-Encoding"] = "gzip"
            resp.vary.add("Accept-Encoding")
            return resp
        if packed:
            data = gzip.decompress(data)
        return attachment(data, found.mimetype, filename(loaded, fmt))
    return attachment(found.render(db, loaded, lang), found.mimetype, filename(loaded, fmt))


# A 1,000-deal PDF takes about two seconds of CPU, and Python runs one thread at a time: eight
# renders at once would stall every other request. So one render at a time, and each PDF is
# kept for its sheet's revision (derived bytes; the deals stay the truth), newest few only.
PDF_RENDERS = threading.BoundedSemaphore(1)
PDF_WAIT = 30.0  # seconds a download waits for its turn before it is told to come back
_PDFS = cache.PDFS  # kept in cache.py with every other process cache


# Downloads waiting for their turn at once, per process (``PDF_WAITERS``; `skatcalc serve`
# sets a quarter of its threads): each holds a server thread while it waits, and a flood of
# PDF requests must leave the other threads to the phones' reads. Beyond, told to come back.
_WAITING = [0]
_WAITING_LOCK = threading.Lock()


def _wait_for_turn() -> bool:
    """The render slot after waiting for it, or False (too many waiting, or not in time)."""
    limit = current_app.config.get("PDF_WAITERS") if has_app_context() else None
    with _WAITING_LOCK:
        if limit is not None and _WAITING[0] >= int(limit):
            return False
        _WAITING[0] += 1
    try:
        return PDF_RENDERS.acquire(timeout=PDF_WAIT)
    finally:
        with _WAITING_LOCK:
            _WAITING[0] -= 1


class RenderBusy(Exception):
    """Every PDF render slot stayed taken for ``PDF_WAIT`` seconds."""


def _cached_pdf(key: tuple[Any, ...], version: Any) -> bytes | None:
    hit = _PDFS.get(key)
    return hit[1] if hit is not None and hit[0] == version else None


def cached_pdf(key: tuple[Any, ...], version: Callable[[], Any],
               render: Callable[[], bytes]) -> bytes:  # fmt: skip
    """The PDF ``key`` names as of ``version()`` (a sheet's revision, an event's live token):
    kept from an earlier render of the same version, else rendered, one render at a time.
    ``version()`` is asked again only after waiting for another render (``render`` then
    renders that newest version)."""
    now = version()
    data = _cached_pdf(key, now)
    if data is not None:
        return data
    waited = not PDF_RENDERS.acquire(blocking=False)
    if waited and not _wait_for_turn():
        raise RenderBusy()
    try:
        if waited:
            now = version()  # the newest version, now that it is our turn
            data = _cached_pdf(key, now)
            if data is not None:
                return data  # rendered by the download we waited for
        data = render()
    finally:
        PDF_RENDERS.release()
    _PDFS.put(key, (now, data))
    return data


def pdf_bytes(db: Database, loaded: service.Sheet, lang: str) -> bytes:
    key = ("sheet", loaded.share_token, lang)  # the share token is random per sheet
    current, asked = loaded, False

    def version() -> int:
        nonlocal current, asked
        if asked:  # again, after waiting for another render: the sheet may have moved on
            current = service.load_sheet(db, loaded.id)
        asked = True
        return int(current.rev)

    def render() -> bytes:
        if apart.enabled():
            # the whole of it apart: reading, computing and drawing the sheet (seconds of CPU
            # on 1,000 deals), and no large arguments to hand over
            path = str(current_app.config["DATABASE"])
            return apart.render("skatcalc.exports", "sheet_pdf_at", path, current.id, lang)
        return sheet_pdf(db, current, lang)

    return cached_pdf(key, version, render)


def sheet_pdf(db: Database, current: service.Sheet, lang: str, kept: bool = True) -> bytes:
    """A sheet's PDF, rendered here; with ``kept`` from the sheet's JSON as kept for its
    revision, else from its computation alone (the render process, which keeps nothing)."""
    from skatcalc.exports.pdf import render_pdf  # fpdf2 loads at the first PDF, not at start

    if kept:
        sheet = {**service.sheet_json(db, current, lang), "day": current.day}
    else:
        # what the PDF reads of the sheet's JSON; its rows without the explanations, which
        # the PDF does not show (they were half the time of a 1,000-deal sheet's first PDF)
        sheet = {"name": current.name, "game": current.game, "players": current.players,
                 "created": current.created, "day": current.day,
                 **serialize.computed_json(service.computed(db, current), lang, explain=False)}  # fmt: skip
    rules = [translate(m, lang) for m in describe_rules(service.spec_of(current))]
    tlist = tournament_of_sheet(db, current)
    return render_pdf(sheet, rules, lang, service.computed(db, current).rows, tlist)


def sheet_pdf_at(path: str, sheet_id: int, lang: str) -> bytes:
    """In the render process: the sheet's PDF from the database at ``path`` (its newest
    revision; the server keeps it for the revision it asked about, never an older one)."""
    from skatcalc import store

    db = store.connect(path)
    try:
        return sheet_pdf(db, service.load_sheet(db, sheet_id), lang, kept=False)
    finally:
        db.conn.close()
        cache.clear()  # nothing of it is asked again here: the server keeps the bytes


register(Format("pdf", "application/pdf", "PDF", pdf_bytes))


def cell(value: str | int) -> str | int:
    """Text that a spreadsheet would run as a formula is quoted; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def to_csv(sheet: Mapping[str, object], rows: Sequence[Row], lang: str = "de") -> str:
    """``sheet`` as the API shows it, with its typed ``rows`` (``service.computed``)."""
    doc = sheet_doc(sheet)
    out = io.StringIO()
    # the separator a spreadsheet of the language expects (German decimals take the comma)
    w = csv.writer(out, delimiter=";" if lang != "en" else ",", lineterminator="\r\n")
    w.writerow([cell(h) for h in _csv_head(doc, lang)])
    for d, typed in zip(doc["deals"], rows, strict=False):
        w.writerow(_csv_row(doc, d, typed, lang))
    w.writerow([])
    players, t = doc["players"], doc["totals"]
    for label, values, extra in _csv_foot(t, lang):
        w.writerow([cell(label), "", "", "", "", ""] + [""] * len(players)
                   + [values[p] for p in players] + extra)  # fmt: skip
    if t["settlement"]:
        # who pays whom, in the sheet's money (as on the page and in the PDF)
        w.writerow([])
        w.writerow([cell(translate("Abrechnung", lang))])
        for pay in t["settlement"]:
            w.writerow(["", cell(pay["from"]), cell(pay["to"]), cell(money(pay["cents"], lang))])
    return out.getvalue()


def _csv_head(doc: SheetDoc, lang: str) -> list[str]:
    players = doc["players"]
    head = [translate("Nr", lang), translate("Geber", lang), ptranslate("column", "Spieler", lang),
            translate("Spiel", lang), translate("Wert", lang),
            ptranslate("column", "gestrichen", lang)]  # fmt: skip
    head += [f"{p} ±" for p in players]
    head += [translate("%(player)s Stand", lang, player=p) for p in players]
    if "stock" in doc["totals"]:  # a Schafkopf Stock: what each deal put in (taken: −)
        head.append("Stock")
    if "list" in doc["totals"]:  # the classic list: this deal's entry (the declarer's,
        head.append(translate("Liste", lang))  # Ramsch the loser's)
    return head


def _csv_row(doc: SheetDoc, d: Deal, typed: Row, lang: str) -> list[str | int]:
    players = doc["players"]
    party = "+".join(d.get("party") or []) or ""
    text = describe_row(doc["game"], typed)  # the same words and marks as the page's row
    value = "" if text.value is None else text.value
    row = [d["n"], cell(d["dealer"]), cell(party), cell(translate(text.line(), lang)), value]
    row.append(translate("ja", lang) if d["struck"] else "")
    if "written" in d:  # "nur Gute" (docs/rules.md 2.8): what each wrote, and the sums
        row += [d["written"][p] for p in players] + [d["written_totals"][p] for p in players]
    else:
        row += [d["deltas"][p] for p in players] + [d["totals"][p] for p in players]
    if "stock" in doc["totals"]:
        row.append(d.get("stock", ""))
    if "list" in doc["totals"]:
        entries = [v for v in d.get("list", {}).values() if v] if not d["struck"] else []
        row.append(" ".join(str(v) for v in entries))
    return row


def _csv_foot(t: Totals, lang: str) -> list[tuple[str, Mapping[str, int], list[int]]]:
    """The foot's lines under the deals: label, a figure per player, what follows them."""
    lines: list[tuple[str, Mapping[str, int], list[int]]] = [
        (translate("Endstand", lang), t["balance"], [])
    ]
    if "list" in t:
        lines.append((translate("Liste", lang), t["list"], []))
    if "written" in t:
        lines.append((translate("Geschrieben (nur Gute)", lang), t["written"], []))
    if "stock" in t and "stock_back" in t:
        lines.append(("Stock", t["stock_back"], [t["stock"]]))
    if "seeger_fabian" in t:
        lines.append(("Seeger-Fabian", t["seeger_fabian"], []))
    if "bierlachs" in t:  # Bierlachse so far (docs/rules.md 1.11)
        label = translate("Bierlachse (Runde %(n)s)", lang, n=t["bierlachs"]["round"])
        lines.append((label, t["bierlachs"]["lost"], []))
    return lines


# From this many deals on, a sheet's JSON and CSV are made in the render process (under
# `skatcalc serve`, as its PDF): computing and writing a 1,000-deal sheet takes a second or two
# of CPU, which in a server thread would hold the interpreter while the phones' reads wait, and
# its tens of MB of objects would stay in the server's heap.
APART_FROM = 200


def packed(db: Database, loaded: service.Sheet, lang: str, shape: str,
           pieces: Callable[[], Iterator[bytes]]) -> tuple[bytes, bool]:  # fmt: skip
    """The bytes of ``shape`` (``SHAPES``) for the sheet's revision and whether they are
    gzipped: kept, else made in the render process (a large sheet), else here from
    ``pieces()``."""
    held = service.kept_packed(loaded, lang, shape)
    if held is not None:
        return held
    if apart.enabled() and service.deal_count(db, loaded) >= APART_FROM:
        path = str(current_app.config["DATABASE"])
        gz = apart.call("skatcalc.exports", "packed_at", path, loaded.id, lang, shape)
        if isinstance(gz, bytes):
            service.keep_packed(loaded, lang, shape, gz)
            return gz, True
    return service.sheet_packed_pieces(loaded, lang, shape, pieces)


def _csv_pieces(db: Database, loaded: service.Sheet, lang: str) -> Iterator[bytes]:
    sheet = service.sheet_json(db, loaded, lang)
    yield to_csv(sheet, service.computed(db, loaded).rows, lang).encode("utf-8-sig")


def _export_pieces(db: Database, loaded: service.Sheet, lang: str) -> Iterator[bytes]:
    """json.dumps(sheet, ensure_ascii=False, indent=2) in pieces of about 64 KB."""
    sheet = service.sheet_json(db, loaded, lang)
    chunk: list[str] = []
    size = 0
    for part in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(sheet):
        chunk.append(part)
        size += len(part)
        if size >= 65536:
            yield "".join(chunk).encode("utf-8")
            chunk.clear()
            size = 0
    yield "".join(chunk).encode("utf-8")


def _api_pieces(db: Database, loaded: service.Sheet, lang: str) -> Iterator[bytes]:
    # as the app's JSON provider writes it (app.py: Flask's, names as typed, keys sorted)
    dumps = partial(json.dumps, ensure_ascii=False, sort_keys=True)
    return service.api_pieces(db, loaded, lang, dumps)


# What the render process makes of a sheet, by shape: the API's JSON, the JSON export, CSV.
SHAPES: dict[str, Callable[[Database, service.Sheet, str], Iterator[bytes]]] = {
    "api": _api_pieces,
    "export": _export_pieces,
    "csv": _csv_pieces,
}


def packed_at(path: str, sheet_id: int, lang: str, shape: str) -> bytes:
    """In the render process: the sheet's ``shape`` gzipped, from the database at ``path``
    (its newest revision; the server keeps it for the revision it asked about, never an
    older one)."""
    from skatcalc import store

    db = store.connect(path)
    try:
        loaded = service.load_sheet(db, sheet_id)
        packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # as cache.packed_pieces packs
        out = [packer.compress(piece) for piece in SHAPES[shape](db, loaded, lang)]
        out.append(packer.flush())
        return b"".join(out)
    finally:
        db.conn.close()
        cache.clear()  # nothing of it is asked again here: the server keeps the bytes


def csv_packed(db: Database, loaded: service.Sheet, lang: str) -> tuple[bytes, bool]:
    """The sheet as CSV, kept per revision; True when kept gzipped (a large sheet)."""
    return packed(db, loaded, lang, "csv", lambda: _csv_pieces(db, loaded, lang))


def csv_bytes(db: Database, loaded: service.Sheet, lang: str) -> bytes:
    data, packed = csv_packed(db, loaded, lang)
    return gzip.decompress(data) if packed else data


register(Format("csv", "text/csv", "CSV", csv_bytes))


def json_packed(db: Database, loaded: service.Sheet, lang: str) -> tuple[bytes, bool]:
    """The sheet exactly as the API answers it (``import_json`` takes it back), kept per
    revision; True when kept gzipped (a large sheet)."""

    return packed(db, loaded, lang, "export", lambda: _export_pieces(db, loaded, lang))


def json_bytes(db: Database, loaded: service.Sheet, lang: str) -> bytes:
    data, packed = json_packed(db, loaded, lang)
    return gzip.decompress(data) if packed else data


# The formats whose bytes are kept gzipped when large: sent packed to a client that takes gzip.
PACKED: dict[str, Callable[[Database, service.Sheet, str], tuple[bytes, bool]]] = {
    "json": json_packed,
    "csv": csv_packed,
}


register(Format("json", "application/json", "JSON", json_bytes))


def _history_time(value: object) -> str | None:
    """An ISO time of a history entry, in UTC, or None when it is none a page can show
    (year 1 with a time zone cannot even be turned into local time)."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        when = datetime.fromisoformat(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        when = when.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    if not 1970 <= when.year <= 9000:
        return None
    return when.isoformat(timespec="seconds")


# What the import reads of a deal of the file; an exported deal also carries its result, its
# explanation step by step, deltas and totals, most of the file, all computed again here.
DEAL_KEYS = ("n", "dealer", "active", "input", "struck", "version")
# The keys every exported deal has (``serialize.row_json``) and a stored deal (a history
# entry's ``before``) has not: they tell a deal of the file apart while the file is parsed.
_ROW_KEYS = frozenset({"n", "dealer", "active", "input", "result", "explanation", "steps"})


def import_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of an import file as it is parsed (``object_pairs_hook``): an exported deal
    keeps only ``DEAL_KEYS``, so a 1,000-deal file never holds all its results and
    explanations at once (6.7 MB of JSON decoded to ~50 MB of objects); every other object
    stays as it is."""
    obj = dict(pairs)
    if _ROW_KEYS <= obj.keys():
        return {k: obj[k] for k in DEAL_KEYS if k in obj}
    return obj


def import_json(db: Database, data: object, suffix: str = "") -> service.Sheet:
    """A JSON export back in as a new sheet (stored by ``service.import_sheet``); a broken or
    hostile file changes nothing. ``suffix`` is added to the sheet's name (the page's
    " (Import)")."""
    e = Errors()
    if not isinstance(data, dict):
        e.add("_", "Das ist kein skatcalc-Blatt.")
        e.raise_if_any()
    assert isinstance(data, dict)
    spec = normalize_sheet(
        {k: data.get(k) for k in ("game", "players", "first_dealer", "rules") if k in data}
    )
    deals = data.get("deals")
    if not isinstance(deals, list) or len(deals) > MAX_DEALS:
        e.add("deals", "Die Spiele fehlen oder sind zu viele.")
        e.raise_if_any()
    assert isinstance(deals, list)
    changes = _rule_changes(spec, data.get("rule_changes"), len(deals), e)
    e.raise_if_any()
    spec = _with_changes(spec, changes)
    clean = _checked_deals(spec, deals, e)
    history = _checked_history(data.get("history") or [], e)
    e.raise_if_any()
    return service.import_sheet(
        db, data.get("name"), spec.game, list(spec.players), spec.first_dealer,
        spec.rules.to_json(), clean, history, suffix,
        [{"from_n": c.from_n, "before": c.before.to_json()} for c in changes],
    )  # fmt: skip


@dataclass(frozen=True)
class _Change:
    """A rule change of the file: from deal ``from_n`` on, the rules ``before`` it were left."""

    from_n: int
    before: HouseRules


def _with_changes(spec: SheetSpec, changes: list[_Change]) -> SheetSpec:
    """``spec`` with its rule changes: the rules from a change on are the next one's before."""
    befores = [c.before for c in changes]
    afters = [*befores[1:], spec.rules]
    typed = [RuleChange(c.from_n, b, a) for c, b, a in zip(changes, befores, afters, strict=False)]
    return SheetSpec(spec.game, spec.players, spec.first_dealer, spec.rules, typed)


def _checked_deals(spec: SheetSpec, deals: list[object], e: Errors) -> list[DealFile]:
    """The file's deals as the store keeps them, each checked as the sheet would check it;
    what is wrong goes to ``e`` as ``deals[i]``."""
    clean: list[DealFile] = []
    kept: list[DealRecord] = []
    progress = compute_sheet(spec, []) if service.bockramsch_of(spec) else None
    for i, d in enumerate(deals, start=1):
        record, version = _deal_record(spec, i, d)
        if record is None:
            e.add(f"deals[{i}]", "Spiel %(i)s ist unvollständig.", i=i)
            continue
        # in a Bockramsch round a deal is checked as one (docs/rules.md 1.11); a struck deal
        # may be either
        in_round = progress.next_ramsch_round if progress is not None else False
        rounds = (in_round, not in_round) if record.struck and progress is not None else (in_round,)
        refused = _refusal(spec, record, rounds)
        if refused is not None:
            e.add(f"deals[{i}]", "Spiel %(i)s: %(first)s", i=i, first=refused.errors[0].msg)
            continue
        clean.append(
            {"n": i, "dealer": record.dealer, "active": list(record.active),
             "input": cast(JSONObject, dict(record.input)), "struck": record.struck, "version": version}
        )  # fmt: skip
        if progress is not None:
            kept.append(record)
            progress = compute_sheet(spec, kept, progress.state)
    return clean


def _deal_record(spec: SheetSpec, i: int, d: object) -> tuple[DealRecord | None, int]:
    """Deal ``i`` of the file as a record with its version, or None when it is not one."""
    if isinstance(d, dict):  # a file from before the name rule names its seats as typed
        d = seat_names(spec.players, d)
        if isinstance(d, dict) and isinstance(d.get("input"), dict):
            d["input"] = seat_names(spec.players, d["input"])
    if (
        not isinstance(d, dict)
        or d.get("n") != i
        or d.get("dealer") not in spec.players
        or not isinstance(d.get("active"), list)
        or not all(a in spec.players for a in d["active"])
        or not isinstance(d.get("input"), dict)
        or not isinstance(d.get("struck", False), bool)
        or not isinstance(d.get("version", 1), int)
        or isinstance(d.get("version", 1), bool)
        or not 1 <= d.get("version", 1) <= 1_000_000
    ):
        return None, 0
    record = DealRecord(i, d["dealer"], tuple(d["active"]), d["input"], d.get("struck", False))
    return record, int(d.get("version", 1))


def _refusal(spec: SheetSpec, record: DealRecord,
             rounds: tuple[bool, ...]) -> InvalidDeal | None:  # fmt: skip
    """Why the deal is refused in every one of ``rounds`` (in a Bockramsch round or not), or
    None when one of them takes it."""
    refused: InvalidDeal | None = None
    for ramsch_round in rounds:
        try:
            evaluate_deal(spec.at(record.n), record.input, record.active, ramsch_round=ramsch_round)
        except InvalidDeal as exc:
            refused = refused or exc
        else:
            return None
    return refused


def _checked_history(history: object, e: Errors) -> list[HistoryFile]:
    """The file's history, each entry's time in UTC; a broken one goes to ``e``."""
    good: list[HistoryFile] = []
    if not isinstance(history, list):
        e.add("history", "Der Verlauf ist beschädigt.")
        return good
    for h in history[: 20 * MAX_DEALS]:
        at = _history_time(h.get("at")) if isinstance(h, dict) else None
        if (
            isinstance(h, dict)
            and isinstance(h.get("action"), str)  # a list or an object is no action
            and h.get("action") in ACTIONS | SHEET_ACTIONS
            and isinstance(h.get("n"), int)
            and not isinstance(h.get("n"), bool)
            and (0 if h["action"] in SHEET_ACTIONS else 1) <= h["n"] <= MAX_DEALS
            and at is not None
            and (h.get("before") is None or isinstance(h.get("before"), dict))
        ):
            good.append({"n": h["n"], "action": h["action"], "at": at, "before": h.get("before")})
        else:
            e.add("history", "Der Verlauf ist beschädigt.")
            break
    return good


def _rule_changes(spec: SheetSpec, raw: object, count: int, e: Errors) -> list[_Change]:
    """The file's ``rule_changes``: each from a deal 2 … count + 1 on, in order, with the rules
    before it as a sheet's rules are checked."""
    if raw is None:
        return []
    out: list[_Change] = []
    if not isinstance(raw, list) or len(raw) > count:
        e.add("rule_changes", "Die Regeländerungen sind beschädigt.")
        return out
    last = 1
    for c in raw:
        n = c.get("from_n") if isinstance(c, dict) else None
        if (
            not isinstance(c, dict)
            or isinstance(n, bool)
            or not isinstance(n, int)
            or not last < n <= count + 1
            or not isinstance(c.get("before"), dict)
        ):
            e.add("rule_changes", "Die Regeländerungen sind beschädigt.")
            return []
        bad = Errors()
        typed = read_rules(spec.game, c["before"], bad)
        if bad:
            e.add("rule_changes", "Die Regeländerungen sind beschädigt.")
            return []
        out.append(_Change(n, typed))
        last = n
    return out
