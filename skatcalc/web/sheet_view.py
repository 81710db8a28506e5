"""Building the sheet pages: the sheet (rows, standings strip and leaders, the saved line,
history, chart, statistics, share and edit links with their QR codes, a club-night table's
progress), a deal's correction page and the list of sheets. Routes call these; nothing here
writes."""

from __future__ import annotations

import json
import re
import secrets
from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import segno
from flask import (
    current_app,
    get_template_attribute,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf
from jinja2 import Template
from jinja2.runtime import Context, new_context
from markupsafe import Markup, escape
from sqlite_utils import Database
from werkzeug.wrappers import Response

from skatcalc.exports.charts import ON_PAGE, running_totals_svg
from skatcalc.games.form_fields import DealMeta, parse_int
from skatcalc.rules.common import InvalidDeal, number
from skatcalc.rules.double_entry import difference_msg
from skatcalc.rules.marks import BOCK, LOST, STRUCK, describe_row, legend
from skatcalc.rules.ranking import leader, leaders
from skatcalc.rules.sheet import (
    GAMES,
    SheetSpec,
    default_active,
    describe_rules,
    evaluate_deal,
    seat_after,
)
from skatcalc.rules.sheet import game as game_kind
from skatcalc.services import cache
from skatcalc.services import events as event_service
from skatcalc.services import sheets as service
from skatcalc.services.events import TableOfSheet, event_of_sheet, tournament_of
from skatcalc.text import _, translate
from skatcalc.web.caching import kept_url_for
from skatcalc.web.deal_forms import (
    deal_form,
    deal_ready,
    exc_messages,
    preview_answer,
    preview_messages,
    rules_at,
)
from skatcalc.web.i18n import lang_url, money, num, page_lang
from skatcalc.web.request_state import csrf_token, mark_private


def render_sheet(sheet: service.Sheet, form: DealMeta | None = None, general: list[str] | None = None,
                 status: int = 200, share: bool = False) -> Response:  # fmt: skip
    """The sheet page: the edit view (entry ``form``, or a fresh one for the next deal, with
    ``general`` messages above it) or the read-only ``share`` view."""
    db = service.get_db()
    data = service.computed_sheet(db, sheet, page_lang())
    proposed = data["next_dealer"]
    spec = service.spec_of(sheet)
    # the house rules as a key of the kept parts (rows, history, entry form): written once
    rules_key = service.rules_key(sheet)
    entry_html = None
    if form is None and not share:
        # the next deal's blank form: kept per sheet and dealer, this page's values put in
        entry_html = entry_form_html(sheet, spec, proposed, len(data["deals"]) + 1,
                                     bool(data.get("next_bockramsch")), rules_key)  # fmt: skip
    rules, rotation = rules_in_words(sheet, spec, rules_key, data)
    event = table_of_event(db, sheet, data)

    def revision() -> dict[str, Any]:  # what follows from the deals alone: once per revision
        return revision_parts(db, sheet, data, share, rules_key)

    parts = service.derived(sheet, "page", revision, page_lang(), share)
    lan = bool(current_app.config.get("LAN"))
    share_url = public_url("sheets.share", sheet_id=sheet.id, token=sheet.share_token)
    edit_url = public_url("sheets.edit_link", sheet_id=sheet.id, token=sheet.edit_token)
    more_html = None
    if not share:
        more_html = more_pane_html(sheet, rules, share_url, edit_url, lan, event is not None,
                                   parts["history_html"])  # fmt: skip
    kind = GAMES[sheet.game]
    counting = [d for d in data["deals"] if not d["struck"]]
    html = page_html(
        saved=None if share else saved_line(sheet, data),
        legend=cache.kept(cache.LEGENDS, (sheet.game, page_lang()), lambda: legend(sheet.game, _)),
        sheet=sheet,
        data=Fields({**data, "totals": Fields(data["totals"])}),  # Jinja reads dicts below
        form=form,
        entry_html=entry_html,
        general=general or [],
        rules=rules,
        share=share,
        more_html=more_html,
        proposed=proposed,
        proposed_active=default_active(spec, proposed),
        rotation=rotation,
        leaders=leaders(sheet.players, data["totals"].get("written", data["totals"]["balance"])),
        event=event,
        tlist=tournament_of(db, sheet, event is not None),
        kind=kind,
        skat=kind.keeps_list,
        np=len(sheet.players),
        n_played=len(counting),
        n_struck=len(data["deals"]) - len(counting),
        counting=counting,
        cells=total_cells(sheet.players, data["totals"]),
        stat_cells=stat_cells(sheet, parts["stats"]),
        pv=part_values(data, counting, parts["chart"]),
        **parts,
    )  # fmt: skip
    return sheet_answer(html, status, share)


def rules_in_words(sheet: service.Sheet, spec: SheetSpec, rules_key: str,
                   data: dict[str, Any]) -> tuple[list[str], str]:  # fmt: skip
    """The house rules as the "Blatt" pane lists them (with the Stock's cents, if any), and
    the seat rotation."""
    described, rotation = spec_texts(sheet, spec, rules_key)
    rules = list(described)
    if data["totals"].get("stock"):
        rules.append(_("Im Stock: %(cents)s", cents=number(data["totals"]["stock"], page_lang())))
    return rules, rotation


def sheet_answer(html: str, status: int, share: bool) -> Response:
    """The page as an answer: on a network server the edit view carries the edit link, a key
    to the sheet, and no cache may keep it."""
    resp: Response = current_app.response_class(html, status)  # as make_response makes it
    if not share and current_app.config.get("LAN"):
        resp.headers["Cache-Control"] = "private, no-store"
        mark_private()
    return resp


# --- The page: a kept frame and its parts ------------------------------------------------------

# The sheet page is ``sheets/show.html`` (the frame: header, tabs, the panes' headings, the
# legend, the entry section's controls) with the blocks of ``sheets/_parts.html`` put in (what
# changes with the deals or the request: the head, the strip, the table's head and foot, the
# standings, the entry's heading and form) and the rows, the "Blatt" pane. The frame follows
# from the sheet, its view and the language alone: rendered once per such variant, with marks
# where the parts and the language links (which carry the request's arguments) go, and kept.
# A save's page then renders its parts only.
PARTS = ("head", "strip", "tabs", "thead", "rows", "tail", "standing", "more", "entry_head",
         "entry_form")  # fmt: skip
_FRAME_MARKS = {name: Markup(f"\x00part-{name}\x00") for name in PARTS}
_FRAME_SPLIT = re.compile("(\x00(?:part|lang)-[a-z_]+\x00)")
_FRAMES = cache.PAGE_FRAMES  # kept in cache.py with every other process cache


def page_html(**values: Any) -> str:
    """``sheets/show.html`` rendered with ``values``: the frame kept, its parts rendered."""
    sheet: service.Sheet = values["sheet"]
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    context = dict(values)
    app.update_template_context(context)
    # everything the frame reads (the parts aside): its key
    key = (sheet.id, sheet.share_token, sheet.name, sheet.game, tuple(sheet.players),
           bool(sheet.closed), values["share"], values["form"] is not None, page_lang(),
           context["lang"], values["rotation"], request.script_root, request.host_url)  # fmt: skip
    blocks = app.jinja_env.get_template("sheets/_parts.html")
    ctx = _new_context(blocks, context)
    shaped: list[_Shaped | None] = []

    def part(name: str) -> str:
        if name == "rows":
            return str(values["rows_html"])
        if name == "more":
            return str(values["more_html"] or "")
        if name == "entry_form" and values["entry_html"]:
            return str(values["entry_html"])  # the blank form kept, this page's values in
        if name in SHAPED_PARTS and shapeable(values):
            if not shaped:
                shaped.append(_Shaped.of(blocks, context))  # probed once for the three blocks
            if shaped[0] is not None:
                return shaped[0].part(name)
        return "".join(blocks.blocks[name](ctx))

    if "\x00" in sheet.name:
        # a name stored before names were checked could hold what looks like a mark: such a
        # page is rendered whole, its parts as the frame asks for them
        return render_template("sheets/show.html", **{**values, "parts": _Parts(part)})
    pieces = _FRAMES.get(key)
    if pieces is None:
        marks = {"parts": _FRAME_MARKS, "lang_url": lambda code: Markup(f"\x00lang-{code}\x00")}
        html = render_template("sheets/show.html", **{**values, **marks})
        pieces = _FRAME_SPLIT.split(html)
        _FRAMES.put(key, pieces)

    # only the parts this frame shows (a share view has no entry form to render)
    out = []
    for piece in pieces:
        if piece[:1] != "\x00":
            out.append(piece)
        elif piece[1:5] == "part":
            out.append(part(piece[6:-1]))
        else:  # the link to the page in the other language, with this request's arguments
            out.append(str(escape(lang_url(piece[6:-1]))))
    return "".join(out)


def _new_context(template: Template, values: dict[str, Any]) -> Context:
    """``template.new_context(values)``: the template's globals with ``values`` over them.
    Jinja copies the globals through their ``ChainMap`` key by key, twice (~0.1 ms a page);
    here each of its dicts is copied at once, the first one's names over the others'."""
    merged: dict[str, Any] = {}
    maps = template.globals.maps if isinstance(template.globals, ChainMap) else [template.globals]
    for names in reversed(maps):
        merged.update(names)
    merged.update(values)
    # no globals' names of its own to hand on: the templates it imports take the globals
    return new_context(template.environment, template.name, template.blocks, merged, True)


# --- Parts drawn once per shape ---------------------------------------------------------------

# The parts but the head (the strip, the tabs, the table's head and foot, the standings, the
# entry's heading) are most of a save's template work (a row of cells per figure, a cell per
# player) and, besides the page's values, follow from few things: the language, the players,
# who leads, who deals and sits out, the view, which figures the sheet keeps and which of them
# are empty or negative. Each is drawn once per such shape with a hole for every value (the
# blocks only write a value or ask whether it is empty: an empty one is part of the shape),
# kept, and filled for each page.
SHAPED_PARTS = frozenset({"strip", "tabs", "thead", "tail", "standing", "entry_head"})
# a hole's mark: its value's name (c: cells, s: stat_cells, v: pv) and number; the CSRF token's
_HOLE_SPLIT = re.compile("(\x00h(?:[csv]\\d+|-)\x00)")
_HOLE_CSRF = "\x00h-\x00"


def part_values(data: Mapping[str, Any], counting: list[Any], chart: Markup | None) -> Fields:
    """What the shaped blocks write of a page besides ``cells`` and ``stat_cells`` (each value
    as the page writes it, so the blocks do nothing with it but write it)."""
    totals = data["totals"]
    stock = totals.get("stock")
    return Fields(
        has=Fields({k: k in totals for k in ("list", "written", "seeger_fabian")}),
        bierlachs="bierlachs" in totals,
        balance_sum=sum(totals["balance"].values()),
        no_deals=not data["deals"],
        next_n=len(data["deals"]) + 1,
        n_played=len(counting),
        last_n=counting[-1]["n"] if counting else None,
        bock_pending=data.get("bock_pending") or None,  # a number is always a hole
        next_bockramsch=bool(data.get("next_bockramsch")),
        stock=number(stock, page_lang()) if stock else None,
        settlement=[Fields({"from": t["from"], "to": t["to"], "amount": money(t["cents"])})
                    for t in totals.get("settlement") or ()],
        chart=chart,
    )  # fmt: skip


def shapeable(values: Mapping[str, Any]) -> bool:
    """Whether the page's shaped blocks can be drawn per shape: not a club night's tournament
    list or a Bierlachs match (blocks of their own), and no name with a hole's mark in it."""
    pv = values["pv"]
    return not (
        values["tlist"] or pv.bierlachs or any("\x00" in p for p in values["sheet"].players)
    )


_LEAF_KINDS = frozenset({str, int, float, Markup})
_LEAF = "h"  # a value's place in the shape


def _full(value: object) -> bool:
    """Whether ``value`` is a hole, not part of the shape: a number, or anything not empty."""
    return type(value) is int or bool(value)


class _Holes:
    """One of a page's values (``cells``, ``stat_cells``, ``pv``: ``name`` its letter)
    with everything in it that is not empty replaced by its hole's mark; the shape (``shape``)
    holds all else: the structure, the empty values and the flags."""

    def __init__(self, name: str) -> None:
        self.leaves: list[Any] = []
        self.shape: list[object] = []
        self.marks = _MARKS[name]

    def mark(self, k: int) -> Markup:
        marks = self.marks
        return marks[k] if k < len(marks) else Markup(f"{marks[0][:3]}{k}\x00")

    def probe(self, value: Any) -> Any:
        kind = type(value)
        leaves, shape = self.leaves, self.shape
        if kind in _LEAF_KINDS:
            if not value and kind is not int:  # a number is always a hole
                shape.append((kind, value))
                return value
            shape.append(_LEAF)
            leaves.append(value)
            return self.mark(len(leaves) - 1)
        if kind is tuple or kind is list:
            if value and all(map(_full, value)) and {*map(type, value)} <= _LEAF_KINDS:
                # a row of values, none empty (most of them): one step
                k = len(leaves)
                leaves.extend(value)
                shape.append((kind, len(value), _LEAF))
                return kind([self.mark(j) for j in range(k, len(leaves))])
            shape.append((kind, len(value)))
            return kind([self.probe(v) for v in value])
        if kind is Fields or kind is dict:
            shape.append(tuple(value))
            return Fields({k: self.probe(v) for k, v in value.items()})
        if kind is bool or value is None:
            shape.append(value)
            return value
        raise TypeError(kind)


_MARKS = {name: [Markup(f"\x00h{name}{k}\x00") for k in range(256)] for name in "csv"}


class _Shaped:
    """The shaped blocks of one page: its values probed once, each block's shape kept and its
    holes filled with this page's values (and CSRF token)."""

    def __init__(self, blocks: Template, context: Mapping[str, Any]) -> None:
        self.probed: dict[str, Any] = {}
        self.shapes: dict[str, tuple[object, ...]] = {}
        self.leaves: dict[str, list[Any]] = {}
        for k, letter in (("cells", "c"), ("stat_cells", "s"), ("pv", "v")):
            holes = _Holes(letter)
            self.probed[k] = holes.probe(context[k])
            self.shapes[k] = tuple(holes.shape)
            self.leaves[letter] = holes.leaves
        self.filled: dict[str, list[Markup] | list[str]] = {}
        sheet: service.Sheet = context["sheet"]
        # everything else the blocks read: with the probed values, all they can draw
        self.shown = {
            "np": context["np"], "skat": context["skat"], "share": context["share"],
            "leaders": list(context["leaders"]), "proposed": context["proposed"],
            "proposed_active": tuple(context["proposed_active"]),
            "form": context["form"] is not None, "general": list(context["general"]),
            "sheet": Fields(players=list(sheet.players), id=sheet.id, closed=bool(sheet.closed)),
        }  # fmt: skip
        self.here = (context["lang"], page_lang(), request.script_root)
        self.blocks = blocks
        self.helpers = {k: context[k] for k in _PART_HELPERS if k in context}

    @classmethod
    def of(cls, blocks: Template, context: Mapping[str, Any]) -> _Shaped | None:
        """The page's shaped blocks; None when a value is of no kind a hole takes (the blocks
        are then rendered whole)."""
        try:
            return cls(blocks, context)
        except TypeError:
            return None

    def part(self, name: str) -> str:
        shown, probed = _PART_READS[name]
        # what this block reads, and only that: a block is drawn again only when its own
        # shape changes (the strip follows the dealer, the foot and the standings do not)
        key = (name, *self.here, repr([self.shown[k] for k in shown]),
               *[self.shapes[k] for k in probed])  # fmt: skip
        held = cache.PART_SHAPES.get(key)
        if held is None:
            values = {**self.helpers, "tlist": None, **{k: self.shown[k] for k in shown},
                      **{k: self.probed[k] for k in probed}}  # fmt: skip
            html = "".join(self.blocks.blocks[name](_new_context(self.blocks, values)))
            token = csrf_token()  # made by the block's form, if it has one
            if token:
                html = html.replace(token, _HOLE_CSRF)
            held = _shape_format(html)
            cache.PART_SHAPES.put(key, held)
        shape, used = held
        filled = self.filled
        for which in used:
            if which not in filled:  # each value written once for the blocks that show it
                filled[which] = (
                    list(map(escape, self.leaves[which])) if which else [generate_csrf()]
                )
        # the holes filled by str.format: one call, no loop over the pieces here
        return shape.format(*[filled.get(which, ()) for which in _HOLE_ORDER])


_HOLE_ORDER = ("c", "s", "v", "")  # the format's arguments: cells, stat_cells, pv, CSRF token


def _shape_format(html: str) -> tuple[str, frozenset[str]]:
    """A block drawn with holes as a format string (``{0[3]}``: hole 3 of ``cells``) and the
    values whose holes it has."""
    out, used = [], set()
    for piece in _HOLE_SPLIT.split(html):
        if piece[:2] != "\x00h":
            out.append(piece.replace("{", "{{").replace("}", "}}"))
        elif piece == _HOLE_CSRF:
            out.append("{3[0]}")
            used.add("")
        else:
            out.append(f"{{{_HOLE_ORDER.index(piece[2])}[{piece[3:-1]}]}}")
            used.add(piece[2])
    return "".join(out), frozenset(used)


# What each shaped block reads of the page besides its helpers: as it is (its key), and with
# its values as holes (their shape its key too).
_PART_READS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "strip": (("np", "skat", "leaders", "proposed", "proposed_active", "sheet"), ("cells", "pv")),
    "tabs": (("share", "sheet", "form"), ("pv",)),
    "thead": (("skat", "leaders", "sheet"), ()),
    "tail": (("skat", "leaders", "share", "sheet"), ("cells", "pv")),
    "standing": (("np", "leaders", "sheet"), ("cells", "stat_cells", "pv")),
    "entry_head": (("proposed", "general"), ("pv",)),
}
# What a render's context brings besides the page's values (the context processors'): the
# shaped blocks' texts, numbers and links.
_PART_HELPERS = ("lang", "num", "money", "_", "gettext", "url_for", "lang_url")


