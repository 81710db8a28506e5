"""Helpers the tests share (fixtures live in conftest.py)."""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.routing import rules as werkzeug_rules
from werkzeug.serving import make_server

# Debian's packages; Playwright cannot download a browser here. The browser tests run in Chromium's
# headless shell (Playwright's own default for headless runs: the same Blink and V8, without the
# browser's window, toolbar and tab strip, which cost its browser process twice the CPU per page
# load and nearly four times per new context); the end-to-end and service-worker tests run in
# the whole browser.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_SHELL = "/usr/bin/chromium-headless-shell"


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """The app on a free loopback port in a thread, for the browser tests: its base URL."""
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join()


# --- Cheap apps: the suite makes one or more per test -----------------------------------------


def copy_migrated(template: Path, path: Path) -> Path:
    """A new database at ``path`` as ``skatcalc.store.migrate`` leaves an empty file, copied
    from ``template`` (an empty database migrated once) instead of migrated again: the app's
    start then finds every migration applied. The copy gets an admin token of its own, as
    every new database does."""
    import secrets
    import shutil
    import sqlite3

    shutil.copyfile(template, path)
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute("update settings set value = ? where key = 'admin_token'",
                         [secrets.token_urlsafe(24)])  # fmt: skip
    finally:
        conn.close()
    return path


def seed_hypothesis_utf8_table() -> None:
    """Hypothesis' text strategies need the code points UTF-8 can encode. Without its cache
    file (``.hypothesis/unicode_data/…/codec-utf-8.json.gz``: a clean checkout, as in CI) every
    test process works them out by encoding all 1.1 million code points, some 20 CPU-seconds.
    They are every code point but the surrogates, so the file is written here as Hypothesis
    writes it (gzip'd JSON of the intervals), atomically, if it is missing."""
    import gzip
    import tempfile

    try:
        from hypothesis.internal import charmap
    except ImportError:  # pragma: no cover - hypothesis is a test dependency
        return
    try:
        path = Path(charmap.charmap_file("codec-utf-8"))
        if path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent)
        os.close(fd)
        with gzip.GzipFile(tmp, "wb", mtime=1) as out:
            out.write(json.dumps([[0, 0xD7FF], [0xE000, sys.maxunicode]]).encode())
        os.replace(tmp, path)
    except OSError:  # an unwritable folder: Hypothesis then works the table out itself
        return


def reuse_url_builders() -> None:
    """Every app of the suite adds the same ~120 URL rules, and werkzeug compiles two URL
    builder functions per rule (Python source through ``ast`` and ``compile``), more than half
    the cost of ``create_app``. A builder depends only on the rule's text, its parsed parts,
    its defaults and ``append_unknown`` (the converters are looked up on the rule at call
    time), so the tests compile each one once per process. The app itself is unchanged."""
    rule_class: Any = werkzeug_rules.Rule
    if getattr(rule_class._compile_builder, "reused", False):
        return
    compile_builder = rule_class._compile_builder
    compiled: dict[tuple[Any, ...], Any] = {}

    def reused(self: Any, append_unknown: bool = True) -> Any:
        defaults = tuple(
            (name, self._converters[name].to_url(value) if name in self._converters else None)
            for name, value in (self.defaults or {}).items()
        )
        key = (self.rule, tuple(self._trace), append_unknown, defaults)
        builder = compiled.get(key)
        if builder is None:
            builder = compiled[key] = compile_builder(self, append_unknown)
        return builder

    reused.reused = True  # type: ignore[attr-defined]
    reused.original = compile_builder  # type: ignore[attr-defined]
    rule_class._compile_builder = reused


