"""``skatcalc serve --processes N``: one port served by N forked workers (Linux/POSIX)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from skatcalc.server.cli import main
from tests.support import child_pids, free_port

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not Path("/proc/self/task").is_dir(),
    reason="needs fork() and /proc",
)
ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_for(condition: object, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def call(port: int, method: str, path: str, body: object = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes, http.client.HTTPResponse]:  # fmt: skip
    """One request on a connection of its own (so the workers share them out)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        return r.status, r.read(), r
    finally:
        conn.close()


def answering(port: int) -> bool:
    try:
        return call(port, "GET", "/api/v1/sheets/0")[0] == 404
    except OSError:
        return False


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.server.cli", "serve", "--port", str(port),
         "--db", str(tmp_path / "p.sqlite"), "--processes", "2", "--threads", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        wait_for(lambda: answering(port), "the server to answer")
        wait_for(lambda: len(child_pids(proc.pid)) == 2, "two workers")
        yield proc, port
    finally:
        workers = child_pids(proc.pid) if proc.poll() is None else []
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.communicate(timeout=15)  # also closes the pipes
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_writes_from_many_connections_all_land_and_both_workers_answer(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = server
    workers = child_pids(proc.pid)
    before = {pid: cpu_ticks(pid) for pid in workers}
    status, body, _ = call(port, "POST", "/api/v1/sheets", {"game": "skat",
                                                             "players": ["A", "B", "C"]})  # fmt: skip
    assert status == 201, body
    sid = json.loads(body)["id"]
    deal = {"game": "grand", "declarer": "A", "with": True, "matadors": 1,
            "declarer_points": 70}  # fmt: skip
    failures: list[str] = []

    def add(n: int) -> None:
        for _ in range(n):
            for _try in range(200):  # 503 "busy, save again" (write slots): as a phone would
                st, b, _r = call(port, "POST", f"/api/v1/sheets/{sid}/deals", deal)
                if st != 503:
                    break
                time.sleep(0.02)
            if st not in (200, 201):
                failures.append(f"{st} {b[:200]!r}")

    threads = [threading.Thread(target=add, args=(5,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures
    # All 40 deals are there, whichever worker is asked, and every connection sees the same
    # revision and the same page tag (of one browser: the tag is bound to its session).
    _st, _b, first = call(port, "GET", f"/sheets/{sid}")
    browser = {"Cookie": (first.getheader("Set-Cookie") or "").split(";")[0]}
    revs, tags = set(), set()
    for _ in range(12):
        st, b, _r = call(port, "GET", f"/api/v1/sheets/{sid}")
        assert st == 200 and len(json.loads(b)["deals"]) == 40
        st, b, _r = call(port, "GET", f"/sheets/{sid}/rev")
        assert st == 200
        revs.add(b)
        st, _b, r = call(port, "GET", f"/sheets/{sid}", headers=browser)
        assert st == 200
        tags.add(r.getheader("ETag"))
    assert len(revs) == 1 and len(tags) == 1 and None not in tags

    # Both workers did part of the work (their CPU time grew); more requests until they have.
    def both_worked() -> bool:
        if all(cpu_ticks(pid) > before[pid] for pid in workers):
            return True
        for _ in range(10):
            call(port, "GET", f"/sheets/{sid}")
        return False

    wait_for(both_worked, "both workers to answer")
    assert child_pids(proc.pid) == workers  # no worker died on the way


def test_a_form_token_from_one_worker_holds_at_the_other(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    """All workers sign with the one secret key: sessions and CSRF tokens hold across them."""
    _proc, port = server
    st, page, r = call(port, "GET", "/sheets")
    assert st == 200
    cookie = r.getheader("Set-Cookie", "").split(";")[0]
    token = page.decode().split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    form = urllib.parse.urlencode({"csrf_token": token, "game": "skat", "p1": "A", "p2": "B",
                                   "p3": "C", "first_dealer": "1"})  # fmt: skip
    for _ in range(10):  # fresh connections: both workers get some of them
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("POST", "/sheets", body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})  # fmt: skip
        resp = conn.getresponse()
        resp.read()
        conn.close()
        assert resp.status in (302, 303)


def test_a_dead_worker_is_replaced(server: tuple[subprocess.Popen[bytes], int]) -> None:
    proc, port = server
    first, second = child_pids(proc.pid)
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: first not in child_pids(proc.pid) and len(child_pids(proc.pid)) == 2,
             "a new worker")  # fmt: skip
    assert second in child_pids(proc.pid)
    for _ in range(6):
        assert answering(port)
    assert proc.poll() is None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_every_process(server: tuple[subprocess.Popen[bytes], int],
                                      sig: signal.Signals) -> None:  # fmt: skip
    proc, port = server
    workers = child_pids(proc.pid)
    assert len(workers) == 2 and all(alive(p) for p in workers)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert b"stopped" in out and b"Traceback" not in err
    for pid in workers:  # reaped by the parent: gone, not orphaned
        assert not alive(pid)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_processes_need_fork(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delattr(os, "fork")
    result = CliRunner().invoke(
        main, ["serve", "--processes", "2", "--db", str(tmp_path / "x.sqlite")]
    )
    assert result.exit_code == 2 and "fork" in result.output
    assert not (tmp_path / "x.sqlite").exists()


def test_processes_must_be_positive(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--processes", "0", "--db", str(tmp_path / "x.sqlite")]
    )
    assert result.exit_code == 2 and "--processes" in result.output
