"""The evening's sheet as a PDF that looks like a printed Skat list (fpdf2, DejaVu Sans)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.fonts import FontFace

from skatcalc.exports.charts import running_totals_svg
from skatcalc.rules.common import money, number
from skatcalc.rules.marks import describe_row
from skatcalc.rules.sheet import Row
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.sheet.base import TournamentListView
from skatcalc.rules.stats import statistics
from skatcalc.text import ptranslate, translate

FONTS = Path(__file__).resolve().parents[1] / "fonts"
GREY = (120, 120, 120)
CELL_PAD = 2 * 1.2 + 2 * 1.0  # a table cell's padding and fpdf's cell margin, both sides
RED = (170, 30, 30)


def _n(v: int | None, signed: bool = False) -> str:
    return "" if v is None else number(v, signed=signed)


class SheetPDF(FPDF):
    def __init__(self, title: str, lang: str, landscape: bool) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.sheet_title = title
        self.lang = lang
        self.add_font("DejaVu", "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_auto_page_break(True, margin=14)
        self.set_margins(12, 12, 12)
        self.alias_nb_pages()

    def footer(self) -> None:
        self.set_y(-10)
        self.set_font("DejaVu", size=7)
        self.set_text_color(*GREY)
        page = translate("Seite", self.lang)
        self.cell(0, 4, f"{self.sheet_title} · skatcalc · {page} {self.page_no()}/{{nb}}",
                  align="C")  # fmt: skip
        self.set_text_color(0, 0, 0)


def name_font(pdf: FPDF, name: str, width: float, size: float,
              base: FontFace | None = None) -> FontFace | None:  # fmt: skip
    """The font for a name in a table cell ``width`` mm wide (inside its padding): ``base``
    itself when the name fits at ``size`` pt; else smaller, on one line if that still reads
    (6 pt), else on two lines with its longest word whole, never below 4.5 pt (beyond that it
    wraps further). ``pdf``'s font is left at ``size``."""
    pdf.set_font("DejaVu", size=size)
    full = pdf.get_string_width(name)
    if full <= width:
        return base
    one_line = size * width / full * 0.97
    if one_line >= 6:
        fitted = one_line
    else:
        word = max(pdf.get_string_width(w) for w in name.split()) or full
        fitted = min(size * width / word, size * 1.8 * width / full) * 0.97
    fitted = max(4.5, fitted)
    if base is None:
        return FontFace(size_pt=fitted)
    return FontFace(family=base.family, emphasis=base.emphasis, size_pt=fitted,
                    color=base.color, fill_color=base.fill_color)  # fmt: skip


def render_pdf(sheet: dict[str, Any], rules: list[str], lang: str, rows: Sequence[Row],
               tlist: TournamentListView | None = None) -> bytes:  # fmt: skip
    """``sheet`` as the API shows it, with its typed ``rows`` (``service.computed``);
    ``rules`` the house rules in words; ``tlist``: the sheet is kept as a tournament list."""
    players: list[str] = sheet["players"]
    pdf = SheetPDF(sheet["name"], lang, landscape=len(players) >= 5)
    pdf.set_title(sheet["name"])
    pdf.set_creator("skatcalc")
    write_sheet(pdf, sheet, rules, lang, rows, tlist)
    return bytes(pdf.output())