class _Parts(dict[str, Markup]):
    """The page's parts rendered as the frame reads them (``parts.head``)."""

    def __init__(self, part: Callable[[str], str]) -> None:
        super().__init__()
        self._part = part

    def __missing__(self, name: str) -> Markup:
        return Markup(self._part(name))


class Fields(dict[str, Any]):
    """A JSON object the page's template reads by attribute (``data.totals.balance``): Jinja
    tries ``getattr`` first, and on a plain dict each such read failed with an exception
    before the key was looked up (~200 reads a sheet page). What it gives is the same."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def fields(value: Any) -> Any:
    """``value`` with every JSON object in it as :class:`Fields` (a copy; ``value`` stays)."""
    if type(value) is dict:
        return Fields({k: fields(v) for k, v in value.items()})
    if type(value) is list:
        return [fields(v) for v in value]
    return value


def spec_texts(sheet: service.Sheet, spec: SheetSpec, rules_key: str
               ) -> tuple[tuple[str, ...], str]:  # fmt: skip
    """The sheet's house rules in words (in the page's language) and its seat rotation
    (:func:`seat_rotation`): they follow from the rules spec alone, which follows from the
    sheet's game, players, first dealer, rules and rule changes; kept per those."""
    lang = page_lang()
    key = (sheet.game, tuple(sheet.players), sheet.first_dealer, rules_key,
           repr(sheet.rule_changes), lang)  # fmt: skip
    return cache.kept(
        cache.SPEC_TEXTS,
        key,
        lambda: (tuple(translate(m, lang) for m in describe_rules(spec)), seat_rotation(spec)),
    )


