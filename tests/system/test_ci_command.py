"""CI runs exactly the README's test command (the README promises it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run all tests", 1)[1]
    command = re.search(r"```sh\n(.+?)\n```", section, re.S)
    assert command is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == command.group(1).strip()
