"""Every process cache of derived data lives in services/cache.py: one place to see what the
process keeps, and one ``cache.clear()`` that forgets it all, as a restart would."""

from __future__ import annotations

import ast
from datetime import date
from pathlib import Path

import skatcalc
from skatcalc.services import cache

PACKAGE = Path(skatcalc.__file__).resolve().parent
MEMO_DECORATORS = {"lru_cache", "cache"}
CACHE_TYPES = {"Recent", "ByteBounded", "OrderedDict"}


def _called(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def test_no_process_cache_outside_the_cache_module() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [f"{where}: @{_called(d)} {node.name}" for d in node.decorator_list
                          if _called(d) in MEMO_DECORATORS]  # fmt: skip
        if where == "services/cache.py":
            continue
        for stmt in tree.body:  # module level only: an object's own table is not the process's
            value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
            if isinstance(value, ast.Call) and _called(value) in CACHE_TYPES:
                found.append(f"{where}:{stmt.lineno} {ast.unparse(stmt)[:60]}")
    assert not found, "\n".join(found)


def test_clear_forgets_every_kept_value() -> None:
    assert cache.kept(cache.DATES, (date(2026, 11, 26), "de"), lambda: "26.11.2026") == "26.11.2026"
    # a second ask takes the kept value, whatever make() would give now
    assert cache.kept(cache.DATES, (date(2026, 11, 26), "de"), lambda: "x") == "26.11.2026"
    cache.STATIC_GZIP["/static/x.css"] = ("tag", b"packed")
    cache.clear()
    assert len(cache.DATES) == 0 and not cache.STATIC_GZIP
    assert cache.kept(cache.DATES, (date(2026, 11, 26), "de"), lambda: "new") == "new"
    cache.clear()
