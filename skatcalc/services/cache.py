"""Every process cache of derived data, in one place, and the fingerprint of the code that
derives it.

Derived data only: the deals stay the one source of truth. Entries are kept per sheet
revision (every write bumps it, so nothing older than the deals is ever served), and what
outlives the process (the ``sheet_summaries`` and ``sheet_figures_cache`` tables) is kept
with :data:`CODE_VERSION` too, so a new version of the rules or of a game computes it again.
Keys use a sheet's random share token, where SQLite may give a deleted sheet's id to a new one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import operator
import sys
import threading
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Generic, TypeVar, cast

from markupsafe import Markup

from skatcalc.jsontypes import JSONObject
from skatcalc.rules.sheet import ComputedSheet, Row, SheetSpec
from skatcalc.serialize import JSON
from skatcalc.services.recent import Recent
from skatcalc.store.records import HistoryEntry

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


# --- The size of what is kept -------------------------------------------------------------

# Every cache of a sheet's derived data is bounded by the bytes it holds, not by how many
# sheets it holds: a 1,000-deal sheet's computation and JSON take ~40 MB in both languages, a
# 48-deal evening's ~2 MB, so a bound by count let a few imported sheets fill the memory.
MB = 1024 * 1024
# A long list is measured by a sample of this many of its items (evenly spaced), scaled up:
# the deals of a sheet are alike, and measuring all of them would cost as much as making them.
SAMPLE = 16


# The measured size of a frozen dataclass (a computed row, a computation) while it lives, by
# id: a save keeps 48 rows of the last computation and adds one, and measuring the 48 again
# for every cache it enters cost more than the rest of the save. Frozen results are never
# changed after they are made (``derived``), so their size stays; the weak reference drops
# the entry with the object, before its id can be another object's.
_FROZEN_SIZES: dict[int, tuple[weakref.ref[object], int]] = {}
# Smaller objects are measured again (cheaper than the entry that would remember them).
_MEMO_FROM = 512
# Values with nothing inside them, by exact type (a subclass may hold more).
_PLAIN = frozenset({str, bytes, int, float, bool, type(None)})
# A list or tuple with at least this many items measured before, of one frozen type, takes a
# new item of that type to be their average size (the rows of a sheet are alike).
LIKE_SIBLINGS = 8


class KeptJson(dict[str, object]):
    """A JSON object that a cache keeps and nobody changes (a sheet's row as the API shows
    it): measured once, like a frozen dataclass; unlike a plain dict it can be referred to
    weakly."""

    __slots__ = ("__weakref__", "_text", "_utf8")

    def encoded(self, dumps: Callable[[object], str]) -> str:
        """The row as ``dumps`` writes it, written once per row and ``dumps``: a save sends the
        whole sheet back, of which only the new row was not written before."""
        held: tuple[Callable[[object], str], str] | None = getattr(self, "_text", None)
        if held is None or held[0] != dumps:
            held = (dumps, dumps(self))
            self._text = held
        return held[1]

    def encoded_utf8(self, dumps: Callable[[object], str]) -> bytes:
        """``encoded`` as UTF-8, encoded once per row and ``dumps``."""
        held: tuple[Callable[[object], str], bytes] | None = getattr(self, "_utf8", None)
        if held is None or held[0] != dumps:
            held = (dumps, self.encoded(dumps).encode("utf-8"))
            self._utf8 = held
        return held[1]


# Per type: whether its objects are measured once (frozen dataclasses, KeptJson).
_FROZEN_TYPES: dict[type, bool] = {KeptJson: True}


def _is_frozen(kind: type) -> bool:
    known = _FROZEN_TYPES.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = bool(getattr(params, "frozen", False)) and hasattr(kind, "__weakref__")
        _FROZEN_TYPES[kind] = known
    return known


def _remember(obj: object, size: int) -> None:
    key = id(obj)

    def forget(ref: weakref.ref[object]) -> None:
        held = _FROZEN_SIZES.get(key)
        if held is not None and held[0] is ref:
            del _FROZEN_SIZES[key]

    _FROZEN_SIZES[key] = (weakref.ref(obj, forget), size)


def known_size(value: T, size: int) -> T:
    """``value`` (a ``KeptJson`` or a frozen dataclass) with its size worked out by its maker
    (``approx_size`` then takes ``size`` instead of walking it): for what a save makes anew
    each time and can count cheaper."""
    _remember(value, size)
    return value


def measured(value: object) -> int | None:
    """The size ``approx_size`` found (or was told) for ``value`` while it lives, if any."""
    held = _FROZEN_SIZES.get(id(value))
    return held[1] if held is not None and held[0]() is value else None


def grown_size(before: object, after: T, added: Sequence[object], beside: Sequence[object],
               holders: int = 1) -> T:  # fmt: skip
    """``after`` is ``before`` with the items ``added`` appended (a save's new row on the
    last computation or its JSON), the rest shared: its size is worked out, not walked, as
    ``before``'s measured size plus each added item taken as the average of ``beside`` (the
    items next to it, measured before) and a reference to it in each of ``holders``
    sequences. Where ``before`` or too few of ``beside`` were measured, nothing is noted and
    ``approx_size`` walks ``after`` as usual."""
    base = measured(before)
    if base is None:
        return after
    each = _each_added(added, [measured(x) for x in beside], min(len(beside), LIKE_SIBLINGS))
    if each is None:
        return after
    return known_size(after, base + len(added) * (each + holders * _POINTER))


def appended_size(before: Sequence[object], before_size: int,
                  after: Sequence[object]) -> int | None:  # fmt: skip
    """The size of ``after``, a sequence of ``before``'s very items and more after them (a
    save's new row after the last serialisation's), worked out from ``before_size`` instead
    of walking it: each new item taken as the average of the items before it, measured
    before, and a reference. None where ``after`` is not so made or those items were not
    measured (``approx_size`` then walks it)."""
    k = len(before)
    # (compared item by item in C, not by a generator: a save compares ~50 rows three times)
    if len(after) <= k or not all(map(operator.is_, before, after)):
        return None
    sizes = [measured(x) for x in before[-LIKE_SIBLINGS:]]
    each = _each_added(after[k:], sizes, len(sizes))
    return None if each is None else before_size + (len(after) - k) * (each + _POINTER)


_POINTER = 8  # a sequence's reference to one more item


def _each_added(added: Sequence[object], sizes: list[int | None], needed: int) -> int | None:
    """The size each of ``added`` is taken to have: the average of its neighbours' measured
    ``sizes``, noted for each of them; None (nothing noted) with fewer than ``needed`` (at
    least one) measured."""
    known = [size for size in sizes if size is not None]
    if not known or len(known) < needed:
        return None
    each = sum(known) // len(known)
    for item in added:
        _remember(item, each)
    return each


def approx_size(value: object) -> int:
    """About how many bytes ``value`` takes with everything it holds (``sys.getsizeof`` over
    its containers, dataclasses and objects; each object counted once; long lists by a
    sample; a frozen dataclass measured before by what it measured then). A bound for
    caches, not an accounting: a sheet's JSON and computation measure 0.84 of what
    tracemalloc finds (tests/services/test_cache_bytes.py holds it within 2×)."""
    seen: set[int] = set()

    def size(obj: object, depth: int) -> int:
        if id(obj) in seen or depth > 40:
            return 0
        seen.add(id(obj))
        frozen = _is_frozen(type(obj))
        if frozen:
            held = _FROZEN_SIZES.get(id(obj))
            if held is not None and held[0]() is obj:
                return held[1]
            measured = _measure(obj, depth)
            if measured >= _MEMO_FROM:
                _remember(obj, measured)
            return measured
        return _measure(obj, depth)

    def _measure(obj: object, depth: int) -> int:
        total = sys.getsizeof(obj)
        if isinstance(obj, (str, bytes, bytearray, int, float, bool)) or obj is None:
            return total
        if isinstance(obj, dict):
            items: list[object] = [x for kv in obj.items() for x in kv]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            items = list(obj)
        else:
            fields = getattr(obj, "__dict__", None)
            items = list(fields.values()) if isinstance(fields, dict) else []
            for slot in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, slot):
                    items.append(getattr(obj, slot))
        n = len(items)
        if n > 4 * SAMPLE:
            # Two samples: the first counts what the items share (names, keys) once, the
            # second what one more item adds to it, which is what the rest add each.
            step = n / (2 * SAMPLE)
            sample = [items[int(i * step)] for i in range(2 * SAMPLE)]
            first = sum(size(x, depth + 1) for x in sample[0::2])
            more = sum(size(x, depth + 1) for x in sample[1::2])
            return total + first + more * (n - SAMPLE) // SAMPLE
        if n >= LIKE_SIBLINGS:
            return total + _alike(items, depth)
        return total + _each(items, depth)

    def _each(items: list[object], depth: int) -> int:
        # What ``size`` gives, without its calls for the plain values that most items are
        # (a dict of four players' figures is nine objects; the calls were most of its cost).
        total = 0
        for x in items:
            if type(x) in _PLAIN:
                key = id(x)
                if key not in seen:
                    seen.add(key)
                    total += sys.getsizeof(x)
            else:
                total += size(x, depth + 1)
        return total

    def _alike(items: list[object], depth: int) -> int:
        # A save adds one row to the rows of the last computation (or one row's JSON to the
        # last serialisation): the others were measured before, and the new one is taken to
        # be their average, as a sample would (walking it cost more than the rest of a save).
        known: dict[type, list[int]] = {}
        new: list[object] = []
        total = 0
        for x in items:
            key, kind = id(x), type(x)
            if key in seen:
                continue
            if kind in _PLAIN:
                seen.add(key)
                total += sys.getsizeof(x)
                continue
            held = _FROZEN_SIZES.get(key) if _is_frozen(kind) else None
            if held is not None and held[0]() is x:
                seen.add(key)
                known.setdefault(kind, []).append(held[1])
                total += held[1]
            else:
                new.append(x)
        for x in new:
            like = known.get(type(x))
            if like is None or len(like) < LIKE_SIBLINGS or id(x) in seen:
                total += size(x, depth + 1)
                continue
            seen.add(id(x))
            guess = sum(like) // len(like)
            _remember(x, guess)
            total += guess
        return total

    return size(value, 0)


# --- Per sheet and revision (service.derived) --------------------------------------------------

# Sheets kept at once (least recently used go first): a club night's tables and the list page
# fit; besides the bytes below, the bound stops thousands of tiny sheets from all staying.
SHEETS_KEPT = 128
# What the per-revision entries of all sheets may take together; the sheet used last stays
# whatever its size (else a sheet larger than the bound would be made again on every request).
DERIVED_BYTES = 24 * MB

# Per sheet (by its share token): the revision the entries belong to, and the entries. A write
# bumps the revision, after which nothing older can be asked for, so the first use of a newer
# revision drops the older one's entries: memory follows the sheets, not the writes.
PER_REVISION: OrderedDict[str, tuple[int, dict[tuple[object, ...], object]]] = OrderedDict()
# The bytes of each sheet's entries in PER_REVISION (approx_size, measured as each is made).
PER_REVISION_BYTES: dict[str, int] = {}
_PER_REVISION_LOCK = threading.Lock()


# The entries being made now, each with what its waiters wait for: requests that ask for the
# same entry at once (a sheet's JSON and page in both languages, asked together) wait for the
# one making it instead of each making its own copy, tens of MB each on a 1,000-deal sheet.
_MAKING: dict[tuple[str, int, tuple[object, ...]], threading.Event] = {}
MAKING_WAIT = 60.0  # seconds a request waits for another's make before making it itself


# A sheet whose entries take more than this is kept after the request that made them only
# while it is being edited: a large sheet that is only read (an anonymous import, a finished
# season) is answered from its kept bytes (its JSON, page and PDF), so its tens of MB of
# objects need not stay, and left in the heap they kept it fragmented and resident.
LARGE_SHEET = 8 * MB
# The newest revision seen of each sheet, and the sheets whose revision moved on while this
# process knew them: those are being edited (here or in another process).
_LAST_REV: Recent[str, int] = Recent(4096)
EDITED: Recent[str, bool] = Recent(256)


def _note_rev(token: str, rev: int) -> None:
    seen = _LAST_REV.get(token)
    if seen is not None and seen != rev:
        EDITED.put(token, True)
    if seen is None or rev > seen:
        _LAST_REV.put(token, rev)


def shed_unedited() -> bool:
    """Forget the entries of every sheet larger than ``LARGE_SHEET`` that is not being
    edited (at the end of a request: its answer is made); True when any went."""
    with _PER_REVISION_LOCK:
        gone = {t for t, n in PER_REVISION_BYTES.items()
                if n > LARGE_SHEET and EDITED.get(t) is None}  # fmt: skip
        for token in gone:
            PER_REVISION.pop(token, None)
            del PER_REVISION_BYTES[token]
    if gone:
        LATEST_COMPUTED.discard(lambda key: key in gone)
        LATEST_JSON.discard(lambda key: key[0] in gone)
        LATEST_STATS.discard(lambda key: key[0] in gone)
        PAGE_ROWS.discard(lambda key: key[0] in gone)  # its page stays, as bytes (PAGES)
        ROWS_UTF8.discard(lambda key: key[0] in gone)
        HISTORIES.discard(lambda key: key in gone)
    return bool(gone)


def derived(token: str, rev: int, entry: tuple[object, ...], make: Callable[[], T]) -> T:
    """``make()`` once per revision ``rev`` of the sheet ``token``; shared between requests
    (callers read results and never change them), and made once when asked for at once."""
    key = (token, rev, entry)
    while True:
        with _PER_REVISION_LOCK:
            _note_rev(token, rev)
            held = PER_REVISION.get(token)
            if held is not None and held[0] == rev and entry in held[1]:
                PER_REVISION.move_to_end(token)
                return cast(T, held[1][entry])  # kept by this function from make() of a T
            making = _MAKING.get(key)
            if making is None:
                making = _MAKING[key] = threading.Event()
                break
        if not making.wait(MAKING_WAIT):
            break  # stuck: make it here (not kept twice: see below)
        # made (or not kept: an older revision, or pushed out at once): look again
    try:
        value = make()
        _keep(token, rev, entry, value)
    finally:
        with _PER_REVISION_LOCK:
            if _MAKING.get(key) is making:
                del _MAKING[key]
        making.set()
    return value


def _keep(token: str, rev: int, entry: tuple[object, ...], value: object) -> None:
    size = approx_size(value)  # outside the lock: other requests need not wait for it
    with _PER_REVISION_LOCK:
        held = PER_REVISION.get(token)
        if held is None or held[0] < rev:
            held = (rev, {})
            PER_REVISION[token] = held
            PER_REVISION_BYTES[token] = 0
        if held[0] == rev and entry not in held[1]:  # an older revision's is not kept
            held[1][entry] = value
            PER_REVISION_BYTES[token] = PER_REVISION_BYTES.get(token, 0) + size
        PER_REVISION.move_to_end(token)
        _trim_per_revision()


def held_derived(token: str, rev: int, entry: tuple[object, ...]) -> object | None:
    """What ``derived`` keeps for revision ``rev`` of the sheet ``token`` under ``entry``, if
    it keeps it; nothing is made."""
    with _PER_REVISION_LOCK:
        held = PER_REVISION.get(token)
        return held[1].get(entry) if held is not None and held[0] == rev else None


def keep_derived(token: str, rev: int, entry: tuple[object, ...], value: object) -> None:
    """Keep ``value`` as ``derived``'s entry for revision ``rev``: made by the write that made
    that revision, which knows it to be what ``make()`` would give (a save's computation,
    continued from the one before). Only after the write's commit: a revision that was rolled
    back is another write's to make."""
    with _PER_REVISION_LOCK:
        _note_rev(token, rev)
    _keep(token, rev, entry, value)