def seat_rotation(spec: SheetSpec) -> str:
    """For each seat: who deals after it and who plays when it deals (from forehand on), as
    JSON. The offline queue (``static/app.js``) sets the next entry form's dealer and seats
    after the deals waiting on the phone from it: the rotation stays the server's."""
    return json.dumps(
        {p: {"next": seat_after(spec.players, p), "active": list(default_active(spec, p))}
         for p in spec.players},
        ensure_ascii=False, separators=(",", ":"),
    )  # fmt: skip


# --- The entry form of the next deal ------------------------------------------------------------

# The blank entry form is most of a sheet page's template work (~200 macro calls) and, for a
# sheet, depends only on its players, house rules, language and who deals: rendered once per
# such variant and kept with the per-page values cut out (deal number, CSRF token,
# idempotency key), which are put in for each page. A few variants per sheet (one per
# dealer), least recently used dropped first.
_ENTRY_N, _ENTRY_CSRF, _ENTRY_IDEM = "\x00entry-n\x00", "\x00entry-csrf\x00", "\x00entry-idem\x00"
_ENTRY_SPLIT = re.compile("(\x00entry-(?:n|csrf|idem)\x00)")
_ENTRY = cache.ENTRY_FORMS  # kept in cache.py with every other process cache


def entry_form_html(sheet: service.Sheet, spec: SheetSpec, proposed: str, n: int,
                    ramsch_round: bool, rules_key: str) -> Markup:  # fmt: skip
    """The sheet page's form for deal ``n`` with ``proposed`` dealing, as
    ``templates/deals/_form.html`` draws a fresh ``deal_form`` (the same HTML, with this
    request's CSRF token and a new idempotency key); in a Bockramsch round it offers the
    Ramsch first."""
    key = (sheet.id, sheet.share_token, sheet.game, tuple(sheet.players), rules_key,
           page_lang(), proposed,
           request.script_root, ramsch_round)  # fmt: skip
    pieces = _ENTRY.get(key)
    if pieces is None:
        pieces = _render_entry_form(sheet, spec, proposed, ramsch_round)
        _ENTRY.put(key, pieces)
    fill = {_ENTRY_N: str(n), _ENTRY_IDEM: secrets.token_urlsafe(12)}
    if _ENTRY_CSRF in pieces:
        fill[_ENTRY_CSRF] = generate_csrf()  # this client's session, as a render would
    return Markup("".join([fill.get(p, p) for p in pieces]))


