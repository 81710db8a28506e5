"""The docs a newcomer reads are checked against the tree, so they cannot drift: the README's
links into docs/ lead somewhere, docs/architecture.md names files that exist, and
docs/benchmarks.md covers every script in bench/. (The README's test command is .ci/run's:
tests/system/test_ci_command.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# where a path in the docs may be written from: the checkout, the package, its parts
BASES = ("", "skatcalc", "skatcalc/rules", "skatcalc/rules/sheet", "templates", "bench", "tests")
READ_ON = ("architecture.md", "benchmarks.md", "api.md", "rules.md", "operations.md")


def test_every_docs_link_in_the_readme_exists() -> None:
    links = re.findall(r"\]\((docs/[^)#\s]+)", README)
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link


@pytest.mark.parametrize("name", READ_ON)
def test_the_readme_says_where_to_read_on(name: str) -> None:
    assert f"](docs/{name})" in README


def test_the_readme_is_read_in_minutes() -> None:
    """What it is, the screenshots, the two commands, where to read on: 120 lines at most;
    the rest belongs in docs/."""
    assert len(README.splitlines()) <= 120


def test_the_readme_keeps_its_two_commands() -> None:
    assert "```sh\npip install . && skatcalc serve\n```" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert f"```sh\n{ci}\n```" in README


def test_the_readme_names_the_system_packages_ci_installs() -> None:
    """The packages `.ci/run` installs with apt-get are the ones the README's install line
    names, and each program the tests run from them is named with its path."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = re.findall(r"apt-get install -y -qq ([a-z0-9 .+-]+?) >", ci)
    named = re.findall(r"`apt-get install ([a-z0-9 .+\n-]+)`", README)
    assert len(installed) == 1 and len(named) == 1, (installed, named)
    assert installed[0].split() == named[0].split()
    for program in ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell"):
        assert f"`{program}`" in README and program in ci


def _named_paths(text: str) -> set[str]:
    """Every `code` span that is a file or folder of the tree (not an address, not a pattern)."""
    out = set()
    for span in re.findall(r"`([^`\s]+)`", text):
        span = span.rstrip(",.;:")
        if span.startswith(("/", ".", "-")) or any(c in span for c in "<>*…()=?&|{}"):
            continue
        if "/" in span or re.search(r"\.(py|html|js|css|md|json|webmanifest)$", span):
            out.add(span)
    return out


def _exists(path: str) -> bool:
    return any((ROOT / base / path).exists() for base in BASES)


@pytest.mark.parametrize("doc", ["architecture.md", "benchmarks.md"])
def test_the_files_the_docs_name_exist(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    named = _named_paths(text)
    assert len(named) > 5
    assert [p for p in sorted(named) if not _exists(p)] == []


def test_every_bench_script_is_described() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for script in sorted((ROOT / "bench").glob("*.py")):
        assert f"`{script.name}" in text, script.name


def test_every_command_and_option_is_in_the_operations_docs() -> None:
    """docs/operations.md is the command line's reference: every command of ``skatcalc`` and
    every option of it is named there (the rest is in ``--help``)."""
    import click

    from skatcalc.server.cli import main

    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    missing = []
    for name, cmd in main.commands.items():
        if f"skatcalc {name}" not in doc:
            missing.append(name)
        for param in cmd.params:
            if isinstance(param, click.Option) and param.opts[0] not in doc:
                missing.append(f"{name} {param.opts[0]}")
    assert missing == [], missing
