"""docs/operations.md's commands and the systemd unit are checked as the README's are: every
``skatcalc`` command line in its shell blocks (and in the unit's ``ExecStart``) is one the
command accepts, and the unit is a unit that ``systemctl enable --now skatcalc`` finds."""

from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

import click
import pytest

from skatcalc.server.cli import main

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(text: str, lang: str) -> list[str]:
    """The fenced blocks of one language, indentation (a list item's) taken off."""
    found = re.findall(rf"^( *)```{lang}\n(.*?)^\1```", text, re.S | re.M)
    return ["\n".join(line[len(indent) :] for line in body.splitlines()) for indent, body in found]


def commands(block: str) -> list[list[str]]:
    """Each command of a shell block as words: continuation lines joined, comments and
    ``&&`` chains split."""
    joined = block.replace("\\\n", " ")
    out: list[list[str]] = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            out.append(words[:cut])
            words = words[cut + 1 :]
    return out


def accepted(words: list[str]) -> None:
    """Parse a ``skatcalc …`` command line as the command would, without running it."""
    assert Path(words[0]).name == "skatcalc", words
    assert isinstance(main, click.Group) and len(words) > 1, words
    cmd = main.commands.get(words[1])
    assert cmd is not None, f"no such command: {words}"
    cmd.make_context(words[1], words[2:])


def skatcalc_lines(text: str) -> list[list[str]]:
    return [
        words
        for block in blocks(text, "sh")
        for words in commands(block)
        if words and Path(words[0]).name == "skatcalc"
    ]


def test_the_shell_blocks_are_found() -> None:
    lines = skatcalc_lines(OPERATIONS)
    assert len(lines) >= 4
    assert any("--behind-proxy" in words for words in lines)


@pytest.mark.parametrize("words", skatcalc_lines(OPERATIONS) + skatcalc_lines(README), ids=" ".join)
def test_every_documented_command_is_accepted(words: list[str]) -> None:
    accepted(words)


def test_a_wrong_option_would_be_caught() -> None:
    with pytest.raises(click.UsageError):
        accepted(["skatcalc", "serve", "--behind-proxies", "1"])


def test_the_systemd_unit() -> None:
    units = blocks(OPERATIONS, "ini")
    assert len(units) == 1
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(units[0])
    assert unit.sections() == ["Unit", "Service", "Install"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    service = unit["Service"]
    # systemd joins a line ending in a backslash with the next
    exec_start = shlex.split(service["ExecStart"].replace("\\\n", " "))
    assert exec_start[0].startswith("/"), "systemd needs an absolute path"
    accepted(exec_start)
    # the unit's file name is what `systemctl enable --now skatcalc` names
    path = re.search(r"\(`(/etc/systemd/system/[^`]+)`\)", OPERATIONS)
    assert path is not None and path.group(1) == "/etc/systemd/system/skatcalc.service"
    assert "`systemctl enable --now skatcalc`" in OPERATIONS
    # the program is where the install step put it: the user's ~/skatcalc venv
    assert exec_start[0] == f"/home/{service['User']}/skatcalc/bin/skatcalc"
    assert "python3 -m venv ~/skatcalc" in OPERATIONS