def _render_entry_form(sheet: service.Sheet, spec: SheetSpec, proposed: str,
                       ramsch_round: bool = False) -> list[str]:  # fmt: skip
    form = deal_form(sheet)
    if ramsch_round:
        form.kind.data = "ramsch"
    form.dealer.data = proposed
    fresh = game_kind(spec.game).fresh_contract
    if fresh is not None:
        form["game"].data = fresh  # every game's entry form has its contract buttons
    active = default_active(spec, proposed)
    form.active.data = list(active)
    form.n.data = _ENTRY_N
    form.idem.data = _ENTRY_IDEM
    html = render_template("deals/_form.html", form=form, sheet=sheet, data={"deals": ()},
                           proposed=proposed, proposed_active=active)  # fmt: skip
    if form.meta.csrf:
        html = html.replace(generate_csrf(), _ENTRY_CSRF)
    return _ENTRY_SPLIT.split(html)


# --- The "Blatt" pane ---------------------------------------------------------------------------

# The pane with the sheet's rules, downloads, links with their QR codes, rename and close
# (``templates/sheets/_more.html``) changes only with the sheet itself, not with its deals:
# rendered once per sheet, name, rules, state, links and language and kept with the per-page
# values cut out (CSRF token, the revision's history), which are put in for each page.
_MORE_CSRF, _MORE_HISTORY = "\x00more-csrf\x00", "\x00more-history\x00"
_MORE_SPLIT = re.compile("(\x00more-(?:csrf|history)\x00)")
_MORE = cache.MORE_PANES  # kept in cache.py with every other process cache


