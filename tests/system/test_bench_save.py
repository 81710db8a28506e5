"""``bench/save.py --help`` prints what the bench measures and how to run it (its docstring),
and a wrong argument is told, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "save.py"), *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_help_prints_the_docstring() -> None:
    for flag in ("--help", "-h"):
        r = run(flag)
        assert r.returncode == 0 and "Traceback" not in r.stderr
        assert "The save against a bare Flask floor" in r.stdout and "--where" in r.stdout


def test_a_wrong_argument_is_told() -> None:
    r = run("many")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Run: PYTHONPATH=. python bench/save.py" in r.stderr
