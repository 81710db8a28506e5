"""The web layer and the games' forms stay typed: few ``Any`` in them, every hook of a game's
forms (``GameForms``) typed without it, no function over 60 lines (split where a name
explains a part)."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest
from flask_wtf import FlaskForm

import skatcalc
from skatcalc.games.form_fields import DealMeta, GameForms, form_as
from skatcalc.games.forms import GAME_FORMS

PACKAGE = Path(skatcalc.__file__).resolve().parent
FILES = sorted(
    [*PACKAGE.joinpath("web").glob("*.py"), PACKAGE / "app.py",
     PACKAGE / "games" / "forms.py", PACKAGE / "games" / "form_fields.py",
     *PACKAGE.joinpath("games").glob("*/forms.py")]
)  # fmt: skip
MOST_ANY = 60  # lines naming Any in these files (issue: "≤ 150" for the whole package)


def test_few_any_in_the_web_layer_and_the_forms() -> None:
    lines = [f"{p.relative_to(PACKAGE)}:{i}" for p in FILES
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bAny\b", line)]  # fmt: skip
    assert len(lines) <= MOST_ANY, lines


@pytest.mark.parametrize("key", list(GAME_FORMS))
def test_every_form_hook_is_typed_without_any(key: str) -> None:
    forms = type(GAME_FORMS[key])
    for cls in (GameForms, forms):
        for name, fn in vars(cls).items():
            if name.startswith("_") or not callable(fn):
                continue
            hints = typing.get_type_hints(fn)
            assert hints, f"{cls.__name__}.{name} has no types"
            for arg, hint in hints.items():
                assert "Any" not in repr(hint), f"{cls.__name__}.{name}({arg}): {hint!r}"


def test_no_function_over_60_lines() -> None:
    long = [f"{p.relative_to(PACKAGE)}:{node.lineno} {node.name}"
            for p in FILES for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and (node.end_lineno or node.lineno) - node.lineno + 1 > 60]  # fmt: skip
    assert not long


def test_a_game_is_handed_only_its_own_forms() -> None:
    """A hook narrows the form it is given to its game's own class: another game's form is
    a bug of the caller, said as such, not an AttributeError deep in the hook."""
    skat, schafkopf = GAME_FORMS["skat"], GAME_FORMS["schafkopf"]
    with _request():
        foreign = schafkopf.deal_form(["A", "B", "C", "D"], None, meta={"csrf": False})
        assert isinstance(foreign, DealMeta)
        with pytest.raises(TypeError, match="SkatDealForm"):
            skat.game_body(foreign, [])
        calc = skat.calculator_form(_Args())
        assert isinstance(calc, FlaskForm)
        with pytest.raises(TypeError, match="SchafkopfCalcForm"):
            schafkopf.calculator_body(calc, [])
    assert form_as(3, int) == 3


class _Args(dict[str, str]):
    """An empty query (werkzeug's MultiDict reads like this)."""

    def getlist(self, key: str) -> list[str]:
        return []


def _request() -> typing.ContextManager[object]:
    app = skatcalc.create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "t",
                               "WTF_CSRF_ENABLED": False})  # fmt: skip
    return app.test_request_context("/")