def _write_head(pdf: SheetPDF, sheet: dict[str, Any], rules: list[str]) -> None:
    """A new page with the sheet's name, game, date, players and house rules."""
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.multi_cell(0, 8, sheet["name"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    game = game_kind(sheet["game"]).label.de
    when = sheet.get("day") or sheet["created"][:10]  # a club night's table: its date
    pdf.multi_cell(0, 5, f"{game} · {when} · " + ", ".join(sheet["players"]),
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.set_text_color(*GREY)
    pdf.multi_cell(0, 4.5, " · ".join(rules), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(2)


def _dealer_width(pdf: SheetPDF, players: Sequence[str]) -> float:
    """The dealer column as wide as the longest name needs, within 16 to 38 mm; a name wider
    than that is set smaller (name_font), so it never breaks into a tower of short lines."""
    pdf.set_font("DejaVu", size=8)
    return min(38.0, max(16.0, max(pdf.get_string_width(p) for p in players) + 2.6))


def write_tournament_list(pdf: SheetPDF, sheet: dict[str, Any], rules: list[str], lang: str,
                          rows: Sequence[Row], tlist: TournamentListView) -> None:  # fmt: skip
    """The official list (DSkV Spielliste): per deal the declarer's value in his column over
    his new list total, and the foot's columns of Seeger-Fabian, all from ``tlist``."""
    _write_head(pdf, sheet, rules)
    players = tlist.players
    usable = pdf.epw
    dealer_w = _dealer_width(pdf, players)
    per_player = min(24, (usable - 8 - dealer_w - 50) / len(players))
    widths = (8, dealer_w, usable - 8 - dealer_w - per_player * len(players),
              *([per_player] * len(players)))  # fmt: skip
    align = ("RIGHT", "LEFT", "LEFT") + ("RIGHT",) * len(players)
    head = FontFace(emphasis="BOLD", fill_color=(228, 236, 230))
    bold = FontFace(emphasis="BOLD")
    pdf.set_font("DejaVu", size=8)
    with pdf.table(col_widths=widths, text_align=align, repeat_headings=1, headings_style=head,
                   line_height=4.2, padding=(0.8, 1.2), borders_layout="HORIZONTAL_LINES",
                   first_row_as_headings=True) as table:  # fmt: skip
        row = table.row()
        for i, h in enumerate([translate("Nr.", lang), translate("Geber", lang),
                               translate("Spiel", lang)]):  # fmt: skip
            row.cell(h, style=_fitting(pdf, h, widths[i] - 2.4, head))
        for p in players:  # a long name smaller, on two lines at most, its words whole
            row.cell(p, style=name_font(pdf, p, per_player - CELL_PAD, 8, head))
        for line, typed in zip(tlist.lines, rows, strict=False):
            # a struck deal: grey and struck through with its whole contract, as on the page
            struck = FontFace(color=GREY, emphasis="STRIKETHROUGH") if typed.struck else None
            row = table.row(style=struck or (None if line.counts else FontFace(color=GREY)))
            row.cell(str(line.n))
            row.cell(line.dealer, style=name_font(pdf, line.dealer, dealer_w - CELL_PAD, 8))
            text = translate(describe_row(sheet["game"], typed).line(), lang)
            row.cell(f"{line.declarer}: {text}" if line.declarer and not line.passed else text)
            for p in players:
                v = line.entries.get(p)
                row.cell("" if v is None else f"{_n(v, signed=True)}\n{_n(line.running[p])}")
        f = tlist.foot
        feet: list[tuple[str, list[str], FontFace | None]] = [
            (translate("Summe", lang), [_n(f[p].list_points) for p in players], bold),
            (translate("gewonnen", lang), [str(f[p].won) for p in players], None),
            (translate("verloren", lang), [str(f[p].lost) for p in players], None),
            ("+50 × " + translate("gew.", lang), [_n(f[p].won_points, True) for p in players],
             None),
            ("−50 × " + translate("verl.", lang), [_n(f[p].lost_points, True) for p in players],
             None),
            (f"{tlist.others_bonus} × " + translate("Gegner verl.", lang),
             [f"{_n(f[p].others_points, True)} ({f[p].others_lost})" for p in players], None),
            (translate("Gesamt", lang) + " (Seeger-Fabian)", [_n(f[p].total) for p in players],
             bold),
        ]  # fmt: skip
        for label, cells, style in feet:
            row = table.row(style=style)
            row.cell(label, colspan=3, align="LEFT")
            for c in cells:
                row.cell(c)


def write_sheet(pdf: SheetPDF, sheet: dict[str, Any], rules: list[str], lang: str,
                rows: Sequence[Row], tlist: TournamentListView | None = None) -> None:  # fmt: skip
    """One sheet from a new page on; an event's PDF puts every table's list after another.
    With ``tlist`` (a club night's table, a group ranked by Seeger-Fabian) the page is the
    official tournament list instead of the running balance and its chart."""
    if tlist is not None:
        write_tournament_list(pdf, sheet, rules, lang, rows, tlist)
        return
    _write_head(pdf, sheet, rules)
    players: list[str] = sheet["players"]
    kind = game_kind(sheet["game"])

    usable = pdf.epw
    dealer_w = _dealer_width(pdf, players)
    fixed = [8, dealer_w, 0, 12]  # number, dealer, game (rest), value
    per_player = min(22, (usable - 8 - dealer_w - 12 - 50) / len(players))
    fixed[2] = usable - 8 - dealer_w - 12 - per_player * len(players)
    widths = tuple(fixed + [per_player] * len(players))
    align = ("RIGHT", "LEFT", "LEFT", "RIGHT") + ("RIGHT",) * len(players)
    head = FontFace(emphasis="BOLD", fill_color=(228, 236, 230))
    pdf.set_font("DejaVu", size=8)
    with pdf.table(col_widths=widths, text_align=align, repeat_headings=1, headings_style=head,
                   line_height=4.2, padding=(0.8, 1.2), borders_layout="HORIZONTAL_LINES",
                   first_row_as_headings=True) as table:  # fmt: skip
        row = table.row()
        for i, h in enumerate(["#", translate("Geber", lang), translate("Spiel", lang),
                               translate("Wert", lang)]):  # fmt: skip
            row.cell(h, style=_fitting(pdf, h, widths[i] - 2.4, head))
        for p in players:  # a long name smaller, on two lines at most, its words whole
            row.cell(p, style=name_font(pdf, p, per_player - CELL_PAD, 8, head))
        for d, typed in zip(sheet["deals"], rows, strict=False):
            # a struck deal: its whole row (contract and marks too) grey and struck through
            style = FontFace(color=GREY, emphasis="STRIKETHROUGH") if d["struck"] else None
            row = table.row(style=style)
            row.cell(str(d["n"]))
            row.cell(d["dealer"], style=name_font(pdf, d["dealer"], dealer_w - CELL_PAD, 8, style))
            text = describe_row(sheet["game"], typed)  # the same words and marks as the page's row
            game_text = translate(text.line(), lang)
            if d.get("kind") == "game" and kind.keeps_list and d.get("declarer"):
                game_text = f"{d['declarer']}: {game_text}"
            row.cell(game_text)
            row.cell("" if text.value is None else str(text.value))
            # "nur Gute" (docs/rules.md 2.8): what each wrote and the sums, not a balance
            deltas, sums = ((d["written"], d["written_totals"]) if "written" in d
                            else (d["deltas"], d["totals"]))  # fmt: skip
            for p in players:
                delta = deltas[p]
                total = _n(sums[p], signed=True)
                row.cell(f"{total}\n{_n(delta, signed=True)}" if delta else total)
        bold = FontFace(emphasis="BOLD")
        totals = sheet["totals"]
        lines = [(translate("Stand (Nullsumme)", lang), totals["balance"], True)]
        if "list" in totals:
            lines.append((translate("Liste", lang), totals["list"], False))
        if "written" in totals:
            lines.append((translate("Geschrieben (nur Gute)", lang), totals["written"], False))
        if "seeger_fabian" in totals:
            lines.append(("Seeger-Fabian", totals["seeger_fabian"], False))
        if "bierlachs" in totals:  # Bierlachse so far (docs/rules.md 1.11)
            label = translate("Bierlachse (Runde %(n)s)", lang, n=totals["bierlachs"]["round"])
            lines.append((label, totals["bierlachs"]["lost"], False))
        for label, values, signed in lines:
            row = table.row(style=bold)
            row.cell(label, colspan=4, align="LEFT")
            for p in players:
                row.cell(_n(values[p], signed=signed))
        row = table.row()
        row.cell(translate("gewonnen / verloren", lang), colspan=4, align="LEFT")
        for p in players:
            row.cell(f"{totals['won'][p]} / {totals['lost'][p]}")

    pdf.ln(3)
    if sheet["deals"]:
        title = translate("Verlauf der Stände", lang)
        svg = running_totals_svg(players, sheet["deals"], title=title, font="DejaVu", for_pdf=True)
        # the heading goes with its chart: both on this page or both on the next
        box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
        chart_w = min(pdf.epw, 170)
        chart_h = chart_w * float(box.group(2)) / float(box.group(1)) if box else 90
        if pdf.will_page_break(6 + chart_h + 2):
            pdf.add_page()
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(0, 6, title, new_x="LMARGIN", new_y="NEXT")
        pdf.image(io.BytesIO(svg.encode("utf-8")), w=chart_w)
        pdf.ln(2)

    stats = statistics(sheet["game"], players, rows)
    if pdf.will_page_break(40):
        pdf.add_page()
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Statistik", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=8)
    kinds = [(translate(col.label, lang), col.key) for col in kind.stat_columns]
    stat_widths = (30, 12, 15, 12, 12, 12, 22, 27, 16, 18)  # "Grand" in bold needs 16
    with pdf.table(col_widths=stat_widths, width=sum(stat_widths), align="LEFT",
                   text_align="RIGHT", line_height=4.2, padding=(0.8, 1.2), headings_style=head,
                   borders_layout="HORIZONTAL_LINES") as table:  # fmt: skip
        row = table.row()
        for h in ["", translate("dabei", lang), translate("eigene", lang),
                  translate("gew.", lang), translate("verl.", lang), "%",
                  translate("bestes Spiel", lang), ptranslate("statistics", "schlechtestes", lang),
                  kinds[0][0], kinds[1][0]]:  # fmt: skip
            row.cell(h)
        for p in players:
            s = stats[p]
            row = table.row()
            row.cell(p, align="LEFT")
            for key in ("played", "own", "won", "lost"):
                row.cell(str(s[key]))
            row.cell("" if s["won_pct"] is None else f"{s['won_pct']} %")
            for key in ("best", "worst"):
                b = s[key]
                row.cell("" if b is None else f"{_n(b['delta'], signed=True)} (#{b['n']})")
            row.cell(str(s[kinds[0][1]]))
            row.cell(str(s[kinds[1][1]]))

    settlement = sheet["totals"]["settlement"]
    if settlement:
        pdf.ln(3)
        if pdf.will_page_break(10 + 5 * len(settlement)):
            pdf.add_page()
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(0, 6, translate("Abrechnung", lang), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=9)
        for t in settlement:
            pdf.cell(0, 5, f"{t['from']} → {t['to']}: {money(t['cents'], lang)}",
                     new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def _fitting(pdf: FPDF, text: str, room: float, style: FontFace) -> FontFace | None:
    """A column heading whose longest word would be broken in its column is set smaller, so
    that the word fits whole (a long name in a narrow player column)."""
    pdf.set_font("DejaVu", "B", 8)
    longest = max((pdf.get_string_width(w) for w in text.split()), default=0.0)
    pdf.set_font("DejaVu", size=8)
    if longest <= room:
        return None
    return FontFace(emphasis="BOLD", fill_color=style.fill_color,
                    size_pt=max(3.5, 8 * room / longest * 0.97))  # fmt: skip
