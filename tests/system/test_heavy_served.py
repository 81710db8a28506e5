"""Heavy reads through the real server (``skatcalc serve``): beyond ``--heavy-reads`` they are
told to come back (503 + Retry-After) while a sheet's page still answers, and a sheet's PDF
renders in a child process of the server that ends with it."""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.support import Served, alive, child_pids, cmdline, largest_export_for_run, serve

CHILD = "from skatcalc.exports.apart import main"


@pytest.fixture(autouse=True)
def warm_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the child as a server runs it (the suite's conftest may ask the
    servers it starts for a lazy one)."""
    monkeypatch.setenv("SKATCALC_PDF_CHILD", "warm")


@pytest.fixture(scope="module")
def big_export(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return largest_export_for_run(tmp_path_factory, wide=False)


def _children(server: Served) -> set[int]:
    """The render children of ``server``: its own or its workers'."""
    parents = [server.pid, *child_pids(server.pid)]
    return {c for p in parents for c in child_pids(p) if CHILD.encode() in (cmdline(c) or b"")}


def _sheet(s: Served, deals: int) -> int:
    r = s.call("POST", "/api/v1/sheets", json_body={"game": "skat", "players": ["A", "B", "C"]})
    sid: int = r.json()["id"]
    for _ in range(deals):
        deal = {"declarer": "A", "game": "grand", "matadors": 2, "with": True,
                "declarer_points": 75}  # fmt: skip
        assert s.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=deal).status == 201
    return sid


def test_heavy_reads_beyond_the_bound_come_back_later_while_pages_answer(
    tmp_path: Path, big_export: bytes
) -> None:
    with serve(tmp_path / "h.sqlite", "--threads", "4", "--heavy-reads", "1") as s:
        big = s.call("POST", "/api/v1/sheets/import", data=big_export,
                     headers={"Content-Type": "application/json"}, timeout=120)  # fmt: skip
        assert big.status == 201
        sid = big.json()["id"]
        small = _sheet(s, 3)
        # six first reads of a 1,000-deal sheet at once, each a second of CPU to make
        paths = [f"/api/v1/sheets/{sid}", f"/sheets/{sid}/export.json",
                 f"/api/v1/sheets/{sid}/export.csv"]  # fmt: skip
        asks = [(p, lang) for p in paths for lang in ("de", "en")]
        answers: list[tuple[int, str | None, bytes]] = []

        def ask(path: str, lang: str) -> None:
            r = s.call("GET", path, headers={"Accept-Language": lang, "Accept-Encoding": "gzip"},
                       timeout=120)  # fmt: skip
            answers.append((r.status, r.headers.get("Retry-After"), r.body))

        threads = [threading.Thread(target=ask, args=a) for a in asks]
        for t in threads:
            t.start()
        page_times = []
        while any(t.is_alive() for t in threads):
            t0 = time.monotonic()
            assert s.call("GET", f"/sheets/{small}").status == 200
            assert s.call("GET", f"/sheets/{small}/rev").status == 200
            page_times.append(time.monotonic() - t0)
        for t in threads:
            t.join()
        statuses = sorted(a[0] for a in answers)
        assert 503 in statuses and set(statuses) <= {200, 503}, statuses
        for status, retry, _body in answers:
            if status == 503:
                assert retry is not None and int(retry) >= 1
        assert page_times  # the phone's reads were answered meanwhile
        # asked again, each is answered, the large ones sent packed as kept
        r = s.call("GET", f"/api/v1/sheets/{sid}", headers={"Accept-Encoding": "gzip"},
                   timeout=120)  # fmt: skip
        assert r.status == 200 and r.headers["Content-Encoding"] == "gzip"
        assert len(json.loads(gzip.decompress(r.body))["deals"]) == 1000


def _undated(pdf: bytes) -> bytes:
    return re.sub(rb"/CreationDate \(D:\d+Z\)|/ID \[<[0-9A-F]+><[0-9A-F]+>\]", b"", pdf)


