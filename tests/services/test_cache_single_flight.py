"""A sheet's per-revision entry asked for by several requests at once is made once
(cache.derived): a 1,000-deal sheet's JSON and page asked together in both languages made
one copy of its computation per request, tens of MB each."""

from __future__ import annotations

import threading
import time

from skatcalc.services import cache


def test_an_entry_asked_for_at_once_is_made_once() -> None:
    cache.clear()
    made: list[int] = []
    started = threading.Event()

    def make() -> list[int]:
        started.set()
        time.sleep(0.3)  # long enough for every other request to ask meanwhile
        made.append(1)
        return [1, 2, 3]

    got: list[object] = []
    first = threading.Thread(target=lambda: got.append(cache.derived("t", 1, ("x",), make)))
    first.start()
    started.wait(5)
    others = [
        threading.Thread(target=lambda: got.append(cache.derived("t", 1, ("x",), make)))
        for _ in range(5)
    ]
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join()
    assert len(made) == 1
    assert len(got) == 6 and all(g is got[0] for g in got)  # the one result, shared
    assert not cache._MAKING


def test_other_entries_and_revisions_do_not_wait() -> None:
    cache.clear()
    gate = threading.Event()

    def slow() -> str:
        gate.wait(5)
        return "slow"

    t = threading.Thread(target=cache.derived, args=("t", 1, ("slow",), slow))
    t.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    assert cache.derived("t", 1, ("quick",), lambda: "quick") == "quick"
    assert cache.derived("t", 2, ("slow",), lambda: "newer") == "newer"
    assert time.monotonic() - t0 < 1
    gate.set()
    t.join()


def test_a_failing_make_lets_the_next_request_try() -> None:
    cache.clear()

    def fail() -> str:
        raise ValueError("no")

    try:
        cache.derived("t", 1, ("x",), fail)
    except ValueError:
        pass
    assert cache.derived("t", 1, ("x",), lambda: "ok") == "ok"
    assert not cache._MAKING
