"""PDFs rendered in a separate process.

A 1,000-deal sheet's PDF takes seconds of CPU, and a render in a server thread holds the
process's interpreter lock for all of them: every other thread of the process (the phones'
cheap reads) waits its turn slice by slice. With ``PDF_PROCESS`` (set by `skatcalc serve`)
the render runs in one child process per server process (``main`` here), and the server
thread only waits for the bytes, without the lock. One child: a process's renders go one at
a time anyway (``exports.PDF_RENDERS``). The server starts it when it starts (``start``), and
the child warms up at once, at its lower priority (fpdf2, the fonts, the rules: a small
sheet's PDF drawn and thrown away, over a second of CPU that the first download would
otherwise wait for). The child reads its tasks from a pipe and ends when the pipe closes, so
it never outlives its server process. It is replaced after ``TASKS_PER_CHILD`` renders, so
what it allocated for large sheets does not stay, and when it dies; the next one is started
right away, so it is warm by the next download.

With ``SKATCALC_PDF_CHILD=lazy`` in the environment the child is started only at the first
render and skips the warm-up (the test suite starts servers by the dozen, most of which never
render a PDF); ``SKATCALC_PDF_CHILD_NICE`` sets the child's ``nice`` increment (10 without
it; the test suite, whose own processes keep the CPUs busy, gives 0). Without ``PDF_PROCESS``
(tests, other WSGI servers), or when the child fails or dies, the render runs in the calling
thread: the bytes are the same either way.
"""

from __future__ import annotations

import importlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from flask import Flask, current_app, has_app_context

TASKS_PER_CHILD = 50
NICE = 10  # the child's priority below the server's (os.nice)


def child_nice() -> int:
    """The child's ``nice`` increment: ``SKATCALC_PDF_CHILD_NICE`` if it is a number from 0 to
    19, else ``NICE``."""
    given = os.environ.get("SKATCALC_PDF_CHILD_NICE", "")
    return int(given) if given.isdigit() and int(given) <= 19 else NICE


HEAD = struct.Struct("!Q")  # the length of the pickle that follows


def _reap(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for ``proc``, told to end, at most ``timeout`` seconds; then kill it."""
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _read(stream: IO[bytes], n: int) -> bytes:
    data = stream.read(n)
    if data is None or len(data) != n:
        raise EOFError("the other side closed the pipe")
    return data


def _send(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEAD.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    (n,) = HEAD.unpack(_read(stream, HEAD.size))
    return pickle.loads(_read(stream, n))


class Child:
    """The render process of this server process: started with the server (``start``), or
    when first needed."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.tasks = 0
        self.lock = threading.Lock()
        self.keep = False  # started by the server: a child that dies is replaced at once
        self.warm = True  # the child draws a small PDF first (see ``main``)

    def start(self) -> None:
        """Start the child now (it warms up by itself) and keep one running from now on."""
        with self.lock:
            self.keep = True
            if self.proc is None or self.proc.poll() is not None:
                self.stop()
                self._start()

    def _watch(self, proc: subprocess.Popen[bytes]) -> None:
        """Wait for ``proc`` to end; if it died while it was the one in use, start the next."""
        proc.wait()
        with self.lock:
            if self.keep and self.proc is proc:
                self.stop()
                self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        root = str(Path(__file__).resolve().parents[2])  # this checkout's skatcalc, not another
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"from skatcalc.exports.apart import main; main(warm={self.warm})",
            ],  # fmt: skip
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            close_fds=True,
        )
        self.tasks = 0
        if self.keep:
            threading.Thread(target=self._watch, args=(self.proc,), daemon=True,
                             name="pdf-child-watch").start()  # fmt: skip
        return self.proc

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()  # the child ends at the closed pipe
        _reap(proc, 5)

    def end(self) -> None:
        """At its server process's end: the child ended and reaped first (not left to init:
        a container's first process may never reap it), and not started again. Nothing waits
        for its work any more, and a child still warming up reads its closed pipe only after
        seconds: it is told to end. Without the lock: a render under way may hold it."""
        self.keep = False  # not started again by its watcher
        proc = self.proc
        if proc is None:
            return
        proc.terminate()
        _reap(proc, 2)

    def run(self, module: str, name: str, args: tuple[Any, ...]) -> bytes | None:
        """The render's bytes, or None when the child failed (then make them here)."""
        with self.lock:
            if self.proc is None or self.proc.poll() is not None or self.tasks >= TASKS_PER_CHILD:
                self.stop()
                self._start()
            proc = self.proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            try:
                _send(proc.stdin, (module, name, args))
                ok, data = _receive(proc.stdout)
            except (OSError, EOFError, pickle.PickleError, ValueError):
                self.stop()  # died (out of memory, killed): the next render starts another
                if self.keep:
                    self._start()
                return None
            self.tasks += 1
            if self.keep and self.tasks >= TASKS_PER_CHILD:
                self.stop()  # replaced now, so the next download finds its successor warm
                self._start()
            return data if ok and isinstance(data, bytes) else None


