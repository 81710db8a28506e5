"""A series' table cards as one PDF (fpdf2, DejaVu Sans): two cards to an A4 page, each with
its table, the seats in order with start numbers, who deals first, the QR code of the table's
list and lines for the players' signatures. Names of any length fit: a long name is set
smaller, and wraps only when even the smallest size is too wide."""

from __future__ import annotations

import io

import segno

from skatcalc.exports.pdf import GREY, SheetPDF
from skatcalc.rules.common import money
from skatcalc.services.events import Event, EventTable
from skatcalc.text import translate

CARD_H = 136.0  # two cards on the 297 mm page, within the margins
QR_W = 46.0
SIGN_W = 52.0  # the line to sign on


def _qr_png(url: str) -> io.BytesIO:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=8, border=2)
    out.seek(0)
    return out


def fit_text(pdf: SheetPDF, text: str, width: float, size: float, smallest: float = 7.0,
             style: str = "") -> float:  # fmt: skip
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits
    ``width`` on one line (``smallest`` if none does: the caller wraps)."""
    while size > smallest:
        pdf.set_font("DejaVu", style, size)
        if pdf.get_string_width(text) <= width:
            return size
        size -= 0.5
    return smallest


def render_cards(event: Event, n: int, tables: list[EventTable],
                 numbers: dict[str, int], links: dict[int, str], lang: str = "de",
                 lost_money: dict[int, int] | None = None) -> bytes:  # fmt: skip
    """``tables`` as ``event_service.tables_of`` gives them (series ``n``), ``links`` the
    table number → its list's link (the QR code), ``lost_money`` the table number → the
    lost-game money its captain collects (shown once the table has played a game)."""
    title = f"{event.name} · {translate('Serie %(n)s', lang, n=n)}"
    pdf = SheetPDF(title, lang, landscape=False)
    pdf.set_title(translate("Tischkarten", lang) + " · " + title)
    pdf.set_creator("skatcalc")
    pdf.set_auto_page_break(False)
    for i, t in enumerate(tables):
        if i % 2 == 0:
            pdf.add_page()
        top = pdf.t_margin + (i % 2) * (CARD_H + 6)
        _card(pdf, event, n, t, numbers, links.get(t.table), top, lang,
              (lost_money or {}).get(t.table) if t.played else None)  # fmt: skip
    return bytes(pdf.output())


def _card(pdf: SheetPDF, event: Event, n: int, t: EventTable, numbers: dict[str, int],
          link: str | None, top: float, lang: str, collect: int | None = None) -> None:  # fmt: skip
    """One card from ``top`` down: its frame, the table's heading, the QR code of its list,
    the seats with a line for each player's signature."""
    left, width = pdf.l_margin, pdf.epw
    pdf.set_draw_color(*GREY)
    pdf.rect(left, top, width, CARD_H)
    pdf.set_draw_color(0, 0, 0)
    _card_heading(pdf, event, n, t, top, width - 10 - QR_W - 4, lang, collect)
    if link:
        _card_qr(pdf, link, left + width - 5 - QR_W, top + 5, lang)
    _card_seats(pdf, t, numbers, top, width, lang)


def _card_heading(pdf: SheetPDF, event: Event, n: int, t: EventTable, top: float,
                  text_w: float, lang: str, collect: int | None) -> None:  # fmt: skip
    """The event, the table's number large, the series and its games, and the lost-game
    money its captain collects."""
    pdf.set_xy(pdf.l_margin + 5, top + 4)
    size = fit_text(pdf, event.name, text_w, 10)
    pdf.set_font("DejaVu", size=size)
    pdf.set_text_color(*GREY)
    pdf.multi_cell(text_w, 4.5, f"{event.name} · {event.day}", new_x="LEFT", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("DejaVu", "B", 26)
    pdf.cell(text_w, 13, f"{translate('Tisch', lang)} {t.table}", new_x="LEFT", new_y="NEXT")
    pdf.set_font("DejaVu", size=11)
    line = translate("Serie %(n)s", lang, n=n)
    if t.planned:
        line += " · " + translate("%(n)s Spiele", lang, n=t.planned)
    pdf.cell(text_w, 6, line, new_x="LEFT", new_y="NEXT")
    if collect is not None:
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(text_w, 5, translate("Verlorene Spiele einsammeln: %(money)s", lang,
                                      money=money(collect, lang)),
                 new_x="LEFT", new_y="NEXT")  # fmt: skip
    pdf.ln(3)


def _card_qr(pdf: SheetPDF, link: str, x: float, y: float, lang: str) -> None:
    """The QR code of the table's list, with what it is for under it."""
    pdf.image(_qr_png(link), x=x, y=y, w=QR_W, h=QR_W)
    pdf.set_font("DejaVu", size=6.5)
    pdf.set_text_color(*GREY)
    pdf.set_xy(x, y + QR_W + 1)
    pdf.multi_cell(QR_W, 3, translate("Scannen: die Liste dieses Tisches", lang),
                   align="C")  # fmt: skip
    pdf.set_text_color(0, 0, 0)


def _card_seats(pdf: SheetPDF, t: EventTable, numbers: dict[str, int], top: float,
                width: float, lang: str) -> None:  # fmt: skip
    """The seats: number, start number, name, first dealer; then a line to sign."""
    inner = pdf.l_margin + 5
    pdf.set_xy(inner, top + 5 + QR_W + 10)
    pdf.set_font("DejaVu", "B", 9)
    pdf.set_text_color(*GREY)
    name_w = width - 10 - 10 - 14 - SIGN_W - 4
    pdf.cell(10, 5, translate("Platz", lang))
    pdf.cell(14, 5, translate("Nr.", lang))
    pdf.cell(name_w, 5, translate("Name", lang))
    pdf.cell(SIGN_W, 5, translate("Unterschrift", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    row_h = (top + CARD_H - 6 - pdf.get_y()) / max(4, len(t.players))
    for seat, name in enumerate(t.players, start=1):
        y = pdf.get_y()
        pdf.set_xy(inner, y)
        pdf.set_font("DejaVu", "B", 14)
        pdf.cell(10, row_h, f"{seat}.")
        no = numbers.get(name)
        pdf.set_font("DejaVu", size=12)
        pdf.cell(14, row_h, str(no) if no is not None else "")
        mark = translate("gibt zuerst", lang) if name == t.first_dealer else ""
        _seat_name(pdf, name, mark, name_w, y, row_h)
        pdf.set_xy(inner + 10 + 14 + name_w + 4, y)
        pdf.line(pdf.get_x(), y + row_h - 2, pdf.get_x() + SIGN_W, y + row_h - 2)
        pdf.set_xy(inner, y + row_h)


def _seat_name(pdf: SheetPDF, name: str, mark: str, name_w: float, y: float,
               row_h: float) -> None:  # fmt: skip
    """A seat's name as large as fits (wrapped only below the smallest size), with the first
    dealer's mark under it."""
    size = fit_text(pdf, name, name_w, 14, style="B")
    pdf.set_font("DejaVu", "B", size)
    x = pdf.get_x()
    if pdf.get_string_width(name) <= name_w:
        pdf.cell(name_w, row_h * (0.6 if mark else 1), name)
    else:  # even the smallest size is too wide: wrap within the cell
        pdf.multi_cell(name_w, size * 0.42, name, max_line_height=size * 0.42)
    if mark:
        pdf.set_xy(x, y + row_h * 0.55)
        pdf.set_font("DejaVu", size=8)
        pdf.set_text_color(*GREY)
        pdf.cell(name_w, row_h * 0.35, f"({mark})")
        pdf.set_text_color(0, 0, 0)
