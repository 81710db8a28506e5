"""Fixtures of the browser tests (the run's one Chromium, ``browser``, is in tests/conftest.py).

A new context and page cost Chromium a new renderer process and the browser process a new
tab: about a CPU-second, three times a page load within a page that goes on. ``kept_page``
hands a test a page of a context the worker keeps for its whole run (one per set of context
options), the viewport set to the test's; after the test its cookies, its origin's local and
session storage and the page itself are wiped, so no test sees another's state. The service
worker a page registers stays with its cache, as it does within one test: pages come from the
network first and the cache only offline (templates/pwa/sw.js), and it skips its precache
(pages rendered by the server) in every test after a module's first."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.pages import KeptPage, Outside, wipe

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="session")
def kept_contexts(browser: Any) -> Iterator[dict[str, tuple[Any, Any]]]:
    """The worker's kept contexts and their one page, by their options (see ``kept_page``)."""
    kept: dict[str, tuple[Any, Any]] = {}
    yield kept
    for ctx, _pg in kept.values():
        ctx.close()


@pytest.fixture
def kept_page(browser: Any, kept_contexts: dict[str, tuple[Any, Any]]) -> Iterator[KeptPage]:
    """``kept_page({"width": 375, "height": 667}, has_touch=True)``: the one page of the kept
    context with these options, sized to ``viewport``; ``slot=1`` another one with the same
    options (a second phone: its own cookies). The test must not close it, nor leave routes or
    listeners on it; its cookies and storage are wiped afterwards."""
    used: list[str] = []

    def get(viewport: dict[str, int], slot: int = 0, **options: Any) -> Any:
        key = json.dumps([slot, options], sort_keys=True)
        if key not in kept_contexts:
            ctx = browser.new_context(viewport=viewport, **options)
            kept_contexts[key] = (ctx, ctx.new_page())
        ctx, pg = kept_contexts[key]
        pg.set_viewport_size(viewport)
        if key not in used:
            used.append(key)
        return pg

    yield get
    for key in used:
        ctx, pg = kept_contexts[key]
        try:
            wipe(ctx, pg)
        except playwright_api.Error:
            # a page a failed test left in a state it cannot be wiped from: not kept
            del kept_contexts[key]
            ctx.close()


@pytest.fixture
def outside() -> Iterator[Outside]:
    """See ``pages.Outside``: what the test's pages asked of other machines."""
    seen = Outside()
    yield seen
    seen.stop()