CHILD = Child()


def start_with(app: Flask) -> None:
    """At a server process's start: its render child, started now and kept running, when the
    app renders PDFs apart."""
    if not app.config.get("PDF_PROCESS"):
        return
    if os.environ.get("SKATCALC_PDF_CHILD") == "lazy":
        CHILD.warm = False
        return
    CHILD.start()


def enabled() -> bool:
    return has_app_context() and bool(current_app.config.get("PDF_PROCESS"))


def call(module: str, name: str, *args: Any) -> bytes | None:
    """``module.name(*args)`` in the child process when enabled; None when not, or when the
    child failed (the caller then makes the bytes itself)."""
    return CHILD.run(module, name, args) if enabled() else None


def render(module: str, name: str, *args: Any) -> bytes:
    """``module.name(*args)``: in the child process when enabled, else (or when the child
    fails: an error of the render then shows here, as it would have) in this thread."""
    if enabled():
        data = CHILD.run(module, name, args)
        if data is not None:
            return data
    renderer = getattr(importlib.import_module(module), name)
    out: bytes = renderer(*args)
    return out


def serve_tasks(tasks: IO[bytes], answers: IO[bytes]) -> None:
    """The child's loop: a task in, its bytes out (or ``(False, None)`` when it failed),
    until the server process closes the pipe."""
    from skatcalc.services.cache import hand_back_memory

    while True:
        try:
            module, name, args = _receive(tasks)
        except EOFError:
            return
        try:
            data = getattr(importlib.import_module(module), name)(*args)
            answer: tuple[bool, bytes | None] = (True, bytes(data))
        except Exception:  # the server renders it again itself and shows the error there
            answer = (False, None)
        del module, name, args
        _send(answers, answer)
        hand_back_memory()


def warm_up() -> None:
    """A small sheet's PDF drawn once and thrown away: fpdf2, the fonts, the chart, the rules
    and the serialisation loaded, so the first download finds them ready."""
    from skatcalc.exports.pdf import render_pdf
    from skatcalc.rules.sheet import DealRecord, compute_sheet, normalize_sheet
    from skatcalc.serialize import computed_json

    players = ["A", "B", "C"]
    spec = normalize_sheet({"game": "skat", "players": players})
    body = {"passed": True}  # rows drawn, and no game's contract named outside its package
    deals = [DealRecord(n, players[(n - 1) % 3], tuple(players), body) for n in (1, 2)]
    computed = compute_sheet(spec, deals)
    sheet = {"name": "-", "game": "skat", "players": players, "created": "2000-01-01",
             **computed_json(computed, "de")}  # fmt: skip
    render_pdf(sheet, [], "de", computed.rows)


def main(warm: bool = True) -> None:
    """The child process, at a lower priority than its server: on a busy machine the CPU
    goes to the phones' reads first, and the PDF takes what is left."""
    if hasattr(os, "nice"):
        os.nice(child_nice())
    try:
        if warm:
            warm_up()
    except Exception:  # a warm-up that fails costs the first download its time, no more
        pass
    serve_tasks(sys.stdin.buffer, sys.stdout.buffer)
