"""One request's state lives in one typed place (web/request_state.py): no other module reads
or writes ``flask.g``, and nothing of one request is left for the next."""

from __future__ import annotations

import ast
from pathlib import Path

from flask import Flask

import skatcalc
from skatcalc.web import request_state
from skatcalc.web.request_state import RequestState, state

PACKAGE = Path(skatcalc.__file__).resolve().parent


def test_only_the_request_state_module_touches_flask_g() -> None:
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.ImportFrom) and node.module in ("flask", "flask.globals")
                else []
            )
            attr = isinstance(node, ast.Attribute) and node.attr == "g"
            if (
                "g" in names
                or "_cv_app" in names  # the app context, whose ``g`` it is
                or attr
                and isinstance(node.value, ast.Name)
                and node.value.id == "flask"
            ):
                users.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(users)) == ["web/request_state.py"]


def test_every_field_starts_empty() -> None:
    fresh = RequestState()
    assert not fresh.private and not fresh.write_slot and not fresh.page_kept
    assert fresh.sheet is None and fresh.page_lang is None and fresh.revision_etag is None


def test_state_is_made_once_per_request_and_not_carried_over(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        assert not request_state.private()
        request_state.mark_private()
        assert state() is state() and request_state.private()
        request_state.take_write_slot()
        assert request_state.give_back_write_slot() and not request_state.give_back_write_slot()
    with app.test_request_context("/"):
        assert not request_state.private() and state().page_lang is None


def test_a_key_in_one_answer_leaves_the_next_answer_cacheable(app: Flask) -> None:
    client = app.test_client()
    made = client.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]})
    assert made.status_code == 201 and made.headers["Cache-Control"] == "private, no-store"
    shown = client.get(f"/api/v1/sheets/{made.json['id']}")
    assert "no-store" not in shown.headers.get("Cache-Control", "")
