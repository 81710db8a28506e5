"""The server under ``skatcalc serve``: waitress with a keep-alive after bodiless answers,
body caps per route in the parser, shedding of idle connections at the limit, and the
pre-fork pool of ``--processes N``. The command itself is server/cli.py."""

from __future__ import annotations

import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import click
from flask import Flask
from waitress.parser import HTTPRequestParser

from skatcalc import create_app
from skatcalc.exports import apart
from skatcalc.web.http import BODY_MAX, IMPORT_BODY_MAX, IMPORT_PATHS
from skatcalc.web.rights import masked

if TYPE_CHECKING:
    from waitress.adjustments import Adjustments
    from waitress.channel import HTTPChannel


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
        listen = cast(list[tuple[int, int, int, tuple[object, ...]]], adj.listen)
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
            apart.start_with(app)  # after the fork: each worker its own render child
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

    path: str  # set by the header's parse (not in types-waitress)

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        if self.headers_finished and not self.error:
            cap = IMPORT_BODY_MAX if self.path in IMPORT_PATHS else BODY_MAX
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

    # what the waitress server this is mixed into has (types-waitress types some of it wrongly)
    adj: Adjustments
    _map: dict[int, object]
    active_channels: dict[int, HTTPChannel]
    next_channel_cleanup: float
    maintenance: Callable[[float], None]

    def readable(self) -> bool:
        limit = self.adj.connection_limit
        excess = len(self._map) - limit + 1
        if getattr(self, "accepting", False) and excess > 0 and self._shed(excess):
            # Room is being made in this round of the loop: go on accepting, and keep
            # waitress's cleanup of timed-out channels (which its readable() would run).
            now = time.time()
            if now >= self.next_channel_cleanup:
                self.next_channel_cleanup = now + self.adj.cleanup_interval
                self.maintenance(now)
            return True
        return bool(super().readable())  # type: ignore[misc]

    def _shed(self, excess: int) -> bool:
        """Mark the longest-idle connections to close; False if not enough can be closed
        (every connection busy with a request: then waitress stops accepting, as before)."""
        import heapq

        channels = list(self.active_channels.values())
        closing = sum(1 for c in channels if c.will_close)
        if closing >= excess:
            return True
        idle = [c for c in channels
                if not c.will_close and not c.requests and not c.total_outbufs_len]  # fmt: skip
        # a few more than needed, so the search runs once per few accepts, not for each one
        wanted = excess - closing + int(self.adj.connection_limit * self.SHED)
        chosen = heapq.nsmallest(wanted, idle, key=lambda c: c.last_activity)
        for c in chosen:
            # closed by the loop in this same round (waitress's own way, as at the timeout)
            c.will_close = True
        return closing + len(chosen) >= excess


class KeyMask(logging.Filter):
    """Every log line of the server with each link's key cut out (``rights.masked``): waitress
    names the path of a request that failed, and a path may hold an edit or admin link."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = masked(text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


def fewer_malloc_arenas() -> None:
    """glibc gives each thread that allocates at once an arena of its own (up to 8 per core)
    and keeps what a large request freed in it: a 1,000-deal sheet's JSON read in eight
    threads left eight arenas' worth resident. Two arenas hold the same load in a fraction."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        return


def mask_keys_in_logs() -> None:
    """Every record of the process goes through one handler on stderr that masks keys (before
    the app is made, so Flask adds no handler of its own to its logger)."""
    root = logging.getLogger()
    if any(isinstance(f, KeyMask) for h in root.handlers for f in h.filters):
        return
    handler = logging.StreamHandler()
    handler.addFilter(KeyMask())
    handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)


class QueueWarningFilter:
    """waitress warns "Task queue depth is N" on every request that has to wait for a thread;
    under load that is a line per request. One line a minute, with the deepest queue seen."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.last = -every
        self.deepest = 0

    def filter(self, record: logging.LogRecord) -> bool:
        import time

        depth = getattr(record, "args", None)
        if isinstance(depth, tuple) and depth and isinstance(depth[0], int):
            self.deepest = max(self.deepest, depth[0])
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        if isinstance(depth, tuple) and depth:
            record.args = (self.deepest,)
        self.deepest = 0
        return True
