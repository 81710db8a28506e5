"""What the sheet page gives its offline queue (``static/app.js``): the rotation as the server
has it, so the form after waiting deals shows their dealer and seats without a rule in the
script, and the queue's texts in the page's language."""

from __future__ import annotations

import html
import json
import re

from flask.testing import FlaskClient


def rotation(page: str) -> dict[str, dict[str, object]]:
    found = re.search(r'data-rotation="([^"]*)"', page)
    assert found is not None
    return dict(json.loads(html.unescape(found.group(1))))


def test_the_entry_form_carries_the_rotation(client: FlaskClient) -> None:
    made = client.post("/api/v1/sheets", json={"game": "skat",
                       "players": ["Anna", "Ben", "Cem", "Dora", "Ede"]}).get_json()  # fmt: skip
    page = client.get(f"/sheets/{made['id']}").data.decode()
    seats = rotation(page)
    assert seats["Anna"] == {"next": "Ben", "active": ["Ben", "Cem", "Ede"]}
    assert seats["Ede"] == {"next": "Anna", "active": ["Anna", "Ben", "Dora"]}
    assert list(seats) == ["Anna", "Ben", "Cem", "Dora", "Ede"]


def test_the_queue_speaks_the_pages_language(client: FlaskClient) -> None:
    made = client.post("/api/v1/sheets", json={"game": "schafkopf",
                       "players": ["A", "B", "C", "D"]}).get_json()  # fmt: skip
    assert rotation(client.get(f"/sheets/{made['id']}").data.decode())["D"] == {
        "next": "A", "active": ["A", "B", "C", "D"]}  # fmt: skip
    page = client.get(f"/sheets/{made['id']}?lang=en").data.decode()
    assert 'data-refused="not saved"' in page and ">Into the form<" in page
    assert "No value without a connection" in page
