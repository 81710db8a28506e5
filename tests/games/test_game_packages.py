"""One game, one package: everything a game is lives in ``skatcalc/games/<game>/`` (and its
templates' parts in ``templates/games/<game>/``). Outside them nothing names a contract or
compares a game key: the pages, the script and the common rules ask the registry
(``skatcalc.games``) and the game's ``GameKind``. The docs' game lists follow the registry.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from skatcalc import games
from skatcalc.games.schafkopf.values import DEFAULT_LAUFENDE_MIN, SKGame
from skatcalc.games.skat.values import BASE_VALUES, Game
from skatcalc.rules.contracts import docs_table

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_KEYS = {row.key for row in games.contract_rows()}
GAME_KEYS = set(games.keys())
# Tariff classes and the Stock's "rufspiel" are Schafkopf words too: they belong to the game.
SCHAFKOPF_WORDS = {row.tariff for row in games.game("schafkopf").contract_table} | {"rufspiel"}
WORDS = CONTRACT_KEYS | SCHAFKOPF_WORDS
_WORDS, _GAMES = "|".join(sorted(WORDS)), "|".join(sorted(GAME_KEYS))
QUOTED = re.compile(rf"""(?<![\w-])['"]({_WORDS})['"]""")
# a CSS attribute selector by value (input[value=hochzeit]): the button's class says it instead
ATTR = re.compile(rf"""\[value=['"]?({_WORDS})['"]?\]""")
COMPARED = re.compile(rf"""[=!]==?\s*['"]({_GAMES})['"]|['"]({_GAMES})['"]\s*[=!]==?""")


