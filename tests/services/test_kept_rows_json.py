"""The deals of a sheet's JSON are kept joined as last sent (``cache.ROWS_UTF8``): whatever
happens to the rows between two answers (a row appended, one replaced, rows dropped, another
``dumps``, every cache cleared), the answer is the sheet written afresh."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.services import cache
from skatcalc.services import sheets as service


def sorted_dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def ascii_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)


rows = st.dictionaries(st.sampled_from(["n", "title", "deltas", "ä"]), st.integers() | st.text())
steps = st.lists(
    st.tuples(
        st.sampled_from(["append", "append", "replace", "drop", "clear", "dumps"]),
        st.integers(min_value=0, max_value=20),
        rows,
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(steps=steps, piece=st.sampled_from([1, 2, 3, 50]))
def test_the_answer_is_the_sheet_written_afresh(
    steps: list[tuple[str, int, dict[str, Any]]], piece: int
) -> None:
    cache.clear()
    deals: list[cache.KeptJson] = []
    dumps = sorted_dumps
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(service, "ROWS_PER_PIECE", piece)
        for what, at, row in steps:
            if what == "append":
                deals = [*deals, cache.KeptJson(row)]
            elif what == "replace" and deals:  # a correction: a new row object from there on
                k = at % len(deals)
                deals = [*deals[:k], cache.KeptJson(row), *deals[k + 1 :]]
            elif what == "drop":
                deals = deals[: at % (len(deals) + 1)]
            elif what == "clear":
                cache.clear()
            else:
                dumps = ascii_dumps if dumps is sorted_dumps else sorted_dumps
            out = {"id": 1, "totals": {"A": at}, "deals": deals}
            sent = b"".join(service.sheet_utf8_pieces(out, dumps, ("token", "de")))
            assert sent == dumps(out).encode("utf-8")


def test_a_save_joins_only_its_new_row(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    deals = [cache.KeptJson({"n": n}) for n in range(1, 49)]
    b"".join(service.sheet_utf8_pieces({"deals": deals}, sorted_dumps, ("t", "de")))
    asked: list[object] = []
    encoded = cache.KeptJson.encoded_utf8

    def counted(row: cache.KeptJson, dumps: Any) -> bytes:
        asked.append(row)
        return encoded(row, dumps)

    monkeypatch.setattr(cache.KeptJson, "encoded_utf8", counted)
    new = cache.KeptJson({"n": 49})
    out = {"deals": [*deals, new]}
    again = b"".join(service.sheet_utf8_pieces(out, sorted_dumps, ("t", "de")))
    assert again == sorted_dumps(out).encode("utf-8")
    assert asked == [new]
