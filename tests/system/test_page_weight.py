"""What a phone downloads: the 48-deal sheet page with its stylesheet and script, as
``skatcalc serve`` sends them gzipped, is at most 22 KiB (bench/page_weight.py prints it), and
the static files carry their content's hash in the address and are kept for a year."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support import ROOT, serve

sys.path.insert(0, str(ROOT / "bench"))
page_weight = pytest.importorskip("page_weight")


def test_the_sheet_page_with_its_css_and_js_weighs_at_most_22_kib(tmp_path: Path) -> None:
    with serve(tmp_path / "weight.sqlite") as srv:
        sid = page_weight.seed(srv.port)
        sizes = page_weight.measure(srv.port, sid)
        assert len(sizes) == 3, sizes  # the page, style.css and app.js
        assert sum(sizes.values()) <= page_weight.LIMIT_KIB * 1024, sizes
        # each static file: a hashed name, a year's immutable caching, gzipped on the wire
        for url in [u for u in sizes if u != "page"]:
            got = srv.call("GET", url, headers={"Accept-Encoding": "gzip"})
            assert got.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert got.headers["Content-Encoding"] == "gzip"
            again = srv.call("GET", url, headers={"If-None-Match": got.headers["ETag"],
                                                   "Accept-Encoding": "gzip"})  # fmt: skip
            assert again.status == 304
