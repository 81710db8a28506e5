"""The sheet page's strip, table foot and standings are drawn once per shape, with a hole for
each value, and filled for each page (``sheet_view._Shaped``): after any sequence of changes
every view of the page is byte for byte the page with those blocks rendered whole and every
cache cleared (the CSRF token and the idempotency key aside)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from skatcalc.services import cache
from skatcalc.web import sheet_view
from tests.web.test_kept_panes import CHANGES, Table, _app


@contextmanager
def whole_blocks() -> Iterator[None]:
    """Every block rendered whole, as before the shapes."""
    shaped, sheet_view.SHAPED_PARTS = sheet_view.SHAPED_PARTS, frozenset()
    try:
        yield
    finally:
        sheet_view.SHAPED_PARTS = shaped


@pytest.mark.parametrize(("game", "lan"), [("skat", True), ("schafkopf", False)])
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=st.lists(st.sampled_from([*CHANGES, "add", "add"]), min_size=1, max_size=6))
def test_every_view_with_shaped_parts_is_the_page_rendered_whole(
    tmp_path_factory: pytest.TempPathFactory, game: str, lan: bool, changes: list[str]
) -> None:
    table = Table(_app(tmp_path_factory.mktemp("shapes"), lan), game, lan)
    for k in range(3):
        table.add(k)
    table.pages()  # shapes kept for an earlier state
    for k, what in enumerate(changes):
        table.change(what, k)
        shaped = table.pages()
        cache.clear()
        with whole_blocks():
            whole = table.pages()
        for a, b in zip(shaped, whole, strict=True):
            assert a == b, (changes[: k + 1], a.splitlines()[0])


def test_a_value_of_no_holes_kind_renders_the_blocks_whole() -> None:
    holes = sheet_view._Holes("c")
    assert holes.probe([Markup("<b>"), "", 0, None, True]) == [
        Markup("\x00hc0\x00"), "", Markup("\x00hc1\x00"), None, True,
    ]  # fmt: skip
    assert holes.leaves == [Markup("<b>"), 0]
    with pytest.raises(TypeError):
        sheet_view._Holes("c").probe([object()])


def test_a_shapes_text_keeps_its_braces() -> None:
    """A name such as "{0}" in a block's text stays text; only the holes are filled."""
    shape, used = sheet_view._shape_format('<b title="{0}">\x00hc1\x00</b>}{\x00hv0\x00\x00h-\x00')
    assert used == {"c", "v", ""}
    assert shape.format(["a", "{1}"], [], ["&lt;"], ["tok"]) == '<b title="{0}">{1}</b>}{&lt;tok'
