"""The ``skatcalc`` command: help for everything, init-db and backup on real files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from skatcalc import store
from skatcalc.server.cli import _Limits, _serve_config, _served_url, main
from skatcalc.store import sheets as sheet_store

COMMANDS = sorted(main.commands)


def test_every_command_and_option_has_help() -> None:
    assert main.help and {"serve", "init-db", "backup"} <= set(COMMANDS)
    for name in COMMANDS:
        cmd = main.commands[name]
        assert cmd.help, f"{name} has no help text"
        for param in cmd.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.opts[0]} has no help text"
            else:  # arguments have no help of their own: the command's text names them
                assert (param.name or "").upper() in cmd.help, (
                    f"{name} does not explain {param.name}"
                )


def test_top_level_help_lists_the_commands() -> None:
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0
    for name in COMMANDS:
        assert name in r.output


@pytest.mark.parametrize("name", COMMANDS)
def test_help_of_each_command(name: str) -> None:
    r = CliRunner().invoke(main, [name, "--help"])
    assert r.exit_code == 0, r.output
    cmd = main.commands[name]
    assert (cmd.help or "").split("\n")[0][:30] in " ".join(r.output.split())
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert param.opts[0] in r.output


def test_init_db_creates_and_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "sub.sqlite"
    for _ in range(2):  # a second run upgrades nothing and fails nothing
        r = CliRunner().invoke(main, ["init-db", "--db", str(path)])
        assert r.exit_code == 0, r.output
        assert str(path) in r.output
    db = store.connect(str(path))
    assert {"sheets", "deals", "history"} <= set(db.table_names())
    db.close()


def test_backup_copies_the_live_database(tmp_path: Path) -> None:
    src = tmp_path / "live.sqlite"
    store.migrate(str(src))
    db = store.connect(str(src))
    sheet = sheet_store.create_sheet(db, "Freitag", "skat", ["A", "B", "C"], "A", {})
    sheet_store.add_deal(db, sheet.id, "A", ["B", "C", "A"], {"passed": True})
    dst = tmp_path / "copy.sqlite"
    # The source connection stays open, as a running server's would.
    r = CliRunner().invoke(main, ["backup", str(dst), "--db", str(src)])
    db.close()
    assert r.exit_code == 0, r.output
    assert str(dst) in r.output
    copy = sqlite3.connect(dst)
    try:
        assert copy.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert copy.execute("select name from sheets").fetchall() == [("Freitag",)]
        assert copy.execute("select count(*) from deals").fetchone()[0] == 1
    finally:
        copy.close()


def test_serve_config_limits_by_network_and_as_given() -> None:
    """``serve``'s options as the app's configuration: on the network a limit per address
    unless one is given (0 is none), alone on the machine none; the write slots, PDF waiters
    follow the threads, the heavy reads are one unless given; PDFs render apart."""
    lan = _serve_config(None, True, 8, (), False, False, _Limits(None, None, None))
    assert lan == {"LAN": True, "WRITE_LIMIT": 120, "PREVIEW_LIMIT": 240, "IMPORT_LIMIT": 20,
                   "WRITE_SLOTS": 4, "PDF_WAITERS": 2, "HEAVY_SLOTS": 1,
                   "PDF_PROCESS": True}  # fmt: skip
    given = _serve_config("x.db", True, 1, ("a.example",), True, True, _Limits(5, 0, 7))
    assert given["PREVIEW_LIMIT"] == 5 and "WRITE_LIMIT" not in given
    assert given["IMPORT_LIMIT"] == 7 and given["ALLOWED_HOSTS"] == ["a.example"]
    assert given["HSTS_SECONDS"] == 31536000 and given["DB_DURABLE"] is True
    assert given["WRITE_SLOTS"] == 1 and given["PDF_WAITERS"] == 1
    assert given["HEAVY_SLOTS"] == 1
    heavy = _serve_config(None, False, 8, (), False, False, _Limits(None, None, None, 3))
    assert heavy["HEAVY_SLOTS"] == 3
    assert str(given["DATABASE"]).endswith("x.db")
    alone = _serve_config(None, False, 8, (), False, False, _Limits(None, None, None))
    assert alone == {"WRITE_SLOTS": 4, "PDF_WAITERS": 2, "HEAVY_SLOTS": 1, "PDF_PROCESS": True}


def test_served_url_names_the_public_address_first() -> None:
    assert _served_url("127.0.0.1", 8000, None) == "http://127.0.0.1:8000"
    assert _served_url("::1", 8000, None) == "http://[::1]:8000"
    assert _served_url("127.0.0.1", 8000, "https://skat.example/") == "https://skat.example"
