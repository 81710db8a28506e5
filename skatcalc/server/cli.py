"""The ``skatcalc`` command: serve the app with a production WSGI server."""

from __future__ import annotations

import io
import os
import socket
import sys
from dataclasses import dataclass
from typing import Any, NoReturn

import click
from flask import Flask

from skatcalc import create_app
from skatcalc.exports import apart
from skatcalc.server.prefork import (
    Prefork,
    QueueWarningFilter,
    _bind_per_worker,
    _connection_limit,
    _proxy_settings,
    fewer_malloc_arenas,
    keep_alive_server,
    mask_keys_in_logs,
)
from skatcalc.web.http import IMPORT_BODY_MAX

# A worker starts at about 50 MB; one import of a 1,000-deal sheet takes about 53 MB more at
# its peak, and a large sheet's first page about 35 MB: retired past 100 MB, a worker stays
# under 150 MB under bench/attack.py's import attack (docs/operations.md).
MAX_WORKER_MB = 100


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


def _app_or_exit(config: dict[str, object] | None) -> Flask:
    """The app, or one line naming the database and why it cannot be used, and exit 1."""
    from skatcalc.store import StorageUnusable

    try:
        app = create_app(config)
    except StorageUnusable as exc:
        click.echo(
            f"skatcalc: {exc.what} {exc.path} nicht nutzbar / unusable: {exc.reason}",
            err=True,
        )
        raise SystemExit(1) from None
    note = app.config.get("DATABASE_NOTE")
    if note:
        click.echo(note)
    return app


def _db_config(db_path: str | None) -> dict[str, object]:
    return {"DATABASE": os.path.abspath(db_path)} if db_path else {}


DB_HELP = (
    "SQLite file (default: skatcalc.sqlite in the user's data folder, ~/.local/share/skatcalc)."
)


