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

    return [translate(s.text, lang) for s in result.steps]


def admin_token(app: Flask) -> str:
    """The app's admin token: what ``skatcalc admin-link`` prints after ``/admin/``."""
    from skatcalc import db as store
    from skatcalc.rights import read_admin_token

    conn = store.connect(app.config["DATABASE"])
    try:
        return read_admin_token(conn)
    finally:
        conn.close()
