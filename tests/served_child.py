"""Where a test's ``skatcalc serve`` runs (``tests/support.serve``): a child forked from a
process that imported the command once per test process (the zygote), so each server a test
starts runs the command's own ``main`` without importing the package and its dependencies
again (about 0.8 CPU-s a start, some sixty starts a run). Nothing else differs from ``python -m
skatcalc.server.cli serve``: the same code from this checkout, the same arguments and
environment, its output in the log, and the interpreter's own exit (atexit, threads) at its end.

The zygote reads one request a line on stdin (JSON: args, env, cwd, log), forks, answers the
child's pid on stdout and reaps its children; it ends when its stdin closes."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import waitress  # noqa: F401

import skatcalc.app  # noqa: F401  (the app and everything it imports, once)
import skatcalc.server.prefork  # noqa: F401
from skatcalc.server.cli import main


def zygote() -> None:
    def reap(_signum: int, _frame: object) -> None:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass

    signal.signal(signal.SIGCHLD, reap)
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    for line in requests:
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            run(job["args"], job["env"], job["cwd"], job["log"])  # ends with SystemExit
            raise SystemExit(0)
        answers.write(b"%d\n" % pid)
        answers.flush()


def run(args: list[str], env: dict[str, str], cwd: str, log: str) -> None:
    """``skatcalc *args`` as a fresh process runs it, its output appended to ``log``."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(write_through=True)  # as PYTHONUNBUFFERED=1 has it
    os.environ.clear()
    os.environ.update(env)
    time.tzset()  # a new process reads TZ at its start
    os.chdir(cwd)
    sys.argv = ["skatcalc", *args]
    main.main(args=args, prog_name="skatcalc")
