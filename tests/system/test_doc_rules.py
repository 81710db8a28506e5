"""The docs read as a reference for today's code: lines a terminal shows whole, no tags that
say when or why a part was added (git log keeps the history), and one dated table of figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
# what a history note looks like: an issue or session number, an "addition" tag
HISTORY = re.compile(
    r"\((?:an? )?addition\)|\*addition\*|\b(?:issue|session|round) \d+|#\d{2,}\b|"
    r"\bdone again\b|\blast run\b",
    re.IGNORECASE,
)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_lines_are_at_most_100_characters(path: Path) -> None:
    long = [f"{n}: {len(line)}" for n, line in enumerate(_lines(path), 1) if len(line) > 100]
    assert not long, f"{path.name}: lines over 100 characters: {long}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_no_history_in_the_reference(path: Path) -> None:
    found = [
        f"{n}: {m.group(0)}"
        for n, line in enumerate(_lines(path), 1)
        for m in HISTORY.finditer(line)
    ]
    assert not found, f"{path.name}: {found}"


def _tables(text: str) -> list[list[str]]:
    tables: list[list[str]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def test_the_figures_are_one_dated_table() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    tables = _tables(text)
    assert len(tables) == 1, "docs/benchmarks.md: the current figures in one table"
    header = [cell.strip().lower() for cell in tables[0][0].strip("| ").split("|")]
    assert "measured" in header, header
    column = header.index("measured")
    for row in tables[0][2:]:
        cell = row.strip("| ").split("|")[column].strip()
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", cell), row


def test_the_rule_catches_history() -> None:
    assert HISTORY.search("reads p99 < 200 ms (issue 22)")
    assert HISTORY.search("* `kontra` *(addition)*")
    assert not HISTORY.search("one level or addition per line")