def outside(folder: str, pattern: str) -> list[Path]:
    return [p for p in sorted((ROOT / folder).rglob(pattern)) if "games" not in p.parts]


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def python_hits(path: Path) -> list[str]:
    """String literals that are a contract key, and comparisons with a game key, in code (a
    docstring's examples may show a deal of any game: they are documentation)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and n.body and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }  # fmt: skip
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and node.value in WORDS:
                hits.append(f"{shown(path)}:{node.lineno}: {node.value!r}")
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in GAME_KEYS:
                    hits.append(f"{shown(path)}:{node.lineno}: == {side.value!r}")
    return hits


def test_the_code_outside_the_games_names_no_contract_and_compares_no_game_key() -> None:
    hits = [h for path in outside("skatcalc", "*.py") for h in python_hits(path)]
    assert not hits, "ask the registry (skatcalc.games) or the GameKind:\n" + "\n".join(hits)


@pytest.mark.parametrize(
    "folder,pattern", [("templates", "*.html"), ("static", "*.js"), ("static", "*.css")]
)
def test_templates_and_scripts_outside_the_games_name_no_contract(folder: str,
                                                                  pattern: str) -> None:  # fmt: skip
    hits = []
    for path in outside(folder, pattern):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if QUOTED.search(line) or COMPARED.search(line) or ATTR.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not hits, "\n".join(hits)


def test_the_grep_finds_what_it_looks_for(tmp_path: Path) -> None:
    assert QUOTED.search("""game === "null" """) and QUOTED.search("{'sauspiel': 1}")
    assert ATTR.search("label:has(> input[value=geier])") and ATTR.search('[value="hearts"]')
    assert COMPARED.search("{% if sheet.game == 'skat' %}") and not QUOTED.search("'skatonly'")
    tree = "x = 1 if g == 'skat' else 2\nnames = {'wenz': 'Wenz'}\n"
    path = tmp_path / "probe.py"
    path.write_text(tree)
    assert len(python_hits(path)) == 2


def test_each_game_has_one_table_its_enum_and_its_kind_follow() -> None:
    skat, schafkopf = games.game("skat"), games.game("schafkopf")
    assert [g.value for g in Game] == sorted(skat.contracts, key=[g.value for g in Game].index)
    assert {g.value for g in Game} == set(skat.contracts)
    assert [g.value for g in SKGame] == list(schafkopf.contracts)
    assert {g.value: b for g, b in BASE_VALUES.items()} == {
        row.key: row.base for row in skat.contract_table if row.base is not None
    }
    assert schafkopf.partner_contracts == {"sauspiel", "hochzeit"}
    assert [schafkopf.stat_kind(k) for k in schafkopf.contracts].count("sauspiele") == 2
    for kind in games.kinds():
        assert {row.stat for row in kind.contract_table} - {None} <= set(kind.stat_kinds)
        places = [row.place for row in kind.contract_table]
        assert sorted(places) == list(range(1, len(places) + 1)), kind.key


def test_the_entry_script_gets_the_contracts_as_data() -> None:
    data = json.loads(games.script_json("schafkopf"))
    assert data["contracts"]["sauspiel"]["barred"] == ["herz"]
    assert data["contracts"]["farbwenz"]["laufende"] == 11
    assert ".sieonly" in data["contracts"]["solo"]["shows"]
    assert json.loads(games.script_json("skat"))["contracts"]["null"]["shows"] == [
        ".nullonly", ".more-spitzen"]  # fmt: skip
    app_js = (ROOT / "static" / "app.js").read_text(encoding="utf-8")
    assert "dataset.contracts" in app_js


def _items(text: str) -> list[str]:
    """The top-level list items of a Markdown text, each with its continuation lines."""
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith("* "):
            items.append(line)
        elif items and line.startswith("  ") and not line.lstrip().startswith("* "):
            items[-1] += " " + line.strip()
        elif not line.startswith("  "):
            items.append("")
    return [i for i in items if i]


def test_api_docs_list_the_registered_games_contracts() -> None:
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    rows = [item.split(";")[0] for item in _items(api) if item.startswith("* `game` (")]
    listed = [re.findall(r'`"(\w+)"`', row) for row in rows]
    assert listed[0] == [g.value for g in Game]  # the Skat value's body (enum order)
    assert listed[1] == list(games.game("schafkopf").contracts)
    by_contract = next(item for item in _items(api) if item.startswith("* `games` ("))
    assert re.findall(r"`(\w+)`", by_contract.split("by contract (")[1].split(")")[0]) == [
        row.key for row in games.contract_rows()
    ]
    lmin = json.dumps(DEFAULT_LAUFENDE_MIN, separators=(",", ":"))
    assert f"`{lmin}`" in api


def test_rules_docs_list_the_registered_games_contracts() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for kind in games.kinds():
        block = re.search(rf"<!-- contracts:{kind.key} -->\n(.*?)\n<!-- /contracts -->", doc, re.S)
        if block is not None:
            assert block.group(1) == docs_table(kind.contract_table), kind.key
    assert "<!-- contracts:schafkopf -->" in doc
    skat_rows = re.findall(r"^\| (\w+) \| (\d+) \| (\w+) \|$", doc, re.M)
    assert sorted(skat_rows) == sorted(
        (row.key, str(row.base), row.name.de)
        for row in games.game("skat").contract_table
        if row.base is not None
    )


def module_imports(package: str) -> dict[str, set[str]]:
    """Every module of ``skatcalc/<package>`` and the skatcalc modules it imports, at any
    level of the file (an import inside a function counts too)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "skatcalc" / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_init = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_init else parts)
        here = name.split(".") if is_init else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                deps |= {target} if node.module else {f"{target}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
        out[name] = {d for d in deps if d.startswith("skatcalc.") and d != name}
    return out


def test_no_import_cycle_in_the_rules_and_the_games() -> None:
    graph = module_imports("rules") | module_imports("games")
    assert not {d for deps in module_imports("rules").values() for d in deps
                if d.startswith("skatcalc.games")}, "the common rules import no game"  # fmt: skip

    def visit(name: str, path: tuple[str, ...]) -> None:
        for dep in graph.get(name, ()):
            assert dep not in path, " -> ".join((*path, dep))
            visit(dep, (*path, dep))

    for name in graph:
        visit(name, (name,))
