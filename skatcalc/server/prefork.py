"""The server under ``skatcalc serve``: waitress with a keep-alive after bodiless answers,
body caps per route in the parser, shedding of idle connections at the limit, and the
pre-fork pool of ``--processes N``. The command itself is server/cli.py."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
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


def resident_mb(pid: int) -> float | None:
    """The resident size of process ``pid`` in MB (Linux's /proc), None where unknown."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


class Prefork:
    """The parent of ``serve --processes N``: forks N workers that serve the same port
    (each its own listening sockets where SO_REUSEPORT exists), replaces a worker that dies,
    forwards SIGTERM/SIGINT to the workers and waits for them. A worker that keeps dying right
    after its start (``CRASH_LIMIT`` within ``CRASH_WINDOW`` seconds) stops the whole server
    with a message instead of looping.

    With ``max_worker_mb`` a worker whose resident size has grown past it is retired: its
    replacement is forked first (same slot, same listening sockets: new connections wait in
    the backlog for it), then the old one gets SIGUSR1, stops accepting, finishes what is
    under way and exits (``Retirement``). Python's allocator keeps what large requests left
    fragmented; a fresh process is the one way to give it back. At most two processes per
    slot: a replacement that is over the bound too waits until its predecessor is gone."""

    CRASH_LIMIT = 5
    CRASH_WINDOW = 60.0
    STOP_GRACE = 10  # seconds the workers get to finish their answers after SIGTERM
    POLL = 0.25  # seconds between two looks at the workers (exits and resident sizes)
    MIN_AGE = 2.0  # a worker younger than this is not retired (a bound below a fresh size)

    def __init__(self, processes: int, sockets: list[list[socket.socket]],
                 config: dict[str, object], server_kw: dict[str, Any],
                 max_worker_mb: int = 0) -> None:  # fmt: skip
        self.processes = processes
        self.sockets = sockets
        self.config = config
        self.server_kw = server_kw
        self.max_worker_mb = max_worker_mb if resident_mb(os.getpid()) is not None else 0
        self.workers: dict[int, int] = {}  # pid -> slot
        self.started: dict[int, float] = {}  # pid -> time.monotonic() of its fork
        self.retiring: dict[int, int] = {}  # pid -> slot, sent SIGUSR1, replaced already
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
        while self.workers or self.retiring:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                if self.max_worker_mb and not self.stopping:
                    self._retire_grown()
                time.sleep(self.POLL)  # a signal's handler runs during it
                continue
            self.started.pop(pid, None)
            if self.retiring.pop(pid, None) is not None:
                continue  # its replacement is up already; not a crash
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

    def _retire_grown(self) -> None:
        """Replace each worker that has grown past ``max_worker_mb`` (see the class)."""
        import signal

        now = time.monotonic()
        for pid, slot in list(self.workers.items()):
            if now - self.started.get(pid, now) < self.MIN_AGE or slot in self.retiring.values():
                continue
            mb = resident_mb(pid)
            if mb is None or mb <= self.max_worker_mb:
                continue
            try:
                new = self._spawn(slot)
            except OSError:
                return  # no fork now (out of memory, processes): the old one goes on serving
            self.retiring[pid] = slot  # before it leaves self.workers: _stop always sees it
            del self.workers[pid]
            try:
                os.kill(pid, signal.SIGUSR1)
            except ProcessLookupError:
                pass  # it ended meanwhile: reaped as retired
            click.echo(
                f"skatcalc: worker {pid} replaced at {mb:.0f} MB "
                f"(Prozess ersetzt / new worker {new}, --max-worker-mb {self.max_worker_mb})",
                err=True,
            )

    def _spawn(self, slot: int) -> int:
        import signal
        import sys

        # Whatever the parent has buffered would otherwise be written once by every worker.
        sys.stdout.flush()
        sys.stderr.flush()
        # SIGTERM between the fork and the worker's entry in self.workers would not reach
        # the new worker: the stop signals wait until it is entered (and the worker has set
        # its own handlers).
        stops = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        try:
            pid = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
            raise
        if pid:
            self.workers[pid] = slot
            self.started[pid] = time.monotonic()
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
            return pid
        code = 1
        try:
            code = self._worker(slot)
        finally:
            os._exit(code)  # never back into the parent's code

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
            retirement = Retirement()
            signal.signal(signal.SIGUSR1, retirement.signalled)
            # blocked by the parent around the fork; a SIGTERM it got meanwhile is its own
            signal.pthread_sigmask(signal.SIG_UNBLOCK,
                                   {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})  # fmt: skip
            app = create_app(self.config)
            logging.getLogger("waitress.queue").addFilter(QueueWarningFilter())
            apart.start_with(app)  # after the fork: each worker its own render child

            def server(wsgi_app: Flask, **kw: Any) -> object:
                made = keep_alive_server(wsgi_app, **kw)
                retirement.watch(made)
                return made

            waitress_serve(app, sockets=self.sockets[slot], **{**self.server_kw, "_server": server})
            return 0
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 0
        except BaseException:
            traceback.print_exc()
            return 1
        finally:
            import sys

            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # ending already: no second exit
            apart.CHILD.end()
            sys.stdout.flush()
            sys.stderr.flush()

    def _stop(self, signum: int, frame: object) -> None:
        import signal

        if not self.stopping:
            self.stopping = True
            signal.alarm(self.STOP_GRACE)
        for pid in [*self.workers, *self.retiring]:  # a retiring one finishes as the others
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def _kill(self, signum: int, frame: object) -> None:
        import signal

        for pid in [*self.workers, *self.retiring]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(0)


RETIRING = threading.Event()  # this worker is retired: every answer closes its connection


class Retirement:
    """A worker's way out after the parent's SIGUSR1 (``Prefork`` forked its replacement
    first): it stops accepting (closes its copies of the listening sockets; the parent's and
    the replacement's stay open, so new connections wait for the replacement), answers what
    is under way with ``Connection: close``, closes its idle keep-alive connections, and ends
    (as at SIGTERM) once no connection is left, every answer sent, or after ``GRACE``
    seconds. Its render child ends with it (``apart.Child.end``)."""

    GRACE = 30.0
    STEP = 0.1  # seconds between two looks at the connections

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.map: dict[int, Any] = {}
        self.trigger: Any = None
        self.done = threading.Event()

    def watch(self, server: object) -> None:
        """Follow ``server`` (waitress's, made in this process) from a thread of its own."""
        from waitress.trigger import trigger

        # one listening socket: waitress's server itself, with its loop's map and trigger;
        # several: a MultiSocketServer over one map, with a trigger per listening socket
        self.map = getattr(server, "map", None) or getattr(server, "_map")  # noqa: B009
        self.trigger = next(o for o in self.map.values() if isinstance(o, trigger))
        threading.Thread(target=self._run, daemon=True, name="retirement").start()

    def signalled(self, signum: int, frame: object) -> None:
        # A signal handler: it only sets the event (the thread does the rest, in the loop).
        self.asked.set()

    def _run(self) -> None:
        import signal

        self.asked.wait()
        RETIRING.set()
        deadline = time.monotonic() + self.GRACE
        first = True
        while time.monotonic() < deadline:
            # waitress's channels belong to its loop thread: the look runs there
            self.trigger.pull_trigger(lambda first=first: self._sweep(first))
            first = False
            if self.done.wait(self.STEP):
                break
        os.kill(os.getpid(), signal.SIGTERM)  # waitress's own stop, as from the parent

    def _sweep(self, first: bool) -> None:
        """In waitress's loop: at first the listening sockets closed; then each idle
        connection that has answered closed, and ``done`` once no connection is left."""
        from waitress.channel import HTTPChannel
        from waitress.wasyncore import dispatcher

        left = 0
        for obj in list(self.map.values()):
            if first and hasattr(obj, "channel_class"):
                # its socket and its entry in the loop, not the shared trigger
                # (waitress's own close of a server would close that too)
                dispatcher.close(obj)
            elif isinstance(obj, HTTPChannel):
                left += 1
                # A connection that has not answered yet (just accepted, its request on the
                # way or half read) gets its answer, with Connection: close.
                if (getattr(obj, "answered", False) and not obj.requests
                        and obj.request is None and not obj.total_outbufs_len):  # fmt: skip
                    obj.will_close = True  # closed by the loop, waitress's own way
        if not left:
            self.done.set()


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
            self.channel.answered = True  # type: ignore[attr-defined]
            if RETIRING.is_set():  # the last answers of a retired worker (Retirement)
                self.set_close_on_finish()
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
    ACCEPT_BURST = 64  # connections taken from the backlog in one round of the loop at most

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

    def handle_accept(self) -> None:
        """Every connection waiting in the backlog, up to ``ACCEPT_BURST`` and the room left
        below the limit (at least one, as waitress's own). waitress accepts one a round of its
        loop, and a round looks at every open connection: with a thousand stalled ones each
        accept cost a round of milliseconds, so a flood of connections (slow loris) filled the
        backlog faster than it was taken and a new client waited behind it for seconds."""
        room = self.adj.connection_limit - len(self._map)
        for _ in range(max(1, min(self.ACCEPT_BURST, room))):
            before = len(self._map)
            super().handle_accept()  # type: ignore[misc]
            if len(self._map) == before:
                break  # the backlog is empty (or the accept failed, and was logged)

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
