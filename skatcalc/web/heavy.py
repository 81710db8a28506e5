"""Heavy reads bounded per process, and their memory handed back.

A file export, a sheet's whole JSON and an import can each take a second of CPU and tens
of MB on a 1,000-deal sheet, and anyone may ask for them without a right. At most
``HEAVY_SLOTS`` of them run at once in a process (`skatcalc serve` sets one: their peaks of
memory never add up in a process); one beyond is answered 503 with ``Retry-After`` at once,
holding no thread, so the other threads stay free for the cheap reads of the phones at the
table (their page, its revision, a revalidation). No client is told apart by its address: the bound is on the
work, whoever asks.

At the end of every request, a large sheet's computed objects are forgotten unless the sheet
is being edited (cache.shed_unedited). After a heavy request, a large answer or such a
forgetting, when no heavy request is running, glibc is asked to give the freed memory
back to the system (``malloc_trim``): a 6.7 MB import decodes to ~60 MB of objects, freed
at once but otherwise kept resident by the allocator.
"""

from __future__ import annotations

import re
import threading

from flask import Flask, Response, request

from skatcalc.services.cache import hand_back_memory, shed_unedited
from skatcalc.text import _
from skatcalc.web import request_state

# Routes whose answer may be large or dear to make; GET (and HEAD) only, except the import.
# PDFs are not among them: they have their own bound (exports.cached_pdf: one render at a time
# per process, ``PDF_WAITERS`` waiting for it, the rest told to come back), and a sheet's PDF
# renders in a process of its own (exports/apart.py).
HEAVY_READ = re.compile(
    r"^(?:/api/v1)?/sheets/\d+/export\.(?!pdf$)\w+$"  # a sheet's files: CSV, JSON
    r"|^/api/v1/sheets/\d+$"  # a sheet's whole JSON
)
HEAVY_POST = re.compile(r"^(?:/api/v1)?/sheets/import$")
RETRY_AFTER = 2  # seconds: a heavy answer takes about that long to make
LARGE_ANSWER = 256 * 1024  # bytes of an answer after which memory is handed back too


def is_heavy(method: str, path: str) -> bool:
    if method in ("GET", "HEAD"):
        return HEAVY_READ.search(path) is not None
    return method == "POST" and HEAVY_POST.match(path) is not None


class HeavySlots:
    """At most ``limit`` heavy requests at once; ``enter`` never waits."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.busy = 0
        self._lock = threading.Lock()

    def enter(self) -> bool:
        with self._lock:
            if self.busy >= self.limit:
                return False
            self.busy += 1
            return True

    def leave(self) -> int:
        """Free a slot; the heavy requests still running."""
        with self._lock:
            self.busy -= 1
            return self.busy


def init_app(app: Flask) -> None:
    limit = app.config.get("HEAVY_SLOTS")
    slots = HeavySlots(int(limit)) if limit else None
    app.extensions["skatcalc_heavy"] = slots

    @app.before_request
    def bound_heavy() -> Response | None:
        if not is_heavy(request.method, request.path):
            return None
        if slots is not None and not slots.enter():
            from skatcalc.web.http import refuse

            return refuse(
                503,
                _("Gerade werden viele große Dateien abgerufen – bitte gleich noch einmal."),
                RETRY_AFTER,
            )
        request_state.state().heavy = True
        return None

    @app.after_request
    def note_large(resp: Response) -> Response:
        # a large answer of a cheap route (a 1,000-deal sheet's page) was made of large parts
        if (resp.content_length or 0) >= LARGE_ANSWER:
            request_state.state().large = True
        return resp

    @app.teardown_request
    def heavy_done(_exc: BaseException | None) -> None:
        held = request_state.state()
        large = held.large | shed_unedited()
        running = slots.busy if slots is not None else 0
        if held.heavy:
            held.heavy = False
            running = slots.leave() if slots is not None else 0
        elif not large:
            return
        if running == 0:
            hand_back_memory()
