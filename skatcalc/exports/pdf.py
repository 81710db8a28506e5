"""The evening's sheet as a PDF that looks like a printed Skat list (fpdf2, DejaVu Sans)."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from fpdf import FPDF

from skatcalc.exports.charts import running_totals_svg
from skatcalc.exports.grid import GREY_RGB, Align, Cell, Grid, Look, text_width
from skatcalc.exports.records import Deal, SheetDoc, Totals, sheet_doc
from skatcalc.rules.common import money, number
from skatcalc.rules.marks import describe_row
from skatcalc.rules.sheet import Row
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.sheet.base import TournamentListView
from skatcalc.rules.stats import statistics
from skatcalc.text import ptranslate, translate

FONTS = Path(__file__).resolve().parents[1] / "fonts"
GREY = GREY_RGB
RED = (170, 30, 30)
BOLD = Look(bold=True)
STRUCK = Look(color=GREY, strike=True)  # a struck deal: its whole row, contract and marks too
NOT_COUNTED = Look(color=GREY)


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


def name_size(pdf: FPDF, name: str, room: float, size: float, bold: bool = False) -> float:
    """The font size for a name in a column with ``room`` mm for text: ``size`` when it fits;
    else smaller, on one line if that still reads (6 pt), else on two lines with its longest
    word whole, never below 4.5 pt (beyond that it wraps further)."""
    full = text_width(pdf, name, bold, size)
    if full <= room:
        return size
    one_line = size * room / full * 0.97
    if one_line >= 6:
        return one_line
    word = max(text_width(pdf, w, bold, size) for w in name.split()) if name.split() else full
    return max(4.5, min(size * room / (word or full), size * 1.8 * room / full) * 0.97)


def _heading(pdf: FPDF, fixed: Sequence[str], players: Sequence[str],
             per_player: float) -> list[Cell]:  # fmt: skip
    """The heading: the fixed columns' words (a word too wide set smaller, ``Grid``), then a
    long name smaller, on two lines at most, its words whole."""
    room = per_player - 2.4
    return [Cell(h) for h in fixed] + [
        Cell(p, size=name_size(pdf, p, room, 8, bold=True)) for p in players
    ]


def render_pdf(sheet: Mapping[str, object], rules: list[str], lang: str, rows: Sequence[Row],
               tlist: TournamentListView | None = None) -> bytes:  # fmt: skip
    """``sheet`` as the API shows it, with its typed ``rows`` (``service.computed``);
    ``rules`` the house rules in words; ``tlist``: the sheet is kept as a tournament list."""
    doc = sheet_doc(sheet)
    pdf = SheetPDF(doc["name"], lang, landscape=len(doc["players"]) >= 5)
    pdf.set_title(doc["name"])
    pdf.set_creator("skatcalc")
    write_sheet(pdf, doc, rules, lang, rows, tlist)
    return bytes(pdf.output())


def _write_head(pdf: SheetPDF, sheet: SheetDoc, rules: list[str]) -> None:
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


def _dealer_width(pdf: FPDF, players: Sequence[str]) -> float:
    """The dealer column as wide as the longest name needs, within 16 to 38 mm; a name wider
    than that is set smaller (name_size), so it never breaks into a tower of short lines."""
    return min(38.0, max(16.0, max(text_width(pdf, p, False, 8) for p in players) + 2.6))


def _number_width(pdf: FPDF, last: int) -> float:
    """The deal number's column: 8 mm, wider when the last number would not fit whole."""
    return max(8.0, text_width(pdf, str(last), False, 8) + 2.6)


def _dealer(pdf: FPDF, name: str, room: float) -> Cell:
    return Cell(name, size=name_size(pdf, name, room - 2.4, 8))


def write_tournament_list(pdf: SheetPDF, sheet: SheetDoc, rules: list[str], lang: str,
                          rows: Sequence[Row], tlist: TournamentListView) -> None:  # fmt: skip
    """The official list (DSkV Spielliste): per deal the declarer's value in his column over
    his new list total, and the foot's columns of Seeger-Fabian, all from ``tlist``."""
    _write_head(pdf, sheet, rules)
    players = tlist.players
    nr_w = _number_width(pdf, len(tlist.lines))
    dealer_w = _dealer_width(pdf, players)
    per_player = min(24, (pdf.epw - nr_w - dealer_w - 50) / len(players))
    widths = (nr_w, dealer_w, pdf.epw - nr_w - dealer_w - per_player * len(players),
              *([per_player] * len(players)))  # fmt: skip
    fixed = [translate("Nr.", lang), translate("Geber", lang), translate("Spiel", lang)]
    grid = Grid(pdf, widths, ("R", "L", "L") + ("R",) * len(players),
                _heading(pdf, fixed, players, per_player))  # fmt: skip
    for line, typed in zip(tlist.lines, rows, strict=False):
        text = translate(describe_row(sheet["game"], typed).line(), lang)
        cells = [Cell(str(line.n)), _dealer(pdf, line.dealer, dealer_w),
                 Cell(f"{line.declarer}: {text}" if line.declarer and not line.passed else text)]  # fmt: skip
        for p in players:
            v = line.entries.get(p)
            cells.append(Cell("" if v is None else f"{_n(v, signed=True)}\n{_n(line.running[p])}"))
        grid.row(cells, STRUCK if typed.struck else (Look() if line.counts else NOT_COUNTED))
    for label, values, look in _tournament_foot(tlist, lang):
        grid.row([Cell(label, span=3, align="L"), *values], look)
    grid.close()


