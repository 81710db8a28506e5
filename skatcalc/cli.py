"""The ``skatcalc`` command: serve the app with a production WSGI server."""

from __future__ import annotations

import io
import os
import socket
import sys
import time
from typing import Any

import click
from flask import Flask
from waitress.parser import HTTPRequestParser

from . import create_app
from .http import BODY_MAX, IMPORT_BODY_MAX, IMPORT_PATHS


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
    from .store import StorageUnusable

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
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    metavar="N",
    help="Server processes sharing the port, each with its own threads (use the CPU cores; "
    "Linux/POSIX only for more than 1). Write limits and caches are per process.",
)
def serve(host: str | None, port: int, db_path: str | None, lan: bool, threads: int,
          trusted_hosts: tuple[str, ...], proxies: int, public_url: str | None, hsts: bool,
          preview_limit: int | None, write_limit: int | None, durable: bool, channel_timeout: int,
          connection_limit: int, processes: int) -> None:  # fmt: skip
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
    # The GIL is handed on every 1 ms instead of 5: a revision poll or a revalidation waiting
    # behind a page render then waits one short slice, not several long ones (bench/load.py:
    # reads p99 down by about a third; throughput unchanged).
    sys.setswitchinterval(0.001)
    config: dict[str, object] = _db_config(db_path)
    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    if lan:
        config["LAN"] = True
    if trusted_hosts:
        config["ALLOWED_HOSTS"] = list(trusted_hosts)
    if hsts:
        config["HSTS_SECONDS"] = 31536000
    if write_limit is None:
        write_limit = 120 if lan else 0
    if write_limit:
        config["WRITE_LIMIT"] = write_limit
    if preview_limit is None:
        preview_limit = 240 if lan else 0
    if preview_limit:
        config["PREVIEW_LIMIT"] = preview_limit
    if durable:
        config["DB_DURABLE"] = True
    # Writes beyond half the threads are told to come back (503), so reads always find a thread.
    config["WRITE_SLOTS"] = max(1, threads // 2)
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}" if ":" not in shown else f"http://[{shown}]:{port}"
    if public_url:
        url = public_url.rstrip("/")
    if public_url or (lan and not proxies):
        # Behind a proxy without --public-url the links follow the Host and scheme the proxy
        # forwards; the address skatcalc listens on is not one a phone can open.
        config["PUBLIC_URL"] = url
    app = _app_or_exit(config)
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
    server_kw: dict[str, Any] = dict(
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
    if processes > 1:
        # Every worker makes its own app after the fork (no SQLite connection may cross it);
        # the key the parent's app read or created goes to all of them, so sessions and CSRF
        # tokens hold whichever process answers.
        config["SECRET_KEY"] = app.config["SECRET_KEY"]
        # One start, one tag for its pages: a phone revalidating at another worker gets 304.
        config["BUILD_TAG"] = app.extensions["skatcalc_build"]
        app.extensions["skatcalc_db"].close_all()
        del app
        try:
            sockets = _bind_per_worker(host, port, processes)
        except OSError as exc:
            click.echo(f"skatcalc: {host}:{port} nicht nutzbar / cannot be used: {exc}", err=True)
            raise SystemExit(1) from None
        click.echo(f"{processes} Prozesse / processes, je / each {threads} threads")
        raise SystemExit(Prefork(processes, sockets, config, server_kw).run())
    logging.getLogger("waitress.queue").addFilter(QueueWarningFilter())
    waitress_serve(app, host=host, port=port, **server_kw)


def _is_loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _proxy_settings(proxies: int) -> dict[str, object]:
    """waitress's own handling of X-Forwarded-*: with ``--behind-proxy N`` the client's
    address, scheme and host come from the last N proxies (in every worker of
    ``--processes``, since waitress applies it per request); without it waitress removes
    those headers, so a client sending them directly changes nothing."""
    if not proxies:
        return {"clear_untrusted_proxy_headers": True}
    return {
        # The proxy's own address is not known here (nginx on this machine or another): the
        # documented rule is that the port is reachable from the proxy alone.
        "trusted_proxy": "*",
        "trusted_proxy_count": proxies,
        # not X-Forwarded-Port or Forwarded: nginx (as documented) passes those on from the
        # client unchanged, so a client could put a port of its choice into its links
        "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"},
        "clear_untrusted_proxy_headers": True,
    }


