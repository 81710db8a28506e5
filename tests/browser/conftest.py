"""Fixtures of the browser tests (the run's one Chromium, ``browser``, is in tests/conftest.py).

A new context and page cost Chromium a new renderer process and the browser process a new
tab: about a CPU-second, three times a page load within a page that goes on. ``kept_page``
hands a test a page of a context the worker keeps for its whole run (one per set of context
options), the viewport set to the test's; after the test ``pages.wipe`` leaves it as clean as
a page of a new context (cookies, storage, the service worker and its caches, the HTTP cache,
history, permissions, routes, listeners) and checks what is cheap to check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.pages import Kept, KeptPage, Outside, wipe

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="session")
def kept_contexts(chromiums: Any) -> Iterator[dict[str, Kept]]:
    """The worker's kept contexts and their one page, by their browser and options (see
    ``kept_page``; closed before the browsers are)."""
    kept: dict[str, Kept] = {}
    yield kept
    for k in kept.values():
        k.ctx.close()


@pytest.fixture
def kept_page(browser: Any, kept_contexts: dict[str, Kept]) -> Iterator[KeptPage]:
    """``kept_page({"width": 375, "height": 667}, has_touch=True)``: the one page of the kept
    context with these options, sized to ``viewport``; ``slot=1`` another one with the same
    options (a second phone: its own cookies). The test must not close it, nor leave routes or
    listeners on it (the wipe fails the test that does), nor add init scripts to it."""
    used: list[str] = []

    def get(viewport: dict[str, int], slot: int = 0, **options: Any) -> Any:
        key = json.dumps([id(browser), slot, options], sort_keys=True)
        if key not in kept_contexts:
            kept_contexts[key] = Kept(browser.new_context(viewport=viewport, **options))
        pg = kept_contexts[key].pg
        pg.set_viewport_size(viewport)
        if key not in used:
            used.append(key)
        return pg

    yield get
    for key in used:
        kept = kept_contexts[key]
        try:
            wipe(kept)
        except playwright_api.Error:
            # a page a failed test left in a state it cannot be wiped from: not kept
            del kept_contexts[key]
            kept.ctx.close()
        except AssertionError:
            del kept_contexts[key]
            kept.ctx.close()
            raise


@pytest.fixture
def outside(kept_page: KeptPage) -> Iterator[Outside]:
    """See ``pages.Outside``: what the test's pages asked of other machines. (It stops before
    the kept pages are wiped, which checks that no listener of the test is left.)"""
    seen = Outside()
    yield seen
    seen.stop()