def more_pane_html(sheet: service.Sheet, rules: list[str], share_url: str, edit_url: str,
                   lan: bool, in_event: bool, history_html: Markup) -> Markup:  # fmt: skip
    """The editor's "Blatt" pane as ``templates/sheets/_more.html`` draws it, with this
    request's CSRF token and the revision's ``history_html``."""
    # everything the pane shows or links to; the Stock's level is one of the ``rules``
    key = (sheet.id, sheet.share_token, sheet.edit_token, sheet.name, sheet.game,
           tuple(sheet.players), sheet.day, sheet.created, bool(sheet.closed), tuple(rules),
           share_url, edit_url, lan, in_event, page_lang(), request.script_root)  # fmt: skip
    pieces = _MORE.get(key)
    if pieces is None:
        html = render_template("sheets/_more.html", sheet=sheet, kind=GAMES[sheet.game],
                               rules=rules, share_url=share_url, edit_url=edit_url, lan=lan,
                               qr=qr_svg, event=in_event,
                               history_html=Markup(_MORE_HISTORY))  # fmt: skip
        pieces = _MORE_SPLIT.split(html.replace(generate_csrf(), _MORE_CSRF))
        _MORE.put(key, pieces)
    fill = {_MORE_CSRF: generate_csrf(), _MORE_HISTORY: str(history_html)}
    return Markup("".join([fill.get(p, p) for p in pieces]))


@dataclass(frozen=True, slots=True)
class SavedLine:
    """The one-line confirmation of the deal a save just stored, with its undo: the deal's
    number, who played it, what and its amount, in the page's language."""

    n: int
    who: str | None
    contract: str
    marks: tuple[str, ...]
    amount: str


@dataclass(frozen=True, slots=True)
class SignOff:
    """A club-night table's double entry and sign-off as its sheet pages show it
    (``templates/sheets/_signoff.html``): who confirmed, whether the series is complete, the
    lists' differences in words and the deals not counted yet."""

    signed: tuple[str, ...]
    confirmed: str | None
    complete: bool
    players: tuple[str, ...]
    messages: tuple[str, ...]
    pending: int


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table's sheet at a club night, as its page's line says it: the event (``id``,
    ``name``), the series and table, the list it keeps, the deals left and the sign-off."""

    id: int
    name: str
    series: int
    table_n: int
    list: str | None
    left: int
    signoff: SignOff | None


def saved_line(sheet: service.Sheet, data: dict[str, Any]) -> SavedLine | None:
    """The deal a save just stored (``?saved=<n>`` after the redirect), for the one-line
    confirmation with its undo; None when there is none or it is struck already."""
    n = parse_int(request.args.get("saved", ""))
    row = next((d for d in data["deals"] if d["n"] == n), None) if n else None
    if row is None or row["struck"]:
        return None
    lang = page_lang()
    typed = next((r for r in service.computed(service.get_db(), sheet).rows if r.n == n), None)
    if typed is None:
        return None
    text = describe_row(sheet.game, typed)
    keeps_list = game_kind(sheet.game).keeps_list
    who = row.get("declarer") if keeps_list and row.get("kind") == "game" else None
    if keeps_list:  # the list entry, as on paper
        amount = " ".join(num(v, True) for v in row["list"].values() if v)
    elif row.get("kind") == "game" and "written" in row:
        # "nur Gute": who wrote how much (a lost Solo: the three opponents)
        writers = [p for p, v in row["written"].items() if v]
        who = "+".join(writers)
        amount = num(row["written"][writers[0]], True) if writers else ""
    elif row.get("kind") == "game" and row.get("party"):
        # like Skat: who played and what it brought each of them, signed (Solo lost: C −60)
        who = "+".join(row["party"])
        amount = num(row["deltas"][row["party"][0]], True)
    else:
        amount = "" if text.value is None else str(text.value)
    return SavedLine(row["n"], who, translate(text.contract, lang),
                     tuple(translate(m, lang) for m in text.marks), amount)  # fmt: skip


def table_of_event(db: Database, sheet: service.Sheet, data: dict[str, Any]
                   ) -> TableLine | None:  # fmt: skip
    """For a table's sheet at a club night: its event, series, table and deals left."""
    if cache.NOT_TABLES.get(sheet.share_token):
        return None
    table = event_of_sheet(db, sheet.id)
    if table is None:
        # A sheet is a table from its start or never (an event opens a table with a new sheet
        # in the same transaction): kept, not asked of the database on every page.
        cache.NOT_TABLES.put(sheet.share_token, True)
        return None
    played = sum(1 for d in data["deals"] if not d["struck"])
    left = max(0, table.deals.get(len(sheet.players), 0) - played)
    # one list and nothing to confirm yet: no need to compute the event's tables
    quiet = not (table.list or left == 0 or table.confirmed or table.signed)
    return TableLine(table.event_id, table.name, table.series, table.table_n, table.list, left,
                     None if quiet else sign_off_view(db, table))  # fmt: skip


def sign_off_view(db: Database, table: TableOfSheet) -> SignOff:
    """The table's double entry and sign-off for its sheet pages (templates/sheets/_signoff.html):
    the differences between its lists, the deals not counted yet, who confirmed."""
    full = event_service.get_event(db, table.event_id)
    # this table alone: the event's snapshot is new after any table's deal, and computing
    # every table for each page of one would make a club night's pages cost O(tables)
    t = event_service.find_table(db, full, table.series, table.table_n)
    entry = t.double_entry
    cmp = entry.comparison if entry else None
    messages = [translate(difference_msg(d), page_lang()) for d in cmp.differences] if cmp else []
    return SignOff(tuple(t.signed), t.confirmed, event_service.table_complete(t),
                   tuple(t.players), tuple(messages), cmp.pending if cmp else 0)  # fmt: skip


