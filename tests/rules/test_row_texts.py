"""A row's JSON translates each step of its explanation once: its result and the row show the
same steps (the very objects), and translating them twice each was half of a row's cost."""

from __future__ import annotations

from typing import Any

import pytest

from skatcalc import serialize
from skatcalc.text import translate
from tests.known_good import EVENINGS
from tests.rules.test_typed_rows import computed_evening


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", EVENINGS)
def test_each_step_is_translated_once_a_row(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _game, _players, _stake, computed = computed_evening(name)
    asked: list[object] = []

    def counting(text: Any, lang: str, /, **kw: Any) -> str:
        asked.append(text)
        return translate(text, lang, **kw)

    monkeypatch.setattr(serialize, "translate", counting)
    for row in computed.rows:
        asked.clear()
        out = serialize.row_json(row, lang)
        steps = {*(row.result.steps if row.result else ()), *row.steps}
        msgs = [m for s in steps for m in (s.text, s.rule)]
        assert sorted(map(id, [a for a in asked if any(a is m for m in msgs)])) == sorted(
            map(id, msgs)
        ), row.n
        if row.error is None:  # the texts are the steps' own, in both places
            texts = [translate(s.text, lang) for s in row.steps]
            assert out["explanation"] == texts
            rules = [translate(s.rule, lang) for s in row.steps]
            assert out["steps"] == [
                {"text": t, "rule": r} for t, r in zip(texts, rules, strict=True)
            ]
        if row.result is not None:
            result = out["result"]
            assert result["explanation"] == [translate(s.text, lang) for s in row.result.steps]
