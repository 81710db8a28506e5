"""Helpers the tests share (fixtures live in conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"  # Debian's package; Playwright cannot download a browser here


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """The app on a free loopback port in a thread, for the browser tests: its base URL."""
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join()


def explanation(result: Any, lang: str = "de") -> list[str]:
    """A result's steps as the API writes them in ``lang`` (through the one translation path)."""
    from skatcalc.i18n import translate

    return [translate(s, lang) for s in result.steps]


def reach(loc: Any) -> Any:
    """The sheet's entry shows the typical deal or, one tap on "Mehr" away, the less common
    controls in its place: tap over to the screen that holds ``loc`` (as a person would)."""
    if not loc.is_visible():
        toggle = loc.page.locator("form.deal .more-toggle")
        if toggle.count() and toggle.first.is_visible():
            toggle.first.click()
    return loc
