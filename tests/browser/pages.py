"""What the browser tests' kept pages share (the fixtures are in tests/browser/conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: A page of a kept context: ``kept_page(viewport, **context_options)``.
KeptPage = Callable[..., Any]


class Kept:
    """A kept context and its one page, with what ``wipe`` needs: a CDP session of the page, the
    origins the page has been on (each may hold a service worker, its caches and storage) and
    the listeners the context and page had when they were made."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.pg = ctx.new_page()
        self.cdp = ctx.new_cdp_session(self.pg)
        self.origins: set[str] = set()
        self.pg.on("framenavigated", self._seen)
        self.listeners = listeners(self.ctx, self.pg)

    def _seen(self, frame: Any) -> None:
        m = ORIGIN.match(frame.url)
        if m:
            self.origins.add(m.group(0))


ORIGIN = re.compile(r"https?://[^/]+")


def listeners(ctx: Any, pg: Any) -> dict[str, int]:
    """How many listeners the context and the page have, by event (Playwright's own are not
    among them: a new context has none but ``close``, a new page ``close`` and ``crash``)."""
    out = {}
    for where, obj in (("context", ctx), ("page", pg)):
        impl = obj._impl_obj
        for event in impl.event_names():
            out[f"{where}.{event}"] = len(impl.listeners(event))
    return out


def wipe(kept: Kept) -> None:
    """Leave a kept page as clean as a page of a new context: on about:blank with no history
    (Back would reach the previous test's page), no cookies (they are per host, not per port:
    the servers of other modules share them), nothing the origins it was on hold (local and
    session storage, IndexedDB, the service worker the app registers and its caches: a worker
    left registered answers the next test's pages on that origin), an empty HTTP cache (a
    sheet's page kept there holds the CSRF token of the session its cookie was, and the server
    answers 304 to it by the sheet's revision), online, no permissions, no routes. What is
    cheap to check is checked: a test that leaves state the wipe cannot clear fails here."""
    ctx, pg, cdp = kept.ctx, kept.pg, kept.cdp
    if pg.url.startswith("http"):
        # session storage belongs to the tab, not the origin: clearDataForOrigin leaves it
        pg.evaluate("() => sessionStorage.clear()")
    pg.goto("about:blank")
    cdp.send("Page.resetNavigationHistory")
    ctx.unroute_all(behavior="wait")
    pg.unroute_all(behavior="wait")
    ctx.clear_cookies()
    ctx.clear_permissions()
    ctx.set_offline(False)
    ctx.set_extra_http_headers({})
    for origin in sorted(kept.origins):
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    cdp.send("Network.clearBrowserCache")
    left = {
        origin: usage
        for origin in sorted(kept.origins)
        if (usage := cdp.send("Storage.getUsageAndQuota", {"origin": origin})["usage"])
    }
    kept.origins.clear()
    assert left == {}, f"storage left on a kept page after its wipe: {left}"
    assert ctx.cookies() == [], "cookies left on a kept page after its wipe"
    history = cdp.send("Page.getNavigationHistory")["entries"]
    assert [e["url"] for e in history] == ["about:blank"], f"history left: {history}"
    assert listeners(ctx, pg) == kept.listeners, (
        f"a test left listeners on a kept page: {listeners(ctx, pg)} (new: {kept.listeners})"
    )


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