@main.command()
@click.option(
    "--host", default=None, help="Address to bind [default: 127.0.0.1; 0.0.0.0 with --lan]."
)
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--db", "db_path", default=None, help=DB_HELP)
@click.option(
    "--lan",
    is_flag=True,
    help="Serve on the network (or behind a proxy): anyone may look, edits need the "
    "sheet's edit link or token.",
)
@click.option(
    "--threads", default=8, show_default=True, type=int, help="Worker threads answering requests."
)
@click.option(
    "--trusted-host",
    "trusted_hosts",
    multiple=True,
    metavar="NAME",
    help="A Host name this server answers to (repeatable; '.example.org' includes "
    "subdomains). Default: localhost, 127.0.0.1, [::1]; with --lan also IP addresses "
    "and this machine's names. Other hosts get 400.",
)
@click.option(
    "--behind-proxy",
    "proxies",
    default=0,
    show_default=True,
    type=int,
    metavar="N",
    help="Trust X-Forwarded-For/-Proto/-Host from N reverse proxies in front "
    "(1 for one Caddy or nginx). Only use it when the port is reachable from the "
    "proxy alone.",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    help="The address phones use, e.g. https://skat.example.org (for share links and QR codes).",
)
@click.option(
    "--hsts", is_flag=True, help="Send Strict-Transport-Security (one year) on https requests."
)
@click.option(
    "--preview-limit",
    default=None,
    type=int,
    metavar="N",
    help="Live previews of a sheet's deal per minute and client before 429 [default: 240 "
    "with --lan, unlimited on loopback; 0 = unlimited].",
)
@click.option(
    "--write-limit",
    default=None,
    type=int,
    metavar="N",
    help="Writes per minute and client before 429 [default: 120 with --lan, "
    "unlimited on loopback; 0 = unlimited].",
)
@click.option(
    "--import-limit",
    default=None,
    type=int,
    metavar="N",
    help="Imports of a JSON export per hour and client before 429 (they count as writes "
    "too) [default: 20 with --lan, unlimited on loopback; 0 = unlimited].",
)
@click.option(
    "--durable",
    is_flag=True,
    help="synchronous=FULL: every save is on the disk before it is confirmed, so a "
    "power cut loses nothing (slower saves). Default: survives any crash of the "
    "process, a power cut may lose the last saves.",
)
@click.option(
    "--channel-timeout",
    default=30,
    show_default=True,
    type=int,
    metavar="SECONDS",
    help="Close connections idle or stalled that long (slow clients).",
)
@click.option(
    "--connection-limit",
    default=1000,
    show_default=True,
    type=int,
    help="Open connections at most (more wait in the listen backlog).",
)
@click.option(
    "--heavy-reads",
    default=None,
    type=click.IntRange(min=1),
    metavar="N",
    help="File exports, whole sheet JSONs and imports answered at once per process; "
    "more get 503 with Retry-After [default: 1].",
)
@click.option(
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    metavar="N",
    help="Server processes sharing the port, each with its own threads (use the CPU cores; "
    "Linux/POSIX only for more than 1). Write limits and caches are per process.",
)
@click.option(
    "--max-worker-mb",
    default=None,
    type=click.IntRange(min=0),
    metavar="MB",
    help="With --processes 2 or more: a process grown beyond MB resident is replaced by a "
    f"fresh one, gracefully (Linux) [default: {MAX_WORKER_MB}; 0 = never].",
)
def serve(host: str | None, port: int, db_path: str | None, lan: bool, threads: int,
          trusted_hosts: tuple[str, ...], proxies: int, public_url: str | None, hsts: bool,
          preview_limit: int | None, write_limit: int | None, import_limit: int | None,
          durable: bool, channel_timeout: int,
          connection_limit: int, heavy_reads: int | None,
          processes: int, max_worker_mb: int | None) -> None:  # fmt: skip
    """Start skatcalc with the waitress WSGI server and print the URL."""
    import logging

    from waitress import serve as waitress_serve

    if processes > 1 and not hasattr(os, "fork"):
        click.echo(
            "skatcalc: --processes über 1 geht nur unter Linux/POSIX / more than one process "
            "needs fork() (Linux/POSIX); use --processes 1 here.",
            err=True,
        )
        raise SystemExit(2)
    if processes == 1 and max_worker_mb:
        # no parent to fork a replacement and take the connections over: serving goes on
        click.echo(
            "skatcalc: --max-worker-mb gilt nur mit / applies only with --processes 2 or more: "
            "ignored.",
            err=True,
        )
    # The GIL is handed on every 1 ms instead of 5: a revision poll or a revalidation waiting
    # behind a page render then waits one short slice, not several long ones (bench/load.py:
    # reads p99 down by about a third; throughput unchanged).
    sys.setswitchinterval(0.001)
    config = _serve_config(db_path, lan, threads, trusted_hosts, hsts, durable,
                           _Limits(preview_limit, write_limit, import_limit, heavy_reads))  # fmt: skip
    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    url = _served_url(host, port, public_url)
    if public_url or (lan and not proxies):
        # Behind a proxy without --public-url the links follow the Host and scheme the proxy
        # forwards; the address skatcalc listens on is not one a phone can open.
        config["PUBLIC_URL"] = url
    mask_keys_in_logs()  # the admin link printed below is the one key the output shows
    fewer_malloc_arenas()  # before any thread: resident memory under large requests
    app = _app_or_exit(config)
    _announce(app, url, host, lan, proxies)
    server_kw = _server_settings(threads, connection_limit, channel_timeout, proxies)
    if processes > 1:
        _hand_to_workers(app, config)
        del app  # the parent keeps no app: each worker makes its own after the fork
        bound = MAX_WORKER_MB if max_worker_mb is None else max_worker_mb
        _run_processes(config, host, port, processes, threads, server_kw, bound)
    logging.getLogger("waitress.queue").addFilter(QueueWarningFilter())
    apart.start_with(app)
    waitress_serve(app, host=host, port=port, **server_kw)


@dataclass(frozen=True)
class _Limits:
    """The rate limits as given (None: the default, which depends on --lan)."""

    preview: int | None
    write: int | None
    imports: int | None
    heavy: int | None = None  # heavy reads at once per process (None: one)


