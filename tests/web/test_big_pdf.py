"""The largest sheet's PDF: every deal's row is in it, and its cost grows with the deals by
drawing, not by laying text out (fpdf2's ``table()`` laid out every cell twice: 16 s of CPU)."""

from __future__ import annotations

import io
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from fpdf import FPDF
from pypdf import PdfReader

from skatcalc.rules.common import number
from tests.support import BIG_DEAL

API = "/api/v1/sheets"
NAMES = [chr(0x41 + i) * 40 for i in range(5)]  # five players, 40-character names


def big_sheet(client: FlaskClient, deals: int) -> int:
    """A sheet of ``deals`` hand games with Kontra and Re (Bock rounds doubling them), put in
    by import: one deal added through the API gives the shape, the import repeats it."""
    r = client.post(API, json={
        "game": "skat", "players": NAMES, "first_dealer": NAMES[0], "name": "x" * 40,
        "rules": {"kontra_re": True, "ramsch": True, "stake_cents": 100,
                  "bock": ["60-60", "grand-hand-won", "kontra-lost", "value-100"]}})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    sid = r.get_json()["id"]
    body = {**BIG_DEAL, "active": NAMES[1:4], "dealer": NAMES[4], "declarer": NAMES[1]}
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    one = client.get(f"{API}/{sid}/export.json").get_json()
    one["deals"] = [{**one["deals"][0], "n": n} for n in range(1, deals + 1)]
    one["history"] = []
    r = client.post(f"{API}/import", json=one)
    assert r.status_code == 201, r.get_json()
    return int(r.get_json()["id"])


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often fpdf2 lays text out (``cell``, ``multi_cell``) and draws it (``text``)."""
    counted: Counter[str] = Counter()

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)

        return wrapper

    for name in ("cell", "multi_cell", "text"):
        monkeypatch.setattr(FPDF, name, counting(name, getattr(FPDF, name)))
    yield counted


def test_the_largest_pdf_has_every_deal_and_costs_about_its_deals(
    client: FlaskClient, calls: Counter[str]
) -> None:
    sid = big_sheet(client, 1000)
    sheet = client.get(f"{API}/{sid}").get_json()
    calls.clear()
    r = client.get(f"{API}/{sid}/export.pdf")
    assert r.status_code == 200
    # the cost: a fixed number of laid-out texts (the head, the titles, the page feet), and
    # at most a text drawn per line of a cell (about 16 a deal: 5 players' two lines each)
    pages = PdfReader(io.BytesIO(r.data)).pages
    assert calls["cell"] + calls["multi_cell"] <= 20 + len(pages)
    assert calls["text"] <= 20 * 1000
    text = "\n".join(page.extract_text() for page in pages)
    text = text[: text.index("Stand (Nullsumme)") + 200]  # the list and its foot
    # every deal's row: its number on a line of its own, then its value and each player's
    # running total over what the deal gave him, in the players' order
    assert [int(n) for n in re.findall(r"^(\d+)$", text, re.M)] == list(range(1, 1001))
    rows = re.split(r"^\d+$", text, flags=re.M)[1:]
    for d, row in zip(sheet["deals"], rows, strict=True):
        figures = " ".join(
            f"{number(d['totals'][p], signed=True)} {number(d['deltas'][p], signed=True)}"
            for p in NAMES
        )
        assert f"Bock) 1632 {figures}" in row or f"Re) 816 {figures}" in row, d["n"]
    totals = " ".join(number(sheet["totals"]["balance"][p], signed=True) for p in NAMES)
    assert f"Stand (Nullsumme) {totals}" in rows[-1]
    # the CPU of this process only (``process_time``), as a ratio (robust on a shared
    # machine): 1,000 deals cost about 6 times as much as 50 (1.1 s against 0.2 s; the fonts
    # and the chart are the same); with fpdf2's ``table()`` the 1,000 took 16 s of CPU
    small = big_sheet(client, 50)
    cpu(client, small)  # computed
    ratio = cpu(client, sid) / min(cpu(client, small), cpu(client, small))
    assert ratio < 25, ratio


def cpu(client: FlaskClient, sid: int) -> float:
    """The CPU seconds of one render of a sheet's PDF (the kept copy dropped)."""
    from skatcalc.services import cache

    cache.PDFS.clear()
    t = time.process_time()
    assert client.get(f"{API}/{sid}/export.pdf").status_code == 200
    return time.process_time() - t


def test_the_chart_keys_of_five_long_names_do_not_run_into_each_other() -> None:
    """Each key's name keeps to its share of the width under the chart (shortened with "…"
    when it must be); usual names stay whole, on the page's narrow chart too."""
    from skatcalc.exports.charts import ON_PAGE, running_totals_svg

    deals = [{"totals": dict.fromkeys(NAMES, n)} for n in range(3)]
    svg = running_totals_svg(NAMES, deals, title="t", for_pdf=True)
    keys = re.findall(r'<text x="([\d.]+)" y="[\d.]+" fill="#333">([^<]*)</text>', svg)
    assert len(keys) == 5
    for (x, label), (next_x, _) in zip(keys, keys[1:], strict=False):
        assert label.endswith("…") and len(label) < 40
        width = sum(0.72 if c.isupper() else 0.6 for c in label) * 11
        assert float(x) + width < float(next_x) - 16, (x, label, next_x)
    from skatcalc.exports.charts import key_label

    usual = ["Anna", "Bernd", "Carla", "Dieter"]
    room = (ON_PAGE["width"] - 64) / 4 - 22
    assert [key_label(p, room, ON_PAGE["font_size"]) for p in usual] == usual


def test_a_heading_is_never_left_alone_at_the_foot_of_a_page() -> None:
    from skatcalc.exports.grid import Grid
    from skatcalc.exports.pdf import SheetPDF

    pdf = SheetPDF("t", "de", landscape=False)
    pdf.add_page()
    pdf.set_y(pdf.page_break_trigger - 6)  # room for the heading, none for a row under it
    grid = Grid(pdf, (20, 40), ("R", "L"), ["Nr.", "Name"])
    grid.row(["1", "Anna"])
    grid.close()
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(bytes(pdf.output()))).pages]
    assert len(pages) == 2
    assert "Name" not in pages[0] and pages[1].count("Name") == 1 and "Anna" in pages[1]