class SharedTemplateCode(BytecodeCache):
    """Jinja's compiled templates, kept for every app of a test process. Every app of the suite
    has a Jinja environment of its own, which parses and compiles each template it renders
    from source again (some 1.4 CPU-s for all of them, a fifth of a second for a typical page):
    the tests make hundreds of apps. A template's code depends only on its source, its name and
    file, and on how the environment compiles (delimiters, whitespace, extensions, the filters
    and tests it knows, autoescaping, finalize, policies): all of that is the key, so an app
    configured otherwise compiles its own. Each app still runs the code in its own environment
    (its globals, filters and gettext); the app itself is unchanged."""

    def __init__(self) -> None:
        self.code: dict[tuple[Any, ...], Any] = {}

    @staticmethod
    def compiles_as(env: Any) -> tuple[Any, ...]:
        """What of ``env`` goes into the code Jinja compiles."""

        def named(f: Any) -> Any:
            f = getattr(f, "__func__", f)
            return getattr(f, "__module__", ""), getattr(f, "__qualname__", repr(f))

        simple = (bool, int, str, type(None))
        return (
            type(env).__qualname__, env.block_start_string, env.block_end_string,
            env.variable_start_string, env.variable_end_string, env.comment_start_string,
            env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
            env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
            tuple(sorted(env.extensions)), env.optimized, env.is_async, named(env.finalize),
            named(env.autoescape), getattr(env, "newstyle_gettext", None),
            tuple(sorted(env.filters)), tuple(sorted(env.tests)),
            tuple(sorted((k, v) for k, v in env.policies.items() if isinstance(v, simple))),
        )  # fmt: skip

    def key(self, env: Any, name: str, filename: str | None, source: str) -> tuple[Any, ...]:
        return (self.compiles_as(env), name, filename, source)

    def get_bucket(self, environment: Any, name: str, filename: str | None,
                   source: str) -> Bucket:  # fmt: skip
        bucket = Bucket(environment, name, "")
        bucket.shared_key = self.key(environment, name, filename, source)  # type: ignore[attr-defined]
        bucket.code = self.code.get(bucket.shared_key)  # type: ignore[attr-defined]
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        self.code[bucket.shared_key] = bucket.code  # type: ignore[attr-defined]


def reuse_compiled_templates() -> None:
    """Every app the tests make keeps its compiled templates in one ``SharedTemplateCode``."""
    app_class: Any = Flask
    if getattr(app_class.create_jinja_environment, "reused", False):
        return
    create = app_class.create_jinja_environment
    shared = SharedTemplateCode()

    def reused(self: Any) -> Any:
        env = create(self)
        env.bytecode_cache = shared
        return env

    reused.reused = True  # type: ignore[attr-defined]
    reused.shared = shared  # type: ignore[attr-defined]
    reused.__wrapped_create__ = create  # type: ignore[attr-defined]
    app_class.create_jinja_environment = reused


def rewritten_folder() -> Path:
    """Where ``keep_rewritten_tests`` keeps the test modules' rewritten code."""
    import tempfile

    return Path(tempfile.gettempdir()) / f"skatcalc-tests-rewritten-{os.getuid()}"


def keep_rewritten_tests(folder: Path) -> None:
    """pytest rewrites every test module's asserts when it imports it (parsing, walking and
    compiling its tree: some 8 CPU-s for the suite, more than half of a collection) and keeps
    the result beside the source, but not where ``PYTHONDONTWRITEBYTECODE`` is set (this
    machine, likely CI's clean one): then every xdist worker rewrote every module again, each
    run. The rewritten code of the suite's own modules goes to ``folder`` instead (keyed by the
    source's full path; pytest's own check of the source's time and size decides whether it is
    still good), never into the checkout; what runs is pytest's rewrite, unchanged."""
    from types import SimpleNamespace

    from _pytest.assertion import rewrite

    if not sys.dont_write_bytecode or getattr(rewrite._rewrite_test, "kept", False):
        return
    tests = ROOT / "tests"
    cache_dir, rewrite_test = rewrite.get_cache_dir, rewrite._rewrite_test
    quiet = SimpleNamespace(trace=lambda message: None)

    def kept_dir(path: Path) -> Path:
        if not path.is_relative_to(tests):
            return cache_dir(path)
        return folder.joinpath(*path.parts[1:-1])

    def kept(path: Path, config: Any) -> Any:
        stat, code = rewrite_test(path, config)
        if path.is_relative_to(tests):
            pyc = kept_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
            try:
                pyc.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                return stat, code
            rewrite._write_pyc(quiet, code, stat, pyc)  # atomic: a file of its own, renamed
        return stat, code

    kept.kept = True  # type: ignore[attr-defined]
    kept.original = rewrite_test  # type: ignore[attr-defined]
    rewrite.get_cache_dir = kept_dir
    rewrite._rewrite_test = kept


