"""The ``settings`` table: values made once per database (migration m012), so they survive
restarts and travel with a backup: the admin token, the address ``skatcalc serve`` printed."""

from __future__ import annotations

from sqlite_utils import Database


def admin_token(db: Database) -> str:
    """The server's admin token, as migration m012 stored it with the database."""
    rows = list(db.query("select value from settings where key = 'admin_token'"))
    return str(rows[0]["value"])


def set_served_url(db: Database, url: str) -> None:
    """The address ``skatcalc serve`` printed."""
    db.execute("insert or replace into settings (key, value) values ('served_url', ?)", [url])


def served_url(db: Database) -> str | None:
    """The address of the last ``skatcalc serve`` on this database, if any."""
    rows = list(db.query("select value from settings where key = 'served_url'"))
    return str(rows[0]["value"]) if rows else None
