"""Every process cache of derived data, in one place, and the fingerprint of the code that
derives it.

Derived data only: the deals stay the one source of truth. Entries are kept per sheet
revision (every write bumps it, so nothing older than the deals is ever served), and what
outlives the process (the ``sheet_summaries`` and ``sheet_figures_cache`` tables) is kept
with :data:`CODE_VERSION` too, so a new version of the rules or of a game computes it again.
Keys use a sheet's random share token, where SQLite may give a deleted sheet's id to a new one.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, Generic, TypeVar

from markupsafe import Markup

from skatcalc.rules.sheet import SheetSpec
from skatcalc.services.recent import Recent

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


# --- The fingerprint of the code behind every stored figure ---------------------------------


def code_files(root: Path | None = None) -> list[Path]:
    """The code that decides a sheet's figures: every file of ``rules/`` and ``games/`` (at any
    depth) and the services that call them for stored figures."""
    here = Path(__file__).parents[1] if root is None else root
    files = sorted(p for folder in ("rules", "games") for p in (here / folder).rglob("*.py"))
    return files + [here / "services" / name for name in ("season.py", "players.py")]


def code_version(root: Path | None = None) -> str:
    """A fingerprint of that code: figures kept by other code are not used."""
    here = Path(__file__).parents[1] if root is None else root
    digest = hashlib.sha256()
    for path in code_files(here):
        digest.update(path.relative_to(here).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


CODE_VERSION = code_version()


# --- Per sheet and revision (service.derived) --------------------------------------------------

# Sheets kept at once (least recently used go first): a club night's tables and the list page
# fit; the bound only stops hundreds of imported evenings from all staying in memory.
SHEETS_KEPT = 128

# Per sheet (by its share token): the revision the entries belong to, and the entries. A write
# bumps the revision, after which nothing older can be asked for, so the first use of a newer
# revision drops the older one's entries: memory follows the sheets, not the writes.
PER_REVISION: OrderedDict[str, tuple[int, dict[tuple[Any, ...], Any]]] = OrderedDict()
_PER_REVISION_LOCK = threading.Lock()


def derived(token: str, rev: int, entry: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()`` once per revision ``rev`` of the sheet ``token``; shared between requests
    (callers read results and never change them)."""
    with _PER_REVISION_LOCK:
        held = PER_REVISION.get(token)
        if held is not None and held[0] == rev and entry in held[1]:
            PER_REVISION.move_to_end(token)
            return held[1][entry]  # type: ignore[no-any-return]
    value = make()
    with _PER_REVISION_LOCK:
        held = PER_REVISION.get(token)
        if held is None or held[0] < rev:
            held = (rev, {})
            PER_REVISION[token] = held
        if held[0] == rev:  # a request that read an older revision does not store its result
            held[1][entry] = value
        PER_REVISION.move_to_end(token)
        while len(PER_REVISION) > SHEETS_KEPT:
            PER_REVISION.popitem(last=False)
    return value


# The last computed sheet per sheet token, whatever its revision: an append-only change
# continues from it (service.computed). Language-free: both languages share one computation.
LATEST_COMPUTED: Recent[str, Any] = Recent(SHEETS_KEPT)
# The last serialisation per sheet token and language (its rows and their dicts): rows that a
# resumed computation kept are not serialised again.
LATEST_JSON: Recent[tuple[str, str], Any] = Recent(2 * SHEETS_KEPT)


# --- Bounded by bytes: rendered pages and their rows -----------------------------------------


class ByteBounded(Generic[K, V]):
    """Least recently used first out once the kept values' sizes (``size_of``) pass
    ``max_bytes``; with ``keep_one`` the newest stays however large it is."""

    def __init__(self, max_bytes: int, size_of: Callable[[V], int], keep_one: bool) -> None:
        self.max_bytes = max_bytes
        self._size_of = size_of
        self._keep_one = keep_one
        self._items: OrderedDict[K, V] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K, touch: bool = False) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None and touch:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        size = self._size_of(value)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= self._size_of(old)
            self._items[key] = value
            self._bytes += size
            while self._bytes > self.max_bytes and len(self._items) > int(self._keep_one):
                _, gone = self._items.popitem(last=False)
                self._bytes -= self._size_of(gone)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)


