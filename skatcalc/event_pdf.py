"""The event as one PDF to pin to the wall: ranking, prize list, then every table's list."""

from __future__ import annotations

from typing import Any

from fpdf.fonts import FontFace
from sqlite_utils import Database

from . import event_service as events
from . import service
from .i18n import ptranslate, translate, when
from .pdf import GREY, SheetPDF, _n, write_sheet
from .rules.common import money
from .rules.events import RankRow
from .rules.sheet import describe_rules
from .rules.sheet import game as game_kind

NAME_MIN = 36  # mm the name column keeps, whatever the number of series
SERIES_W = 11  # mm per series column


def _series_cells(r: RankRow, which: range) -> list[str]:
    return [_n(r.series[i]) if r.played[i] else "–" for i in which]


def _table(pdf: SheetPDF, widths: list[float], heads: list[str], rows: list[list[str]]) -> None:
    """One ranking table: the name column (second) takes what the others leave."""
    widths[1] = pdf.epw - sum(widths)
    align = ("RIGHT", "LEFT") + ("RIGHT",) * (len(widths) - 2)
    head = FontFace(emphasis="BOLD", fill_color=(228, 236, 230))
    pdf.set_font("DejaVu", size=8.5)
    with pdf.table(col_widths=tuple(widths), text_align=align, repeat_headings=1,
                   headings_style=head, line_height=4.6, padding=(0.8, 1.2),
                   borders_layout="HORIZONTAL_LINES") as table:  # fmt: skip
        for cells in [heads, *rows]:
            row = table.row()
            for text in cells:
                row.cell(text)


def render_event_pdf(
    db: Database, event: dict[str, Any], rows: tuple[RankRow, ...], prizes: dict[str, Any],
    lang: str = "de",
) -> bytes:  # fmt: skip
    pdf = SheetPDF(event["name"], lang, landscape=False)
    pdf.set_title(event["name"])
    pdf.set_creator("skatcalc")
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.multi_cell(0, 8, event["name"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    kind = game_kind(event["game"])
    game = kind.label.de
    # what a club night ranks by: the game's first ranking figure
    what = ("Seeger-Fabian" if kind.rank_figures[0] == "seeger_fabian"
            else ptranslate("ranked by", "Bilanz", lang))  # fmt: skip
    fees = translate(
        "Startgeld %(entry)s · je verlorenes Spiel %(per_lost)s",
        lang,
        entry=money(event["entry_cents"], lang),
        per_lost=money(event["lost_game_cents"], lang),
    )
    pdf.multi_cell(0, 5, f"{game} · {event['day']} · {what} · {fees}",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    if event["closed"] is None:
        pdf.set_text_color(*GREY)
        pdf.multi_cell(0, 5, translate("Vorläufig: noch nicht abgeschlossen.", lang),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        pdf.set_text_color(0, 0, 0)
    else:
        pdf.multi_cell(0, 5, translate("Abgeschlossen am %(when)s.", lang, when=when(event["closed"])),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.ln(2)
    n_series = len(rows[0].series) if rows else 0
    prize_of = {r["player"]: r["cents"] for r in prizes["rows"]}
    series_w = 16 if n_series <= 4 else 11
    # the series go into the ranking while the name keeps room; beyond that the ranking
    # leaves them out and they follow in tables of their own (as many as it takes)
    inline = pdf.epw - 12 - 18 - 58 - series_w * n_series >= NAME_MIN
    heads = [ptranslate("rank", "Platz", lang), translate("Name", lang),
             translate("Punkte", lang)]  # fmt: skip
    tail = [translate("gew./verl.", lang), translate("Gebühr", lang), translate("Preis", lang)]
    shown = range(n_series) if inline else range(0)
    _table(pdf, [12, 0, 18] + [series_w] * len(shown) + [18, 20, 20],
           [*heads, *[f"S{i + 1}" for i in shown], *tail],
           [[f"{r.rank}.", r.player, _n(r.score), *_series_cells(r, shown),
             f"{r.won} / {r.lost}", money(r.fees_cents, lang),
             money(prize_of[r.player], lang) if prize_of.get(r.player) else ""]
            for r in rows])  # fmt: skip
    if not inline:
        per_table = int((pdf.epw - 12 - NAME_MIN) // SERIES_W)
        for first in range(0, n_series, per_table):
            part = range(first, min(first + per_table, n_series))
            pdf.ln(3)
            _table(pdf, [12, 0] + [SERIES_W] * len(part),
                   [*heads[:2], *[f"S{i + 1}" for i in part]],
                   [[f"{r.rank}.", r.player, *_series_cells(r, part)] for r in rows])  # fmt: skip
    pdf.ln(3)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Kasse", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    lines = [
        (translate("Gebühren eingenommen", lang), prizes["fees_total_cents"]),
        (translate("Topf", lang), prizes["pot_cents"]),
        (translate("ausgezahlt", lang), prizes["paid_cents"]),
        (translate("Rest", lang), prizes["rest_cents"]),
    ]
    for label, cents in lines:
        pdf.cell(0, 5, f"{label}: {money(cents, lang)}",
                 new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    for t in events.tables_of(db, event):
        sheet = {**service.sheet_json(db, t["sheet_row"], lang, full=False),
                 "day": t["sheet_row"].get("day")}  # fmt: skip
        spec = service.spec_of(t["sheet_row"])
        typed = service.computed(db, t["sheet_row"]).rows
        write_sheet(pdf, sheet, [translate(m, lang) for m in describe_rules(spec)], lang, typed)
    return bytes(pdf.output())
