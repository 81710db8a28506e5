"""The PDFs' tables, drawn line by line (fpdf2's ``text`` and ``line``): the paper-list look of
fpdf2's ``table()`` (horizontal rules between rows, a tinted heading repeated on every page,
padding, long text wrapped at spaces, a word too long for its column broken), at a fraction of
its cost: ``table()`` lays out every cell's text twice through ``multi_cell``, which made a
1,000-deal sheet take seconds. Each cell's lines are measured once here, from the font's
glyph widths."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from fpdf import FPDF

Align = Literal["L", "R"]
RGB = tuple[int, int, int]
HEAD_FILL: RGB = (228, 236, 230)
BLACK: RGB = (0, 0, 0)
GREY_RGB: RGB = (120, 120, 120)
PAD_X = 1.2  # mm between a column's edge and its text
WRAP_PAD = 2 * PAD_X  # the room fpdf2's table() wrapped a cell's text in: it wraps alike


@dataclass(frozen=True)
class Look:
    """How a whole row is set."""

    bold: bool = False
    color: RGB = BLACK
    strike: bool = False
    fill: RGB | None = None


PLAIN = Look()
HEAD = Look(bold=True, fill=HEAD_FILL)


@dataclass(frozen=True)
class Cell:
    """A cell's text ("\\n" starts a new line); ``size`` in pt (None: the table's), ``span``
    columns wide, ``align`` (None: its column's)."""

    text: str
    size: float | None = None
    span: int = 1
    align: Align | None = None


def text_width(pdf: FPDF, text: str, bold: bool, size: float) -> float:
    """``text``'s width in mm in the document's DejaVu at ``size`` pt (its glyph widths, as
    ``get_string_width`` sums them, without building its text fragments)."""
    font = pdf.fonts["dejavuB" if bold else "dejavu"]
    return float(font.get_text_width(text, size, None)[1]) / pdf.k


class Measure:
    """Text widths and wrapped lines, each worked out once per table: a list repeats its
    names, its games and many of its numbers on every row."""

    def __init__(self, pdf: FPDF) -> None:
        self.pdf = pdf
        self._widths: dict[tuple[str, bool, float], float] = {}
        self._lines: dict[tuple[str, float, bool, float], list[str]] = {}

    def width(self, text: str, bold: bool, size: float) -> float:
        key = (text, bold, size)
        found = self._widths.get(key)
        if found is None:
            found = self._widths[key] = text_width(self.pdf, text, bold, size)
        return found

    def wrap(self, text: str, room: float, bold: bool, size: float) -> list[str]:
        """``text`` in lines of at most ``room`` mm: broken at "\\n", then between words, and a
        word wider than ``room`` between its letters."""
        key = (text, room, bold, size)
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = [
                line for para in text.split("\n") for line in self._wrap(para, room, bold, size)
            ]
        return found

    def _wrap(self, para: str, room: float, bold: bool, size: float) -> list[str]:
        if self.width(para, bold, size) <= room:
            return [para]
        out: list[str] = []
        line = ""
        for word in para.split(" "):
            candidate = f"{line} {word}" if line else word
            if self.width(candidate, bold, size) <= room:
                line = candidate
                continue
            if line:
                out.append(line)
            line = self._break_word(word, room, bold, size, out)
        out.append(line)
        return out

    def _break_word(self, word: str, room: float, bold: bool, size: float,
                    out: list[str]) -> str:  # fmt: skip
        """``word``'s full lines go to ``out``; what is left of it is returned."""
        line, used = "", 0.0
        for ch in word:
            w = self.width(ch, bold, size)
            if line and used + w > room:
                out.append(line)
                line, used = "", 0.0
            line += ch
            used += w
        return line


class Grid:
    """One table from the current position on: ``widths`` in mm, ``heading`` repeated at the
    top of every page the table reaches. Rows are drawn as they come; ``close`` ends it."""

    def __init__(self, pdf: FPDF, widths: Sequence[float], aligns: Sequence[Align],
                 heading: Sequence[Cell | str] = (), size: float = 8, line_h: float = 4.2,
                 pad_y: float = 0.8, x: float | None = None) -> None:  # fmt: skip
        self.pdf = pdf
        self.widths = list(widths)
        self.aligns = list(aligns)
        self.size = size
        self.line_h = line_h
        self.pad_y = pad_y
        self.x = pdf.l_margin if x is None else x
        self.measure = Measure(pdf)
        self.heading = self._fit_heading([_cell(c) for c in heading])
        self._rule: float | None = None  # the line under the last row, drawn if a row follows
        if self.heading:
            self._draw(self.heading, HEAD)

    def _fit_heading(self, cells: list[Cell]) -> list[Cell]:
        """A heading whose longest word would be broken in its column is set smaller, so the
        word stays whole ("gewertet" over a column of numbers); a size given is kept."""
        out, col = [], 0
        for c in cells:
            room = sum(self.widths[col : col + c.span]) - WRAP_PAD
            col += c.span
            longest = max((self.measure.width(w, True, self.size) for w in c.text.split()),
                          default=0.0)  # fmt: skip
            if c.size is None and longest > room:
                c = replace(c, size=max(3.5, self.size * room / longest * 0.97))
            out.append(c)
        return out

    def row(self, cells: Sequence[Cell | str], look: Look = PLAIN) -> None:
        """One row; a new page (with the heading) first when it does not fit on this one."""
        self._draw([_cell(c) for c in cells], look)

    def close(self) -> None:
        """The end of the table: its last row has no line under it; the position is below."""
        self._rule = None

    def _draw(self, cells: list[Cell], look: Look) -> None:
        pdf = self.pdf
        laid = self._lay_out(cells, look)
        height = max(len(lines) for _, _, lines, _ in laid) * self.line_h + 2 * self.pad_y
        if look is HEAD and self._rule is None and pdf.y + 2 * height > pdf.page_break_trigger:
            pdf.add_page()  # a heading with no room for a row under it starts the next page
        elif pdf.y + height > pdf.page_break_trigger and look is not HEAD:
            self._rule_off()
            pdf.add_page()
            if self.heading:
                self._draw(self.heading, HEAD)
        top = pdf.y
        if self._rule is not None:
            pdf.line(self.x, top, self.x + sum(self.widths), top)
        if look.fill is not None:
            pdf.set_fill_color(*look.fill)
            pdf.rect(self.x, top, sum(self.widths), height, style="F")
            pdf.set_fill_color(*BLACK)
        self._text(laid, look, top, height)
        self._rule = top + height
        pdf.set_xy(self.x, top + height)

    def _rule_off(self) -> None:
        """The last row of a page keeps its line, as ``table()`` drew it."""
        if self._rule is not None:
            self.pdf.line(self.x, self._rule, self.x + sum(self.widths), self._rule)
        self._rule = None

    def _lay_out(self, cells: list[Cell], look: Look) -> list[tuple[float, float, list[str], Cell]]:
        """Per cell: its left edge, its width, its lines."""
        out = []
        x, col = self.x, 0
        for c in cells:
            w = sum(self.widths[col : col + c.span])
            size = c.size or self.size
            out.append((x, w, self.measure.wrap(c.text, w - WRAP_PAD, look.bold, size), c))
            x += w
            col += c.span
        return out

    def _text(self, laid: list[tuple[float, float, list[str], Cell]], look: Look,
              top: float, height: float) -> None:  # fmt: skip
        pdf = self.pdf
        pdf.set_text_color(*look.color)
        style = ("B" if look.bold else "") + ("S" if look.strike else "")
        col = 0
        for x, w, lines, c in laid:
            size = c.size or self.size
            pdf.set_font("DejaVu", style, size)
            align = c.align or self.aligns[col]
            col += c.span
            first = top + (height - len(lines) * self.line_h) / 2
            base = 0.5 * self.line_h + 0.3 * size / pdf.k
            for i, line in enumerate(lines):
                if not line:
                    continue
                left = x + PAD_X
                if align == "R":
                    left = x + w - PAD_X - self.measure.width(line, look.bold, size)
                pdf.text(left, first + i * self.line_h + base, line)
        pdf.set_text_color(*BLACK)


def _cell(c: Cell | str) -> Cell:
    return Cell(c) if isinstance(c, str) else c
