"""No key in a log: skatcalc's own log lines and waitress's name paths with every link's key
cut out; the admin link printed once when ``serve`` starts is the one key its output shows."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from skatcalc.services import sheets as service
from skatcalc.web.rights import masked
from tests.support import ROOT, serve

API = "/api/v1/sheets"
SHEET = {"game": "skat", "players": ["Anna", "Bernd", "Clara"]}


def test_masked_cuts_every_links_key() -> None:
    for path, want in [
        ("/sheets/12/edit/Ab-c_9", "/sheets/12/edit/***"),
        ("/sheets/12/share/xyz?lang=en", "/sheets/12/share/***?lang=en"),
        ("/events/3/edit/k3y", "/events/3/edit/***"),
        ("/groups/4/edit/k3y/", "/groups/4/edit/***/"),
        ("/admin/s3cret", "/admin/***"),
        ('"GET /admin/s3cret HTTP/1.1" 200', '"GET /admin/*** HTTP/1.1" 200'),
        ("/sheets/12", "/sheets/12"),
        ("/api/v1/sheets/12/deals/3", "/api/v1/sheets/12/deals/3"),
    ]:
        assert masked(path) == want


def test_a_storage_fault_on_a_link_logs_no_key(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    client = app.test_client()
    sheet = client.post(API, json=SHEET).get_json()

    def locked(*_a: object, **_k: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(service, "load_sheet", locked)
    r = client.get(f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}")
    assert r.status_code == 503
    assert caplog.records and "storage fault" in caplog.text
    assert sheet["edit_token"] not in caplog.text
    assert f"/sheets/{sheet['id']}/edit/***" in caplog.text

    def broken(*_a: object, **_k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(service, "load_sheet", broken)
    caplog.clear()
    r = client.get(f"/sheets/{sheet['id']}/share/{sheet['share_token']}")
    assert r.status_code == 500
    assert "unhandled error" in caplog.text and sheet["share_token"] not in caplog.text


def test_the_servers_log_handler_masks_keys() -> None:
    """What waitress logs about a failed request names its path: through serve's one
    handler the key is cut out."""
    code = (
        "import logging\n"
        "from skatcalc.server.prefork import mask_keys_in_logs\n"
        "mask_keys_in_logs()\n"
        "logging.getLogger('waitress').error('Exception while serving %s', "
        "'/sheets/3/edit/SECRETKEY')\n"
        "logging.getLogger('skatcalc').warning('on /admin/ADMINKEY')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert "SECRETKEY" not in out.stderr and "ADMINKEY" not in out.stderr
    assert "/sheets/3/edit/***" in out.stderr and "/admin/***" in out.stderr


def test_serve_prints_the_admin_link_once_and_no_other_key(tmp_path: Path) -> None:
    with serve(tmp_path / "logs.sqlite", "--lan", "--host", "127.0.0.1") as server:
        admin = re.search(r"/admin/([A-Za-z0-9_-]+)", server.output())
        assert admin is not None
        sheet = server.call("POST", API, json_body=SHEET).json()
        event = server.call("POST", "/api/v1/events",
                            json_body={"name": "Preisskat", "game": "skat"}).json()  # fmt: skip
        for path in (f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}",
                     f"/sheets/{sheet['id']}/share/{sheet['share_token']}",
                     f"/events/{event['id']}/edit/{event['edit_token']}",
                     f"/admin/{admin.group(1)}", "/admin/wrong-key"):  # fmt: skip
            assert server.call("GET", path).status < 500
        output = server.output()
    assert output.count(admin.group(1)) == 1
    for key in (sheet["edit_token"], sheet["share_token"], event["edit_token"], "wrong-key"):
        assert key not in output