def rewrite_tests_ahead(config: Any) -> None:
    """The test modules rewritten once, before the xdist workers start: they then all read
    the kept code (``keep_rewritten_tests``) instead of each rewriting every module at once."""
    from _pytest.assertion import rewrite

    if not getattr(rewrite._rewrite_test, "kept", False):
        return
    tests = ROOT / "tests"
    for path in sorted([*tests.rglob("test_*.py"), *tests.rglob("conftest.py")]):
        pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc) is None:
            try:
                rewrite._rewrite_test(path, config)
            except SyntaxError:  # the worker that imports it reports it
                continue


def explanation(result: Any, lang: str = "de") -> list[str]:
    """A result's steps as the API writes them in ``lang`` (through the one translation path)."""
    from skatcalc.text import translate

    return [translate(s.text, lang) for s in result.steps]


def reach(loc: Any) -> Any:
    """The sheet's entry shows the typical deal or, one tap on "Mehr" away, the less common
    controls in its place: tap over to the screen that holds ``loc`` (as a person would)."""
    if not loc.is_visible():
        toggle = loc.page.locator("form.deal .more-toggle")
        if toggle.count() and toggle.first.is_visible():
            toggle.first.click()
    return loc


def admin_token(app: Flask) -> str:
    """The app's admin token: what ``skatcalc admin-link`` prints after ``/admin/``."""
    from skatcalc import store
    from skatcalc.services.sheets import read_admin_token

    conn = store.connect(app.config["DATABASE"])
    try:
        return read_admin_token(conn)
    finally:
        conn.close()


# --- skatcalc serve (waitress) as a subprocess, and nginx in front of it ----------------------

ROOT = Path(__file__).resolve().parents[1]
NGINX = "/usr/sbin/nginx"
PROXIED_HOST = "skat.example.org"  # the name the deployment docs use


#: Ports for the servers the tests start: a band of its own per xdist worker, below the range
#: the system draws client ports from. A port the system hands out (``bind(0)``) is one a client
#: socket may take next: a test that opens thousands of connections (test_slow_clients) took
#: another worker's server port between its pick and its bind ("Address already in use").
PORT_BAND = 1000
_next_port = itertools.count(random.randrange(PORT_BAND))


