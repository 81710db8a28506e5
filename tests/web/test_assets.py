"""Static files under their content's hash: one place names them (a URL default), the hashed
address answers the file minified and cached for a year, the plain one stays as it was."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask import Flask

from skatcalc.web import assets


def test_pages_link_every_static_file_by_its_hash(app: Flask) -> None:
    client = app.test_client()
    html = client.get("/").get_data(as_text=True)
    linked = re.findall(r'(?:href|src)="/static/([^"]+)"', html)
    assert linked and all(re.fullmatch(r"[\w-]+\.[0-9a-f]{10}\.\w+", n) for n in linked), linked
    sw = client.get("/sw.js").get_data(as_text=True)
    for name in ("style.css", "app.js"):
        hashed = app.extensions["skatcalc.assets"].by_name[name].hashed
        assert f'"/static/{hashed}"' in sw and f'"/static/{name}"' not in sw


def test_a_hashed_file_is_immutable_and_its_hash_follows_its_content(app: Flask) -> None:
    client = app.test_client()
    table = app.extensions["skatcalc.assets"]
    css = table.by_name["style.css"]
    r = client.get(f"/static/{css.hashed}", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.mimetype == "text/css"
    body = gzip.decompress(r.data)
    assert body == css.body and b"/*" not in body
    plain = client.get(f"/static/{css.hashed}")
    assert plain.data == css.body and "Content-Encoding" not in plain.headers
    # the plain address still answers the file as written, revalidated
    source = (Path(app.static_folder or "") / "style.css").read_bytes()
    with client.get("/static/style.css") as r:
        assert r.data == source and "immutable" not in r.headers.get("Cache-Control", "")
    with client.get("/static/style.0000000000.css") as r:
        assert r.status_code == 404


def test_a_changed_file_gets_another_name(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_text("a { color: red }")
    first = assets.build(tmp_path).by_name["a.css"].hashed
    assert assets.build(tmp_path).by_name["a.css"].hashed == first
    (tmp_path / "a.css").write_text("a { color: blue }")
    assert assets.build(tmp_path).by_name["a.css"].hashed != first


def test_minified_css_keeps_strings_and_descendant_pseudo_classes() -> None:
    css = '.a :checked + span::before { content: " · " ; }\n/* why */\n.b>c , d { x: 1 }'
    assert assets.minify_css(css) == '.a :checked + span::before{content:" · "}.b>c,d{x:1}'
