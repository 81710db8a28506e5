"""Closing a club night (no Flask): what stands in the way of a close, the close itself with
its prize plan and pot, and the rule that a closed event keeps its figures.

* With double entry a table whose lists differ, whose one list lags behind the other, or that
  is not confirmed stands in the way (:func:`open_tables`): the close is refused with every
  such table named (:class:`OpenLists`), unless the organiser closes anyway (``force``).
* A closed event keeps its payout and pot: a second close with the same ones changes nothing,
  with others it is refused (:class:`Refused`) until the event is reopened.
* Every change is in the event's history with who made it (services.event_history).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from skatcalc import store
from skatcalc.rules.common import Msg
from skatcalc.rules.events import Payout
from skatcalc.services import events
from skatcalc.store import events as rows_of
from skatcalc.store import sheets as sheet_store
from skatcalc.store.club_records import Event

CLOSED = Msg("Die Veranstaltung ist abgeschlossen: Auszahlung und Topf bleiben, wie sie sind. "
             "Erst wieder öffnen, dann ändern.")  # fmt: skip


class Refused(Exception):
    """A write a closed event does not take (answered 409 with ``msg``, nothing changed)."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.de)
        self.msg = msg


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A double-entry table that is not settled: series, table and what is open there."""

    series: int
    table: int
    what: tuple[Msg, ...]

    def msg(self) -> Msg:
        """ "Tisch 3 (Serie 1): Liste B weicht bei Spiel 2 ab; nicht bestätigt".

        >>> OpenTable(1, 3, (Msg("nicht bestätigt"),)).msg().de
        'Tisch 3 (Serie 1): nicht bestätigt'
        """
        what = self.what[0]
        for more in self.what[1:]:
            what = Msg("%(a)s; %(b)s", a=what, b=more)
        return Msg("Tisch %(t)s (Serie %(n)s): %(what)s", t=self.table, n=self.series, what=what)


class OpenLists(Exception):
    """The close is refused while ``tables`` are open (answered 409); ``force`` closes."""

    def __init__(self, tables: tuple[OpenTable, ...]) -> None:
        super().__init__(len(tables))
        self.tables = tables


def _open_parts(t: events.EventTable) -> tuple[Msg, ...]:
    entry = t.double_entry
    if entry is None:
        return ()
    cmp = entry.comparison
    out: list[Msg] = []
    if cmp.differences:
        out.append(Msg("Liste B weicht bei Spiel %(deals)s ab",
                       deals=", ".join(str(d.n) for d in cmp.differences)))  # fmt: skip
    if cmp.played_b < cmp.played_a:
        out.append(Msg("Liste B hat %(b)s von %(a)s Spielen", b=cmp.played_b, a=cmp.played_a))
    elif cmp.played_a < cmp.played_b:
        out.append(Msg("Liste A hat %(a)s von %(b)s Spielen", a=cmp.played_a, b=cmp.played_b))
    if not t.confirmed:
        out.append(Msg("nicht bestätigt"))
    return tuple(out)


def open_tables(db: Database, event: Event, shared: bool = False) -> tuple[OpenTable, ...]:
    """The double-entry tables not settled yet, by series and table (none without double
    entry: one list per table has nothing to compare); ``shared``: from the event's snapshot
    (a page between two writes), else computed now (inside the close's write)."""
    if not event.double_entry:
        return ()
    out = []
    for t in events.snapshot(db, event).tables if shared else events.tables_of(db, event):
        what = _open_parts(t)
        if what:
            out.append(OpenTable(t.series, t.table, what))
    return tuple(out)


def _same_money(event: Event, payout: Payout, pot_cents: int | None) -> bool:
    return events.payout_of(event).to_json() == payout.to_json() and event.pot_cents == pot_cents


def close(db: Database, event_id: int, payout: Payout, pot_cents: int | None,
          force: bool = False) -> bool:  # fmt: skip
    """Close the event with this payout and pot (its tables' sheets become read-only); False
    when it was closed already with the same ones (nothing changes, the first closing time
    stays). :class:`Refused` when it was closed with others, :class:`OpenLists` while a
    double-entry table is open and not ``force``."""
    with db.atomic():
        events._bump(db, event_id)  # the write lock first
        event = events.get_event(db, event_id)
        same = _same_money(event, payout, pot_cents)
        if event.closed:
            if same:
                return False
            raise Refused(CLOSED)
        still_open = open_tables(db, event)
        if still_open and not force:
            raise OpenLists(still_open)
        at = store.now()
        if not same:
            _set_money(db, event_id, payout, pot_cents, at)
        rows_of.set_closed(db, event_id, at)
        detail = {}
        if still_open:  # closed over open lists: the history says which
            detail = {"force": True, "open": [{"series": t.series, "table": t.table}
                                              for t in still_open]}  # fmt: skip
        events.log_event(db, event_id, "close", at, detail or None)
        for sid in events.table_sheet_ids(db, event_id):
            sheet_store.set_sheet_closed(db, sid, True, at)
    return True


def reopen(db: Database, event_id: int) -> bool:
    """Reopen a closed event; False when it was open."""
    return events.set_closed(db, event_id, False)


def _set_money(db: Database, event_id: int, payout: Payout, pot_cents: int | None,
               at: str) -> None:  # fmt: skip
    rows_of.set_money(db, event_id, payout.to_json(), pot_cents)
    events.log_event(db, event_id, "prizes", at,
                     {"payout": payout.to_json(), "pot_cents": pot_cents})  # fmt: skip


def set_money(db: Database, event_id: int, payout: Payout, pot_cents: int | None) -> bool:
    """The payout and the pot before the close (the close page's "Speichern"); False when
    they are as set already. A closed event keeps its own: :class:`Refused` for others."""
    with db.atomic():
        events._bump(db, event_id)
        event = events.get_event(db, event_id)
        if _same_money(event, payout, pot_cents):
            return False
        if event.closed:
            raise Refused(CLOSED)
        _set_money(db, event_id, payout, pot_cents, store.now())
    return True