# The rows of each sheet page variant as last rendered, with their deals' signatures
# (sheet_view.py): a 1,000-deal sheet's rows are ~0.5 MB.
PAGE_ROWS: ByteBounded[tuple[Any, ...], tuple[tuple[tuple[int, int, bool], ...], list[str]]] = (
    ByteBounded(16 * 1024 * 1024, lambda held: sum(len(r) for r in held[1]), keep_one=True)
)


def _page_size(held: tuple[str, list[bytes], list[bytes | None], bool]) -> int:
    return sum(len(p) for p in held[1]) + sum(len(p) for p in held[2] if p)


# The rendered page per variant for its latest revision, as pieces and deflated pieces
# (caching.py).
PAGES: ByteBounded[tuple[Any, ...], tuple[str, list[bytes], list[bytes | None], bool]] = (
    ByteBounded(16 * 1024 * 1024, _page_size, keep_one=False)
)

# The entry form's HTML per variant with the per-page values cut out (sheet_view.py).
ENTRY_FORMS: Recent[tuple[Any, ...], list[str]] = Recent(512)
# The PDF per sheet revision and language, newest few only (exports).
PDFS: Recent[tuple[Any, ...], tuple[Any, bytes]] = Recent(16)

# What the list of sheets shows of each sheet, per sheet id: (share token, revision, code
# fingerprint, summary); the ``sheet_summaries`` table keeps them across restarts.
SUMMARIES: dict[int, tuple[str, int, str, dict[str, Any]]] = {}
SUMMARIES_LOCK = threading.Lock()


# --- Keyed by what they are made from ----------------------------------------------------------
# Their keys hold everything the value follows from, so no entry ever goes stale: bounded only.


def kept(store: Recent[K, V], key: K, make: Callable[[], V]) -> V:
    """``store``'s value for ``key``, made by ``make()`` the first time (two requests that
    ask at once may both make it; either result is the same)."""
    value = store.get(key)
    if value is None:
        value = make()
        store.put(key, value)
    return value


# A sheet's rules spec per (game, players, first dealer, rules JSON, rule changes JSON): a
# request asks for it several times (page, form, rows, history), and the house rules are read
# from their JSON once, not each time (services/sheets.py ``spec_of``; a spec is frozen).
SPECS: Recent[tuple[str, tuple[str, ...], str, str, str], SheetSpec] = Recent(1024)
# A club night's tables, registrations and ranking per (event token, live token): the big
# screen, the organiser's phone and the API read between two deals share one
# (services/events.py ``snapshot``).
EVENT_SNAPSHOTS: Recent[tuple[str, str], Any] = Recent(32)  # services.events.EventSnapshot
# A link's QR code as inline SVG per address (web/sheet_view.py ``qr_svg``): ~5 ms a code,
# two on every page of a sheet on the network, and a sheet's links never change.
QR_CODES: Recent[str, Markup] = Recent(256)
# A date in a language's medium format per (date, language) (services/dates.py ``day``): Babel
# takes ~0.5 ms a date, and the list of sheets shows hundreds, mostly the same.
DATES: Recent[tuple[date, str], str] = Recent(4096)
# A static file gzipped, per path, with the ETag of the file version it was packed from
# (web/caching.py ``compress``): the same bytes for every phone, packed once per version.
STATIC_GZIP: dict[str, tuple[str, bytes]] = {}
STATIC_GZIP_LOCK = threading.Lock()


def clear() -> None:
    """Forget everything kept in this process (as a restart would)."""
    with _PER_REVISION_LOCK:
        PER_REVISION.clear()
    for held in (LATEST_COMPUTED, LATEST_JSON, PAGE_ROWS, PAGES, ENTRY_FORMS, PDFS, SPECS,
                 EVENT_SNAPSHOTS, QR_CODES, DATES):  # fmt: skip
        held.clear()
    with SUMMARIES_LOCK:
        SUMMARIES.clear()
    with STATIC_GZIP_LOCK:
        STATIC_GZIP.clear()
