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
from pathlib import Path
from typing import Any, TypeVar

from .recent import Recent

T = TypeVar("T")


# --- The fingerprint of the code behind every stored figure ---------------------------------


def code_files(root: Path | None = None) -> list[Path]:
    """The code that decides a sheet's figures: every file of ``rules/`` and ``games/`` (at any
    depth; ``games/`` once it exists) and the modules that call them for stored figures."""
    here = Path(__file__).parent if root is None else root
    files = sorted(p for folder in ("rules", "games") for p in (here / folder).rglob("*.py"))
    return files + [here / name for name in ("season.py", "players.py") if (here / name).exists()]


def code_version(root: Path | None = None) -> str:
    """A fingerprint of that code: figures kept by other code are not used."""
    here = Path(__file__).parent if root is None else root
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


def clear() -> None:
    """Forget everything kept in this process (as a restart would)."""
    with _PER_REVISION_LOCK:
        PER_REVISION.clear()
    LATEST_COMPUTED.clear()
    LATEST_JSON.clear()
