"""The ``skatcalc`` command: serve the app with a production WSGI server."""

from __future__ import annotations

import io
import os
import socket

import click
from flask import Flask

from . import create_app


def _lan_address() -> str:
    # The address the machine uses towards the network; no packet is sent by connect().
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


@click.group()
def main() -> None:
    """skatcalc — score keeper and game-value calculator for Skat and Schafkopf."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--db", "db_path", default=None, help="SQLite file (default: instance folder).")
@click.option("--lan", is_flag=True, help="Serve on the local network; edits need the edit link.")
@click.option("--threads", default=8, show_default=True, type=int,
              help="Worker threads of the WSGI server.")  # fmt: skip
def serve(host: str, port: int, db_path: str | None, lan: bool, threads: int) -> None:
    """Start skatcalc with the waitress WSGI server and print the URL."""
    from waitress import serve as waitress_serve

    config: dict[str, object] = {}
    if db_path:
        config["DATABASE"] = os.path.abspath(db_path)
    if lan:
        config["LAN"] = True
        if host == "127.0.0.1":
            host = "0.0.0.0"
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}"
    if lan:
        config["PUBLIC_URL"] = url
    app = create_app(config or None)
    click.echo(f"skatcalc läuft / is running: {url}/")
    click.echo(f"Datenbank / database: {app.config['DATABASE']}")
    if lan:
        click.echo("Im Netz: ansehen darf jeder, ändern nur, wer den Bearbeitungs-Link hat.")
        click.echo("On the network: anyone may look, only holders of the edit link may change.")
        _print_qr(f"{url}/")
        _print_share_links(app, url)
    waitress_serve(app, host=host, port=port, threads=threads, ident="skatcalc")


def _print_qr(url: str) -> None:
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    click.echo(out.getvalue())


def _print_share_links(app: Flask, url: str) -> None:
    """The newest sheets' read-only links, so the phones at the table can follow along."""
    from . import db as store

    conn = store.connect(app.config["DATABASE"])
    try:
        sheets = store.list_sheets(conn)[:3]
    finally:
        conn.close()
    for s in sheets:
        click.echo(f"  {s['name']}: {url}/sheets/{s['id']}/share/{s['share_token']}")
    if sheets:
        click.echo("  (QR-Codes auf der Seite des Blatts / QR codes on the sheet's page)")


@main.command("init-db")
@click.option("--db", "db_path", default=None, help="SQLite file (default: instance folder).")
def init_db(db_path: str | None) -> None:
    """Create or upgrade the database."""
    app = create_app({"DATABASE": os.path.abspath(db_path)} if db_path else None)
    click.echo(f"Database ready: {app.config['DATABASE']}")


@main.command()
@click.argument("path")
@click.option(
    "--db", "db_path", default=None, help="SQLite file to back up (default: instance folder)."
)
def backup(path: str, db_path: str | None) -> None:
    """Copy the live database to PATH (SQLite online backup, safe while serving)."""
    import sqlite3

    app = create_app({"DATABASE": os.path.abspath(db_path)} if db_path else None)
    src = sqlite3.connect(app.config["DATABASE"])
    dst = sqlite3.connect(path)
    try:
        with dst:
            src.backup(dst)
    finally:
        dst.close()
        src.close()
    click.echo(f"Backup written: {path}")


if __name__ == "__main__":
    main()
