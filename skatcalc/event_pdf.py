"""The event as one PDF to pin to the wall: ranking, prize list, then every table's list."""

from __future__ import annotations

from typing import Any

from fpdf.fonts import FontFace
from sqlite_utils import Database

from . import event_service as events
from . import service
from .event_desk import start_numbers
from .i18n import ptranslate, translate, when
from .pdf import GREY, SheetPDF, _n, write_sheet
from .rules.common import money
from .rules.events import RankRow
from .rules.sheet import describe_rules
from .rules.sheet import game as game_kind


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
    numbers = start_numbers(events.registrations(db, event["id"]))
    head = FontFace(emphasis="BOLD", fill_color=(228, 236, 230))
    series_w = 16 if n_series <= 4 else 11
    widths = [12, 0, 18] + [series_w] * n_series + [18, 20, 20]
    widths[1] = pdf.epw - sum(widths)
    align = ("RIGHT", "LEFT") + ("RIGHT",) * (len(widths) - 2)
    pdf.set_font("DejaVu", size=8.5)
    with pdf.table(col_widths=tuple(widths), text_align=align, repeat_headings=1,
                   headings_style=head, line_height=4.6, padding=(0.8, 1.2),
                   borders_layout="HORIZONTAL_LINES") as table:  # fmt: skip
        row = table.row()
        for h in [ptranslate("rank", "Platz", lang), translate("Name", lang), translate("Punkte", lang),
                  *[f"S{i}" for i in range(1, n_series + 1)],
                  translate("gew./verl.", lang), translate("Gebühr", lang),
                  translate("Preis", lang)]:  # fmt: skip
            row.cell(h)
        for r in rows:
            row = table.row()
            row.cell(f"{r.rank}.")
            no = numbers.get(r.player)
            row.cell(r.player if no is None else f"{r.player} · {translate('Nr.', lang)} {no}")
            row.cell(_n(r.score))
            for s, played in zip(r.series, r.played, strict=True):
                row.cell(_n(s) if played else "–")
            row.cell(f"{r.won} / {r.lost}")
            row.cell(money(r.fees_cents, lang))
            row.cell(money(prize_of.get(r.player, 0), lang) if prize_of.get(r.player) else "")
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
        sheet = service.sheet_json(db, t["sheet_row"], lang, full=False)
        spec = service.spec_of(t["sheet_row"])
        typed = service.computed(db, t["sheet_row"]).rows
        write_sheet(pdf, sheet, [translate(m, lang) for m in describe_rules(spec)], lang, typed)
    return bytes(pdf.output())