def _trim_per_revision() -> None:
    for gone in [t for t in PER_REVISION_BYTES if t not in PER_REVISION]:
        del PER_REVISION_BYTES[gone]  # PER_REVISION was cleared around this module
    total = sum(PER_REVISION_BYTES.get(t, 0) for t in PER_REVISION)
    while len(PER_REVISION) > 1 and (len(PER_REVISION) > SHEETS_KEPT or total > DERIVED_BYTES):
        token, _ = PER_REVISION.popitem(last=False)
        total -= PER_REVISION_BYTES.pop(token, 0)


def derived_bytes() -> int:
    """What the per-revision entries take now (for the benches and tests)."""
    with _PER_REVISION_LOCK:
        return sum(PER_REVISION_BYTES.get(t, 0) for t in PER_REVISION)


# --- Bounded by bytes: rendered pages and their rows -----------------------------------------


class ByteBounded(Generic[K, V]):
    """Least recently used first out once the kept values' sizes (``size_of``) pass
    ``max_bytes``; with ``keep_one`` the newest stays however large it is."""

    def __init__(self, max_bytes: int, size_of: Callable[[V], int], keep_one: bool) -> None:
        self.max_bytes = max_bytes
        self._size_of = size_of
        self._keep_one = keep_one
        # Each value with its size as measured when put: measuring a value again when it is
        # replaced or dropped would cost as much as the put itself (a deep walk).
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K, touch: bool = True) -> V | None:
        with self._lock:
            held = self._items.get(key)
            if held is None:
                return None
            if touch:
                self._items.move_to_end(key)
            return held[0]

    def sized(self, key: K) -> tuple[V, int] | None:
        """The value kept under ``key`` with its size as measured when put (no touch)."""
        with self._lock:
            return self._items.get(key)

    def put(self, key: K, value: V, size: int | None = None) -> None:
        """Keep ``value``, its size ``size`` where the caller worked it out (else measured)."""
        size = self._size_of(value) if size is None else size
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes and len(self._items) > int(self._keep_one):
                _, (_gone, gone_size) = self._items.popitem(last=False)
                self._bytes -= gone_size

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def discard(self, which: Callable[[K], bool]) -> None:
        """Forget the values whose key ``which`` names."""
        with self._lock:
            for key in [k for k in self._items if which(k)]:
                self._bytes -= self._items.pop(key)[1]

    @property
    def bytes(self) -> int:
        """What the kept values take now (their ``size_of``)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)


def signature_size(signature: tuple[tuple[int, int, bool], ...]) -> int:
    """About what a computation's signature takes, as ``approx_size`` counts it: its tuple,
    a (number, version, struck) per deal with its own deal number, and a few versions and
    flags. Worked out, not walked: a save makes a new signature, one item longer, and walking
    it cost a tenth of the save."""
    if not signature:
        return sys.getsizeof(signature)
    per_deal = sys.getsizeof(signature[0]) + sys.getsizeof(signature[-1][0])
    return (
        sys.getsizeof(signature)
        + len(signature) * per_deal
        + min(len(signature), 3) * sys.getsizeof(1)
    )


# The last computed sheet per sheet token, whatever its revision: an append-only change
# continues from it (service.computed). Language-free: both languages share one computation.
# (Mostly the same objects as the "computed" entries above: the bytes are not held twice.)
# Held with the signature (n, version, struck) of the deals it covers.
LATEST_COMPUTED: ByteBounded[str, tuple[tuple[tuple[int, int, bool], ...], ComputedSheet]] = (
    ByteBounded(
        8 * MB, lambda held: signature_size(held[0]) + approx_size(held[1]), keep_one=True
    )  # fmt: skip
)
# The last serialisation per sheet token and language (its rows, their dicts, and the size of
# the rest of it: totals, next dealer): rows that a resumed computation kept are not
# serialised again, nor measured again.
LATEST_JSON: ByteBounded[tuple[str, str], tuple[tuple[Row, ...], list[JSON], int]] = ByteBounded(
    8 * MB, lambda held: approx_size(held[1]), keep_one=True
)
# The last statistics per (sheet token, game, players), with the computed rows they count (the
# same objects as the last computation's): a save counts its new row only.
LATEST_STATS: ByteBounded[tuple[str, str, tuple[str, ...]], tuple[tuple[Row, ...], KeptJson]] = (
    ByteBounded(2 * MB, lambda held: approx_size(held[1]), keep_one=True)
)
# A sheet's JSON as the API and the export send it, per revision, language and shape: a
# 1,000-deal sheet is ~9 MB of JSON, not built again for every request.
SHEET_JSON: ByteBounded[tuple[object, ...], bytes] = ByteBounded(8 * MB, len, keep_one=True)

# The deals' part of a sheet's API JSON as last written, per (sheet token, language): the
# ``dumps`` it was written with, its rows (``KeptJson``) and their UTF-8 joined in pieces
# (services/sheets.py ``sheet_utf8_pieces``); a save's answer joins its new row to them.
# Not kept beyond the bound: a sheet that large is kept packed (``PACK_ABOVE``).
ROWS_UTF8: ByteBounded[
    tuple[str, str], tuple[Callable[[object], str], tuple[KeptJson, ...], list[bytes]]
] = ByteBounded(4 * MB, lambda held: sum(len(p) for p in held[2]), keep_one=False)

# A sheet's history as read at its revision, per sheet token: the API's answer and the page
# show it after every save, which continues it with its own entry instead of reading it again.
HISTORIES: ByteBounded[str, tuple[int, list[HistoryEntry]]] = ByteBounded(
    4 * MB, lambda held: history_size(held[1]), keep_one=True
)


def history_size(entries: Sequence[HistoryEntry]) -> int:
    """About what a sheet's history takes, as ``approx_size`` would count it, worked out per
    entry (walking it cost more than reading it)."""
    return sys.getsizeof(entries) + sum(history_entry_size(e) for e in entries)


def history_entry_size(entry: HistoryEntry) -> int:
    """One entry of a history: the record, its time and action, and the deal before it."""
    before = 0 if entry.before is None else approx_size(entry.before)
    return sys.getsizeof(entry) + sys.getsizeof(entry.at) + sys.getsizeof(entry.action) + before


# From this size on an answer made of a sheet is kept gzipped only (level 1, as every answer
# is packed): a 1,000-deal sheet's 9 MB of JSON keep as ~0.5 MB, so the JSON and the export of
# a few such sheets in both languages fit the budget above instead of pushing each other out.
PACK_ABOVE = 256 * 1024


def packed(key: tuple[object, ...], make: Callable[[], bytes]) -> tuple[bytes, bool]:
    """``make()``'s bytes kept under ``key`` in SHEET_JSON, and whether they are gzipped
    (from ``PACK_ABOVE`` on): the caller sends them packed or unpacks them for a client that
    takes no gzip."""
    return packed_pieces(key, lambda: iter((make(),)))


def packed_pieces(key: tuple[object, ...],
                  pieces: Callable[[], Iterator[bytes]]) -> tuple[bytes, bool]:  # fmt: skip
    """As ``packed``, the bytes made piece by piece (``pieces()``, joined): from
    ``PACK_ABOVE`` on each piece is packed as it comes, so a 1,000-deal sheet's 9 MB of JSON
    are never held whole, as text or as bytes; only their ~0.5 MB packed are."""
    gz = SHEET_JSON.get((*key, "gz"))
    if gz is not None:
        return gz, True
    data = SHEET_JSON.get(key)
    if data is not None:
        return data, False
    head: list[bytes] = []
    size = 0
    packer = None
    out: list[bytes] = []
    for piece in pieces():
        if packer is None:
            head.append(piece)
            size += len(piece)
            if size >= PACK_ABOVE:
                # gzip's format (wbits 31), level 1 as every answer; zlib lets other threads run
                packer = zlib.compressobj(1, zlib.DEFLATED, 31)
                out.append(packer.compress(b"".join(head)))
                head.clear()
        else:
            out.append(packer.compress(piece))
    if packer is None:
        data = b"".join(head)
        SHEET_JSON.put(key, data)
        return data, False
    out.append(packer.flush())
    gz = b"".join(out)
    SHEET_JSON.put((*key, "gz"), gz)
    return gz, True


# The rows of each sheet page variant as last rendered, with their deals' signatures
# (sheet_view.py): a 1,000-deal sheet's rows are ~0.5 MB.
PAGE_ROWS: ByteBounded[tuple[object, ...], tuple[tuple[tuple[int, int, bool], ...], list[str]]] = (
    ByteBounded(6 * MB, lambda held: sum(len(r) for r in held[1]), keep_one=True)
)


def _page_size(held: tuple[str, list[bytes], list[bytes | None] | None, bool]) -> int:
    return sum(len(p) for p in held[1]) + sum(len(p) for p in held[2] or () if p)


# The history's lines of each sheet variant (language, game, players, rules) as last drawn,
# with their entries and joined, newest first (sheet_view.py): a 1,000-deal sheet's are ~0.3 MB.
HistoryHeld = tuple[tuple[object, ...], list[str], str]
HISTORY_LINES: ByteBounded[tuple[object, ...], HistoryHeld] = ByteBounded(
    4 * MB, lambda held: 2 * sum(len(t) for t in held[1]) + len(held[2]), keep_one=True
)


# The rendered page per variant for its latest revision, as pieces and deflated pieces, or as
# rendered with its tokens yet to cut (deflated pieces None) (caching.py).
PAGES: ByteBounded[tuple[object, ...], tuple[str, list[bytes], list[bytes | None] | None, bool]] = (
    ByteBounded(8 * MB, _page_size, keep_one=False)
)
# Held while a kept page is put back with its pieces deflated (caching.py), so that it never
# replaces a newer render of the same page.
PAGES_LOCK = threading.Lock()

# The entry form's HTML per variant with the per-page values cut out (sheet_view.py).
ENTRY_FORMS: ByteBounded[tuple[object, ...], list[str]] = ByteBounded(
    4 * MB, lambda pieces: sum(len(p) for p in pieces), keep_one=True
)
# The sheet page's "Blatt" pane per sheet and language, per-page values cut out (sheet_view.py).
MORE_PANES: ByteBounded[tuple[object, ...], list[str]] = ByteBounded(
    2 * MB, lambda pieces: sum(len(p) for p in pieces), keep_one=True
)
# A sheet page's parts but its head as drawn per shape, their values' holes as a format string
# (sheet_view.py ``_Shaped``): a function of its key only.
PART_SHAPES: ByteBounded[tuple[object, ...], tuple[str, frozenset[str]]] = ByteBounded(
    2 * MB, lambda held: len(held[0]), keep_one=True
)
# The sheet page's frame per sheet, view and language, its parts cut out (sheet_view.py).
PAGE_FRAMES: ByteBounded[tuple[object, ...], list[str]] = ByteBounded(
    4 * MB, lambda pieces: sum(len(p) for p in pieces), keep_one=True
)
# The error page per code, message, language and root, the link to the other language cut out
# (web/http.py error_page).
ERROR_PAGES: ByteBounded[tuple[object, ...], list[str]] = ByteBounded(
    1 * MB, lambda pieces: sum(len(p) for p in pieces), keep_one=True
)
# The PDF per sheet revision and language, newest first (exports); a 1,000-deal PDF is ~0.3 MB.
PDFS: ByteBounded[tuple[object, ...], tuple[object, bytes]] = ByteBounded(
    8 * MB, lambda held: len(held[1]), keep_one=True
)

# What the list of sheets shows of each sheet, per sheet id: (share token, revision, code
# fingerprint, summary); the ``sheet_summaries`` table keeps them across restarts.
SUMMARIES: dict[int, tuple[str, int, str, JSONObject]] = {}
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
EVENT_SNAPSHOTS: Recent[tuple[str, str], object] = Recent(32)  # services.events.EventSnapshot
# A link's QR code as inline SVG per address (web/sheet_view.py ``qr_svg``): ~5 ms a code,
# two on every page of a sheet on the network, and a sheet's links never change.
# A session cookie's contents as verified, per signing key and cookie (web/http.py
# ``SessionInterface``), with the time it was signed: its signature is checked once, not per
# request. Only sessions of plain values (a form secret) are kept; each request gets a copy.
SESSIONS: Recent[tuple[object, str], tuple[float, dict[str, object]]] = Recent(4096)
QR_CODES: Recent[str, Markup] = Recent(256)
# The line chart's coordinates as written (exports/charts.py): each deal's x per (deals, left,
# plot width), and each total's y per scale (lowest, highest, top, plot height). Functions of
# their keys only: nothing to go stale.
CHART_XS: Recent[tuple[int, int, int], list[str]] = Recent(64)
CHART_YS: Recent[tuple[int, int, int, int], dict[int, str]] = Recent(64)
CHART_VALUES = 2048  # totals kept per scale
# The chart's x axis as drawn per (deals, left, plot width, the labels' y): a function of its
# key only (exports/charts.py).
CHART_X_AXES: Recent[tuple[int, int, int, int], str] = Recent(64)
# The chart as drawn per scale, size and players, its x axis and points cut out
# (exports/charts.py): a function of its key only.
CHART_FRAMES: Recent[tuple[object, ...], list[str]] = Recent(64)
# The sheets that are no club night's table, by share token (web/sheet_view.py
# ``table_of_event``): an event opens each table with a sheet of its own, made in the same
# transaction, so a sheet once seen as no table never becomes one (services/events.py forgets
# a sheet here all the same when it seats one).
NOT_TABLES: Recent[str, bool] = Recent(4096)
# A session's signed form token per (signing key, the session's form secret)
# (web/caching.py): tokens without a time limit, signed once, not for every sheet page.
FORM_TOKENS: Recent[tuple[str, str], str] = Recent(1024)
# The legend under a sheet's list per (game, language) (web/sheet_view.py): texts only.
LEGENDS: Recent[tuple[str, str], list[tuple[str, str]]] = Recent(16)
# What a sheet page writes from the sheet's rules spec alone per (game, players, first dealer,
# rules, rule changes, language): the house rules in words and the seat rotation
# (web/sheet_view.py ``spec_texts``). A function of its key only: nothing to go stale.
SPEC_TEXTS: Recent[tuple[object, ...], tuple[tuple[str, ...], str]] = Recent(256)
# A date in a language's medium format per (date, language) (services/dates.py ``day``): Babel
# takes ~0.5 ms a date, and the list of sheets shows hundreds, mostly the same.
DATES: Recent[tuple[date, str], str] = Recent(4096)
# A template's text without parameters per (language, msgid), as the page shows it (web/i18n.py):
# a sheet page asks for ~70 and the catalogues never change while the process runs. Only
# texts written in the templates come here, so the entries are bounded by them (and by TEXTS_KEPT).
TEMPLATE_TEXTS: dict[tuple[str, str], Markup] = {}
TEXTS_KEPT = 4096
# A template's ``url_for`` per (app, request's root, host and scheme, endpoint, values)
# (web/caching.py ``kept_url_for``): a sheet page builds ~23 links and the routes never change
# while the process runs. Bounded by LINKS_KEPT (then started afresh).
LINKS: dict[tuple[object, ...], str] = {}
LINKS_KEPT = 4096
# A static file gzipped, per path, with the ETag of the file version it was packed from
# (web/caching.py ``compress``): the same bytes for every phone, packed once per version.
STATIC_GZIP: dict[str, tuple[str, bytes]] = {}
STATIC_GZIP_LOCK = threading.Lock()


# --- Freed memory handed back ---------------------------------------------------------------


def _malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None where there is none (musl, macOS, Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


MALLOC_TRIM = _malloc_trim()
TRIMS = [0]  # how often memory was handed back (tests)


def hand_back_memory() -> None:
    """Return the heap's free pages to the system (a no-op without glibc). glibc keeps what
    a large request freed (a 6.7 MB import decodes to ~60 MB of objects) resident for the
    process's next allocations; after a heavy request nothing needs it that soon."""
    if MALLOC_TRIM is not None:
        MALLOC_TRIM()
        TRIMS[0] += 1


def clear() -> None:
    """Forget everything kept in this process (as a restart would)."""
    with _PER_REVISION_LOCK:
        PER_REVISION.clear()
        PER_REVISION_BYTES.clear()
        _LAST_REV.clear()
        EDITED.clear()
    for held in (LATEST_COMPUTED, LATEST_JSON, LATEST_STATS, SHEET_JSON, PAGE_ROWS, PAGES, ENTRY_FORMS, PDFS,
                 SPECS, EVENT_SNAPSHOTS, QR_CODES, DATES, MORE_PANES, CHART_XS, ROWS_UTF8, HISTORIES,
                 CHART_YS, LEGENDS, HISTORY_LINES, PAGE_FRAMES, CHART_FRAMES, CHART_X_AXES,
                 PART_SHAPES, NOT_TABLES, FORM_TOKENS, SPEC_TEXTS, ERROR_PAGES, SESSIONS):  # fmt: skip
        held.clear()
    with SUMMARIES_LOCK:
        SUMMARIES.clear()
    TEMPLATE_TEXTS.clear()
    LINKS.clear()
    with STATIC_GZIP_LOCK:
        STATIC_GZIP.clear()