def _tournament_foot(tlist: TournamentListView,
                     lang: str) -> list[tuple[str, list[str], Look]]:  # fmt: skip
    """The list's foot: the sum, the games won and lost and Seeger-Fabian's columns."""
    f, players = tlist.foot, tlist.players
    return [
        (translate("Summe", lang), [_n(f[p].list_points) for p in players], BOLD),
        (translate("gewonnen", lang), [str(f[p].won) for p in players], Look()),
        (translate("verloren", lang), [str(f[p].lost) for p in players], Look()),
        ("+50 × " + translate("gew.", lang), [_n(f[p].won_points, True) for p in players], Look()),
        ("−50 × " + translate("verl.", lang), [_n(f[p].lost_points, True) for p in players],
         Look()),
        (f"{tlist.others_bonus} × " + translate("Gegner verl.", lang),
         [f"{_n(f[p].others_points, True)} ({f[p].others_lost})" for p in players], Look()),
        (translate("Gesamt", lang) + " (Seeger-Fabian)", [_n(f[p].total) for p in players],
         BOLD),
    ]  # fmt: skip


def write_sheet(pdf: SheetPDF, sheet: SheetDoc, rules: list[str], lang: str,
                rows: Sequence[Row], tlist: TournamentListView | None = None) -> None:  # fmt: skip
    """One sheet from a new page on; an event's PDF puts every table's list after another.
    With ``tlist`` (a club night's table, a group ranked by Seeger-Fabian) the page is the
    official tournament list instead of the running balance and its chart."""
    if tlist is not None:
        write_tournament_list(pdf, sheet, rules, lang, rows, tlist)
        return
    _write_head(pdf, sheet, rules)
    _write_deals(pdf, sheet, lang, rows)
    pdf.ln(3)
    if sheet["deals"]:
        _write_chart(pdf, sheet, lang)
    _write_statistics(pdf, sheet, lang, rows)
    _write_settlement(pdf, sheet["totals"], lang)


def _write_deals(pdf: SheetPDF, sheet: SheetDoc, lang: str, rows: Sequence[Row]) -> None:
    """The list: a row per deal (number, dealer, the game with its marks, its value, each
    player's running total over what the deal gave him), then its foot."""
    players = sheet["players"]
    nr_w = _number_width(pdf, len(sheet["deals"]))
    dealer_w = _dealer_width(pdf, players)
    per_player = min(22, (pdf.epw - nr_w - dealer_w - 12 - 50) / len(players))
    widths = (nr_w, dealer_w, pdf.epw - nr_w - dealer_w - 12 - per_player * len(players), 12,
              *([per_player] * len(players)))  # fmt: skip
    fixed = ["#", translate("Geber", lang), translate("Spiel", lang), translate("Wert", lang)]
    grid = Grid(pdf, widths, ("R", "L", "L", "R") + ("R",) * len(players),
                _heading(pdf, fixed, players, per_player))  # fmt: skip
    keeps_list = game_kind(sheet["game"]).keeps_list
    for d, typed in zip(sheet["deals"], rows, strict=False):
        grid.row(_deal_cells(pdf, sheet, d, typed, lang, dealer_w, keeps_list),
                 STRUCK if d["struck"] else Look())  # fmt: skip
    for label, values, signed in _foot_lines(sheet["totals"], lang):
        grid.row([Cell(label, span=4, align="L"), *[_n(values[p], signed) for p in players]],
                 BOLD)  # fmt: skip
    won, lost = sheet["totals"]["won"], sheet["totals"]["lost"]
    grid.row([Cell(translate("gewonnen / verloren", lang), span=4, align="L"),
              *[f"{won[p]} / {lost[p]}" for p in players]])  # fmt: skip
    grid.close()


