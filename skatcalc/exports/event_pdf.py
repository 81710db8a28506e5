"""The event as one PDF to pin to the wall: ranking, prize list, then every table's list."""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database

from skatcalc.exports.grid import Align, Grid
from skatcalc.exports.pdf import GREY, SheetPDF, _n, write_sheet
from skatcalc.exports.records import sheet_doc
from skatcalc.rules.common import money
from skatcalc.rules.double_entry import difference_msg
from skatcalc.rules.events import CashCheck, PrizeKind, RankRow
from skatcalc.rules.ranking import rank_figure
from skatcalc.rules.sheet import describe_rules
from skatcalc.rules.sheet import game as game_kind
from skatcalc.services import events
from skatcalc.services import sheets as service
from skatcalc.services.dates import when
from skatcalc.services.event_desk import start_numbers
from skatcalc.services.events import Event, EventTable, PenaltyRow, tournament_of
from skatcalc.text import ptranslate, translate

NAME_MIN = 36  # mm the name column keeps, whatever the number of series
SERIES_W = 11  # mm per series column


def _series_cells(r: RankRow, which: range) -> list[str]:
    return [_n(r.series[i]) if r.played[i] else "–" for i in which]


def _table(pdf: SheetPDF, given: Sequence[float], heads: list[str], rows: list[list[str]]) -> None:
    """One ranking table: the name column (second) takes what the others leave."""
    widths = list(given)
    widths[1] = pdf.epw - sum(widths)
    right: list[Align] = ["R"] * (len(widths) - 2)
    grid = Grid(pdf, widths, ["R", "L", *right], heads, size=8.5, line_h=4.6)
    for cells in rows:
        grid.row(cells)
    grid.close()


def render_event_pdf(
    db: Database, event: Event, rows: tuple[RankRow, ...], prizes: events.PrizeList,
    lang: str = "de",
) -> bytes:  # fmt: skip
    """The ranking with the prizes, the cash, the penalties and the other prizes, then every
    table's list (its sheet, or its foot as kept on paper)."""
    pdf = SheetPDF(event.name, lang, landscape=False)
    pdf.set_title(event.name)
    pdf.set_creator("skatcalc")
    _write_event_head(pdf, event, lang)
    _write_ranking(pdf, rows, _prize_of(rows, prizes, lang),
                   start_numbers(events.registrations(db, event.id)), lang)  # fmt: skip
    _write_cash(pdf, prizes, lang)
    write_penalties(pdf, events.penalties(db, event.id), lang)
    write_more_prizes(pdf, prizes, lang)
    write_cash_check(pdf, prizes.cash, lang)
    for t in events.tables_of(db, event):
        _write_table(pdf, db, event, t, lang)
    return bytes(pdf.output())


def _ranked_by(event: Event, lang: str) -> str:
    """What a club night ranks by: the game's first ranking figure, or a Schafkopf
    tournament's points (docs/rules.md 2.8)."""
    what = ("Seeger-Fabian" if rank_figure(event.game) == "seeger_fabian"
            else ptranslate("ranked by", "Bilanz", lang))  # fmt: skip
    scale = event.rules.get("scale")
    if scale:
        what = translate("Punkte (Turnierwertung)", lang)
        if scale.get("written"):  # "nur Gute": the ranking counts what the winners wrote
            what = translate("geschriebene Punkte (nur Gute)", lang)
    return str(what)