def _cpu(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _settled(pid: int, timeout: float = 60) -> float:
    """Process ``pid``'s CPU seconds once it has stopped using any (done warming up)."""
    deadline = time.monotonic() + timeout
    last = _cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(1.0)  # a child at a lower priority on a busy machine waits for slices
        now = _cpu(pid)
        if now == last:
            return now
        last = now
    raise AssertionError(f"process {pid} kept using CPU for {timeout} s")


def _one_child(s: Served, other_than: int = 0, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [pid for pid in _children(s) if pid != other_than and alive(pid)]
        if found:
            assert len(found) == 1, found
            return found[0]
        time.sleep(0.1)
    raise AssertionError("no render child")


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_a_pdf_renders_in_a_warm_child_started_with_the_server_and_ending_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatcalc import create_app

    monkeypatch.delenv("SKATCALC_PDF_CHILD_NICE", raising=False)  # as a server runs it
    db = tmp_path / "p.sqlite"
    with serve(db) as s:
        child = _one_child(s)  # up before the first request
        warmed = _settled(child)
        # below its server: the phones' reads get the CPU first
        assert _nice(child) == min(19, _nice(os.getpid()) + 10)
        # it did the imports and a small render by itself: fpdf2 and the rules alone take
        # over a second of CPU, which the first download no longer waits for
        assert warmed > 0.3, warmed
        sid = _sheet(s, 4)
        r = s.call("GET", f"/sheets/{sid}/export.pdf?lang=en", timeout=60)
        assert r.status == 200 and r.body.startswith(b"%PDF")
        assert _children(s) == {child}  # the render was the warm child's
        spent = _settled(child) - warmed
        assert spent < warmed / 2, (spent, warmed)  # a render only, nothing loaded
        assert s.call("GET", f"/sheets/{sid}/export.pdf", timeout=60).status == 200
        assert _children(s) == {child}  # one child, kept for the next
        # killed (out of memory, by hand): the next is started at once, without a request
        os.kill(child, signal.SIGKILL)
        second = _one_child(s, other_than=child)
        _settled(second)
        r2 = s.call("GET", f"/sheets/{sid}/export.pdf?lang=en&again=1", timeout=60)
        assert r2.status == 200 and r2.body.startswith(b"%PDF")
        assert {p for p in _children(s) if alive(p)} == {second}
    children = {child, second}
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in children)  # no render process outlives the server
    # the same bytes as a render in the process itself
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "t"})
    here = app.test_client().get(f"/sheets/{sid}/export.pdf?lang=en").data
    assert _undated(here) == _undated(r.body)


def test_each_worker_of_serve_processes_starts_its_own_render_child(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    with serve(db, "--processes", "2") as s:
        deadline = time.monotonic() + 30
        while len({p for p in _children(s) if alive(p)}) < 2:
            assert time.monotonic() < deadline, _children(s)
            time.sleep(0.1)
        parents = {int(Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[1])
                   for p in _children(s) if alive(p)}  # fmt: skip
        assert len(parents) == 2  # one per worker, none in the parent


def test_a_large_sheets_json_and_csv_are_made_in_the_render_child_as_they_would_be_here(
    tmp_path: Path, big_export: bytes
) -> None:
    from skatcalc import create_app

    db = tmp_path / "j.sqlite"
    paths = [("/api/v1/sheets/{sid}", "de"), ("/api/v1/sheets/{sid}", "en"),
             ("/sheets/{sid}/export.json", "de"), ("/api/v1/sheets/{sid}/export.csv", "en")]  # fmt: skip
    with serve(db) as s:
        big = s.call("POST", "/api/v1/sheets/import", data=big_export,
                     headers={"Content-Type": "application/json"}, timeout=120)  # fmt: skip
        assert big.status == 201
        sid = big.json()["id"]
        child = _one_child(s)
        _settled(child)
        served = []
        for path, lang in paths:
            before = _cpu(child)
            r = s.call("GET", path.format(sid=sid), timeout=120,
                       headers={"Accept-Language": lang, "Accept-Encoding": "gzip"})  # fmt: skip
            assert r.status == 200 and r.headers["Content-Encoding"] == "gzip"
            assert _cpu(child) - before > 0.1  # computed and written by the child
            served.append(gzip.decompress(r.body))
            # a client without gzip gets the same bytes unpacked
            plain = s.call("GET", path.format(sid=sid), timeout=120,
                           headers={"Accept-Language": lang})  # fmt: skip
            assert plain.status == 200 and plain.body == served[-1]
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "t"})
    c = app.test_client()
    for (path, lang), body in zip(paths, served, strict=True):
        here = c.get(path.format(sid=sid), headers={"Accept-Language": lang})
        assert here.status_code == 200 and here.data == body, path


def test_a_lazy_child_starts_at_the_first_pdf_without_a_warm_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKATCALC_PDF_CHILD", "lazy")
    db = tmp_path / "l.sqlite"
    with serve(db) as s:
        sid = _sheet(s, 2)
        assert s.call("GET", f"/sheets/{sid}").status == 200
        assert not _children(s)  # no child while nobody asked for a PDF
        r = s.call("GET", f"/sheets/{sid}/export.pdf", timeout=60)
        assert r.status == 200 and r.body.startswith(b"%PDF")
        child = _one_child(s)
        assert "main(warm=False)" in Path(f"/proc/{child}/cmdline").read_bytes().decode()


@pytest.mark.parametrize(("given", "nice"), [(None, 10), ("0", 0), ("19", 19), ("7", 7),
                                             ("20", 10), ("-1", 10), ("x", 10), ("", 10)])  # fmt: skip
def test_the_childs_priority_is_set_by_the_environment_within_nices_range(
    monkeypatch: pytest.MonkeyPatch, given: str | None, nice: int
) -> None:
    from skatcalc.exports.apart import child_nice

    if given is None:
        monkeypatch.delenv("SKATCALC_PDF_CHILD_NICE", raising=False)
    else:
        monkeypatch.setenv("SKATCALC_PDF_CHILD_NICE", given)
    assert child_nice() == nice