def _serve_config(db_path: str | None, lan: bool, threads: int, trusted_hosts: tuple[str, ...],
                  hsts: bool, durable: bool, limits: _Limits) -> dict[str, object]:  # fmt: skip
    """The app's configuration from the command's options."""
    config = _db_config(db_path)
    if lan:
        config["LAN"] = True
    if trusted_hosts:
        config["ALLOWED_HOSTS"] = list(trusted_hosts)
    if hsts:
        config["HSTS_SECONDS"] = 31536000
    # on the network a limit per address unless one is given; 0 is none
    for key, given, on_lan in (("WRITE_LIMIT", limits.write, 120),
                               ("PREVIEW_LIMIT", limits.preview, 240),
                               ("IMPORT_LIMIT", limits.imports, 20)):  # fmt: skip
        limit = (on_lan if lan else 0) if given is None else given
        if limit:
            config[key] = limit
    if durable:
        config["DB_DURABLE"] = True
    # Writes beyond half the threads wait for a slot (web/http.py WriteSlots), so most
    # threads are free for reads while a burst of saves is written one after the other.
    config["WRITE_SLOTS"] = max(1, threads // 2)
    # PDF downloads waiting for the one render at a time hold threads too: a quarter at most.
    config["PDF_WAITERS"] = max(1, threads // 4)
    # Exports, whole sheet JSONs and imports at once (web/heavy.py): one, so a flood of them
    # leaves the other threads to the phones' cheap reads, and the tens of MB one of them
    # takes on a 1,000-deal sheet are never taken twice at once in a process; more get 503.
    config["HEAVY_SLOTS"] = limits.heavy or 1
    # A PDF renders in a child process: the server's threads keep the interpreter lock.
    config["PDF_PROCESS"] = True
    return config


def _served_url(host: str, port: int, public_url: str | None) -> str:
    """The address the output names: --public-url if given, else the one listened on."""
    if public_url:
        return public_url.rstrip("/")
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}" if ":" not in shown else f"http://[{shown}]:{port}"


def _announce(app: Flask, url: str, host: str, lan: bool, proxies: int) -> None:
    """What the command prints at its start: the address, the database, the admin link, and
    on the network who may do what and the links."""
    click.echo(f"skatcalc läuft / is running: {url}/")
    click.echo(f"Datenbank / database: {app.config['DATABASE']}")
    _print_admin_link(app, url)
    if proxies and not _is_loopback(host):
        # X-Forwarded-For is believed from whoever connects: only the proxy may reach the port.
        click.echo(
            f"Achtung / warning: --behind-proxy auf / on {host}: nur der Proxy darf diesen Port "
            "erreichen / only the proxy may reach this port (--host 127.0.0.1).",
            err=True,
        )
    if lan:
        click.echo("Im Netz: ansehen darf jeder, ändern nur, wer den Bearbeitungs-Link hat.")
        click.echo("On the network: anyone may look, only holders of the edit link may change.")
        _print_qr(f"{url}/")
        _print_share_links(app, url)


def _server_settings(threads: int, connection_limit: int, channel_timeout: int,
                     proxies: int) -> dict[str, Any]:  # fmt: skip
    """waitress' settings (each process's, when there are several); its stubs type them
    ``Incomplete``, and a ``dict[str, object]`` would also fill ``serve``'s typed ``_server``."""
    return dict(
        threads=threads, ident="skatcalc",
        connection_limit=_connection_limit(connection_limit),
        channel_timeout=channel_timeout, cleanup_interval=max(1, min(10, channel_timeout // 3)),
        asyncore_use_poll=True,  # select() cannot watch more than 1024 sockets
        # Refused from the Content-Length (or as a chunked body grows), before it is read:
        # the import's cap here, every other route's 1 MiB in the server's parser.
        max_request_body_size=IMPORT_BODY_MAX + 1,
        _server=keep_alive_server,
        **_proxy_settings(proxies),
    )  # fmt: skip


def _hand_to_workers(app: Flask, config: dict[str, object]) -> None:
    """What the workers' apps take over from the parent's, whose connections are closed."""
    # Every worker makes its own app after the fork (no SQLite connection may cross it);
    # the key the parent's app read or created goes to all of them, so sessions and CSRF
    # tokens hold whichever process answers.
    config["SECRET_KEY"] = app.config["SECRET_KEY"]
    # One start, one tag for its pages: a phone revalidating at another worker gets 304.
    config["BUILD_TAG"] = app.extensions["skatcalc_build"]
    app.extensions["skatcalc_db"].close_all()


def _run_processes(config: dict[str, object], host: str, port: int, processes: int,
                   threads: int, server_kw: dict[str, Any],
                   max_worker_mb: int = 0) -> NoReturn:  # fmt: skip
    """Serve from ``processes`` forked workers, each with its own app, until they stop."""
    try:
        sockets = _bind_per_worker(host, port, processes)
    except OSError as exc:
        click.echo(f"skatcalc: {host}:{port} nicht nutzbar / cannot be used: {exc}", err=True)
        raise SystemExit(1) from None
    click.echo(f"{processes} Prozesse / processes, je / each {threads} threads")
    raise SystemExit(Prefork(processes, sockets, config, server_kw, max_worker_mb).run())


def _is_loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _print_qr(url: str) -> None:
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    click.echo(out.getvalue())


def _print_share_links(app: Flask, url: str) -> None:
    """The newest sheets' read-only links, so the phones at the table can follow along."""
    from skatcalc import store
    from skatcalc.services import sheets as service

    conn = store.connect(app.config["DATABASE"])
    try:
        sheets = service.list_sheets(conn)[:3]
    finally:
        conn.close()
    for s in sheets:
        click.echo(f"  {s.name}: {url}/sheets/{s.id}/share/{s.share_token}")
    if sheets:
        click.echo("  (QR-Codes auf der Seite des Blatts / QR codes on the sheet's page)")


def _print_admin_link(app: Flask, url: str) -> None:
    """The server's admin link (every right, every lost link), as Jupyter prints its token;
    remembered with the address so that ``skatcalc admin-link`` prints the same link."""
    from skatcalc import store
    from skatcalc.services import sheets as service

    conn = store.connect(app.config["DATABASE"])
    try:
        service.remember_served_url(conn, url)
        link = service.admin_link(conn, url)
    finally:
        conn.close()
    click.echo(f"Admin-Link (alle Rechte, nicht weitergeben / every right, keep it): {link}")


@main.command("admin-link")
@click.option("--db", "db_path", default=None, help=DB_HELP)
@click.option(
    "--url",
    default=None,
    metavar="URL",
    help="The server's address [default: the one the last 'skatcalc serve' on this database "
    "printed, else http://127.0.0.1:5000].",
)
def admin_link(db_path: str | None, url: str | None) -> None:
    """Print the server's admin link again (every right: players, any group, any sheet or
    event, and every lost edit, organiser or group link). Keep it to yourself."""
    from skatcalc import store
    from skatcalc.services import sheets as service

    app = _app_or_exit(_db_config(db_path) or None)
    conn = store.connect(app.config["DATABASE"])
    try:
        click.echo(service.admin_link(conn, url or service.served_url(conn)))
    finally:
        conn.close()


@main.command("init-db")
@click.option("--db", "db_path", default=None, help=DB_HELP)
def init_db(db_path: str | None) -> None:
    """Create or upgrade the database."""
    app = _app_or_exit(_db_config(db_path) or None)
    click.echo(f"Database ready: {app.config['DATABASE']}")


@main.command()
@click.argument("path")
@click.option("--db", "db_path", default=None, help=DB_HELP)
def backup(path: str, db_path: str | None) -> None:
    """Copy the live database to PATH (SQLite online backup, safe while serving)."""
    import sqlite3

    app = _app_or_exit(_db_config(db_path) or None)
    src = sqlite3.connect(app.config["DATABASE"])
    try:
        dst = sqlite3.connect(path)
    except sqlite3.Error as exc:
        src.close()
        click.echo(f"skatcalc: backup {path} cannot be written: {exc}", err=True)
        raise SystemExit(1) from None
    try:
        with dst:
            src.backup(dst)
    finally:
        dst.close()
        src.close()
    click.echo(f"Backup written: {path}")


if __name__ == "__main__":
    main()