def _write_event_head(pdf: SheetPDF, event: Event, lang: str) -> None:
    """The event's name, game, day, what it ranks by, its fees, and whether it is closed."""
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.multi_cell(0, 8, event.name, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    game = game_kind(event.game).label.de
    fees = events.fees_line(event, lang)
    pdf.multi_cell(0, 5, f"{game} · {event.day} · {_ranked_by(event, lang)} · {fees}",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    if event.closed is None:
        pdf.set_text_color(*GREY)
        pdf.multi_cell(0, 5, translate("Vorläufig: noch nicht abgeschlossen.", lang),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        pdf.set_text_color(0, 0, 0)
    else:
        pdf.multi_cell(0, 5, translate("Abgeschlossen am %(when)s.", lang, when=when(event.closed, lang)),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.ln(2)


def _prize_of(rows: Sequence[RankRow], prizes: events.PrizeList, lang: str) -> dict[str, str]:
    """A player's own prize: money, or a goods prize by its name (never added to the money)."""
    prize_of = {r.player: money(c, lang) if (c := prizes.won.cents_of(r.player)) else ""
                for r in rows}  # fmt: skip
    for r in rows:
        if goods := prizes.won.goods_of(r.player):
            prize_of[r.player] = f"{prize_of[r.player]} {goods}".strip()
    return prize_of


def _write_ranking(pdf: SheetPDF, rows: Sequence[RankRow], prize_of: dict[str, str],
                   numbers: dict[str, int], lang: str) -> None:  # fmt: skip
    """The ranking. The series go into it while the name keeps room; beyond that it leaves
    them out and they follow in tables of their own (as many as it takes)."""

    def named(player: str) -> str:
        no = numbers.get(player)
        return player if no is None else f"{player} · {translate('Nr.', lang)} {no}"

    n_series = len(rows[0].series) if rows else 0
    series_w = 16 if n_series <= 4 else 11
    inline = pdf.epw - 12 - 18 - 58 - series_w * n_series >= NAME_MIN
    heads = [ptranslate("rank", "Platz", lang), translate("Name", lang),
             translate("Punkte", lang)]  # fmt: skip
    tail = [translate("gew./verl.", lang), translate("Gebühr", lang), translate("Preis", lang)]
    shown = range(n_series) if inline else range(0)
    _table(pdf, [12, 0, 18] + [series_w] * len(shown) + [18, 20, 20],
           [*heads, *[f"S{i + 1}" for i in shown], *tail],
           [[f"{r.rank}.", named(r.player), _n(r.score), *_series_cells(r, shown),
             f"{r.won} / {r.lost}", money(r.fees_cents, lang),
             prize_of[r.player]]
            for r in rows])  # fmt: skip
    if inline:
        return
    per_table = int((pdf.epw - 12 - NAME_MIN) // SERIES_W)
    for first in range(0, n_series, per_table):
        part = range(first, min(first + per_table, n_series))
        pdf.ln(3)
        _table(pdf, [12, 0] + [SERIES_W] * len(part),
               [*heads[:2], *[f"S{i + 1}" for i in part]],
               [[f"{r.rank}.", named(r.player), *_series_cells(r, part)] for r in rows])  # fmt: skip


def _write_cash(pdf: SheetPDF, prizes: events.PrizeList, lang: str) -> None:
    """The fees the ranking counts, the pot, what is paid out and what is left."""
    pdf.ln(3)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Kasse", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    lines = [
        (translate("Gebühren laut Rangliste", lang), prizes.fees_total_cents),
        (translate("Topf", lang), prizes.won.pot_cents),
        (translate("ausgezahlt", lang), prizes.won.paid_cents),
        (translate("Rest", lang), prizes.won.rest_cents),
    ]
    for label, cents in lines:
        pdf.cell(0, 5, f"{label}: {money(cents, lang)}",
                 new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def _write_table(pdf: SheetPDF, db: Database, event: Event, t: EventTable, lang: str) -> None:
    """A table's list: its foot as kept on paper, or its sheet (a Skat table's page is the
    official tournament list, Seeger-Fabian's columns) with list B's note under it."""
    if t.foot is not None:
        write_paper_table(pdf, t, lang)
        return
    sheet = {**service.sheet_json(db, t.sheet_row, lang, full=False), "day": t.sheet_row.day}
    spec = service.spec_of(t.sheet_row)
    typed = service.computed(db, t.sheet_row).rows
    tlist = tournament_of(db, t.sheet_row, at_event=True)
    write_sheet(pdf, sheet_doc(sheet), [translate(m, lang) for m in describe_rules(spec)], lang,
                typed, tlist)  # fmt: skip
    if t.double_entry is not None:
        write_double_entry_note(pdf, event, t, lang)


def write_double_entry_note(pdf: SheetPDF, event: Event, t: EventTable,
                            lang: str) -> None:  # fmt: skip
    """Under a table that keeps two lists: its page is list A, the ranking counts only the
    deals both lists agree on (rules/double_entry.py). Where list B differs or lags, the
    page says which deals do not count and the figures the ranking took."""
    assert t.double_entry is not None
    cmp = t.double_entry.comparison
    pdf.ln(2)
    pdf.set_font("DejaVu", size=9)
    if cmp.clean:
        pdf.multi_cell(0, 5, translate("Liste B stimmt mit Liste A überein (%(n)s Spiele).", lang,
                                       n=len(cmp.agreed)), new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        return
    pdf.set_font("DejaVu", "B", 9)
    pdf.multi_cell(0, 5, translate("Liste B: %(n)s Spiele noch nicht gezählt.", lang,
                                   n=cmp.pending), new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.set_font("DejaVu", size=9)
    for d in cmp.differences:
        pdf.multi_cell(0, 5, translate(difference_msg(d), lang), new_x="LMARGIN", new_y="NEXT")
    figure = ("Seeger-Fabian" if rank_figure(event.game) == "seeger_fabian"
              else ptranslate("ranked by", "Bilanz", lang))  # fmt: skip
    counted = " · ".join(f"{p} {_n(t.score[p])}" for p in t.players)
    pdf.multi_cell(0, 5, translate("In der Rangliste gezählt (%(figure)s): %(counted)s", lang,
                                   figure=figure, counted=counted),
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def write_more_prizes(pdf: SheetPDF, prizes: events.PrizeList, lang: str) -> None:
    """The series, category and team prizes, one line each, and the team ranking."""
    others = [p for p in prizes.won.prizes if p.kind is not PrizeKind.OVERALL]
    if others:
        pdf.ln(2)
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(0, 6, translate("Weitere Preise", lang), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=9)
        for p in others:
            if p.kind is PrizeKind.SERIES:
                what = translate("Serie %(n)s", lang, n=p.series)
            elif p.kind is PrizeKind.CATEGORY:
                what = str(p.category)
            else:
                what = translate("Mannschaft", lang)
            who = p.winner  # a player, or a team's name
            if p.members:
                who += f" ({', '.join(p.members)})"
            pdf.multi_cell(0, 5, f"{what}, {p.place}.: {who} · {_n(p.score)} · "
                           f"{p.goods or money(p.cents, lang)}", new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    if prizes.teams:
        pdf.ln(2)
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(0, 6, translate("Mannschaften", lang), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=9)
        for i, (t, score) in enumerate(prizes.teams, start=1):
            pdf.multi_cell(0, 5, f"{i}. {t.name} ({', '.join(t.members)}): {_n(score)}",
                           new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def write_cash_check(pdf: SheetPDF, cash: CashCheck, lang: str) -> None:
    """Due, collected and open, in total and per player, with the items ticked as paid."""
    pdf.ln(2)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Kassenprüfung", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    pdf.multi_cell(0, 5, " · ".join([
        f"{translate('fällig', lang)} {money(cash.due_cents, lang)}",
        f"{translate('kassiert', lang)} {money(cash.paid_cents, lang)}",
        f"{translate('offen', lang)} {money(cash.open_cents, lang)}",
    ]), new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    widths: tuple[float, ...] = (0, 60, 24, 24, 24)
    widths = (pdf.epw - sum(widths), *widths[1:])
    heads = [translate(h, lang) for h in ("Name", "bezahlt", "fällig", "kassiert", "offen")]
    grid = Grid(pdf, widths, ("L", "L", "R", "R", "R"), heads, size=8.5, line_h=4.6)
    for c in cash.rows:
        paid = " ".join(
            ("✓" if i.paid_cents is not None else "")
            + (translate("Startgeld", lang) if i.series == 0 else f"S{i.series}")
            for i in c.items
        )
        grid.row([c.player, paid, money(c.due_cents, lang), money(c.paid_cents, lang),
                  money(c.open_cents, lang) if c.open_cents else ""])  # fmt: skip
    grid.close()


def write_penalties(pdf: SheetPDF, given: Sequence[PenaltyRow], lang: str) -> None:
    """Every penalty with its series, points and reason (the ranking's scores are net)."""
    if not given:
        return
    pdf.ln(3)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, translate("Strafpunkte", lang), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    for p in given:
        pdf.multi_cell(0, 5, translate("%(player)s, Serie %(n)s: %(points)s (%(reason)s)", lang,
                                       player=p.player, n=p.series, points=_n(-p.points),
                                       reason=p.reason),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def write_paper_table(pdf: SheetPDF, t: EventTable, lang: str) -> None:
    """A table kept on paper: its foot as the desk typed it, with each player's score."""
    assert t.foot is not None
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 12)
    pdf.multi_cell(0, 7, translate("Serie %(n)s, Tisch %(t)s: Papierliste", lang,
                                   n=t.series, t=t.table),
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.set_font("DejaVu", size=9)
    heads = ["", translate("Spieler", lang), translate("Summe", lang),
             translate("gewonnen", lang), translate("verloren", lang), translate("Wertung", lang)]  # fmt: skip
    _table(pdf, [10, 0, 24, 22, 22, 24], heads,
           [[f"{i}.", p, _n(f.points), str(f.won), str(f.lost), _n(t.score[p])]
            for i, (p, f) in enumerate(t.foot.lines.items(), start=1)])  # fmt: skip
    pdf.ln(2)
    pdf.multi_cell(0, 5, translate("eingepasst", lang) + f": {t.foot.passed}",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
