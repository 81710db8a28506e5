"""The per-sheet figures cache (``sheet_figures_cache``): derived data only, kept per sheet
revision, seats and code version; the encoded figures are ``season``'s business."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from . import cache_write


@dataclass(frozen=True)
class StoredFigures:
    sheet_id: int
    rev: int
    seats: str
    code: str
    data: str


def stored_figures(db: Database, sheet_ids: Sequence[int]) -> dict[int, StoredFigures]:
    """The cache rows of these sheets, in one query."""
    if not sheet_ids:
        return {}
    marks = ",".join("?" * len(sheet_ids))
    return {
        int(r["sheet_id"]): StoredFigures(
            int(r["sheet_id"]), int(r["rev"]), str(r["seats"]), str(r["code"]), str(r["data"])
        )  # fmt: skip
        for r in db.query(
            f"select * from sheet_figures_cache where sheet_id in ({marks})", list(sheet_ids)
        )
    }


def keep_figures(db: Database, sheet_id: int, rev: int, seats: str, code: str, data: str) -> None:
    """Keep a sheet's figures for this revision, if the sheet is still at it. A busy or
    read-only database: not kept (a read never waits for another writer to keep them)."""
    with cache_write(db):
        db.execute(
            "insert or replace into sheet_figures_cache (sheet_id, rev, seats, code, "
            "data) select id, ?, ?, ?, ? from sheets where id = ? and rev = ?",
            [rev, seats, code, data, sheet_id, rev],
        )