def revision_parts(db: Database, sheet: service.Sheet, data: dict[str, Any], share: bool,
                   rules_key: str) -> dict[str, Any]:  # fmt: skip
    """Everything on the sheet page that follows from the deals alone, rendered once per
    revision of the sheet (the row loop is most of the page's work)."""
    chart = None
    if data["deals"]:
        title = _("Verlauf der Stände")
        chart = Markup(running_totals_svg(sheet.players, data["deals"], title=title, **ON_PAGE))
    return {
        "rows_html": table_rows_html(sheet, data, share, rules_key),
        "history_html": history_html(sheet, service.history(db, sheet), rules_key),
        "chart": chart,
        "stats": service.sheet_statistics(db, sheet),
    }


def total_cells(players: list[str], totals: Mapping[str, Any]) -> Fields:
    """The totals' cells of the strip, the table's foot and the standings
    (``templates/sheets/_parts.html``), each a list in the order of the players, written as
    the page shows them; a balance with whether it is negative. A total the sheet does not
    keep (the list, "nur Gute", Seeger-Fabian) is None; won and lost as "3 / 1"."""
    lang = page_lang()

    def signed(values: Mapping[str, int]) -> list[tuple[str, bool]]:
        return [(number(values[p], lang, True), values[p] < 0) for p in players]

    def plain(key: str) -> list[str] | None:
        values = totals.get(key)
        return None if values is None else [number(values[p], lang) for p in players]

    balance = signed(totals["balance"])
    written = totals.get("written")
    return Fields(
        balance=balance,
        # the strip shows what each player wrote under "nur Gute", else the balance
        strip=balance if written is None else signed(written),
        list=plain("list"),
        written=plain("written"),
        seeger_fabian=plain("seeger_fabian"),
        won_lost=[f"{totals['won'][p]} / {totals['lost'][p]}" for p in players],
    )


def stat_cells(sheet: service.Sheet, stats: Mapping[str, Mapping[str, Any]]) -> Fields | None:
    """The statistics table's cells (``templates/sheets/_parts.html``, block ``standing``), a
    row at a time, each a list in the order of the players, written as the page shows them:
    the template puts each into its cell (a page's ~50 cells read no longer each a player's
    statistics through the template's lookups)."""
    if not stats:
        return None
    lang = page_lang()
    each = [stats[p] for p in sheet.players]

    def deal(d: Mapping[str, int] | None) -> tuple[str, int] | None:
        return None if not d else (number(d["delta"], lang, True), d["n"])

    return Fields(
        played=[s["played"] for s in each],
        own=[s["own"] for s in each],
        won_lost=[f"{s['won']} / {s['lost']}" for s in each],
        won_pct=[f"{s['won_pct']} %" if s["won_pct"] is not None else "—" for s in each],
        best=[deal(s["best"]) for s in each],
        worst=[deal(s["worst"]) for s in each],
        columns=[(translate(col.label, lang), [s[col.key] for s in each])
                 for col in GAMES[sheet.game].stat_columns],
    )  # fmt: skip


def table_rows_html(sheet: service.Sheet, data: dict[str, Any], share: bool,
                    rules_key: str) -> Markup:  # fmt: skip
    """The sheet's rows as HTML. This is the page's hot path (a row per deal), so each row is
    drawn once (``table_row_html``) and kept as HTML, not drawn again in a template loop on
    every view.

    A row depends only on its deal and the deals before it (running totals, Bock), so while
    the deals' ``(n, version, struck)`` are unchanged from the first on, the rows rendered for
    an earlier revision are taken as they are: a save renders one new row, a correction of
    deal 3 the rows from 3 on (the same reasoning as the computation's resume in the service)."""
    lang = page_lang()
    base = url_for("sheets.show", sheet_id=sheet.id)
    key = (sheet.share_token, lang, share, base, tuple(sheet.players), rules_key,
           sheet.game)  # fmt: skip
    rows = data["deals"]
    signature = tuple(row_signature(d) for d in rows)
    held = _ROWS.get(key)
    done: list[str] = []
    if held is not None:
        old_sig, old_html = held
        same = 0
        for a, b in zip(old_sig, signature, strict=False):
            if a != b:
                break
            same += 1
        done = old_html[:same]
    if len(done) < len(rows):
        ctx = RowContext(sheet, lang, base, share)
        done = [*done, *(table_row_html(ctx, d) for d in rows[len(done) :])]
    _keep_rows(key, signature, done)
    return Markup("".join(done))


def row_signature(d: Any) -> tuple[int, int, bool]:
    """What identifies a computed row's deal as stored: number, version and struck flag."""
    return (d["n"], d.get("version", 0), bool(d["struck"]))


class RowContext:
    """What every row of one sheet page shares (computed once per page, not per row)."""

    def __init__(self, sheet: service.Sheet, lang: str, base: str, share: bool) -> None:
        self.game = sheet.game
        self.players = sheet.players
        self.skat = game_kind(sheet.game).keeps_list  # the list column, the declarer named
        # the typed rows (what marks.describe_row reads), deal n at n - 1
        self.typed = service.computed(service.get_db(), sheet).rows
        self.lang = lang
        self.base = base
        self.share = share
        self.trig = _("löst Bock aus")
        self.calc = _("Rechnung")
        # where the house rules changed during the evening (the row of the first deal after)
        self.changes = {c["from_n"] for c in service.stored_changes(sheet)}
        self.new_rules = _("neue Regeln")
        self.row = get_template_attribute("sheets/_row.html", "row")


