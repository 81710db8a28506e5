"""The rules' texts in both languages are exactly what they were before they became catalogue
msgids (tests/i18n_snapshot.py says how the snapshot was made and what it covers)."""

from __future__ import annotations

import json

import pytest

from tests.i18n_snapshot import PARTS, SNAPSHOT, collect, part_of


@pytest.mark.parametrize("part", PARTS)
def test_every_rule_text_is_unchanged_in_both_languages(part: str) -> None:
    snapshot = json.loads(SNAPSHOT.read_text())
    assert {part_of(case) for case in snapshot} == set(PARTS)  # the parts cover every case
    before = {case: text for case, text in snapshot.items() if part_of(case) == part}
    now = collect(part)
    assert now.keys() == before.keys()
    changed = [k for k in before if now[k] != before[k]]
    assert changed == [], "\n".join(f"{k}\n  was {before[k]}\n  now {now[k]}" for k in changed[:5])
