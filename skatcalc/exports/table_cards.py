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
    left, width = pdf.l_margin, pdf.epw
    pdf.set_draw_color(*GREY)
    pdf.rect(left, top, width, CARD_H)
    pdf.set_draw_color(0, 0, 0)
    inner = left + 5
    text_w = width - 10 - QR_W - 4
    pdf.set_xy(inner, top + 4)
    size = fit_text(pdf, event.name, text_w, 10)
    pdf.set_font("DejaVu", size=size)
    pdf.set_text_color(*GREY)
    pdf.multi_cell(text_w, 4.5, f"{event.name} · {event.day}", new_x="LEFT", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("DejaVu", "B", 26)
    pdf.cell(text_w, 13, f"{translate('Tisch', lang)} {t.table}", new_x="LEFT", new_y="NEXT")
    pdf.set_font("DejaVu", size=11)
    planned = t.planned
    line = translate("Serie %(n)s", lang, n=n)
    if planned:
        line += " · " + translate("%(n)s Spiele", lang, n=planned)
    pdf.cell(text_w, 6, line, new_x="LEFT", new_y="NEXT")
    if collect is not None:
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(text_w, 5, translate("Verlorene Spiele einsammeln: %(money)s", lang,
                                      money=money(collect, lang)),
                 new_x="LEFT", new_y="NEXT")  # fmt: skip
    pdf.ln(3)
    if link:
        pdf.image(_qr_png(link), x=left + width - 5 - QR_W, y=top + 5, w=QR_W, h=QR_W)
        pdf.set_font("DejaVu", size=6.5)
        pdf.set_text_color(*GREY)
        pdf.set_xy(left + width - 5 - QR_W, top + 5 + QR_W + 1)
        pdf.multi_cell(QR_W, 3, translate("Scannen: die Liste dieses Tisches", lang),
                       align="C")  # fmt: skip
        pdf.set_text_color(0, 0, 0)
    # the seats: number, start number, name, first dealer; then a line to sign
    y = top + 5 + QR_W + 10
    pdf.set_xy(inner, y)
    pdf.set_font("DejaVu", "B", 9)
    pdf.set_text_color(*GREY)
    sign_w = 52.0
    name_w = width - 10 - 10 - 14 - sign_w - 4
    pdf.cell(10, 5, translate("Platz", lang))
    pdf.cell(14, 5, translate("Nr.", lang))
    pdf.cell(name_w, 5, translate("Name", lang))
    pdf.cell(sign_w, 5, translate("Unterschrift", lang), new_x="LMARGIN", new_y="NEXT")
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
        label = name
        mark = translate("gibt zuerst", lang) if name == t.first_dealer else ""
        size = fit_text(pdf, label, name_w, 14, style="B")
        pdf.set_font("DejaVu", "B", size)
        x = pdf.get_x()
        if pdf.get_string_width(label) <= name_w:
            pdf.cell(name_w, row_h * (0.6 if mark else 1), label)
        else:  # even the smallest size is too wide: wrap within the cell
            pdf.multi_cell(name_w, size * 0.42, label, max_line_height=size * 0.42)
        if mark:
            pdf.set_xy(x, y + row_h * 0.55)
            pdf.set_font("DejaVu", size=8)
            pdf.set_text_color(*GREY)
            pdf.cell(name_w, row_h * 0.35, f"({mark})")
            pdf.set_text_color(0, 0, 0)
        pdf.set_xy(inner + 10 + 14 + name_w + 4, y)
        pdf.line(pdf.get_x(), y + row_h - 2, pdf.get_x() + sign_w, y + row_h - 2)
        pdf.set_xy(inner, y + row_h)
