"""Download formats come from one registry: the routes answer through it, and the sheet page's
links, the service worker's list and docs/api.md are read from or checked against it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc import exports
from skatcalc.exports import Format

DOCS_API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _plain_text(db: Any, loaded: Any, lang: str) -> bytes:
    return f"{loaded.name} ({lang})\n".encode()


@pytest.fixture
def made_up_format() -> Iterator[Format]:
    """A format no one ships, registered for one test the way a real one registers itself."""
    fmt = exports.register(Format("txt", "text/plain", "TXT", _plain_text))
    yield fmt
    del exports.FORMATS["txt"]


def _sheet(client: FlaskClient) -> int:
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": ["Ann", "Ben", "Cem"],
                                            "first_dealer": "Ann", "name": "Freitag"})  # fmt: skip
    assert r.status_code == 201
    return int(r.get_json()["id"])


def test_pdf_csv_and_json_are_registered_in_the_page_order() -> None:
    shipped = [(f.extension, f.mimetype, f.label) for f in exports.formats()][:3]
    assert shipped == [
        ("pdf", "application/pdf", "PDF"),
        ("csv", "text/csv", "CSV"),
        ("json", "application/json", "JSON"),
    ]


def _worker_pattern(extensions: list[str]) -> str:
    return r"/\/export\.(" + "|".join(sorted(extensions)) + r")$/"


def test_a_registered_format_is_linked_let_through_by_the_worker_and_answers(
    client: FlaskClient, made_up_format: Format
) -> None:
    sid = _sheet(client)
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    links = re.findall(rf'href="/sheets/{sid}/export\.(\w+)">(\w+)</a>', page)
    assert links[-1] == ("txt", "TXT")
    assert links == [(f.extension, f.label) for f in exports.formats()]

    worker = client.get("/sw.js").get_data(as_text=True)
    assert _worker_pattern(list(exports.FORMATS)) in worker
    assert "txt" in exports.FORMATS

    for url in (f"/sheets/{sid}/export.txt", f"/api/v1/sheets/{sid}/export.txt"):
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "text/plain"
        assert r.data == b"Freitag (de)\n"
        assert r.headers["Content-Disposition"].startswith("attachment;")
        assert ".txt" in r.headers["Content-Disposition"]


def test_a_format_nobody_registered_is_not_found(client: FlaskClient) -> None:
    sid = _sheet(client)
    assert client.get(f"/sheets/{sid}/export.txt").status_code == 404
    assert client.get(f"/api/v1/sheets/{sid}/export.txt").status_code == 404
    assert "export.txt" not in client.get(f"/sheets/{sid}").get_data(as_text=True)
    worker = client.get("/sw.js").get_data(as_text=True)
    assert _worker_pattern(list(exports.FORMATS)) in worker and "txt" not in worker


def test_the_service_worker_answers_unchanged_when_asked_again(client: FlaskClient) -> None:
    r = client.get("/sw.js")
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert r.mimetype == "text/javascript" and "no-cache" in r.headers["Cache-Control"]
    assert r.get_data(as_text=True).startswith("// skatcalc service worker")
    assert client.get("/sw.js", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


@pytest.mark.parametrize("extension", ["", "TXT", "t.x", "t|x", "(x)"])
def test_an_extension_must_fit_an_address_and_the_worker_pattern(extension: str) -> None:
    with pytest.raises(ValueError):
        exports.register(Format(extension, "text/plain", "X", _plain_text))
    assert extension not in exports.FORMATS


def test_docs_api_lists_exactly_the_registered_formats() -> None:
    text = DOCS_API.read_text(encoding="utf-8")
    # the API's route and the pages' route, each an item of its list
    for start in ("* `GET /api/v1/sheets/<id>/export.", "* `/sheets/<id>/export."):
        route = next(line for line in text.splitlines() if line.startswith(start))
        listed = re.findall(r"export\.(\w+)`|`\.(\w+)`", route)
        assert sorted(a or b for a, b in listed) == sorted(exports.FORMATS), route
    files = text.split("## Files: export and import", 1)[1].split("\n## ", 1)[0]
    described = re.findall(r"^\* `export\.(\w+)`", files, flags=re.MULTILINE)
    assert sorted(described) == sorted(exports.FORMATS)
