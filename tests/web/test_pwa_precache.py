"""The service worker's list of what it keeps at install comes from one place
(``web/pwa.py``): every address in it is one the app serves, and the worker names exactly it."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from skatcalc.web import pwa


def test_the_workers_list_is_the_one_in_pwa_py(app: Flask, client: FlaskClient) -> None:
    worker = client.get("/sw.js").get_data(as_text=True)
    found = re.search(r"^const PRECACHE = (\[.*\]);$", worker, re.M)
    assert found is not None
    with app.test_request_context():
        assert json.loads(found.group(1)) == pwa.precache()
    listed = json.loads(found.group(1))
    # the static files under their content-hashed names (web/assets.py), as the pages link them
    assert any(re.fullmatch(r"/static/app\.[0-9a-f]{10}\.js", a) for a in listed), listed
    assert "/offline" in listed
    for address in listed:
        r = client.get(address)
        r.close()  # a static file is sent from an open file
        assert r.status_code == 200, address
