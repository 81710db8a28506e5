"""``skatcalc serve --processes N --max-worker-mb M``: a worker grown past M MB resident is
replaced by a fresh one, gracefully, through the real server (Linux: /proc)."""

from __future__ import annotations

import http.client
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from skatcalc.server.prefork import Prefork
from tests.support import Served, alive, child_pids, cmdline, largest_export_for_run, serve

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not Path("/proc/self/statm").exists(),
    reason="needs fork() and /proc",
)
REPLACED = re.compile(r"worker (\d+) replaced at (\d+) MB")
CHILD = b"from skatcalc.exports.apart import main"
# A worker's bound (MB) between its size when it starts (about 50 MB) and after its first
# pages (about 57 MB; 63 before the page's kept frame): measured on Linux x86-64, Python 3.11
BOUND = 54


@pytest.fixture(scope="module")
def big_export(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return largest_export_for_run(tmp_path_factory, wide=False)


def workers(parent: int) -> set[int]:
    """The parent's workers alive now (a worker may be retired while it is looked at)."""
    return {p for p in child_pids(parent) if (line := cmdline(p)) is not None and CHILD not in line}


def both_workers(srv: Served, deadline: float) -> tuple[int, set[int]]:
    """The parent of ``serve --processes 2`` on ``srv`` and its two workers, once both are up
    (or what is there at ``deadline``)."""
    parent = srv.pid
    while len(workers(parent)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    return parent, workers(parent)


def render_children(pids: set[int]) -> set[int]:
    return {c for p in pids for c in child_pids(p) if CHILD in (cmdline(c) or b"")}


def settled(srv: Served, parent: int) -> set[int] | None:
    """The two workers serving now if no retirement is under way and each has its one render
    child, else None."""
    before = replaced(srv)
    now = workers(parent) - {pid for pid, _ in before}
    children = render_children(now)
    if replaced(srv) == before and len(now) == 2 and len(children) == 2 and workers(parent) >= now:
        return now
    return None


def import_sheet(srv: Served, data: bytes) -> None:
    for _ in range(100):  # 503: the one heavy slot of that worker is taken, as the bench does
        r = srv.call("POST", "/api/v1/sheets/import", data=data,
                     headers={"Content-Type": "application/json"}, timeout=60)  # fmt: skip
        if r.status != 503:
            assert r.status == 201, r.body[:300]
            return
        time.sleep(0.2)
    raise AssertionError("the import was never let in")


def replaced(srv: Served) -> list[tuple[int, int]]:
    return [(int(p), int(mb)) for p, mb in REPLACED.findall(srv.output())]


class Poller:
    """A phone reloading a small sheet's page on a connection of its own each time."""

    def __init__(self, srv: Served, path: str) -> None:
        self.srv, self.path = srv, path
        self.got: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                self.got.append(str(self.srv.call("GET", self.path, timeout=20).status))
            except (OSError, http.client.HTTPException) as exc:
                self.got.append(repr(exc))
            time.sleep(0.02)

    def __enter__(self) -> Poller:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)


def test_grown_workers_are_replaced_while_a_phone_gets_every_answer(
    tmp_path: Path, big_export: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each worker with its render child from its start, as a server runs (the suite's
    # conftest asks for lazy ones): a retired worker must end its child too
    monkeypatch.setenv("SKATCALC_PDF_CHILD", "warm")
    with serve(tmp_path / "r.sqlite", "--processes", "2", "--threads", "4",
               "--max-worker-mb", str(BOUND)) as srv:  # fmt: skip
        deadline = time.monotonic() + 25
        parent, first = both_workers(srv, deadline)
        assert len(first) == 2
        while len(render_children(first)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        first_children = render_children(first)
        sid = srv.call("POST", "/api/v1/sheets",
                       json_body={"game": "skat", "players": ["A", "B", "C"]}).json()["id"]  # fmt: skip
        with Poller(srv, f"/sheets/{sid}") as phone:
            import_sheet(srv, big_export)  # a large import: its worker grows far past the bound
            # Below what a worker takes after its first few pages: the phone's reads alone
            # retire them one after the other. As many retirements as would stop
            # the server if they were crashes.
            while len(replaced(srv)) < Prefork.CRASH_LIMIT and time.monotonic() < deadline:
                time.sleep(0.1)
        done = replaced(srv)
        assert len(done) >= Prefork.CRASH_LIMIT, srv.output()
        assert all(mb >= BOUND for _, mb in done)
        assert "wird ersetzt / replaced" not in srv.output()  # no crash seen by the parent
        # the phone got every answer, none refused, reset or failed
        assert phone.got and set(phone.got) == {"200"}, sorted(set(phone.got))
        retired = {pid for pid, _ in done}
        wait = time.monotonic() + 10
        while any(alive(p) for p in retired) and time.monotonic() < wait:
            time.sleep(0.1)
        assert not any(alive(p) for p in retired)  # each retired worker ended
        assert first_children and not any(alive(p) for p in first_children)  # with its render child
        # A look between two retirements (the phone's last reads may still retire one): each
        # slot one worker serving, each with its render child (started after its app)
        wait = time.monotonic() + 30
        while (now := settled(srv, parent)) is None and time.monotonic() < wait:
            time.sleep(0.05)
        assert now is not None, srv.output()
        assert not now & first
        # SIGTERM still stops everything: the parent, the workers, their render children
        everyone = now | render_children(now)
        os.kill(parent, signal.SIGTERM)
        wait = time.monotonic() + 20
        while alive(parent) and time.monotonic() < wait:
            time.sleep(0.1)
        assert "stopped" in srv.output() and "Traceback" not in srv.output()
        assert not any(alive(p) for p in everyone)


def test_without_the_bound_no_worker_is_replaced(tmp_path: Path, big_export: bytes) -> None:
    with serve(tmp_path / "o.sqlite", "--processes", "2", "--threads", "4",
               "--max-worker-mb", "0") as srv:  # fmt: skip
        parent, first = both_workers(srv, time.monotonic() + 20)
        import_sheet(srv, big_export)  # its worker grows to about 110 MB
        time.sleep(Prefork.MIN_AGE + 2 * Prefork.POLL)
        assert workers(parent) == first
        assert not replaced(srv)


def test_one_process_serves_on_and_says_the_bound_needs_processes(tmp_path: Path) -> None:
    with serve(tmp_path / "s.sqlite", "--max-worker-mb", "50") as srv:
        assert srv.call("GET", "/api/v1/sheets/0").status == 404
        assert "--max-worker-mb" in srv.output() and "ignored" in srv.output()
