"""docs/architecture.md's recipes hold: a Skat house rule and a Schafkopf contract are each a
change of at most three code files (plus translations, docs and a test). The two patches in
``tests/data/recipes/`` ("Revolution": a Null ouvert Hand for 92 where the sheet has the rule
on; "Bettel ouvert": twice the Bettel tariff) are applied to a copy of the package, and the
copy then scores a deal of each, and runs the recipe's own tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "tests" / "data" / "recipes"

# what each recipe's deal is worth in the copy: (patch, Python printing the figures, expected)
CASES = [
    (
        "skat_house_rule.patch",
        "from skatcalc.games.skat.sheet import SkatHouseRules\n"
        "from skatcalc.games.skat.values import Game, SkatDeal, skat_value\n"
        "from skatcalc.rules.common import Errors\n"
        "rules = SkatHouseRules.from_json({'revolution': True}, Errors())\n"
        "deal = SkatDeal(Game.NULL, hand=True, ouvert=True, won=False)\n"
        "r = skat_value(deal, rules)\n"
        "print(r.value, r.score, r.title.de, skat_value(deal).value)\n"
        "from skatcalc.rules.common import InvalidDeal\n"
        "from skatcalc.text import field_errors\n"
        "for bid, house in ((96, rules), (60, None)):\n"
        "    try:\n"
        "        skat_value(SkatDeal(Game.NULL, hand=True, ouvert=True, won=True, bid=bid), house)\n"
        "    except InvalidDeal as exc:\n"
        "        print(field_errors(exc, 'en')['bid'][0])\n",
        "92 -184 Revolution 59 No Null game reaches the bid 96 (92 at most)."
        " No Null game reaches the bid 60 (59 at most).",
    ),
    (
        "schafkopf_contract.patch",
        "from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame, schafkopf_value\n"
        "r = schafkopf_value(SchafkopfDeal(SKGame('bettel_ouvert'), declarers=('B',), won=True))\n"
        "print(r.value, r.deltas['B'])\n",
        "40 120",
    ),
]


def touched(patch: str) -> list[str]:
    return re.findall(r"^\+\+\+ b/(\S+)", patch, flags=re.M)


def is_code(path: str) -> bool:
    """A code file: what is neither a test, nor docs, nor the translations."""
    return not path.startswith(("tests/", "docs/", "skatcalc/translations/"))


@pytest.mark.parametrize(("name", "check", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_recipe_is_three_code_files_at_most(
    tmp_path: Path, name: str, check: str, expected: str
) -> None:
    patch = (RECIPES / name).read_text(encoding="utf-8")
    files = touched(patch)
    code = [f for f in files if is_code(f)]
    assert 1 <= len(code) <= 3, code
    assert any(f.startswith("tests/") for f in files), "a recipe brings its test"
    shutil.copytree(ROOT / "skatcalc", tmp_path / "skatcalc",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    subprocess.run(["git", "apply", "--unsafe-paths", str(RECIPES / name)], cwd=tmp_path,
                   check=True, capture_output=True, timeout=30)  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.stdout.split() == expected.split()
    # the recipe's own test, its functions called as they are (no second pytest: seconds)
    tests = [f for f in files if f.startswith("tests/")]
    run = "import runpy, sys\nfor path in sys.argv[1:]:\n    ns = runpy.run_path(path)\n" \
          "    [f() for k, f in ns.items() if k.startswith('test_')]\n"  # fmt: skip
    subprocess.run([sys.executable, "-c", run, *tests], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=60)  # fmt: skip
