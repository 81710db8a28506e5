from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "test.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def csrf_app(tmp_path: Path) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "csrf.sqlite"), "SECRET_KEY": "test"}
    )
