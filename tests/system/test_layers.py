"""The package's import graph, read from the source (imports inside functions count too): no
cycles, and each layer imports only what it may (docs/architecture.md):

* the layers in order, :data:`ORDER`: a module imports of the package only its own layer and
  those below it; the app factory ``skatcalc/app.py`` sits just below the package root
  ``skatcalc/__init__.py`` (which loads it only when ``skatcalc.create_app`` is asked for),
  ``server/`` above both, ``__main__`` on top; every module of the package has a place;
* ``rules/`` is pure: no Flask, WTForms, SQLite or PDF;
* ``games/`` likewise, but for the games' forms (``forms.py`` and ``form_fields.py``: WTForms
  and Flask-WTF, no Flask app, no SQL);
* ``web/`` never imports ``store/`` (nor the old ``db``/``migrations``): it goes through the
  services.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import skatcalc

PACKAGE = Path(skatcalc.__file__).resolve().parent

IMPURE = ("flask", "flask_wtf", "flask_babel", "wtforms", "werkzeug", "sqlite3", "sqlite_utils",
          "fpdf", "waitress", "segno")  # fmt: skip
# what a game's forms may use of it: the form library, not the app, the database or the files
FORM_LIBRARIES = ("flask_wtf", "wtforms")

# The layers from the bottom up, as docs/architecture.md names them: a package (``rules`` for
# ``skatcalc/rules/``) or a module at the root (``text`` for ``skatcalc/text.py``). ``text``
# (the catalogues and ``translate``) is below the games, whose forms translate; ``serialize``
# (the rules' objects as JSON) above them, below the services that answer with it.
# ``jsontypes`` (type aliases only, no imports) sits below the rules: the rules' stored form is JSON.
ORDER = ("jsontypes", "rules", "text", "games", "serialize", "store", "services", "exports", "web",
         "app", "skatcalc", "server", "__main__")  # fmt: skip


def module_name(path: Path) -> str:
    parts = ["skatcalc", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """Every module ``name`` imports, anywhere in it (absolute names)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                where = ".".join([*base, *([node.module] if node.module else [])])
            else:
                where = node.module or ""
            subs = [f"{where}.{a.name}" for a in node.names if f"{where}.{a.name}" in known]
            yield from subs
            if len(subs) < len(node.names):
                yield where


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {
        name: {m for m in imports(name, path, known) if m in known and m != name}
        for name, path in mods.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as one
    cycle through it, for the message."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def path_through(edges: dict[str, set[str]], comp: list[str]) -> str:
    """One cycle inside a component: a -> b -> ... -> a."""
    members, start = set(comp), comp[0]
    trail, seen = [start], {start}
    while True:
        nxt = sorted(edges[trail[-1]] & members)
        back = [w for w in nxt if w == start]
        if back and len(trail) > 1:
            return " -> ".join([*trail, start])
        fresh = [w for w in nxt if w not in seen]
        if not fresh:
            return " <-> ".join(comp)
        trail.append(fresh[0])
        seen.add(fresh[0])


def test_the_graph_sees_function_level_imports() -> None:
    edges = graph()
    assert "skatcalc.app" in edges and len(edges) > 30
    # create_app registers the blueprints inside the function
    assert any(m.endswith(".sheets") and m != "skatcalc.rules.sheet" for m in edges["skatcalc.app"])
    # the package root reaches the app factory only inside __getattr__
    assert edges["skatcalc"] == {"skatcalc.app"}


def test_cycles_are_found_with_a_path() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert path_through(edges, ["a", "b", "c"]) == "a -> b -> c -> a"


def test_no_import_cycles() -> None:
    edges = graph()
    found = [path_through(edges, c) for c in cycles(edges)]
    assert not found, "import cycles:\n" + "\n".join(found)


def in_layer(name: str, layer: str) -> bool:
    return name == f"skatcalc.{layer}" or name.startswith(f"skatcalc.{layer}.")


def layer(name: str) -> int | None:
    """The place of a module of the package in :data:`ORDER` (None: it has none)."""
    parts = name.split(".")
    where = parts[1] if len(parts) > 1 else parts[0]
    return ORDER.index(where) if where in ORDER else None


def test_the_order_places_modules_by_their_layer() -> None:
    assert layer("skatcalc.jsontypes") == 0
    assert layer("skatcalc.rules.sheet.compute") == 1
    assert layer("skatcalc.text") == 2 and layer("skatcalc.games.skat.forms") == 3
    assert layer("skatcalc.web.i18n") == 8 and layer("skatcalc.app") == 9
    assert layer("skatcalc") == 10 and layer("skatcalc.server.cli") == 11
    assert layer("skatcalc.__main__") == 12
    assert layer("skatcalc.new_module") is None


def test_every_module_has_a_layer() -> None:
    assert [name for name in modules() if layer(name) is None] == []


def test_each_layer_imports_only_its_own_and_those_below() -> None:
    mods = modules()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        mine, theirs = layer(name), {m for m in imports(name, path, known) if m in known}
        wrong += [f"{name} ({ORDER[mine]}) imports {m} ({ORDER[up]})" for m in sorted(theirs)
                  if mine is not None and (up := layer(m)) is not None and up > mine]  # fmt: skip
    assert not wrong, "\n".join(wrong)


def is_game_form(name: str) -> bool:
    return in_layer(name, "games") and name.rsplit(".", 1)[-1] in ("forms", "form_fields")


def test_layers_import_only_what_they_may() -> None:
    mods = modules()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        found = set(imports(name, path, known))
        top = {m.split(".")[0] for m in found}
        mine = {m for m in found if m in known or m.startswith("skatcalc.")}
        if in_layer(name, "rules") or in_layer(name, "games"):
            allowed = set(FORM_LIBRARIES) if is_game_form(name) else set()
            wrong += [f"{name} imports {m}" for m in sorted(top & (set(IMPURE) - allowed))]
        if in_layer(name, "rules"):
            wrong += [f"{name} imports {m}" for m in sorted(mine)
                      if not in_layer(m, "rules") and m != "skatcalc.jsontypes"]  # fmt: skip
        if in_layer(name, "web"):
            wrong += [
                f"{name} imports {m}"
                for m in sorted(mine)
                if in_layer(m, "store") or m in ("skatcalc.db", "skatcalc.migrations")
            ]
    assert not wrong, "\n".join(wrong)


def test_outside_the_games_only_the_registry_is_imported() -> None:
    """A game's knowledge reaches the rest of the package through the registry
    (``skatcalc.games``: ``game(key)``, its ``GameKind``'s hooks) and the pages' side of it
    (``skatcalc.games.forms``: ``GAME_FORMS``; ``skatcalc.games.form_fields``: what every game's
    forms build on), never from a game's own package: a new game or house rule then touches its
    package, not the pages or the exports."""
    mods = modules()
    known = set(mods)
    allowed = {"skatcalc.games", "skatcalc.games.forms", "skatcalc.games.form_fields"}
    wrong = [
        f"{name} imports {m}"
        for name, path in mods.items()
        if not in_layer(name, "games")
        for m in sorted(set(imports(name, path, known)))
        if in_layer(m, "games") and m not in allowed
    ]
    assert not wrong, "ask the registry (skatcalc.games) instead:\n" + "\n".join(wrong)


def test_the_rules_and_the_games_load_no_web_or_database_library() -> None:
    """In a fresh process: the pure layers import none of Flask, WTForms, sqlite-utils (the
    package root loads the app factory only when ``skatcalc.create_app`` is asked for)."""
    import subprocess
    import sys

    code = (
        "import sys, skatcalc.rules, skatcalc.rules.common, skatcalc.rules.sheet, skatcalc.games\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    ).stdout.split()
    assert not set(out) & {"flask", "flask_wtf", "flask_babel", "wtforms", "werkzeug",
                           "sqlite_utils", "sqlite3", "jinja2"}, out  # fmt: skip
    code = "import skatcalc; app = skatcalc.create_app; print(app.__module__)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    )
    assert done.stdout.strip() == "skatcalc.app"
