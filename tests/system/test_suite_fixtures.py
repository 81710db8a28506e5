"""The suite's shortcuts (tests/support.py, tests/conftest.py) change nothing the tests see."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from werkzeug.routing import rules as werkzeug_rules
from werkzeug.routing.converters import NumberConverter

from skatcalc import create_app, store


def test_reused_url_builders_build_what_werkzeug_compiles(app: Flask) -> None:
    original = werkzeug_rules.Rule._compile_builder.original  # type: ignore[attr-defined]
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    for rule in rules:
        values = {name: 7 if isinstance(rule._converters.get(name), NumberConverter) else "x"
                  for name in rule.arguments}  # fmt: skip
        for unknown in (False, True):
            extra = {"page": "2", "q": "a b"} if unknown else {}
            fresh = original(rule, unknown).__get__(rule, None)
            built = (rule._build_unknown if unknown else rule._build)(**values, **extra)
            expected = fresh(**values, **extra)
            assert built == expected, rule.rule


def test_a_second_app_reuses_the_builders_of_the_first(app: Flask, tmp_path: Path) -> None:
    other = create_app({"DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "x"})
    with other.test_request_context():
        from flask import url_for

        assert url_for("static", filename="a.css", v="1") == "/static/a.css?v=1"
    first = {r.rule: r._build.__func__ for r in app.url_map.iter_rules()}  # type: ignore[attr-defined]
    second = {r.rule: r._build.__func__ for r in other.url_map.iter_rules()}  # type: ignore[attr-defined]
    assert first == second


def _contents(path: str) -> tuple[list[tuple[str, str]], list[str], str]:
    """The schema, the migrations applied and the admin token of the database at ``path``."""
    conn = sqlite3.connect(path)
    try:
        schema = conn.execute("select name, sql from sqlite_master order by name").fetchall()
        applied = [n for (n,) in conn.execute("select name from _sqlite_migrations order by 1")]
        (token,) = conn.execute("select value from settings where key = 'admin_token'").fetchone()
        return schema, applied, token
    finally:
        conn.close()


def test_fresh_db_is_what_migrate_makes_with_a_token_of_its_own(
    fresh_db: Callable[[str], str], tmp_path: Path
) -> None:
    migrated = str(tmp_path / "migrated.sqlite")
    store.migrate(migrated)
    made = [_contents(p) for p in (fresh_db("one.sqlite"), fresh_db("two.sqlite"), migrated)]
    assert made[0][:2] == made[1][:2] == made[2][:2]
    assert len(made[2][1]) > 10
    assert len({token for _, _, token in made}) == 3
