"""The running totals of every player as an SVG line chart, drawn on the server.

The same SVG goes onto the sheet page and into the PDF, so both show one picture.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape as _escape

from skatcalc.rules.common import number

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
# Characters XML 1.0 does not allow at all (not even as &#...;). A name stored before names
# were checked at the door may hold one; the PDF's SVG parser would fail on the whole chart.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """Text for an SVG element or attribute: XML-escaped, characters XML forbids left out."""
    return _escape(_NOT_XML.sub("", text), {'"': "&quot;"})


def _nice_step(span: int) -> int:
    """The axis' step: a round number that divides ``span`` into six parts at most.

    >>> [_nice_step(span) for span in (5, 12, 80, 700, 90000)]
    [1, 2, 20, 200, 100000]
    """
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 6:
            return step
    return int(10 ** len(str(span)))


def running_totals_svg(players: Sequence[str], deals: Sequence[Mapping[str, Any]],
                       width: int = 640, height: int = 260, title: str = "",
                       font: str = "DejaVu Sans, sans-serif", for_pdf: bool = False) -> str:  # fmt: skip
    """A line per player from 0 through the total after each deal."""
    series = {p: [0] + [int(d["totals"][p]) for d in deals] for p in players}
    values = [v for s in series.values() for v in s]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        hi = lo + 10
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    left, right, top, bottom = 52, 12, 14, 46
    pw, ph = width - left - right, height - top - bottom
    n = max(len(deals), 1)

    def x(i: int) -> float:
        return left + pw * i / n

    def y(v: int) -> float:
        return top + ph * (hi - v) / (hi - lo)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" class="chart" '
        f'aria-label="{escape(title)}" font-family="{escape(font)}" font-size="11">',
    ]
    if not for_pdf:  # fpdf2 has no use for <title> and warns about it
        parts.append(f"<title>{escape(title)}</title>")
    v = lo
    while v <= hi:
        colour = "#888" if v == 0 else "#ddd"
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="{colour}" stroke-width="{1.2 if v == 0 else 0.6}"/>')  # fmt: skip
        label = number(v)
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
                     f'fill="#666">{label}</text>')  # fmt: skip
        v += step
    xstep = _nice_step(n)
    for i in range(0, n + 1, xstep):
        parts.append(f'<text x="{x(i):.1f}" y="{top + ph + 16}" text-anchor="middle" '
                     f'fill="#666">{i}</text>')  # fmt: skip
    for k, p in enumerate(players):
        colour = COLOURS[k % len(COLOURS)]
        pts = " ".join(f"{x(i):.0f},{y(val):.0f}" for i, val in enumerate(series[p]))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'stroke-linejoin="round" points="{pts}"/>')  # fmt: skip
        lx = left + k * (pw / max(len(players), 1))
        parts.append(
            f'<rect x="{lx:.1f}" y="{height - 16}" width="12" height="4" fill="{colour}"/>'
        )
        parts.append(f'<text x="{lx + 16:.1f}" y="{height - 11}" fill="#333">{escape(p)}</text>')
    parts.append("</svg>")
    return "".join(parts)
