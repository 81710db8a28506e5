"""The app factory: ``create_app(config)`` builds the Flask app (``skatcalc.create_app`` is
this function, loaded on first use)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask_wtf.csrf import CSRFProtect

# Every game registers itself with the sheet computation when its package is imported: so
# whoever imports any part of skatcalc (the app, a test, a bench) can compute every game.
from . import games as games

csrf = CSRFProtect()


def _asset_dir(name: str) -> str:
    """Templates and static files sit at the project top level in a checkout and inside the
    package once installed from a wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / name, here.parent / name):
        if candidate.is_dir():
            return str(candidate)
    raise RuntimeError(f"skatcalc: the {name}/ folder is missing from the installation")


def _secret_key(folder: str) -> str:
    """The key that signs sessions and form tokens, kept in ``secret_key`` beside the
    database (it belongs to that database's evenings); KeyUnusable in one line if it cannot
    be read or made."""
    from .store import KeyUnusable

    path = Path(folder) / "secret_key"
    try:
        if path.exists():
            key = path.read_text().strip()
            if not key:
                raise KeyUnusable(str(path), "the file is empty")
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise KeyUnusable(str(path), reason) from None
    return key


def create_app(config: Mapping[str, object] | None = None) -> Flask:
    """The app. ``config`` overrides the defaults (tests, the CLI); without it the instance
    folder's ``config.py`` is read. Raises ``store.StorageUnusable`` when the database (or the
    secret key beside it) cannot be opened and written, with the path and the reason in one
    line.

    Configuration beyond Flask's own (the CLI sets these from its options):
    ``DATABASE`` (default: the user's data folder), ``LAN`` (changes need a link's right,
    rights.py),
    ``ALLOWED_HOSTS`` (Host names answered; default loopback names only, plus IP addresses
    and this machine's names with ``LAN``), ``PROXY_COUNT`` (trust X-Forwarded-For/-Proto/
    -Host/-Port from that many proxies, for a WSGI server other than ``skatcalc serve``,
    whose ``--behind-proxy`` has waitress do it), ``HSTS_SECONDS``, ``WRITE_LIMIT`` (writes
    per minute and client), ``PREVIEW_LIMIT`` (live previews per minute and client),
    ``IMPORT_LIMIT`` (imports per hour and client), ``HEAVY_SLOTS`` (PDFs, exports, whole
    sheet JSONs and imports at once; more get 503), ``PDF_PROCESS`` (PDFs rendered in a
    separate process), ``PDF_WAITERS`` (PDF downloads waiting
    for the render at once), ``WRITE_SLOTS`` (writes in progress at once), ``WRITE_WAIT``
    (seconds a write waits for a slot before 503, default 10), ``DB_BUSY_TIMEOUT``
    (seconds a write waits for another writer), ``DB_DURABLE`` (synchronous=FULL),
    ``PUBLIC_URL`` (the address links and QR codes show), ``BUILD_TAG`` (part of every page
    tag; default: new at each start, shared by the workers of `serve --processes`)."""
    app = _App(
        __name__,
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    _configure(app, config)
    from skatcalc import store
    from skatcalc.web import assets, caching, deal_forms, errors, heavy, http, i18n

    deal_forms.init_app(app)
    app.json = _JSONProvider(app)
    store.check_path(app.config["DATABASE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(_key_folder(app))
    store.init_app(app)
    http.init_app(app)
    heavy.init_app(app)  # after http: a refused Host or a bad request takes no heavy slot
    csrf.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    caching.init_app(app)  # registered after http: its answer hooks run first (ETag, gzip)
    _register_blueprints(app)
    errors.init_app(app)
    return app


class _App(Flask):
    """Flask, whose views, hooks and error handlers are all plain functions (no ``async def``:
    ``tests/web/test_app_factory.py`` holds it), so none needs wrapping to run.

    Flask asks of each of them, on every request, whether it is a coroutine function (a dozen
    hooks: ~40 µs of a save); here the answer is known."""

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return func


class _JSONProvider(DefaultJSONProvider):
    """Flask's JSON with names as typed (no \\u escapes) and the charset said."""

    ensure_ascii = False
    mimetype = "application/json; charset=utf-8"


def _configure(app: Flask, config: Mapping[str, object] | None) -> None:
    """The defaults, then ``config`` (else the instance folder's ``config.py``); the
    database's place when none is given; the proxies trusted."""
    # Before any route is added: ids in URLs beyond SQLite's integers simply name nothing.
    from skatcalc.web.http import BODY_MAX, BoundedIntConverter

    app.url_map.converters["int"] = BoundedIntConverter
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=BODY_MAX,
        LAN=False,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
    )
    if config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.update(config)
    from skatcalc import store

    if not app.config.get("DATABASE"):
        path, note = store.default_location(app.instance_path)
        app.config["DATABASE"] = path
        app.config["DATABASE_NOTE"] = note
    if app.config.get("PROXY_COUNT"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        n = int(app.config["PROXY_COUNT"])
        # Flask's documented way to wrap its WSGI callable, which mypy takes for a method
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n
        )


def _key_folder(app: Flask) -> str:
    """Where the secret key is kept: beside the database, or in the instance folder for a
    database in memory."""
    database = app.config["DATABASE"]
    in_memory = database == ":memory:" or database.startswith("file::memory:")
    return app.instance_path if in_memory else os.path.dirname(os.path.abspath(database))


def _register_blueprints(app: Flask) -> None:
    """Every page and API route; the APIs are exempt from the form token (JSON only: a
    cross-site form cannot send it)."""
    from skatcalc.web import (
        admin,
        api,
        calculators,
        desk,
        desk_api,
        events,
        events_api,
        paper,
        players_api,
        players_pages,
        pwa,
        sheets,
    )

    app.register_blueprint(calculators.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(players_api.bp)
    csrf.exempt(players_api.bp)
    app.register_blueprint(players_pages.players_bp)
    app.register_blueprint(players_pages.groups_bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(events_api.bp)
    csrf.exempt(events_api.bp)
    app.register_blueprint(desk.bp)
    app.register_blueprint(desk_api.bp)
    csrf.exempt(desk_api.bp)
    app.register_blueprint(paper.bp)
    app.register_blueprint(admin.bp)
