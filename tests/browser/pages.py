"""What the browser tests' kept pages share (the fixtures are in tests/browser/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: A page of a kept context: ``kept_page(viewport, **context_options)``.
KeptPage = Callable[..., Any]


def wipe(ctx: Any, pg: Any) -> None:
    """What a test left on a kept page: the storage of the origin it was on, the page, every
    cookie (cookies are per host, not per port: the servers of other modules share them)."""
    if pg.url.startswith("http"):
        pg.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    pg.goto("about:blank")
    ctx.clear_cookies()
    ctx.set_offline(False)