def _bind_per_worker(host: str, port: int, processes: int) -> list[list[socket.socket]]:
    """Listening sockets for each worker. Where the system has SO_REUSEPORT every worker gets
    its own set on the same port and the kernel spreads new connections evenly over them;
    workers sharing one socket would race for each connection, and since phones keep their
    connection open, one worker could end up with most of the tables."""
    if processes == 1 or not hasattr(socket, "SO_REUSEPORT"):
        return [_bind(host, port)] * processes
    sets: list[list[socket.socket]] = []
    try:
        for _ in range(processes):
            sets.append(_bind(host, port, reuse_port=True))
            port = sets[0][0].getsockname()[1]  # port 0: all take the port the first one got
    except OSError:
        for socks in sets:
            for sock in socks:
                sock.close()
        raise
    return sets


def _bind(host: str, port: int, reuse_port: bool = False) -> list[socket.socket]:
    """The listening sockets waitress itself would bind for ``host``:``port``."""
    from waitress.adjustments import Adjustments

    adj = Adjustments(host=host, port=port)
    sockets = []
    try:
        # (family, type, proto, sockaddr) tuples; types-waitress calls them str
        listen: list[tuple[int, int, int, Any]] = adj.listen  # type: ignore[assignment]
        for family, kind, proto, address in listen:
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            # Listening before the first fork: connections wait in the backlog until a
            # worker is ready, and the port stays taken while a worker is replaced.
            sock.listen(adj.backlog)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class Prefork:
    """The parent of ``serve --processes N``: forks N workers that serve the same port
    (each its own listening sockets where SO_REUSEPORT exists), replaces a worker that dies, forwards SIGTERM/SIGINT to the workers and waits
    for them. A worker that keeps dying right after its start (``CRASH_LIMIT`` within
    ``CRASH_WINDOW`` seconds) stops the whole server with a message instead of looping."""

    CRASH_LIMIT = 5
    CRASH_WINDOW = 60.0
    STOP_GRACE = 10  # seconds the workers get to finish their answers after SIGTERM

    def __init__(self, processes: int, sockets: list[list[socket.socket]],
                 config: dict[str, object], server_kw: dict[str, Any]) -> None:  # fmt: skip
        self.processes = processes
        self.sockets = sockets
        self.config = config
        self.server_kw = server_kw
        self.workers: dict[int, int] = {}  # pid -> slot
        self.stopping = False
        self.crashes: list[float] = []

    def run(self) -> int:
        import signal

        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._stop)
        signal.signal(signal.SIGALRM, self._kill)
        code = 0
        for slot in range(self.processes):
            self._spawn(slot)
        while self.workers:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            slot_or_none = self.workers.pop(pid, None)
            if slot_or_none is None or self.stopping:
                continue
            exit_code = os.waitstatus_to_exitcode(status)
            how = f"signal {-exit_code}" if exit_code < 0 else f"exit code {exit_code}"
            now = time.monotonic()
            self.crashes = [t for t in self.crashes if now - t < self.CRASH_WINDOW] + [now]
            if len(self.crashes) >= self.CRASH_LIMIT:
                click.echo(
                    f"skatcalc: Prozess / worker {pid} beendet / ended ({how}); "
                    f"{len(self.crashes)} workers ended within {self.CRASH_WINDOW:.0f} s: "
                    "skatcalc stops.",
                    err=True,
                )
                code = 1
                self._stop(signal.SIGTERM, None)
                continue
            click.echo(
                f"skatcalc: Prozess / worker {pid} beendet / ended ({how}), "
                "wird ersetzt / replaced.",
                err=True,
            )
            self._spawn(slot_or_none)
        signal.alarm(0)
        for sock in {id(s): s for socks in self.sockets for s in socks}.values():
            sock.close()
        if code == 0:
            click.echo("skatcalc beendet / stopped.")
        return code

    def _spawn(self, slot: int) -> None:
        import sys

        # Whatever the parent has buffered would otherwise be written once by every worker.
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            self.workers[pid] = slot
            return
        os._exit(self._worker(slot))  # never back into the parent's code

    def _worker(self, slot: int) -> int:
        import logging
        import signal
        import traceback

        from waitress import serve as waitress_serve

        try:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            # Ctrl-C reaches the whole process group: the parent alone decides, and stops
            # the workers with SIGTERM (waitress finishes the answers under way).
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, _raise_exit)
            app = create_app(self.config)
            logging.getLogger("waitress.queue").addFilter(QueueWarningFilter())
            waitress_serve(app, sockets=self.sockets[slot], **self.server_kw)
            return 0
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 0
        except BaseException:
            traceback.print_exc()
            return 1
        finally:
            import sys

            sys.stdout.flush()
            sys.stderr.flush()

    def _stop(self, signum: int, frame: object) -> None:
        import signal

        if not self.stopping:
            self.stopping = True
            signal.alarm(self.STOP_GRACE)
        for pid in list(self.workers):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def _kill(self, signum: int, frame: object) -> None:
        import signal

        for pid in list(self.workers):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _connection_limit(wanted: int) -> int:
    """``wanted``, within what the process may open (every connection is a file)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < wanted + 100:
            target = wanted + 100 if hard == resource.RLIM_INFINITY else min(hard, wanted + 100)
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        if soft != resource.RLIM_INFINITY:
            return max(10, min(wanted, soft - 100))
    except (ImportError, ValueError, OSError):
        pass
    return wanted


def keep_alive_server(app: Flask, **kw: Any) -> object:
    """waitress's ``create_server``, whose connections stay open after an answer without a
    body. waitress 3.0 closes the connection after every 304 and 204 on HTTP/1.1 (they carry
    no Content-Length, and it takes a missing length for an unknown one), so each phone that
    revalidates its sheet page would open a new connection for its next request. Such an
    answer ends with its header (RFC 9112, 6.3): the connection is kept, as after a 200."""
    from waitress.channel import HTTPChannel
    from waitress.server import create_server
    from waitress.task import WSGITask

    class Task(WSGITask):
        def build_response_header(self) -> bytes:
            keep = (
                not self.has_body
                and self.version == "1.1"
                and not self.close_on_finish
                and self.request.headers.get("CONNECTION", "").lower() != "close"  # type: ignore[attr-defined]
            )
            head: bytes = super().build_response_header()
            if keep and self.close_on_finish:
                self.close_on_finish = False
                head = head.replace(b"\r\nConnection: close", b"", 1)
            return head

    class Channel(HTTPChannel):
        task_class = Task
        parser_class = CappedParser

    server = create_server(app, **kw)
    for s in (server, *getattr(server, "map", {}).values()):
        if hasattr(s, "channel_class"):
            s.channel_class = Channel
            s.__class__ = type("Shedding" + type(s).__name__, (SheddingServer, type(s)), {})
    return server


class CappedParser(HTTPRequestParser):
    """waitress's request parser with the body cap of the route: ``IMPORT_BODY_MAX`` for the
    import, ``BODY_MAX`` (1 MiB) for everything else. A larger Content-Length is refused as
    soon as the header is read, a chunked body as soon as it grows beyond the cap (413, and
    the connection is closed): nothing beyond the cap is ever read or buffered to disk."""

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        if self.headers_finished and not self.error:
            # path is set by the header's parse (not in types-waitress)
            cap = IMPORT_BODY_MAX if self.path in IMPORT_PATHS else BODY_MAX  # type: ignore[attr-defined]
            if max(self.content_length, self.body_bytes_received) > cap:
                from waitress.utilities import RequestEntityTooLarge

                self.error = RequestEntityTooLarge(f"exceeds the cap of {cap} bytes")
                self.completed = True
        return consumed


class SheddingServer:
    """A server at its connection limit closes the connections that have waited longest
    without a request in progress (idle keep-alive, or stalled in a header or body) instead
    of no longer accepting. waitress alone stops accepting at the limit: a few thousand
    connections that send nothing (slow loris) then keep every new client in the listen
    backlog until ``--channel-timeout`` closes them, and the next ones take their place."""

    SHED = 0.02  # of the limit closed at once, so the search runs once per few accepts

    def readable(self) -> bool:
        limit = self.adj.connection_limit  # type: ignore[attr-defined]
        excess = len(self._map) - limit + 1  # type: ignore[attr-defined]
        if getattr(self, "accepting", False) and excess > 0 and self._shed(excess):
            # Room is being made in this round of the loop: go on accepting, and keep
            # waitress's cleanup of timed-out channels (which its readable() would run).
            now = time.time()
            if now >= self.next_channel_cleanup:  # type: ignore[has-type]
                self.next_channel_cleanup = now + self.adj.cleanup_interval  # type: ignore[attr-defined]
                self.maintenance(now)  # type: ignore[attr-defined]
            return True
        return bool(super().readable())  # type: ignore[misc]

    def _shed(self, excess: int) -> bool:
        """Mark the longest-idle connections to close; False if not enough can be closed
        (every connection busy with a request: then waitress stops accepting, as before)."""
        import heapq

        channels = list(self.active_channels.values())  # type: ignore[attr-defined]
        closing = sum(1 for c in channels if c.will_close)
        if closing >= excess:
            return True
        idle = [c for c in channels
                if not c.will_close and not c.requests and not c.total_outbufs_len]  # fmt: skip
        # a few more than needed, so the search runs once per few accepts, not for each one
        wanted = excess - closing + int(self.adj.connection_limit * self.SHED)  # type: ignore[attr-defined]
        chosen = heapq.nsmallest(wanted, idle, key=lambda c: c.last_activity)
        for c in chosen:
            # closed by the loop in this same round (waitress's own way, as at the timeout)
            c.will_close = True
        return closing + len(chosen) >= excess


class QueueWarningFilter:
    """waitress warns "Task queue depth is N" on every request that has to wait for a thread;
    under load that is a line per request. One line a minute, with the deepest queue seen."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.last = -every
        self.deepest = 0

    def filter(self, record: object) -> bool:
        import time

        depth = getattr(record, "args", None)
        if isinstance(depth, tuple) and depth and isinstance(depth[0], int):
            self.deepest = max(self.deepest, depth[0])
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        if isinstance(depth, tuple) and depth:
            record.args = (self.deepest,)  # type: ignore[attr-defined]
        self.deepest = 0
        return True


def _print_qr(url: str) -> None:
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    click.echo(out.getvalue())


def _print_share_links(app: Flask, url: str) -> None:
    """The newest sheets' read-only links, so the phones at the table can follow along."""
    from . import service, store

    conn = store.connect(app.config["DATABASE"])
    try:
        sheets = service.list_sheets(conn)[:3]
    finally:
        conn.close()
    for s in sheets:
        click.echo(f"  {s['name']}: {url}/sheets/{s['id']}/share/{s['share_token']}")
    if sheets:
        click.echo("  (QR-Codes auf der Seite des Blatts / QR codes on the sheet's page)")


def _print_admin_link(app: Flask, url: str) -> None:
    """The server's admin link (every right, every lost link), as Jupyter prints its token;
    remembered with the address so that ``skatcalc admin-link`` prints the same link."""
    from . import service, store

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
    from . import service, store

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
