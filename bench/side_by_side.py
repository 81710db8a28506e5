"""Two commits' benchmark figures side by side: `latency.py` and `memory.py` of a base commit
and of the working tree, run alternately (base, here, base, here, …) so that a shared machine
speeding up or slowing down weighs on both alike; each figure is the median of its runs.

The base commit is checked out into a temporary git worktree and measured with its own code
and its own copy of the bench script (a script the change rewrote measures the same thing
both times only if its lines still match: lines are paired by their text with the numbers
left out, and a line found in one run only is printed with "—" on the other side).

Run: python bench/side_by_side.py --base <commit> [--runs 3] [--bench latency memory]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"[−-]?\d[\d,]*(?:\.\d+)?")


def run(tree: Path, bench: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, str(tree / "bench" / f"{bench}.py")],
        cwd=tree, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{bench}.py failed in {tree}:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def figures(text: str) -> dict[str, list[float]]:
    """Each line's label (its text with the numbers left out) and its numbers."""
    lines: dict[str, list[float]] = {}
    for line in text.splitlines():
        found = NUMBER.findall(line)
        if not found or line.startswith(("run time", "Flask test client", "it is compared")):
            continue
        label = " ".join(NUMBER.sub("#", line).split())
        # lines of one shape (after 250, 500, … adds) keep their order: the k-th with the k-th
        label += f" [{sum(k.startswith(label) for k in lines) + 1}]" if label in lines else ""
        lines[label] = [float(n.replace(",", "").replace("−", "-")) for n in found]
    return lines


def medians(runs: list[dict[str, list[float]]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for label in runs[0]:
        rows = [r[label] for r in runs if label in r and len(r[label]) == len(runs[0][label])]
        out[label] = [statistics.median(col) for col in zip(*rows, strict=True)]
    return out


def show(label: str, base: list[float] | None, here: list[float] | None) -> None:
    def fmt(values: list[float] | None) -> str:
        return "—" if values is None else " / ".join(f"{v:g}" for v in values)

    print(f"  {label[:70]:<70}\n      base: {fmt(base)}\n      here: {fmt(here)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the commit before the change")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bench", nargs="+", default=["latency", "memory"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base_tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base_tree), args.base],
                       cwd=ROOT, check=True)  # fmt: skip
        try:
            for bench in args.bench:
                base_runs, here_runs = [], []
                for _ in range(args.runs):
                    base_runs.append(figures(run(base_tree, bench)))
                    here_runs.append(figures(run(ROOT, bench)))
                base, here = medians(base_runs), medians(here_runs)
                print(f"{bench}.py — base {args.base} vs this tree, median of {args.runs} "
                      f"alternate runs, load average {os.getloadavg()[0]:.1f}")  # fmt: skip
                for label in dict.fromkeys([*base, *here]):
                    show(label, base.get(label), here.get(label))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT,
                           check=False)  # fmt: skip


if __name__ == "__main__":
    main()
