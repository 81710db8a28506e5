"""The pages are laid out by feature, the way Flask's tutorial (flaskr) is: these tests keep
it that way, so a newcomer finds each thing in the one place docs/architecture.md names.

* Every form field that holds a deal or a sheet's house rules is declared in
  ``skatcalc/web/deal_forms.py`` or a game's ``skatcalc/games/<game>/forms.py``; a feature module with a Blueprint keeps only its own small
  forms (a new sheet's name, players and group; a rename; a club night's fees …) and takes
  the deal and rules fields from there (``game`` — which card game — and ``n`` are names
  several forms use for their own things).
* The page modules build no HTML in Python strings: markup is in templates (the sheet's rows
  are drawn by a macro and kept as HTML per revision).
* Templates sit in a folder per feature (and each game's parts in ``games/<game>/``); only
  the shared frame is at the top.
* The page modules (routes and what they call to read forms and draw pages) reach storage
  through ``service`` only, like every module with a Blueprint (tests/services/test_sheet_service.py).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from flask import Blueprint
from flask_wtf import FlaskForm
from wtforms.fields.core import UnboundField

import skatcalc
from skatcalc.games import form_fields
from skatcalc.games.schafkopf import forms as schafkopf_forms
from skatcalc.games.skat import forms as skat_forms
from skatcalc.web import deal_forms

ROOT = Path(__file__).resolve().parents[2]
PAGE_MODULES = ("skatcalc.web.calculators", "skatcalc.web.pwa", "skatcalc.web.errors", "skatcalc.web.sheets",
                "skatcalc.web.sheet_view", "skatcalc.web.deal_forms", "skatcalc.web.admin")  # fmt: skip
SHARED_NAMES = {"game", "n"}


def modules() -> list[object]:
    """Every module of the package, in its subpackages too (not ``__main__``: it runs)."""
    found = pkgutil.walk_packages(skatcalc.__path__, "skatcalc.")
    names = [m.name for m in found if not m.ispkg and not m.name.endswith("__main__")]
    return [importlib.import_module(name) for name in names]


def source(name: str) -> tuple[str, ast.Module]:
    """A page module's file name and syntax tree, wherever the package keeps it."""
    path = Path(str(importlib.import_module(name).__file__))
    return path.name, ast.parse(path.read_text(encoding="utf-8"))


def own_fields(cls: type) -> set[str]:
    return {k for k, v in vars(cls).items() if isinstance(v, UnboundField)}


def deal_field_names() -> set[str]:
    forms = (skat_forms.SkatForm, schafkopf_forms.SchafkopfGameForm, form_fields.DealMeta,
             schafkopf_forms.TariffFields, deal_forms.SheetRulesFields,
             skat_forms.SkatRulesFields, schafkopf_forms.SchafkopfRulesFields)  # fmt: skip
    return set().union(*(own_fields(f) for f in forms)) - SHARED_NAMES


def test_deal_and_rules_fields_are_declared_in_deal_forms_only() -> None:
    deal_fields = deal_field_names()
    assert {"spitzen", "declarers", "kontra_re", "bock", "t_sauspiel", "dealer"} <= deal_fields
    seen_views = []
    for module in modules():
        if not any(isinstance(v, Blueprint) for v in vars(module).values()):
            continue
        seen_views.append(module.__name__)
        assert module is not deal_forms, "deal_forms holds forms, not routes"
        for name, cls in vars(module).items():
            if not (inspect.isclass(cls) and issubclass(cls, FlaskForm)):
                continue
            if cls.__module__ != module.__name__:
                continue  # imported, e.g. from deal_forms
            clash = own_fields(cls) & deal_fields
            assert not clash, f"{module.__name__}.{name} declares {sorted(clash)}: see deal_forms"
    assert {"skatcalc.web.sheets", "skatcalc.web.calculators", "skatcalc.web.events"} <= set(
        seen_views
    )


def test_page_modules_build_no_html_in_python() -> None:
    tag = re.compile(r"<(tr|td|th|span|a|b|i|li|ol|ul|p|div|details|table|form|input)[\s>]")
    for module in PAGE_MODULES:
        name, tree = source(module)
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }  # fmt: skip
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in docstrings:
                    assert not tag.search(node.value), f"{name}: HTML {node.value[:60]!r}"


def test_templates_sit_in_a_folder_per_feature() -> None:
    top = sorted(p.name for p in (ROOT / "templates").glob("*.html"))
    assert top == ["_macros.html", "base.html", "error.html"]
    folders = {p.name for p in (ROOT / "templates").iterdir() if p.is_dir()}
    assert {
        "calculators",
        "sheets",
        "deals",
        "players",
        "groups",
        "events",
        "pwa",
        "admin",
        "games",  # each game's parts of the pages: templates/games/<game>/
        "charts",  # the SVG charts of the pages and the PDF
    } == folders


def test_web_and_export_modules_draw_no_svg_in_python() -> None:
    tag = re.compile(r"<(svg|line|polyline|polygon|path|rect|circle|text|title|g)[\s>/]")
    # the chart (exports/charts.py) is drawn by templates/charts/line.svg for pages and PDFs
    for path in sorted([*(ROOT / "skatcalc" / "web").glob("*.py"),
                        *(ROOT / "skatcalc" / "exports").glob("*.py")]):  # fmt: skip
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not tag.search(node.value), f"{path.name}: SVG {node.value[:60]!r}"


def test_every_blueprint_is_registered(tmp_path: Path) -> None:
    app = skatcalc.create_app({"DATABASE": str(tmp_path / "l.sqlite"), "SECRET_KEY": "s"})
    for module in modules():
        for value in vars(module).values():
            if isinstance(value, Blueprint):
                assert app.blueprints.get(value.name) is value, value.name


def test_page_modules_reach_storage_through_service_only() -> None:
    for module in PAGE_MODULES:
        name, tree = source(module)
        package = module.rsplit(".", 1)[0].split(".")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                where = ".".join([*base, *([node.module] if node.module else [])])
                if where.startswith(("skatcalc.db", "skatcalc.store")) or (
                    where == "skatcalc" and any(a.name in ("db", "store") for a in node.names)
                ):
                    raise AssertionError(f"{name} imports the store: use service")
            if isinstance(node, ast.Import):
                assert all(
                    not a.name.startswith(("skatcalc.db", "skatcalc.store")) for a in node.names
                ), name
