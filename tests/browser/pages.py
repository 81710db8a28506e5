"""What the browser tests' kept pages share (the fixtures are in tests/browser/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: A page of a kept context: ``kept_page(viewport, **context_options)``.
KeptPage = Callable[..., Any]


def wipe(ctx: Any, pg: Any) -> None:
    """What a test left on a kept page: the storage of the origin it was on, the page, every
    cookie (cookies are per host, not per port: the servers of other modules share them), the
    HTTP cache (a sheet's page kept there holds the CSRF token of the session its cookie was,
    and the server answers 304 to it by the sheet's revision: a fresh context has none)."""
    if pg.url.startswith("http"):
        pg.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    pg.goto("about:blank")
    ctx.clear_cookies()
    ctx.set_offline(False)
    cdp = ctx.new_cdp_session(pg)
    try:
        cdp.send("Network.clearBrowserCache")
    finally:
        cdp.detach()


class Outside:
    """The requests that leave the machine: ``watch(pg, server)`` notes each request of the
    page's context to anything but ``server`` in ``urls``, until ``stop()`` (the ``outside``
    fixture stops after the test: a kept context keeps no listener of a test)."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self._watched: list[tuple[Any, Callable[[Any], None]]] = []

    def watch(self, pg: Any, server: str) -> Any:
        def seen(request: Any) -> None:
            if not request.url.startswith(server):
                self.urls.append(request.url)

        pg.context.on("request", seen)
        self._watched.append((pg.context, seen))
        return pg

    def stop(self) -> None:
        for ctx, seen in self._watched:
            ctx.remove_listener("request", seen)
        self._watched.clear()
