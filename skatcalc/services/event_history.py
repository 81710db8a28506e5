"""A club night's history (no Flask, no SQL): the one way a change is recorded, who made it
and when, and the one text each kind of change reads as on the pages.

Every write that changes a settled figure (closing, reopening, the prize plan, the pot, the
fees and their paid ticks, registrations, the seating at the desk, sign-offs, …) calls
:func:`record` inside its own transaction. *Who* is the right the request used, as the edge
found it (:func:`acting`: ``"organiser"`` the event's link or token, ``"admin"`` the admin
link, ``"local"`` a server without ``--lan``, where the laptop's own browser may write): the
app knows links, not persons. It is kept in the entry's detail as ``"by"``, so the API's
history lists it beside the action's own keys. A new kind of change adds its text to
:data:`LINES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from sqlite_utils import Database

from skatcalc import store
from skatcalc.rules.common import Msg, money
from skatcalc.store import events as rows_of
from skatcalc.store.club_records import EventLogEntry

#: the rights a change can be made with, and how the history names them
ACTORS: Mapping[str, Msg] = {
    "organiser": Msg("Turnierleitung"),
    "admin": Msg("Admin"),
    "local": Msg("an diesem Rechner"),
}

# The right of the request being answered: set by the edge once it has checked it (one
# request per thread or task at a time; the edge forgets it when the request ends).
_ACTOR: ContextVar[str | None] = ContextVar("event_actor", default=None)


def acting(by: str | None) -> None:
    """The edge names the right the current request writes with (None: forget it)."""
    _ACTOR.set(by if by in ACTORS else None)


def actor() -> str | None:
    return _ACTOR.get()


def record(db: Database, event_id: int, action: str, detail: Mapping[str, object] | None = None,
           at: str | None = None) -> None:  # fmt: skip
    """One line of the event's history: ``action`` with its ``detail``, now (or ``at``), and
    who made it (the request's right, when the edge named one)."""
    by = _ACTOR.get()
    out = dict(detail or {})
    if by is not None:
        out["by"] = by
    rows_of.add_log(db, event_id, action, at or store.now(), out or None)


def _series(d: Mapping[str, Any]) -> Msg:
    return Msg("Startgeld") if d.get("series") == 0 else Msg("Serie %(n)s", n=d.get("series", 0))


def _cents(d: Mapping[str, Any], key: str) -> str:
    v = d.get(key)
    return money(v) if isinstance(v, int) else "–"


def _payout(d: Mapping[str, Any]) -> str:
    p = d.get("payout")
    if not isinstance(p, Mapping):
        return "–"
    values = [v for v in p.get("values") or [] if isinstance(v, int)]
    if p.get("kind") == "fixed":
        return " / ".join(money(v) for v in values)
    return " / ".join(str(v) for v in values) + " %"


#: action → its text from the entry's detail; an unknown action reads as its key
LINES: dict[str, Callable[[Mapping[str, Any]], Msg]] = {
    "close": lambda d: (
        Msg("abgeschlossen")
        if not d.get("force")
        else Msg("abgeschlossen, obwohl Listen offen waren")
    ),
    "reopen": lambda d: Msg("wieder geöffnet"),
    "prizes": lambda d: Msg(
        "Auszahlung %(payout)s, Topf %(pot)s",
        payout=_payout(d),
        pot=_cents(d, "pot_cents")
        if d.get("pot_cents") is not None
        else Msg("alle fälligen Gebühren"),
    ),  # fmt: skip
    "paid": lambda d: Msg(
        "%(name)s hat bezahlt: %(what)s, %(cents)s",
        name=d.get("player", ""),
        what=_series(d),
        cents=_cents(d, "cents"),
    ),  # fmt: skip
    "unpaid": lambda d: Msg(
        "%(name)s: Zahlung zurückgenommen (%(what)s)", name=d.get("player", ""), what=_series(d)
    ),  # fmt: skip
    "register": lambda d: Msg("angemeldet: %(names)s", names=", ".join(d.get("names", []))),
    "unregister": lambda d: Msg("Abgemeldet: %(name)s", name=d.get("player", "")),
    "category": lambda d: Msg(
        "%(name)s: Kategorie %(category)s",
        name=d.get("player", ""),
        category=d.get("category") or "–",
    ),  # fmt: skip
    "teams": lambda d: Msg("Mannschaften: %(n)s", n=len(d.get("teams", []))),
    "lengthen": lambda d: Msg("Serie %(n)s verlängert", n=d.get("series", 0)),
    "swap": lambda d: Msg(
        "Serie %(n)s: %(a)s und %(b)s tauschen die Plätze",
        n=d.get("series", 0),
        a=d.get("a", ""),
        b=d.get("b", ""),
    ),  # fmt: skip
    "redraw": lambda d: Msg(
        "Serie %(n)s neu ausgelost (Startwert %(seed)s)",
        n=d.get("series", 0),
        seed=d.get("seed", 0),
    ),  # fmt: skip
    "rename": lambda d: Msg(
        "Name berichtigt: %(old)s → %(new)s", old=d.get("from", ""), new=d.get("to", "")
    ),  # fmt: skip
    "sign": lambda d: Msg(
        "Serie %(n)s, Tisch %(t)s: bestätigt von %(name)s",
        n=d.get("series", 0),
        t=d.get("table", 0),
        name=d.get("player", ""),
    ),  # fmt: skip
    "confirm": lambda d: Msg(
        "%(what)s (%(by)s)",
        what=Msg("Serie %(n)s, Tisch %(t)s bestätigt", n=d.get("series", 0), t=d.get("table", 0)),
        by=Msg("Tischführer") if d.get("captain") else d.get("player", ""),
    ),  # fmt: skip
    "unlock": lambda d: Msg(
        "Serie %(n)s, Tisch %(t)s wieder freigegeben", n=d.get("series", 0), t=d.get("table", 0)
    ),  # fmt: skip
    "foot": lambda d: Msg(
        "Serie %(n)s, Tisch %(t)s: Listenfuß eingetragen",
        n=d.get("series", 0),
        t=d.get("table", 0),
    ),  # fmt: skip
    "foot-corrected": lambda d: Msg(
        "Serie %(n)s, Tisch %(t)s: Listenfuß berichtigt",
        n=d.get("series", 0),
        t=d.get("table", 0),
    ),  # fmt: skip
    "penalty": lambda d: Msg(
        "%(name)s: %(points)s Strafpunkte in Serie %(n)s (%(reason)s)",
        name=d.get("player", ""),
        points=d.get("points", 0),
        n=d.get("series", 0),
        reason=d.get("reason", ""),
    ),  # fmt: skip
    "penalty-taken-back": lambda d: Msg(
        "%(name)s: Strafpunkte in Serie %(n)s zurückgenommen",
        name=d.get("player", ""),
        n=d.get("series", 0),
    ),  # fmt: skip
}


def line(entry: EventLogEntry) -> Msg:
    """What a line of the history says, with who made it.

    >>> line(EventLogEntry("2026-11-20T23:10:00", "close", {"by": "organiser"})).de
    'abgeschlossen (Turnierleitung)'
    >>> line(EventLogEntry("t", "paid", {"player": "Anna", "series": 0, "cents": 1000})).de
    'Anna hat bezahlt: Startgeld, 10,00 €'
    """
    make = LINES.get(entry.action)
    what = make(entry.detail) if make is not None else Msg("%(what)s", what=entry.action)
    by = ACTORS.get(str(entry.detail.get("by")))
    return what if by is None else Msg("%(what)s (%(by)s)", what=what, by=by)
