"""The running totals of every player as an SVG line chart, drawn on the server.

The same SVG goes onto the sheet page and into the PDF, so both show one picture. The
markup is ``templates/charts/line.svg``; here the axes and the points are worked out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict
from xml.sax.saxutils import escape as _escape

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup

from skatcalc.rules.common import number
from skatcalc.services import cache

# The templates' folder: at the project's top in a checkout, in the package once installed
# (as skatcalc/__init__.py finds it for the app).
TEMPLATES = [str(Path(__file__).resolve().parents[1] / "templates"),
             str(Path(__file__).resolve().parents[2] / "templates")]  # fmt: skip
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
# Characters XML 1.0 does not allow at all (not even as &#...;). A name stored before names
# were checked at the door may hold one; the PDF's SVG parser would fail on the whole chart.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """Text for an SVG element or attribute (the template's ``xml`` filter): XML-escaped,
    characters XML forbids left out."""
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


# A chart on a page: 360 units wide with 13-unit text, so a phone that shows it about 350 px
# wide draws its labels at 12.6 px (the PDF keeps the wide chart).
class ChartSize(TypedDict):
    width: int
    height: int
    font_size: int


ON_PAGE: ChartSize = {"width": 360, "height": 240, "font_size": 13}


def running_totals_svg(players: Sequence[str], deals: Sequence[Mapping[str, Any]],
                       width: int = 640, height: int = 260, title: str = "",
                       font: str = "DejaVu Sans, sans-serif", for_pdf: bool = False,
                       font_size: int = 11) -> str:  # fmt: skip
    """A line per player from 0 through the total after each deal (``templates/charts/line.svg``
    draws it; here the axes and the points are worked out). ``font_size`` is in the drawing's
    units: a page drawn narrow (``width``) and shrunk to a phone's width keeps it readable."""
    totals = [d["totals"] for d in deals]  # each deal's looked up once, not once per player
    series = {p: [0, *[int(t[p]) for t in totals]] for p in players}
    lo = min([0, *map(min, series.values())])
    hi = max([0, *map(max, series.values())])
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

    # Each deal's x and each total's y written once, not once per player, and kept per scale
    # (they follow from it alone): the page after a save draws every point again, and only
    # the new deal's totals are new on a scale that did not change.
    xs = cache.kept(cache.CHART_XS, (len(deals), left, pw),
                    lambda: [f"{x(i):.0f}," for i in range(len(deals) + 1)])  # fmt: skip
    held = cache.kept(cache.CHART_YS, (lo, hi, top, ph), dict)
    ys = held
    missing = {v for s in series.values() for v in s if v not in held}
    if missing:
        ys = {**held, **{v: f"{y(v):.0f}" for v in missing}}
        if len(ys) <= cache.CHART_VALUES:  # added to, never emptied: others read it
            held.update((v, ys[v]) for v in missing)
    # each point its deal's x and its total's y, joined in C rather than one by one
    points = [" ".join(map(str.__add__, xs, map(ys.__getitem__, series[p]))) for p in players]
    # The x axis follows from the number of deals and the geometry alone: drawn once per such
    # key, not once per view of a revision (each language and view draws its own chart).
    x_axis = cache.kept(cache.CHART_X_AXES, (n, left, pw, top + ph + 16),
                        lambda: _x_axis(n, x, top + ph + 16))  # fmt: skip
    # The drawing but for its x axis and its points follows from the scale, the size and the
    # players alone: drawn once per such key with marks where those go (a save's chart moves
    # the x axis and adds a point to each line, the scale mostly stays).
    key = (width, height, title, font, font_size, for_pdf, left, pw, top, ph, lo, hi, step,
           tuple(players))  # fmt: skip

    def frame() -> list[str]:
        # the template writes these as they are (a format filter per number cost most of it)
        y_ticks = [{"y": f"{y(v):.1f}", "text_y": f"{y(v) + 4:.1f}", "zero": v == 0,
                    "label": number(v)} for v in range(lo, hi + 1, step)]  # fmt: skip
        lines = [
            {
                "name": p,
                "colour": COLOURS[k % len(COLOURS)],
                "points": f"\x00{k}\x00",
                # its colour's key under the chart
                "key_x": f"{left + k * (pw / max(len(players), 1)):.1f}",
                "text_x": f"{left + k * (pw / max(len(players), 1)) + 16:.1f}",
                "label": key_label(p, pw / max(len(players), 1) - 16 - 6, font_size),
            }
            for k, p in enumerate(players)
        ]
        svg = _template().render(
            width=width, height=height, title=title, font=font, font_size=font_size,
            for_pdf=for_pdf, left=left, right=left + pw, y_ticks=y_ticks, lines=lines,
            x_axis=Markup("\x00x\x00"),
        )  # fmt: skip
        return _MARKS.split(svg)

    fill = {"\x00x\x00": x_axis, **{f"\x00{k}\x00": pts for k, pts in enumerate(points)}}
    return "".join([fill.get(p, p) for p in cache.kept(cache.CHART_FRAMES, key, frame)])


_MARKS = re.compile("(\x00(?:x|\\d+)\x00)")


def _x_axis(n: int, x: Callable[[int], float], y: int) -> str:
    """``templates/charts/_x_axis.svg``: a label at every step of the deals' numbers."""
    x_ticks = [{"x": f"{x(i):.1f}", "label": i} for i in range(0, n + 1, _nice_step(n))]
    return _template("charts/_x_axis.svg").render(x_ticks=x_ticks, y=y)


def key_label(name: str, room: float, font_size: int) -> str:
    """A name as its colour's key shows it: whole when it fits its share of the width under
    the chart (``room``, in the drawing's units), else shortened with "…", so that five long
    names do not run into each other. Estimated from DejaVu Sans: a capital or a digit is at
    most 0.72 em wide, another letter 0.6 em (the chart's text has no metrics of its own)."""

    def width(text: str) -> float:
        return sum(0.72 if c.isupper() or c.isdigit() else 0.6 for c in text) * font_size

    if width(name) <= room:
        return name
    while name and width(name + "…") > room:
        name = name[:-1]
    return name.rstrip() + "…"


def _template(name: str = "charts/line.svg") -> Template:
    """The chart's templates, from an environment of its own: a PDF is drawn without an app or
    a request too (a script, a test), and the app's environment brings nothing a chart uses
    (its globals translate with the request's language). Autoescaped; text goes through the
    ``xml`` filter, which also leaves out what XML forbids. The environment keeps each
    template it compiled (files of the installation, like an import)."""
    return _environment().get_template(name)


def _environment() -> Environment:
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, auto_reload=False,
                          undefined=StrictUndefined)  # fmt: skip
        env.filters["xml"] = lambda text: Markup(escape(text))
        _ENVIRONMENT = env
    return _ENVIRONMENT


_ENVIRONMENT: Environment | None = None
