"""The app factory: configuration, the database it points at, and its instance folder."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from flask import Flask

from skatcalc import create_app, store


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instance folder of our own, so the factory's defaults touch nothing real."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(folder))
    return folder


def test_config_overrides_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "given.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "s", "LAN": True})
    assert app.testing and app.config["LAN"] is True and app.config["SECRET_KEY"] == "s"
    assert app.config["DATABASE"] == str(path)
    assert app.config["MAX_CONTENT_LENGTH"] == 1024 * 1024  # defaults stay where not given
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None


def test_the_database_is_migrated_at_start(tmp_path: Path) -> None:
    path = tmp_path / "new" / "skat.sqlite"
    path.parent.mkdir()
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "s"})
    db = store.connect(str(path))
    try:
        assert {"sheets", "deals", "history"} <= set(db.table_names())
    finally:
        db.close()
    r = app.test_client().post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]})
    assert r.status_code == 201


def test_instance_folder_config_file_and_secret_key(instance: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "from-config.sqlite"
    instance.mkdir()
    (instance / "config.py").write_text(f"DATABASE = {str(db_path)!r}\nLAN = True\n")
    app = create_app()  # no mapping given: the instance folder's config.py is read
    assert app.instance_path == str(instance)
    assert app.config["DATABASE"] == str(db_path) and app.config["LAN"] is True
    assert db_path.exists()
    # A secret key is made once, kept private beside the database, and used again.
    key_file = db_path.parent / "secret_key"
    assert not (instance / "secret_key").exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    again = create_app()
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_mapping_skips_the_config_file(instance: Path, tmp_path: Path) -> None:
    instance.mkdir()
    (instance / "config.py").write_text("LAN = True\n")
    app = create_app({"DATABASE": str(tmp_path / "x.sqlite"), "SECRET_KEY": "s"})
    assert app.config["LAN"] is False


def test_blueprints_and_api_without_csrf(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "s"})
    assert {"calculators", "pwa", "sheets", "api"} <= set(app.blueprints)
    # CSRF is on (no TESTING override), yet JSON API posts need no token.
    client = app.test_client()
    r = client.post("/api/v1/skat/value", json={"game": "null", "won": True})
    assert r.status_code == 200 and r.get_json()["value"] == 23
    assert client.post("/sheets", data={"game": "skat"}).status_code == 400


def test_no_view_hook_or_error_handler_is_async(app: Flask) -> None:
    """The app runs every view and hook as it is (``_App.ensure_sync``): an ``async def`` among
    them would hand Flask a coroutine instead of an answer."""
    import inspect

    funcs: list[object] = [*app.view_functions.values(), *app.teardown_appcontext_funcs]
    for hooks in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs, app.template_context_processors,
                  app.url_value_preprocessors, app.url_default_functions):  # fmt: skip
        for fns in hooks.values():
            funcs += list(fns)
    for by_code in app.error_handler_spec.values():
        for handlers in by_code.values():
            funcs += list(handlers.values())
    assert len(funcs) > 100
    assert not [f for f in funcs if inspect.iscoroutinefunction(f)]
    assert app.ensure_sync(len) is len