def free_port() -> int:
    """A free loopback port for a server a test starts (see ``PORT_BAND``)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            client_low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        client_low = 0
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:]
    first = 10_000 + (int(worker) if worker.isdigit() else 0) % 20 * PORT_BAND
    if first + PORT_BAND <= client_low:
        for _ in range(PORT_BAND):
            port = first + next(_next_port) % PORT_BAND
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue  # taken, or still closing from an earlier test
                return port
    with socket.socket() as s:  # a system whose client ports start low: its own pick
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def cookies(self) -> list[str]:
        return self.headers.get_all("Set-Cookie") or []


@dataclass
class Served:
    """A server on ``port`` of 127.0.0.1: ``skatcalc serve`` itself, or nginx in front of it
    (then ``app_port`` is the port skatcalc listens on behind it). ``output()`` is what
    ``serve`` printed so far (unbuffered: the address, the links it prints at start)."""

    port: int
    host: str
    db: Path
    app_port: int
    pid: int = 0  # the ``skatcalc serve`` process (behind nginx too)

    @property
    def log(self) -> Path:
        return self.db.with_suffix(".log")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def call(self, method: str, path: str, *, json_body: Any = None, data: bytes | None = None,
             headers: dict[str, str] | None = None, client: str = "127.0.0.1",
             timeout: float = 20) -> Answer:  # fmt: skip
        """One request on a connection of its own from the loopback address ``client`` (the
        client socket is bound to it, so the server sees it as the peer)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(client, 0))  # fmt: skip
        hdrs = {"Host": self.host, **(headers or {})}
        if json_body is not None:
            data = json.dumps(json_body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        try:
            conn.request(method, path, body=data, headers=hdrs)
            r = conn.getresponse()
            return Answer(r.status, r.headers, r.read())
        finally:
            conn.close()


def _answering(port: int, timeout: float = 2) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/api/v1/sheets/0")
        conn.getresponse().read()
        return True
    except OSError:
        return False
    finally:  # a server still starting on a loaded machine may accept and not yet answer
        conn.close()


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def serve(db: Path, *args: str, port: int | None = None) -> Iterator[Served]:
    """``python -m skatcalc.server.cli serve --port P --db DB *args`` from this checkout, until it
    answers; stopped (SIGTERM, then SIGKILL) at the end. Its output goes to ``DB.log``. A new
    database starts as a copy of one migrated once per test process (``copy_migrated``). The
    command runs in a child of a fork server that imported it once (``tests/served_child.py``);
    with ``SKATCALC_TEST_SPAWN=1`` in a new interpreter each time, as before."""
    port = port or free_port()
    if not db.exists() and not args_name_a_db(args):
        copy_migrated(_migrated_template(), db)
    log_path = db.with_suffix(".log")
    log_path.write_bytes(b"")
    argv = ["serve", "--port", str(port), "--db", str(db), *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = _ServerProcess(argv, env, log_path)
    try:
        deadline = time.monotonic() + 30
        while not _answering(port):
            if not proc.alive() or time.monotonic() > deadline:
                raise RuntimeError(f"skatcalc serve did not start: {log_path}")
            time.sleep(0.05)
        yield Served(port, "127.0.0.1", db, port, proc.pid)
    finally:
        proc.stop()


def args_name_a_db(args: tuple[str, ...]) -> bool:
    """Whether ``args`` name the database themselves (the last ``--db`` wins)."""
    return any(a == "--db" or a.startswith("--db=") for a in args)


_TEMPLATE: list[Path] = []


def _migrated_template() -> Path:
    """An empty database migrated once per test process, for ``serve``'s new databases."""
    if not _TEMPLATE:
        import tempfile

        from skatcalc import store

        folder = Path(tempfile.mkdtemp(prefix="skatcalc-served-template-"))
        store.migrate(str(folder / "migrated.sqlite"))
        _TEMPLATE.append(folder / "migrated.sqlite")
    return _TEMPLATE[0]


class _ServerProcess:
    """A ``skatcalc`` command run for a test: a child of this process's zygote
    (``tests/served_child.py``), or with ``SKATCALC_TEST_SPAWN=1`` a new interpreter."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.popen: subprocess.Popen[bytes] | None = None
        self.pid = 0
        if os.environ.get("SKATCALC_TEST_SPAWN") == "1":
            with log.open("ab") as out:
                self.popen = subprocess.Popen(
                    [sys.executable, "-m", "skatcalc.server.cli", *argv], stdout=out,
                    stderr=subprocess.STDOUT, cwd=ROOT, env=env,
                )  # fmt: skip
            self.pid = self.popen.pid
            return
        self.pid = _Zygote.fork(argv, env, str(ROOT), str(log))

    def alive(self) -> bool:
        if self.popen is not None:
            return self.popen.poll() is None
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except OSError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.popen is not None:
            _stop(self.popen, sig)
            return
        for signum, wait in ((sig, 15.0), (signal.SIGKILL, 15.0)):
            if self.alive():
                os.kill(self.pid, signum)
            deadline = time.monotonic() + wait
            while self.alive() and time.monotonic() < deadline:
                time.sleep(0.02)
            if not self.alive():
                return


class _Zygote:
    """This test process's zygote (``tests/served_child.py``), started at its first use."""

    proc: subprocess.Popen[bytes] | None = None
    lock = threading.Lock()

    @classmethod
    def fork(cls, argv: list[str], env: dict[str, str], cwd: str, log: str) -> int:
        with cls.lock:
            if cls.proc is None or cls.proc.poll() is not None:
                cls.proc = subprocess.Popen(
                    [sys.executable, "-c", "from tests.served_child import zygote; zygote()"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                    env={**os.environ, "PYTHONPATH": str(ROOT)},
                )  # fmt: skip
                import atexit

                atexit.register(cls.close)
            assert cls.proc.stdin is not None and cls.proc.stdout is not None
            job = {"args": argv, "env": env, "cwd": cwd, "log": log}
            cls.proc.stdin.write(json.dumps(job).encode() + b"\n")
            cls.proc.stdin.flush()
            answer = cls.proc.stdout.readline()
            if not answer.strip():
                raise RuntimeError("the test servers' zygote ended (tests/served_child.py)")
            return int(answer)

    @classmethod
    def close(cls) -> None:
        if cls.proc is not None and cls.proc.stdin is not None:
            cls.proc.stdin.close()
            try:
                cls.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                cls.proc.kill()


def _documented_nginx() -> tuple[str, str]:
    """The two nginx blocks of docs/operations.md: the lines of ``nginx.conf`` and the site."""
    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    fences = [textwrap.dedent(m.group(2))
              for m in re.finditer(r"^( *)```nginx\n(.+?)^\1```", doc, re.S | re.M)]  # fmt: skip
    assert len(fences) == 2, "docs/operations.md: nginx.conf's lines and the site, two blocks"
    return fences[0], fences[1]


def documented_nginx_conf() -> tuple[str, str, str]:
    """docs/operations.md's lines of ``nginx.conf``, word for word: (main, events, http)."""
    conf, _ = _documented_nginx()
    events = re.search(r"^events \{\n(.+?)^\}", conf, re.S | re.M)
    http = re.search(r"^http \{\n(.+?)^\}", conf, re.S | re.M)
    assert events is not None and http is not None, "docs/operations.md: nginx.conf lines"
    return conf[: events.start()], events.group(1), http.group(1)


def documented_nginx_server(listen_port: int, app_port: int, redirect_port: int = 0,
                            log_dir: Path | None = None) -> str:  # fmt: skip
    """The site of docs/operations.md (its http lines and both ``server`` blocks), as the
    test runs it: plain http on loopback ports instead of 443 with a certificate and 80,
    skatcalc on ``app_port``, the access log in ``log_dir``. Everything else (zones, limits,
    headers, body caps, the masked log, the redirect) is the documented text, word for word."""
    _, text = _documented_nginx()
    swaps = [
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{listen_port};"),
        ("listen 80;", f"listen 127.0.0.1:{redirect_port or free_port()};"),
        ("proxy_pass http://127.0.0.1:5000;", f"proxy_pass http://127.0.0.1:{app_port};"),
        ("/var/log/nginx/", f"{log_dir or Path('/tmp')}/"),
    ]
    for old, new in swaps:
        assert old in text, f"docs/operations.md nginx site: {old!r}"
        text = text.replace(old, new)
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith("ssl_certificate")]
    return "\n".join(lines)


@dataclass
class Nginx:
    """nginx as the docs set it up: the https site on ``port``, the port-80 redirect on
    ``redirect_port``, its files (the access log ``skatcalc.log``) in ``folder``."""

    port: int
    redirect_port: int
    folder: Path


@contextmanager
def nginx_in_front(tmp: Path, app_port: int) -> Iterator[Nginx]:
    """Debian's nginx (not as a daemon, everything in ``tmp``) in front of skatcalc on
    ``app_port``, with the documented lines of ``nginx.conf`` and the documented site."""
    port, redirect_port = free_port(), free_port()
    tmp.mkdir(parents=True, exist_ok=True)
    main, events, http = documented_nginx_conf()
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"""daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
{main}
events {{
{events}}}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{http}
{documented_nginx_server(port, app_port, redirect_port, tmp)}
}}
""",
        encoding="utf-8",
    )
    user = ["-g", "user root;"] if os.geteuid() == 0 else []  # workers may read tmp
    with (tmp / "stderr.log").open("wb") as stderr:
        proc = subprocess.Popen(
            [NGINX, "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log"), *user],
            stdout=subprocess.DEVNULL, stderr=stderr,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "nginx did not start: "
                        + (tmp / "stderr.log").read_text()
                        + (tmp / "error.log").read_text()
                    ) from None
                time.sleep(0.05)
        yield Nginx(port, redirect_port, tmp)
    finally:
        _stop(proc, signal.SIGQUIT)  # graceful: finishes the answers under way