def _deal_cells(pdf: FPDF, sheet: SheetDoc, d: Deal, typed: Row, lang: str, dealer_w: float,
                keeps_list: bool) -> list[Cell]:  # fmt: skip
    text = describe_row(sheet["game"], typed)  # the same words and marks as the page's row
    game_text = translate(text.line(), lang)
    if d.get("kind") == "game" and keeps_list and d.get("declarer"):
        game_text = f"{d.get('declarer')}: {game_text}"
    cells = [Cell(str(d["n"])), _dealer(pdf, d["dealer"], dealer_w), Cell(game_text),
             Cell("" if text.value is None else str(text.value))]  # fmt: skip
    # "nur Gute" (docs/rules.md 2.8): what each wrote and the sums, not a balance
    deltas, sums = (
        (d["written"], d["written_totals"]) if "written" in d else (d["deltas"], d["totals"])
    )
    for p in sheet["players"]:
        total = _n(sums[p], signed=True)
        cells.append(Cell(f"{total}\n{_n(deltas[p], signed=True)}" if deltas[p] else total))
    return cells


def _foot_lines(totals: Totals, lang: str) -> list[tuple[str, Mapping[str, int], bool]]:
    """The foot's lines (docs/rules.md 1.12): the balance, then what the sheet also keeps."""
    lines: list[tuple[str, Mapping[str, int], bool]] = [
        (translate("Stand (Nullsumme)", lang), totals["balance"], True)
    ]
    if "list" in totals:
        lines.append((translate("Liste", lang), totals["list"], False))
    if "written" in totals:
        lines.append((translate("Geschrieben (nur Gute)", lang), totals["written"], False))
    if "seeger_fabian" in totals:
        lines.append(("Seeger-Fabian", totals["seeger_fabian"], False))
    if "bierlachs" in totals:  # Bierlachse so far (docs/rules.md 1.11)
        label = translate("Bierlachse (Runde %(n)s)", lang, n=totals["bierlachs"]["round"])
        lines.append((label, totals["bierlachs"]["lost"], False))
    return lines


def _write_chart(pdf: SheetPDF, sheet: SheetDoc, lang: str) -> None:
    """The running totals' chart; the heading goes with it: both on this page or the next."""
    title = translate("Verlauf der Stände", lang)
    svg = running_totals_svg(sheet["players"], sheet["deals"], title=title, font="DejaVu",
                             for_pdf=True)  # fmt: skip
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    chart_w = min(pdf.epw, 170)
    chart_h = chart_w * float(box.group(2)) / float(box.group(1)) if box else 90
    if pdf.will_page_break(6 + chart_h + 2):
        pdf.add_page()
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, title, new_x="LMARGIN", new_y="NEXT")
    pdf.image(io.BytesIO(svg.encode("utf-8")), w=chart_w)
    pdf.ln(2)


def _write_statistics(pdf: SheetPDF, sheet: SheetDoc, lang: str, rows: Sequence[Row]) -> None:
    """Per player: deals played, own games, won, lost, the best and worst and two columns of
    the game's own (``stat_columns``)."""
    players = sheet["players"]
    kind = game_kind(sheet["game"])
    stats = statistics(sheet["game"], players, rows)
    if pdf.will_page_break(40):
        pdf.add_page()
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Statistik", lang), new_x="LMARGIN", new_y="NEXT")
    kinds = [(translate(col.label, lang), col.key) for col in kind.stat_columns]
    heads = ["", translate("dabei", lang), translate("eigene", lang), translate("gew.", lang),
             translate("verl.", lang), "%", translate("bestes Spiel", lang),
             ptranslate("statistics", "schlechtestes", lang), kinds[0][0], kinds[1][0]]  # fmt: skip
    widths = (30, 12, 15, 12, 12, 12, 22, 27, 16, 18)  # "Grand" in bold needs 16
    right: list[Align] = ["R"] * len(widths)
    grid = Grid(pdf, widths, right, heads)
    for p in players:
        s = stats[p]
        best_worst = [
            "" if (b := s[key]) is None else f"{_n(b['delta'], signed=True)} (#{b['n']})"
            for key in ("best", "worst")
        ]
        grid.row([Cell(p, align="L"), *(str(s[key]) for key in ("played", "own", "won", "lost")),
                  "" if s["won_pct"] is None else f"{s['won_pct']} %", *best_worst,
                  str(s[kinds[0][1]]), str(s[kinds[1][1]])])  # fmt: skip
    grid.close()


def _write_settlement(pdf: SheetPDF, totals: Totals, lang: str) -> None:
    """Who pays whom, in the sheet's money."""
    settlement = totals["settlement"]
    if not settlement:
        return
    pdf.ln(3)
    if pdf.will_page_break(10 + 5 * len(settlement)):
        pdf.add_page()
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Abrechnung", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    for t in settlement:
        pdf.cell(0, 5, f"{t['from']} → {t['to']}: {money(t['cents'], lang)}",
                 new_x="LMARGIN", new_y="NEXT")  # fmt: skip
