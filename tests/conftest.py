from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings

from skatcalc import create_app, store
from tests.support import (
    CHROMIUM,
    CHROMIUM_SHELL,
    NGINX,
    Served,
    copy_migrated,
    keep_rewritten_tests,
    reuse_compiled_templates,
    reuse_url_builders,
    rewrite_tests_ahead,
    rewritten_folder,
    seed_hypothesis_utf8_table,
    serve_behind_nginx,
)

# The laws hold whatever the clock says: on a shared, loaded machine (CI) a per-example deadline
# or the too-slow health check would fail a correct law by timing alone.
settings.register_profile("skatcalc", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("skatcalc")
reuse_url_builders()
# The servers the tests start (dozens) start their PDF render child at their first PDF, not
# warmed up at start: over a second of CPU each that most of them never use
# (tests/system/test_heavy_served.py tests the warm child a server starts by default).
os.environ.setdefault("SKATCALC_PDF_CHILD", "lazy")
# ... and at the priority of the tests that wait for it: at nice 10 beside three busy workers and
# Chromium, a large sheet's export took minutes of waiting
os.environ.setdefault("SKATCALC_PDF_CHILD_NICE", "0")
reuse_compiled_templates()
keep_rewritten_tests(rewritten_folder())

#: Where the long tests are, longest first: they start first, so that no worker is left alone
#: with a long test at the end of a run while the others have finished (with ``--dist
#: worksteal`` an idle worker takes the tail of a busy one's queue, never the test it runs).
#: A rule by place, not a file of timings that goes stale unseen; each entry must name a folder
#: or module of the suite (``tests/system/test_suite_fixtures.py`` checks).
LONG_FIRST = (
    "tests/browser/",  # Chromium, and servers stopped and started again
    "tests/web/test_fuzz.py",  # every route in every mode: parts of 10-20 s each
    "tests/system/",  # the real server, nginx, slow clients, processes
    "tests/web/test_correction_roundtrip.py",
    "tests/web/test_big_pdf.py",
    "tests/web/test_fuzz_types.py",
    "tests/web/test_kept_panes.py",
    "tests/rules/test_message_snapshot.py",
    "tests/web/test_save_answer.py",
)


def long_first_rank(nodeid: str) -> int:
    """The place of a test's module in ``LONG_FIRST``; after all of them if it is not named."""
    path = nodeid.split("::", 1)[0]
    for rank, prefix in enumerate(LONG_FIRST):
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return rank
    return len(LONG_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first (``LONG_FIRST``); otherwise the collected order, so a module's tests
    stay together and its module-scoped fixtures are made once per worker. Every worker sorts
    the same collection the same way, as xdist requires."""
    items.sort(key=lambda item: long_first_rank(item.nodeid))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than there are CPUs. A worker spends a good part of its
    time waiting (for Chromium, for a server to start or stop, for a slow client's timeout);
    the one more keeps the CPUs busy meanwhile. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


def pytest_sessionstart(session: pytest.Session) -> None:
    """With xdist, the test modules are rewritten here, before the workers start (xdist
    starts them in its own, later, ``pytest_sessionstart``): see ``rewrite_tests_ahead``."""
    if session.config.pluginmanager.has_plugin("dsession"):
        rewrite_tests_ahead(session.config)


@pytest.fixture(scope="session", autouse=True)
def hypothesis_utf8_table() -> None:
    """See ``support.seed_hypothesis_utf8_table`` (a fixture, not at import: Hypothesis warns
    about touching its storage while pytest starts)."""
    seed_hypothesis_utf8_table()


@pytest.fixture(scope="session", autouse=True)
def child_bytecode() -> Iterator[None]:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set (this machine, likely CI's clean one) every
    ``skatcalc serve`` or ``skatcalc`` the tests start would compile the package from source
    again, about a quarter of its start. Their compiled files go to a folder of their own in the
    temporary directory instead (``PYTHONPYCACHEPREFIX``), never into the checkout; what they
    run is the same source. Set in each test process, not in the environment the xdist workers
    start with: all of them at once would compile the standard library and every dependency
    into the empty folder (the prefix holds every compiled file, not only the package's)."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or "PYTHONPYCACHEPREFIX" in os.environ:
        yield
        return
    folder = Path(tempfile.gettempdir()) / f"skatcalc-tests-pycache-{os.getuid()}"
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    saved = os.environ.pop("PYTHONDONTWRITEBYTECODE")
    try:
        yield
    finally:
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = saved


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database migrated once per test process (see ``fresh_db``)."""
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite"
    store.migrate(str(path))
    assert not path.with_name(path.name + "-wal").exists()  # all of it is in the one file
    return path


@pytest.fixture
def fresh_db(tmp_path: Path, migrated_template: Path) -> Callable[[str], str]:
    """``fresh_db("name.sqlite")``: the path of a new, empty, migrated database in the test's
    folder, copied from ``migrated_template`` (migrating each new database costs about five
    times as much as the copy). Pass it as ``DATABASE`` to ``create_app``."""

    def make(name: str) -> str:
        return str(copy_migrated(migrated_template, tmp_path / name))

    return make


@pytest.fixture
def app(fresh_db: Callable[[str], str]) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": fresh_db("test.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def lan_app(fresh_db: Callable[[str], str]) -> Flask:
    """The app as ``skatcalc serve --lan`` runs it: rights come from links only."""
    return create_app({"TESTING": True, "DATABASE": fresh_db("lan.sqlite"),
                       "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip


@pytest.fixture
def csrf_app(fresh_db: Callable[[str], str]) -> Flask:
    return create_app({"TESTING": True, "DATABASE": fresh_db("csrf.sqlite"), "SECRET_KEY": "test"})


class Chromiums:
    """The run's Playwright and the Chromiums it launched, one per executable, each at its
    first use (a worker that runs no end-to-end test never starts the whole browser)."""

    def __init__(self, playwright: Any) -> None:
        self.playwright = playwright
        self.launched: dict[str, Any] = {}

    def get(self, path: str, package: str) -> Any:
        if path not in self.launched:
            if not Path(path).exists():
                pytest.fail(f"Debian's {package} is not installed (apt-get install {package})")
            self.launched[path] = self.playwright.chromium.launch(
                executable_path=path,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"],
            )  # fmt: skip
        return self.launched[path]


@pytest.fixture(scope="session")
def chromiums() -> Iterator[Chromiums]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        launched = Chromiums(p)
        yield launched
        for b in launched.launched.values():
            b.close()


@pytest.fixture(scope="session")
def browser(chromiums: Chromiums) -> Any:
    """One headless Chromium (the headless shell, ``support.CHROMIUM_SHELL``) for the browser
    tests of the run (each test opens its own context or wipes a kept one, so cookies and
    storage are never shared between tests). A module of end-to-end tests takes the whole
    browser instead, by a module fixture ``browser`` that returns ``whole_browser``."""
    return chromiums.get(CHROMIUM_SHELL, "chromium-headless-shell")


@pytest.fixture(scope="session")
def whole_browser(chromiums: Chromiums) -> Any:
    """The whole browser, Debian's ``/usr/bin/chromium``, as people run it (headless)."""
    return chromiums.get(CHROMIUM, "chromium")


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[Served]:
    """``skatcalc serve`` run as docs/operations.md runs it on the internet
    (``support.PROXIED_SERVE``: ``--lan --host 127.0.0.1 --behind-proxy 1 --trusted-host
    skat.example.org --hsts``) behind Debian's nginx with the documented server block.
    ``behind_nginx.call(method, path, json_body=…, client="127.0.0.2")`` goes through nginx
    from that loopback address with ``Host: skat.example.org``; nginx says https. For other
    options: ``with support.serve_behind_nginx(tmp_path, *args) as server``."""
    if not Path(NGINX).exists():
        pytest.skip("Debian's nginx is not installed (apt-get install nginx; CI installs it)")
    with serve_behind_nginx(tmp_path) as server:
        yield server