#: what the deployment docs run behind the proxy (with the test's name for the site)
PROXIED_SERVE = ("--lan", "--host", "127.0.0.1", "--behind-proxy", "1",
                 "--trusted-host", PROXIED_HOST, "--hsts")  # fmt: skip


@contextmanager
def serve_behind_nginx(tmp: Path, *args: str) -> Iterator[Served]:
    """``skatcalc serve`` with ``args`` (default: the documented internet setup,
    ``PROXIED_SERVE``) behind Debian's nginx configured as docs/operations.md shows. The
    answer's ``call`` goes through nginx with ``Host: skat.example.org``."""
    with serve(tmp / "proxied.sqlite", *(args or PROXIED_SERVE)) as app:
        with nginx_in_front(tmp / "nginx", app.port) as nginx:
            yield Served(nginx.port, PROXIED_HOST, app.db, app.port, app.pid)


# --- The largest export the app can make -------------------------------------------------------

#: A deal with every field a Skat game can carry (cards, hand, announcements, Kontra, Re) and
#: explicit players and dealer, at a five-player table.
BIG_DEAL = {"game": "clubs", "cards": ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9",
            "C8", "C7", "HA"], "hand": True, "schneider_announced": True,
            "schwarz_announced": True, "bid": 18, "declarer_points": 120,
            "all_tricks": "declarer", "kontra": True, "re": True}  # fmt: skip


