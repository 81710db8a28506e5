"""A group's standings as a PDF for the club's notice board (fpdf2, like the sheet PDF)."""

from __future__ import annotations

from skatcalc.exports.grid import PLAIN, Align, Grid, Look
from skatcalc.exports.pdf import GREY, SheetPDF, _n
from skatcalc.rules.common import money
from skatcalc.rules.sheet import game as game_kind
from skatcalc.services.season import GroupStandings
from skatcalc.text import ptranslate, translate


def render_standings_pdf(standings: GroupStandings, rank_name: str, lang: str = "de") -> bytes:
    """``rank_name``: what the group ranks by, as the page names it."""
    de = lang != "en"
    group = standings.group
    title = translate("%(group)s · Tabelle", lang, group=group.name)
    pdf = SheetPDF(title, lang, landscape=False)
    pdf.set_title(title)
    pdf.set_creator("skatcalc")
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    rules = group.rules
    game = game_kind(group.game).label.de
    parts = [game, f"{standings.start.isoformat()} – {standings.end.isoformat()}",
             translate("Wertung: %(rank_by)s", lang, rank_by=rank_name),
             translate("%(n)s Abende", lang, n=len(standings.evenings))]  # fmt: skip
    if rules.get("min_sheets"):
        parts.append(translate("mindestens %(n)s Abende für einen Platz", lang,
                               n=rules["min_sheets"]))  # fmt: skip
    if rules.get("best"):
        parts.append(ptranslate("short", "die besten %(n)s Abende zählen", lang, n=rules["best"]))
    pdf.set_text_color(*GREY)
    pdf.multi_cell(0, 5, " · ".join(parts), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(2)
    heads = [ptranslate("rank", "Platz", lang), ptranslate("player", "Spieler", lang),
             translate("Abende", lang), translate("gewertet", lang),
             ptranslate("score", "Wertung", lang), translate("Schnitt", lang),
             translate("gew./verl.", lang), translate("Bilanz", lang),
             translate("Geld", lang)]  # fmt: skip
    right: list[Align] = ["R"] * 7
    grid = Grid(pdf, (12, 46, 16, 18, 20, 18, 20, 18, 22), ["R", "L", *right], heads, size=9,
                line_h=5)  # fmt: skip
    for r in standings.rows:
        avg = f"{r.average:.1f}"
        grid.row([
            "" if r.rank is None else f"{r.rank}.", r.player, str(r.sheets), str(r.counted),
            _n(r.score), avg.replace(".", ",") if de else avg, f"{r.won}/{r.lost}",
            _n(r.balance, signed=True), money(r.cents, lang),
        ], PLAIN if r.rank is not None else Look(color=GREY))  # fmt: skip
    grid.close()
    if any(r.rank is None for r in standings.rows):
        pdf.ln(2)
        pdf.set_font("DejaVu", size=8)
        pdf.set_text_color(*GREY)
        pdf.multi_cell(0, 4, translate("Grau: zu wenige Abende für einen Platz.", lang),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    return bytes(pdf.output())
