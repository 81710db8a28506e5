"""The last computation's signature is measured by arithmetic, not walked (a save makes a new
one, one item longer): what it says stays close to what ``approx_size`` finds walking it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.services import cache


@st.composite
def signatures(draw: st.DrawFn) -> tuple[tuple[int, int, bool], ...]:
    # each item's version and stroke from a byte string (one draw for all of them): lists of
    # up to 1,200 drawn integers and booleans cost Hypothesis some 5 CPU-s for the 60 examples
    n = draw(st.integers(0, 1200))
    versions = [b % 41 for b in draw(st.binary(min_size=n, max_size=n))]
    struck = [bool(b & 1) for b in draw(st.binary(min_size=n, max_size=n))]
    return tuple((k + 1, versions[k], struck[k]) for k in range(n))


@settings(max_examples=60, deadline=None)
@given(signatures())
def test_a_signature_measures_about_what_walking_it_finds(
    signature: tuple[tuple[int, int, bool], ...],
) -> None:
    worked_out = cache.signature_size(signature)
    walked = cache.approx_size(signature)
    assert 0.75 * walked <= worked_out <= 1.35 * walked, (len(signature), worked_out, walked)


def test_the_last_computation_is_kept_without_walking_its_signature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walked: list[object] = []
    real = cache.approx_size

    def watching(value: object) -> int:
        walked.append(value)
        return real(value)

    monkeypatch.setattr(cache, "approx_size", watching)
    signature = tuple((k + 1, 0, False) for k in range(49))
    computation = {"rows": [1, 2, 3]}
    try:
        cache.LATEST_COMPUTED.put("t", (signature, computation))  # type: ignore[arg-type]
    finally:
        cache.LATEST_COMPUTED.clear()
    assert walked == [computation]