def largest_export(folder: Path, wide: bool = True) -> bytes:
    """The JSON export of the largest sheet the app can make: 1,000 deals (the limit), five
    players with 40-character names (``wide``: characters of four UTF-8 bytes each), every
    deal corrected once from a Ramsch to a full Skat game (its history: the add and the
    correction with the deal as it was), in English. Built as the app builds it: one deal added and corrected through the
    API gives the shape of a deal and its history; 1,000 of them go in by import, and the
    export of that sheet is the answer."""
    from skatcalc import create_app

    app = create_app({"DATABASE": str(folder / "largest.sqlite"), "SECRET_KEY": "largest"})
    c = app.test_client()
    names = [(chr(0x1D504 + i) if wide else chr(0x41 + i)) * 40 for i in range(5)]
    r = c.post("/api/v1/sheets", json={
        "game": "skat", "players": names, "first_dealer": names[0], "name": "x" * 40,
        "rules": {"kontra_re": True, "ramsch": True, "stake_cents": 100,
                  "bock": ["60-60", "grand-hand-won", "kontra-lost", "value-100"]}})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    sid = r.get_json()["id"]
    seat = {"active": names[1:4], "dealer": names[4]}
    # the largest deal as it was (in the history) and as it is (measured: a Ramsch with
    # Jungfrau and Durchmarsch before, the full game after)
    ramsch = {"ramsch": {"points": {names[1]: 0, names[2]: 0, names[3]: 120},
                         "jungfrau": names[1:3], "durchmarsch": names[3]}, **seat}  # fmt: skip
    assert c.post(f"/api/v1/sheets/{sid}/deals", json=ramsch).status_code == 201
    game = {**BIG_DEAL, **seat, "declarer": names[1]}
    assert c.put(f"/api/v1/sheets/{sid}/deals/1", json=game).status_code == 200
    one = json.loads(c.get(f"/api/v1/sheets/{sid}/export.json").data)
    deal, history = one["deals"][0], one["history"]
    one["deals"] = [{**deal, "n": n} for n in range(1, 1001)]
    one["history"] = [{**h, "n": n} for n in range(1, 1001) for h in history]
    r = c.post("/api/v1/sheets/import", json=one)  # the test client has no waitress cap
    assert r.status_code == 201, r.get_json()
    data: bytes = c.get(
        f"/api/v1/sheets/{r.get_json()['id']}/export.json", headers={"Accept-Language": "en"}
    ).data  # the longer explanations
    app.extensions["skatcalc_db"].close_all()
    return data


def largest_export_for_run(factory: Any, wide: bool = True) -> bytes:
    """``largest_export`` built once per test run (about 11 CPU-s each) instead of once per
    module and xdist worker that needs it: kept in the run's temporary folder, which the
    workers share (``factory``: pytest's ``tmp_path_factory``), the first to need it builds it
    while the others wait on a lock. A run's folder is new each run, so the code under test
    is always the code that made the export."""
    import fcntl

    run = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker has a folder of its own in the run's
    kept = run / f"largest-export-{'wide' if wide else 'narrow'}.json"
    with (run / f"{kept.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return kept.read_bytes()
        folder = factory.mktemp("largest")
        data = largest_export(folder, wide)
        (folder / "export.json").write_bytes(data)
        os.replace(folder / "export.json", kept)
        return data


def child_pids(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux: every thread's ``children`` in /proc)."""
    found: list[int] = []
    try:  # a process may end while it is looked at: then it has no children to tell
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    """Running: not ended, nor ended and waiting for its parent to reap it (a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cmdline(pid: int) -> bytes | None:
    """A process's command line, or None once it has ended."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


@contextmanager
def law_client() -> Iterator[Any]:
    """One app and test client for every example of a law (each example makes its own
    sheets), CSRF off as an API client has it."""
    from tempfile import TemporaryDirectory

    from skatcalc import create_app

    with TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "t.sqlite"),
                          "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})  # fmt: skip
        yield app.test_client()