def table_row_html(ctx: RowContext, d: dict[str, Any]) -> str:
    """One deal's row of the sheet table (``d`` as the API shows it): its texts and numbers
    here, its markup in the macro ``row`` of ``templates/sheets/_row.html``."""
    lang = ctx.lang
    n = d["n"]
    typed = ctx.typed[n - 1] if 0 < n <= len(ctx.typed) else None
    if typed is None or typed.n != n:
        typed = {r.n: r for r in ctx.typed}[n]  # rows not numbered by position
    text = describe_row(ctx.game, typed)
    cells = []
    # "nur Gute" (docs/rules.md 2.8): the columns are what each player wrote, not a balance
    totals, deltas = (d["written_totals"], d["written"]) if "written" in d else (d["totals"],
                                                                                d["deltas"])  # fmt: skip
    for p in ctx.players:
        tot, delta = totals[p], deltas[p]
        cells.append((number(tot, lang, True), tot < 0,
                      number(delta, lang, True) if delta else "", "m" if delta < 0 else "p"))  # fmt: skip
    return str(
        ctx.row(
            n,
            d["dealer"],
            # "rend": the last deal of a round (each player has dealt once), ruled off as on paper
            " ".join(
                c
                for c, on in (
                    ("struck", d["struck"]),
                    ("bock", d["bock"]),
                    ("rend", n % len(ctx.players) == 0),
                )
                if on
            ),  # fmt: skip
            d["declarer"] if ctx.skat and d.get("kind") == "game" and d.get("declarer") else "",
            translate(text.contract, lang),
            # the deal's own page: its calculation, correction and strike (not on a share view)
            None if ctx.share else f"{ctx.base}/deals/{n}/edit",
            [(translate(m, lang), MARK_CLASS.get(m, "")) for m in text.marks]
            + ([(f"Stock {number(d['stock'], lang, True)}", "")] if d.get("stock") else [])
            + ([(ctx.new_rules, " rules")] if n in ctx.changes else []),
            ctx.trig if d.get("bock_trigger") else "",
            (d.get("steps") or []) if ctx.share else [],
            ctx.calc,
            "" if text.value is None else text.value,
            # the classic list: only the declarer's entry (Ramsch: the loser's)
            " ".join(number(v, lang, True) for v in d["list"].values() if v) if ctx.skat else None,
            cells,
            sum(d["deltas"].values()) + d.get("stock", 0),  # with the Stock, every row sums to 0
        )
    )


# The rows of each sheet page variant (sheet, language, share view, …) as last rendered, with
# their deals' signatures: only the latest rendering is kept, since an older revision can no
# longer be asked for. Bounded by bytes (a 1,000-deal sheet's rows are ~0.5 MB), least
# recently used first.
_ROWS = cache.PAGE_ROWS  # kept in cache.py with every other process cache


def _keep_rows(key: tuple[object, ...], signature: tuple[tuple[int, int, bool], ...],
               rows: list[str]) -> None:  # fmt: skip
    _ROWS.put(key, (signature, rows))


# The marks that get their own colour in a row (lost, Bock, struck); the rest look alike.
MARK_CLASS = {LOST: " lost", BOCK: " bock", STRUCK: " lost"}


def history_html(sheet: service.Sheet, history: list[service.HistoryEntry],
                 rules_key: str) -> Markup:  # fmt: skip
    """The sheet's history as ``templates/sheets/_history.html`` draws it, newest first.

    A line depends only on its entry, the sheet's game, players and rules (a correction's
    deal before it is described under them) and the language: while the entries are the same
    from the first on, the lines drawn for an earlier revision are taken as they are, and a
    save draws its own line only (an evening's history grows by one entry a deal). The lines
    are kept joined too, newest first: a save puts its own line before them."""
    lang = page_lang()
    key = (sheet.share_token, lang, sheet.game, tuple(sheet.players), rules_key,
           repr(sheet.rule_changes))  # fmt: skip
    entries = tuple(history)
    held = cache.HISTORY_LINES.get(key)
    lines: list[str] = []
    joined = ""
    if held is not None:
        old_entries, old_lines, old_joined = held
        if old_entries == entries[: len(old_entries)]:
            lines, joined = old_lines, old_joined  # the same entries, maybe more after them
        else:
            for old, new, text in zip(old_entries, entries, old_lines, strict=False):
                if old != new:  # a name corrected at the desk changes an entry in place
                    break
                lines.append(text)
            joined = "".join(reversed(lines))
    if len(lines) < len(entries):
        line = get_template_attribute("sheets/_history.html", "line")
        drawn = history_rows(sheet, list(entries[len(lines) :]))  # newest first
        added = [str(line(h)) for h in reversed(drawn)]
        lines = [*lines, *added]
        joined = "".join(reversed(added)) + joined
    if held is None or held[0] != entries:
        cache.HISTORY_LINES.put(key, (entries, lines, joined))
    # a macro, without a page's context (it reads only the texts' globals)
    frame = get_template_attribute("sheets/_history.html", "history")
    return Markup(frame(len(lines), Markup(joined)))


def history_rows(sheet: service.Sheet, history: list[service.HistoryEntry]) -> list[dict[str, str]]:
    """Newest first, in the server's local time (the laptop on the table), with the previous
    version of a deal in words; each line :class:`Fields`, as the template reads it."""
    # each text translated when a line needs it: a save draws one line
    words: dict[str, Callable[[], str]] = {
        "add": lambda: _("eingetragen"), "correct": lambda: _("korrigiert"),
        "strike": lambda: _("gestrichen"), "restore": lambda: _("wiederhergestellt"),
        "close": lambda: _("Abend abgeschlossen"), "reopen": lambda: _("Abend wieder geöffnet"),
        "rules": lambda: _("Hausregeln geändert ab"),
    }  # fmt: skip
    said: dict[str, str] = {}

    def what(action: str) -> str:
        if action not in said:
            said[action] = words[action]() if action in words else action
        return said[action]

    spec: list[SheetSpec] = []  # made for the first correction's deal before
    keeps_list = game_kind(sheet.game).keeps_list
    lang = page_lang()
    out: list[dict[str, str]] = []
    for h in reversed(history):
        try:
            when = datetime.fromisoformat(h.at).astimezone().strftime("%d.%m. %H:%M")
        except (ValueError, OverflowError):
            when = h.at[:16]
        before = ""
        b = h.before
        if b and h.action == "correct":
            try:
                if not spec:
                    spec.append(service.spec_of(sheet))
                o = evaluate_deal(spec[0].at(h.n), b["input"], tuple(b["active"]))
                who = f"{o.declarer}: " if o.declarer and keeps_list else ""
                before = f"{who}{translate(o.title, lang)}" + (
                    f" ({o.value})" if o.kind == "game" else ""
                )
            except (InvalidDeal, KeyError, TypeError):
                before = json.dumps(b.get("input"), ensure_ascii=False)[:200]
        out.append(Fields(when=when, what=what(h.action),
                          n=str(h.n) if h.n else "", before=before))  # fmt: skip
    return out


