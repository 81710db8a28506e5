"""What every request pays before and after its view, made cheaper, does what it did: the
write slots stay first come first served, the API's language without Accept-Language is
German, the request's state is one per request, and a body is refused or read as before."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.web import http
from skatcalc.web.http import WriteSlots
from skatcalc.web.request_state import state


def test_a_free_slot_is_taken_at_once_and_given_back() -> None:
    slots = WriteSlots(2, wait=0.5)
    assert slots.enter() and slots.enter() and slots.busy == 2
    assert not slots.enter()  # both taken: after the wait, refused
    slots.leave()
    assert slots.enter() and slots.busy == 2


def test_a_newcomer_does_not_pass_a_write_that_waits() -> None:
    slots = WriteSlots(1, wait=5.0)
    assert slots.enter()
    order: list[str] = []

    def write(name: str) -> None:
        assert slots.enter()
        order.append(name)
        time.sleep(0.01)
        slots.leave()

    first = threading.Thread(target=write, args=("first",))
    first.start()
    while not slots._queue:  # the first one waits in line
        time.sleep(0.001)
    second = threading.Thread(target=write, args=("second",))
    second.start()
    while len(slots._queue) < 2:
        time.sleep(0.001)
    slots.leave()
    first.join()
    second.join()
    assert order == ["first", "second"] and slots.busy == 0


@pytest.mark.parametrize(("header", "lang"), [(None, "de"), ("", "de"), ("en", "en"),
                                              ("fr, en;q=0.5", "en"), ("fr", "de")])  # fmt: skip
def test_the_api_answers_in_the_language_asked_else_german(
    app: Flask, header: str | None, lang: str
) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    r = app.test_client().post("/api/v1/sheets", json={"game": "nope"}, headers=headers)
    assert r.status_code == 422
    text = str(r.get_json()["errors"])
    assert ("Erlaubt" in text) == (lang == "de") and ("Allowed" in text) == (lang == "en")


def test_the_state_is_the_request_s_own(app: Flask) -> None:
    with pytest.raises(RuntimeError):
        state()
    with app.test_request_context("/"):
        held = state()
        assert state() is held
    with app.test_request_context("/"):
        assert state() is not held


def _walked(raw: bytes) -> object:
    """``parse_json`` as it was: every body parsed, then walked whole."""
    value = json.loads(raw.decode("utf-8"), parse_constant=http._reject_constant)
    http._storable(value)
    return value


def _outcome(parse: Callable[[bytes], object], raw: bytes) -> tuple[str, object]:
    try:
        return "ok", parse(raw)
    except (http.BadJSON, ValueError, RecursionError):
        return "refused", None


json_texts = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
).map(lambda v: json.dumps(v, ensure_ascii=False))
tricky = st.sampled_from(['"\\ud800"', '{"a": "\\udfff"}', "1e400", "-1e400", "[1.5e308, 2e308]",
                          "1" * 5000, '"\\\\u0041"', "[" * 201 + "]" * 201,
                          "[" * 202 + "]" * 202, "[" * 200 + "1" + "]" * 200,
                          "[" * 201 + "1" + "]" * 201, "NaN", "Infinity", '{"x": 1.0}'])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(text=json_texts | tricky, wrap=st.booleans())
def test_a_body_is_refused_or_read_as_the_whole_walk_did(text: str, wrap: bool) -> None:
    raw = (f'{{"deal": {text}}}' if wrap else text).encode("utf-8", "surrogatepass")
    assert _outcome(http.parse_json, raw) == _outcome(_walked, raw)
