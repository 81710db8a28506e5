"""The suite's shortcuts (tests/support.py, tests/conftest.py) change nothing the tests see."""

from __future__ import annotations

import os
import re
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
from tests.support import SharedTemplateCode, rewritten_folder


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


def _compiled_fresh(env: Any, name: str) -> Any:
    """``name`` as ``env`` compiles it from source (no shared code), or None where it does not
    compile on its own (a template for another environment)."""
    from jinja2 import TemplateError

    source, filename, _ = env.loader.get_source(env, name)
    try:
        return env.compile(source, name, filename), (filename, source)
    except TemplateError:
        return None


def test_shared_template_code_is_what_jinja_compiles(app: Flask) -> None:
    env = app.jinja_env
    shared = env.bytecode_cache
    assert isinstance(shared, SharedTemplateCode)
    checked = 0
    for name in env.list_templates():
        fresh = _compiled_fresh(env, name)
        if fresh is None:
            continue
        code, (filename, source) = fresh
        env.get_template(name)  # through the shared code
        assert shared.code[shared.key(env, name, filename, source)] == code, name
        checked += 1
    assert checked > 40


def test_a_second_app_runs_the_code_the_first_compiled(app: Flask, tmp_path: Path) -> None:
    app.jinja_env.get_template("base.html")
    other = create_app({"DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "x"})
    compiled: list[str] = []
    compile_one = other.jinja_env.compile

    def counted(source: str, name: str | None = None, filename: str | None = None) -> Any:
        compiled.append(str(name))
        return compile_one(source, name, filename)

    other.jinja_env.compile = counted  # type: ignore[method-assign]
    template = other.jinja_env.get_template("base.html")
    assert compiled == [] and template.environment is other.jinja_env
    # an environment that compiles otherwise (another filter) gets code of its own
    other.jinja_env.filters["suite_extra"] = str
    other.jinja_env.cache.clear()  # type: ignore[union-attr]
    other.jinja_env.get_template("base.html")
    assert compiled == ["base.html"]


def test_pages_render_the_same_with_the_shared_code(app: Flask) -> None:
    from tests.support import reuse_compiled_templates

    made = app.test_client().post("/api/v1/sheets", json={"game": "skat",
                                                           "players": ["A", "B", "C"]})  # fmt: skip
    sid = made.get_json()["id"]
    paths = ["/", "/skat", "/schafkopf", "/bids", "/sheets", f"/sheets/{sid}", "/players"]

    def pages() -> list[bytes]:
        client = app.test_client()  # no cookies of an earlier visit
        # (a form's CSRF token is new in every session, a deal form's retry key in every one)
        return [re.sub(rb'name="(csrf_token|idem)" value="[^"]+"', b"", client.get(p).data)
                for p in paths]  # fmt: skip

    shared = pages()
    reuse_compiled_templates()  # a second call changes nothing
    alone = Flask.create_jinja_environment.__wrapped_create__  # type: ignore[attr-defined]
    assert alone(app).bytecode_cache is None  # the environment Flask makes without it
    app.jinja_env.bytecode_cache = None
    app.jinja_env.cache.clear()  # type: ignore[union-attr]
    assert pages() == shared


def _code_parts(code: Any) -> Any:
    """What a code object runs (its bytecode, names and constants, nested code too)."""
    consts = tuple(_code_parts(c) if hasattr(c, "co_code") else c for c in code.co_consts)
    return code.co_code, code.co_names, code.co_varnames, consts


def test_a_kept_rewritten_module_is_what_pytest_rewrites() -> None:
    from _pytest.assertion import rewrite

    kept = rewrite._rewrite_test
    if not getattr(kept, "kept", False):
        pytest.skip("bytecode is written: pytest keeps its rewritten modules itself")
    path = Path(__file__).resolve()  # imported, so rewritten and kept
    pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
    assert rewritten_folder() in pyc.parents and not pyc.is_relative_to(path.parents[2])
    code = rewrite._read_pyc(path, pyc)
    assert code is not None
    _, fresh = kept.original(path, None)  # type: ignore[attr-defined]
    assert _code_parts(code) == _code_parts(fresh)
    assert "@py_assert" in " ".join(code.co_names + fresh.co_names) or any(
        "@py_assert" in " ".join(c.co_varnames) for c in fresh.co_consts if hasattr(c, "co_code")
    )


def test_the_largest_export_is_built_once_per_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tempfile import mkdtemp

    from tests import support

    built: list[bool] = []

    def build(folder: Path, wide: bool = True) -> bytes:
        built.append(wide)
        return b'{"wide": %d}' % wide

    monkeypatch.setattr(support, "largest_export", build)
    workers = []
    for worker in ("gw0", "gw1"):  # two workers of one run: each its own folder in the run's
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        base = tmp_path / "run" / f"popen-{worker}"
        base.mkdir(parents=True)
        workers.append(SimpleNamespace(getbasetemp=lambda base=base: base,
                                       mktemp=lambda name, base=base: Path(mkdtemp(dir=base))))  # fmt: skip
    answers = [support.largest_export_for_run(f, wide) for f in workers for wide in (True, False)]
    assert answers == [b'{"wide": 1}', b'{"wide": 0}'] * 2
    assert built == [True, False]


def test_asking_a_server_that_does_not_answer_yet_leaves_no_connection_open() -> None:
    """A server starting on a loaded machine accepts (the backlog) before it answers: the
    start-up probe's connection is closed when its answer times out (an unclosed socket is a
    ResourceWarning, an error in this suite)."""
    import gc
    import socket
    import warnings

    from tests.support import _answering

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(4)  # never accepted: the connection is made, no answer comes
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            assert not _answering(listening.getsockname()[1], timeout=0.2)
            gc.collect()
    assert not [w for w in seen if issubclass(w.category, ResourceWarning)], seen
