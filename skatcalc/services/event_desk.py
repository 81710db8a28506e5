"""The organiser's desk at a club night (no Flask): start numbers, swapping two players or
re-drawing a series before its first deal, and correcting a registered name everywhere in
the event (its tables' sheets included).

A table's sheet keeps its id and links through all of this: the phones that scanned a
table's QR code stay on their table, and a table card printed before a swap still opens the
right list. Every change bumps the event's and the tables' revisions, so the open ranking
pages and the projector (their live token) draw the new seating by themselves.
"""

from __future__ import annotations

import json

from sqlite_utils import Database

from skatcalc import store
from skatcalc.jsontypes import JSONObject, JSONValue
from skatcalc.rules.common import Errors, Msg
from skatcalc.rules.events import draw
from skatcalc.services import events
from skatcalc.services import players as people
from skatcalc.services import sheets as service
from skatcalc.store import events as rows_of
from skatcalc.store.club_records import Event, Registration, SeriesTable
from skatcalc.store.records import Sheet


class Locked(Exception):
    """The organiser's change is refused because what it would change is settled: the event
    is closed, or a table has entered a deal (answered 409, nothing changed)."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.de)
        self.msg = msg


CLOSED = Msg("Die Veranstaltung ist abgeschlossen. Nichts geändert; die Turnierleitung kann sie "
             "wieder öffnen.")  # fmt: skip


def start_numbers(regs: list[Registration]) -> dict[str, int]:
    """Name → start number, for the lists that show them beside the names."""
    return {r.name: r.start_no for r in regs if r.start_no is not None}


def _open_event(db: Database, event_id: int) -> Event:
    """Inside the caller's transaction: the write lock first (events._bump), then the event,
    refused when closed."""
    events._bump(db, event_id)
    event = events.get_event(db, event_id)
    if event.closed:
        raise Locked(CLOSED)
    return event


def _series_tables(db: Database, event_id: int, n: int) -> list[SeriesTable]:
    """Series ``n``'s tables in order: number, sheet row, deals entered (struck ones too:
    a struck deal was entered at that table)."""
    out = rows_of.series_tables(db, event_id, n)
    if not out and rows_of.get_series(db, event_id, n) is None:
        raise events.NotFound(n)
    return out


def _reseat(db: Database, sheet: Sheet, players: list[str], first_dealer: str,
            sheet_b: int | None = None) -> None:  # fmt: skip
    """A table's sheet with new seats (it has no deals): same id, links and tokens. With
    double entry list B (``sheet_b``) takes the very same seats and first dealer: a table's
    seating exists once, and both lists follow it. List B's seats stay unlinked to players
    (add_list_b: a player's pages count each deal once, from list A)."""
    with service.sheet_write(db, sheet):
        rows_of.reseat_sheet(db, sheet.id, players, first_dealer, store.now())
        people.link_sheet_players(db, sheet.id, players)
    if sheet_b is not None:
        b = service.load_sheet(db, sheet_b)
        with service.sheet_write(db, b):
            rows_of.reseat_sheet(db, b.id, players, first_dealer, store.now())


def swap(db: Database, event_id: int, n: int, a: str, b: str) -> None:
    """Swap players ``a`` and ``b`` of series ``n`` (two tables, or two seats of one table):
    each takes the other's seat, and so the other's turn to deal first. Only while neither
    table has a deal entered (:class:`Locked`)."""
    with db.atomic():
        _open_event(db, event_id)
        tables = _series_tables(db, event_id, n)
        e = Errors()
        where: dict[str, tuple[SeriesTable, int]] = {}
        for field, name in (("a", a), ("b", b)):
            key = people.name_key(name)
            for t in tables:
                for seat, p in enumerate(t.sheet.players):
                    if people.name_key(p) == key:
                        where[field] = (t, seat)
            if field not in where:
                e.add(field, "%(name)s sitzt in Serie %(n)s an keinem Tisch.", name=name, n=n)
        if len(where) == 2 and where["a"] == where["b"]:
            e.add("b", "Bitte zwei verschiedene Spieler.")
        e.raise_if_any()
        (ta, sa), (tb, sb) = where["a"], where["b"]
        started = [t.n for t in (ta, tb) if t.entered]
        if started:
            raise Locked(Msg("An Tisch %(t)s ist schon ein Spiel eingetragen: die Plätze "
                             "bleiben, wie sie sind.", t=started[0]))  # fmt: skip
        pa, pb = ta.sheet.players[sa], tb.sheet.players[sb]
        swapped = {pa: pb, pb: pa}
        for t in {ta.sheet.id: ta, tb.sheet.id: tb}.values():
            sheet = t.sheet
            players = [swapped.get(p, p) for p in sheet.players]
            _reseat(db, sheet, players, swapped.get(sheet.first_dealer, sheet.first_dealer),
                    t.sheet_b)  # fmt: skip
        events.log_event(db, event_id, "swap", store.now(), {"series": n, "a": pa, "b": pb})


def redraw(db: Database, event_id: int, n: int, seed: int | None = None) -> int:
    """Draw series ``n`` again (a new seed, or the one given) with the players seated in it,
    at as many tables of the same sizes; the seed it was drawn with. Only while no table of
    the series has a deal."""
    if seed is None:
        import secrets

        seed = secrets.randbelow(events.MAX_SEED) + 1
    with db.atomic():
        event = _open_event(db, event_id)
        tables = _series_tables(db, event_id, n)
        started = [t.n for t in tables if t.entered]
        if started:
            raise Locked(Msg("An Tisch %(t)s ist schon ein Spiel eingetragen: die Serie wird "
                             "nicht neu ausgelost.", t=started[0]))  # fmt: skip
        if events.final_series(db, event_id) == n:  # seated from the ranking: nothing to draw
            raise Locked(Msg("Das Finale ist nach der Rangliste gesetzt und wird nicht "
                             "ausgelost."))  # fmt: skip
        seated = {p for t in tables for p in t.sheet.players}
        # in registration order, as the first draw took them: the same seed draws the same
        order = [r.name for r in events.registrations(db, event_id) if r.name in seated]
        drawn = draw(event.game, order, seed, events.met_before(db, event, n))
        for t, new in zip(tables, drawn, strict=True):
            _reseat(db, t.sheet, list(new.players), new.first_dealer, t.sheet_b)
        rows_of.set_series_drawn(db, event_id, n, seed)
        events.log_event(db, event_id, "redraw", store.now(), {"series": n, "seed": seed})
    return seed


# --- Correcting a registered name ------------------------------------------------------------

# Where a stored deal names players: single names, lists of names, maps keyed by name (the
# Ramsch points), and the Skat Ramsch's own object holding the same again.
_NAME_KEYS = {"declarer", "dealer", "durchmarsch"}
_LIST_KEYS = {"declarers", "players", "active", "jungfrau"}
_MAP_KEYS = {"points"}
_NESTED_KEYS = {"ramsch"}


def renamed(body: JSONValue, old: str, new: str) -> JSONValue:
    """A deal body (or a deal's snapshot) with ``old`` written ``new`` wherever it names a
    player.

    >>> renamed({"declarer": "Bernt", "game": "grand", "ramsch": {"points": {"Bernt": 30},
    ...          "jungfrau": ["Bernt"]}}, "Bernt", "Bernd")
    {'declarer': 'Bernd', 'game': 'grand', 'ramsch': {'points': {'Bernd': 30}, 'jungfrau': ['Bernd']}}
    """
    if not isinstance(body, dict):
        return body
    out: JSONObject = {}
    for k, v in body.items():
        if k in _NAME_KEYS and v == old:
            v = new
        elif k in _LIST_KEYS and isinstance(v, list):
            v = [new if x == old else x for x in v]
        elif k in _MAP_KEYS and isinstance(v, dict):
            v = {(new if name == old else name): x for name, x in v.items()}
        elif k in _NESTED_KEYS or k in ("input", "before"):
            v = renamed(v, old, new)
        out[k] = v
    return out


def _rename_in_sheet(db: Database, sheet: Sheet, old: str, new: str,
                    linked: bool = True) -> None:  # fmt: skip
    """Every mention of ``old`` in a table's sheet: its seats, first dealer, deals (each a new
    version: a phone holding the old one is told it changed) and history; ``linked``: its
    seats point at players (list A; list B's stay unlinked)."""
    with service.sheet_write(db, sheet):
        at = store.now()
        players = [new if p == old else p for p in sheet.players]
        first = new if sheet.first_dealer == old else sheet.first_dealer
        rows_of.reseat_sheet(db, sheet.id, players, first, at)
        for d in rows_of.deal_rows(db, sheet.id):
            body = renamed(json.loads(d["input"]), old, new)
            active = [new if p == old else p for p in json.loads(d["active"])]
            rows_of.rewrite_deal(db, int(d["id"]), new if d["dealer"] == old else d["dealer"],
                                 active, body, store.body_hash(body) if d["idem_key"] else None)  # fmt: skip
        for history_id, before in rows_of.history_befores(db, sheet.id):
            if isinstance(before, dict):
                before = renamed(before, old, new)
            rows_of.set_history_before(db, history_id, before)
        if linked:
            people.link_sheet_players(db, sheet.id, players)


def check_new_name(raw: object, e: Errors, field: str = "to") -> str:
    """One name, tidied and checked as at registration (events.check_names), or a message on
    ``field``."""
    if not isinstance(raw, str) or not raw.strip():
        e.add(field, "Bitte den neuen Namen.")
        return ""
    inner = Errors()
    names = events.check_names([raw], inner, field)
    e.items += inner.items
    return "" if inner.items else names[0]


def correct_name(db: Database, event_id: int, old: str, new: str) -> str:
    """The organiser corrects a registered name (a typo at registration): the registration
    and every table of the event that seats the player, deals included; the name as now
    written. The player list's own entry is not renamed here (that is the admin's players
    page); the tables' seats point at the player of the corrected name, a new one if nobody
    is called so yet (another known player keeps the player list's spelling)."""
    with db.atomic():
        _open_event(db, event_id)
        regs = events.registrations(db, event_id)
        reg = next((r for r in regs if r.key == people.name_key(old)), None)
        if reg is None:
            raise events.NotFound(old)
        key = people.name_key(new)
        if any(r.key == key and r.id != reg.id for r in regs):
            e = Errors()
            e.add("to", "%(name)s ist schon angemeldet.", name=new)
            e.raise_if_any()
        was = reg.name
        known = people.find_player(db, new)
        if known is not None and known != reg.player_id:
            # another known player keeps the player list's spelling, as at registration
            new = people.get_player(db, known).name
        if new != was:
            for t in rows_of.table_sheets(db, event_id):
                if was in t.sheet.players:
                    _rename_in_sheet(db, t.sheet, was, new)
                # list B as list A, whatever seats it holds: the deals typed there name
                # the player too
                b = None if t.sheet_b is None else service.load_sheet(db, t.sheet_b)
                if b is not None and was in b.players:
                    _rename_in_sheet(db, b, was, new, linked=False)
            rows_of.rename_registration(db, reg.id, new, key, people.find_player(db, new))
            events.log_event(db, event_id, "rename", store.now(), {"from": was, "to": new})
    return new
