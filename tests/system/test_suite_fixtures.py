"""The suite's shortcuts (tests/support.py, tests/conftest.py) change nothing the tests see."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
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


def test_every_long_first_entry_names_a_folder_or_module_of_the_suite() -> None:
    from tests.conftest import LONG_FIRST

    root = Path(__file__).resolve().parents[2]
    for entry in LONG_FIRST:
        path = root / entry
        assert path.is_dir() if entry.endswith("/") else path.is_file(), entry
        assert entry.startswith("tests/") and (entry.endswith("/") or entry.endswith(".py"))


def test_the_long_tests_start_first_and_the_rest_keep_their_order() -> None:
    from tests.conftest import pytest_collection_modifyitems

    collected = [
        "tests/games/test_a.py::test_one",
        "tests/browser/test_b.py::test_one",
        "tests/web/test_fuzz.py::test_x[1]",
        "tests/games/test_a.py::test_two",
        "tests/browser/test_b.py::test_two",
        "tests/web/test_fuzz_types.py::test_y",
        "tests/system/test_c.py::test_one",
        "skatcalc/rules/common.py::skatcalc.rules.common.clean_name",
        "tests/web/test_fuzz.py::test_x[2]",
    ]
    items: list[Any] = [SimpleNamespace(nodeid=n) for n in collected]
    pytest_collection_modifyitems(items)
    assert [i.nodeid for i in items] == [
        "tests/browser/test_b.py::test_one",
        "tests/browser/test_b.py::test_two",
        "tests/web/test_fuzz.py::test_x[1]",
        "tests/web/test_fuzz.py::test_x[2]",
        "tests/system/test_c.py::test_one",
        "tests/web/test_fuzz_types.py::test_y",  # a module, not a prefix of test_fuzz.py
        "tests/games/test_a.py::test_one",
        "tests/games/test_a.py::test_two",
        "skatcalc/rules/common.py::skatcalc.rules.common.clean_name",
    ]


def test_auto_runs_one_worker_more_than_there_are_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.conftest import pytest_xdist_auto_num_workers

    config: Any = None  # the hook reads no option
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    assert pytest_xdist_auto_num_workers(config) == len(os.sched_getaffinity(0)) + 1
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert pytest_xdist_auto_num_workers(config) is None  # xdist's own hook reads it