def public_url(endpoint: str, **values: Any) -> str:
    """A link other phones can open: on the network the server's address, not localhost."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return f"{base.rstrip('/')}{kept_url_for(endpoint, **values)}"
    return kept_url_for(endpoint, _external=True, **values)


def qr_svg(url: str) -> Markup:
    # ~5 ms a code, two on every page of a sheet on the network; a sheet's links never change:
    # kept per address in cache.py with every other process cache
    return cache.kept(cache.QR_CODES, url, lambda: Markup(
        segno.make(url, error="m").svg_inline(scale=4, dark="#1d1d1b", light="#fff")))  # fmt: skip


def taken_message(sheet: service.Sheet, taken: service.Taken) -> str:
    """What the page says when another phone saved this deal's number first."""
    if taken.n > taken.next_n:
        return _("Das nächste Spiel ist Nummer %(next)s. Bitte noch einmal speichern.",
                 next=taken.next_n)  # fmt: skip
    row = service.computed(service.get_db(), sheet).rows[taken.n - 1]
    there = service.describe_row(sheet.game, row, page_lang())
    return _(
        "Spiel %(n)s ist schon eingetragen (von einem anderen Gerät?): %(deal)s. Nichts "
        "gespeichert. Die Eingabe steht noch unten: War es ein anderes Spiel, bitte als "
        "Spiel %(next)s speichern; sonst nichts tun.",
        n=taken.n, deal=there, next=taken.next_n,
    )  # fmt: skip


def sheets_page(form: FlaskForm, general: list[str] | None = None,
                import_errors: list[str] | None = None) -> str:  # fmt: skip
    """The list of sheets with the new-sheet and the import form, each with its messages."""
    return render_template("sheets/list.html", form=form, sheets=sheet_summaries(),
                           general=general or [], import_errors=import_errors or [])  # fmt: skip


@dataclass(frozen=True, slots=True)
class SheetSummary:
    """A line of the list of sheets: the sheet, its deals played and struck apart, the
    balance and who leads."""

    sheet: service.Sheet
    deals: int
    struck: int
    balance: dict[str, int]
    leader: str | None


def sheet_summaries() -> list[SheetSummary]:
    """Each sheet with its deal count and leader. The figures come from the summary cache
    (one row per sheet and revision, derived from the deals); only sheets changed since
    their summary was made are computed again."""
    db = service.get_db()

    def summarize(s: service.Sheet) -> dict[str, object]:
        computed = service.computed_sheet(db, s, page_lang())
        # a struck deal was never really played: counted apart ("14 Spiele (1 gestrichen)")
        struck = sum(1 for d in computed["deals"] if d["struck"])
        return {"balance": computed["totals"]["balance"],
                "deals": len(computed["deals"]) - struck, "struck": struck}  # fmt: skip

    out = []
    for s, summary in service.sheet_summaries(db, summarize):
        bal = summary["totals"]["balance"] if "totals" in summary else summary["balance"]
        out.append(SheetSummary(s, int(summary.get("deals", 0)), int(summary.get("struck", 0)),
                                bal, leader(s.players, bal)))  # fmt: skip
    return out


def render_deal(sheet: service.Sheet, deal: service.Deal, form: DealMeta, general: list[str],
                status: int = 200) -> Response:  # fmt: skip
    """A deal's own page: its calculation step by step and the correction form."""
    spec = service.spec_of(sheet)
    computed = service.sheet_json(service.get_db(), sheet, page_lang(), full=False)
    row = next((r for r in computed["deals"] if r["n"] == deal.n), None)
    html = render_template(
        "deals/edit.html", sheet=sheet, deal=deal, form=form, general=general, row=row,
        proposed=deal.dealer, proposed_active=default_active(spec, deal.dealer),
        deal_rules=rules_at(sheet, deal.n),
    )  # fmt: skip
    return make_response(html, status)


def render_preview(sheet: service.Sheet, form: DealMeta, body: Mapping[str, object],
                   errors: list[tuple[str, str]]) -> Response:  # fmt: skip
    """The live preview of an entry or a correction (``body`` from ``deal_body``): the row it
    would become (``service.preview_deal``), drawn by ``templates/deals/_preview.html``; the
    messages if it is wrong; nothing while the form is not finished."""
    ready = deal_ready(sheet, form, body)
    messages = preview_messages(errors, ready)
    if not ready or messages:
        return preview_answer(messages)
    lang = page_lang()
    try:
        row = service.preview_deal(service.get_db(), sheet, body, lang)
    except InvalidDeal as exc:
        return preview_answer(exc_messages(exc, lang))
    players = [p for p in sheet.players if p in row["deltas"]]
    # the line that matters at a glance: who pays (Durchmarsch: who gets) how much
    who = row["party"] or [p for p in players if row["deltas"][p] > 0]
    html = render_template("deals/_preview.html", row=row, players=players, who=who,
                           keeps_list=game_kind(sheet.game).keeps_list)  # fmt: skip
    return preview_answer([], html)
