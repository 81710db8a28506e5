"""An evening's sheet, computed from its deals (docs/rules.md 1.7-1.10, 2.5, 2.6).

Deals are the source of truth: :func:`compute_sheet` recomputes every result, running total,
Bock round, Seeger-Fabian score and the settlement in one pass over the stored deals, so an
old sheet always gives the same totals and a correction ripples forward.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import Errors, InvalidDeal, Msg, check_ramsch, signed
from .inputs import (
    Reader,
    read_schafkopf,
    read_skat,
    schafkopf_result_json,
    skat_result_json,
)
from .schafkopf import (
    DEFAULT_LAUFENDE_MIN,
    SUIT_NAMES,
    TARIFF_KEYS,
    SchafkopfDeal,
    SKGame,
    full_laufende_min,
    full_tariffs,
    game_name,
    ramsch_tariff,
    schafkopf_ramsch,
    schafkopf_value,
)
from .skat import Game, skat_value

SKAT_BOCK_TRIGGERS = ("60-60", "grand-hand-won", "kontra-lost", "value-100")
SCHAFKOPF_BOCK_TRIGGERS = ("60-60", "kontra-lost", "value-100")
MAX_DEALS = 1000
MAX_NAME = 40
BAD_NAME_MSG = Msg("Namen ohne Steuerzeichen, bitte.", "Names without control characters, please.")


def bad_name_char(name: str) -> bool:
    """A control character (C0 but tab and line breaks, DEL, C1) or a Unicode noncharacter:
    nothing a player is called, and not allowed in XML (the PDF's chart would break on it)."""
    for ch in name:
        c = ord(ch)
        if (
            (c < 0x20 and ch not in "\t\n\r")
            or 0x7F <= c <= 0x9F
            or 0xFDD0 <= c <= 0xFDEF
            or (c & 0xFFFE) == 0xFFFE
        ):
            return True
    return False


BOCK_NAMES = {
    "60-60": Msg("verlorenes Spiel mit 60:60", "a game lost 60:60"),
    "grand-hand-won": Msg("gewonnener Grand Hand", "a grand hand won"),
    "kontra-lost": Msg("verlorenes Spiel mit Kontra/Re", "a game lost with Kontra/Re"),
    "value-100": Msg("Spielwert 100 oder mehr", "a game value of 100 or more"),
}


@dataclass(frozen=True)
class SheetSpec:
    game: str  # "skat" or "schafkopf"
    players: tuple[str, ...]
    first_dealer: str
    rules: Mapping[str, Any]


@dataclass(frozen=True)
class DealRecord:
    n: int
    dealer: str
    active: tuple[str, ...]
    input: Mapping[str, Any]
    struck: bool = False


# --- Creating a sheet -------------------------------------------------------------------------


def normalize_sheet(data: object) -> SheetSpec:
    """Check a new sheet's game, players, first dealer and rules; fill in every rule."""
    r = Reader(data)
    game = r.choice("game", {"skat": "skat", "schafkopf": "schafkopf"})
    players = r.str_list("players", MAX_NAME)
    first = r.data.get("first_dealer") if isinstance(r.data, Mapping) else None
    r.seen.add("first_dealer")
    rules_in = r.data.get("rules") if isinstance(r.data, Mapping) else None
    r.seen.add("rules")
    r.seen.add("name")
    e = r.errors
    if players is None and not e.has("players"):
        e.add("players", "Bitte die Spieler in Sitzreihenfolge nennen.", "Name the players.")
    if players is not None:
        players = [p.strip() for p in players]
        if any(not p for p in players):
            e.add("players", "Ein Spielername ist leer.", "A player name is empty.")
        elif any(bad_name_char(p) for p in players):
            e.add("players", BAD_NAME_MSG.de, BAD_NAME_MSG.en)
        elif len(set(p.casefold() for p in players)) != len(players):
            e.add("players", "Jeder Name nur einmal, bitte.", "Each name only once, please.")
        elif game == "skat" and not 3 <= len(players) <= 5:
            e.add("players", "Skat spielen 3, 4 oder 5.", "Skat is played by 3, 4 or 5.")
        elif game == "schafkopf" and len(players) != 4:
            e.add("players", "Schafkopf spielen genau 4.", "Schafkopf is played by exactly 4.")
    if first is None and players:
        first = players[0]
    if not isinstance(first, str) or (players is not None and first not in players):
        e.add(
            "first_dealer",
            "Der erste Geber muss einer der Spieler sein.",
            "The first dealer must be one of the players.",
        )
    rules: dict[str, Any] = {}
    if game is not None:
        rules = normalize_rules(game, rules_in, e)
    r.reject_unknown()
    e.raise_if_any()
    assert game is not None and players is not None and isinstance(first, str)
    return SheetSpec(game, tuple(players), first, rules)


def normalize_rules(game: str, data: object, e: Errors) -> dict[str, Any]:
    if data is None:
        data = {}
    r = Reader(data, Errors())
    ramsch = r.boolean("ramsch")
    bock = r.str_list("bock")
    triggers = SKAT_BOCK_TRIGGERS if game == "skat" else SCHAFKOPF_BOCK_TRIGGERS
    if bock is not None and any(b not in triggers for b in bock):
        r.errors.add(
            "bock",
            f"Bock-Auslöser: {', '.join(triggers)}.",
            f"Bock triggers: {', '.join(triggers)}.",
        )
        bock = None
    stake = r.integer("stake_cents", 0 if game == "skat" else 1)
    if stake is not None and not 0 <= stake <= 100_000:
        r.errors.add("stake_cents", "Einsatz: 0 bis 100000 Cent.", "Stake: 0 to 100000 cents.")
    rules: dict[str, Any]
    if game == "skat":
        kontra_re = r.boolean("kontra_re")
        rules = {"kontra_re": bool(kontra_re)}
    else:
        tariffs = r.int_map("tariffs") or {}
        for k, v in tariffs.items():
            if k not in TARIFF_KEYS:
                r.errors.add("tariffs", f"Unbekannter Tarif „{k}“.", f"Unknown tariff “{k}”.")
            elif not 0 <= v <= 100_000:
                r.errors.add("tariffs", "Tarife: 0 bis 100000 Cent.", "Tariffs: 0 to 100000 cents.")
        lmin = r.int_map("laufende_min") or {}
        for k, v in lmin.items():
            if k not in DEFAULT_LAUFENDE_MIN:
                r.errors.add("laufende_min", f"Unbekanntes Spiel „{k}“.", f"Unknown game “{k}”.")
            elif not 1 <= v <= SKGame(k).max_laufende:
                r.errors.add(
                    "laufende_min",
                    f"Laufende im {k}: 1 bis {SKGame(k).max_laufende}.",
                    f"Laufende in {k}: 1 to {SKGame(k).max_laufende}.",
                )
        tcss = r.boolean("tout_counts_schneider_schwarz", True)
        full = full_tariffs(tariffs)
        if ramsch:  # the evening plays Ramsch: its tariff is stated, as every other rule
            full.setdefault("ramsch", ramsch_tariff(full))
        rules = {
            "tariffs": full,
            "tout_counts_schneider_schwarz": bool(tcss),
            "laufende_min": full_laufende_min(lmin),
        }
    rules.update({"ramsch": bool(ramsch), "bock": list(bock or []), "stake_cents": stake or 0})
    r.reject_unknown()
    for err in r.errors.items:
        e.items.append(type(err)(f"rules.{err.field}" if err.field != "_" else "rules", err.msg))
    return rules


# --- Rotation (docs/rules.md 1.8) -------------------------------------------------------------


def seat_after(players: Sequence[str], name: str, step: int = 1) -> str:
    return players[(players.index(name) + step) % len(players)]


def default_active(spec: SheetSpec, dealer: str) -> tuple[str, ...]:
    """Who plays when ``dealer`` deals: at 4 the dealer sits out, at 5 also the one two seats
    to his right; listed from forehand on.

    >>> default_active(SheetSpec("skat", ("A", "B", "C", "D"), "A", {}), "A")
    ('B', 'C', 'D')
    >>> default_active(SheetSpec("skat", ("A", "B", "C", "D", "E"), "A", {}), "A")
    ('B', 'C', 'E')
    """
    p = spec.players
    n = len(p)
    if spec.game == "schafkopf" or n == 3:
        return tuple(seat_after(p, dealer, k) for k in range(1, n + 1))
    out = {dealer}
    if n == 5:
        out.add(seat_after(p, dealer, -2))
    return tuple(
        seat_after(p, dealer, k) for k in range(1, n) if seat_after(p, dealer, k) not in out
    )


def forehand(players: Sequence[str], dealer: str, active: Sequence[str]) -> str | None:
    """Vorhand: the first player on the dealer's left who plays this deal (the stored list
    of who played need not start with him)."""
    if dealer not in players:
        return active[0] if active else None
    return next(
        (seat_after(players, dealer, k) for k in range(1, len(players) + 1)
         if seat_after(players, dealer, k) in active),
        None,
    )  # fmt: skip


def dealer_after(spec: SheetSpec, last_dealer: str | None) -> str:
    """Who deals next: the seat after whoever dealt the last deal that counts, else the first
    dealer."""
    return seat_after(spec.players, last_dealer) if last_dealer else spec.first_dealer


def next_dealer(spec: SheetSpec, deals: Sequence[DealRecord]) -> str:
    """The seat after the last deal that counts; struck deals were never really dealt."""
    last = next((d.dealer for d in reversed(deals) if not d.struck), None)
    return dealer_after(spec, last)


# --- One deal ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealOutcome:
    kind: str  # "game", "passed", "ramsch"
    declarer: str | None
    party: tuple[str, ...]
    result: dict[str, Any] | None
    list: dict[str, int]
    deltas: dict[str, int]
    won: bool | None
    value: int
    title: Msg
    steps: tuple[Msg, ...]
    triggers: tuple[str, ...]


def check_placement(
    spec: SheetSpec, body: Mapping[str, Any], e: Errors
) -> tuple[str | None, tuple[str, ...] | None]:
    """The optional ``dealer`` and ``active`` fields of a deal body."""
    dealer = body.get("dealer")
    if dealer is not None and (not isinstance(dealer, str) or dealer not in spec.players):
        e.add("dealer", "Der Geber muss am Tisch sitzen.", "The dealer must sit at the table.")
        dealer = None
    active = body.get("active")
    if active is not None:
        need = 4 if spec.game == "schafkopf" else 3
        if (
            not isinstance(active, list)
            or len(active) != need
            or not all(isinstance(a, str) and a in spec.players for a in active)
            or len(set(active)) != need
        ):
            e.add(
                "active",
                f"Es spielen genau {need} verschiedene Spieler vom Tisch mit.",
                f"Exactly {need} different players of the table take part.",
            )
            active = None
        else:
            active = tuple(active)
    return dealer, active


def evaluate_deal(
    spec: SheetSpec, body: object, active: tuple[str, ...], bock: int = 0, lang: str = "de"
) -> DealOutcome:
    """Score one deal of this sheet; raises :class:`InvalidDeal` for input that cannot be."""
    r = Reader(body)
    r.seen.update({"dealer", "active"})
    data = r.data
    if data.get("passed") is not None:
        passed = r.boolean("passed")
        r.reject_unknown()
        if passed is not True and not r.errors:
            r.errors.add("passed", "Nur „passed: true“ ist möglich.", "Only “passed: true” works.")
        r.errors.raise_if_any()
        zero = dict.fromkeys(spec.players, 0)
        return DealOutcome("passed", None, (), None, zero, dict(zero), None, 0,
                           Msg("eingepasst", "passed"), (Msg("eingepasst: keine Wertung",
                           "all passed: no score"),), ())  # fmt: skip
    if spec.game == "skat":
        if "ramsch" in data:
            return _skat_ramsch(spec, r, active, bock)
        return _skat_game(spec, r, active, bock, lang)
    if data.get("game") == "ramsch":
        return _schafkopf_ramsch(spec, r, bock)
    return _schafkopf_game(spec, r, bock, lang)


def _zero_sum(players: Sequence[str], entries: Mapping[str, int]) -> dict[str, int]:
    """docs/rules.md 1.9: delta_i = n × list_i − sum of the deal's list entries."""
    total = sum(entries.values())
    n = len(players)
    return {p: n * entries.get(p, 0) - total for p in players}


def _skat_game(
    spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int, lang: str
) -> DealOutcome:
    declarer = r.data.get("declarer")
    r.seen.add("declarer")
    deal = read_skat(r)
    r.reject_unknown()
    if not isinstance(declarer, str) or declarer not in active:
        r.errors.add(
            "declarer",
            "Bitte den Alleinspieler wählen (einer der drei, die mitspielen).",
            "Choose the declarer (one of the three who play).",
        )
    if deal is not None and (deal.kontra or deal.re) and not spec.rules.get("kontra_re"):
        r.errors.add(
            "kontra",
            "Kontra/Re ist an diesem Tisch nicht vereinbart.",
            "Kontra/Re is not played at this table.",
        )
    r.errors.raise_if_any()
    assert deal is not None and isinstance(declarer, str)
    res = skat_value(deal)
    factor = 2**bock
    score = res.score * factor
    steps = list(res.steps)
    if bock:
        steps.append(Msg(f"Bock × 2 = {signed(score)}", f"Bock × 2 = {signed(score)}"))
    entries = dict.fromkeys(spec.players, 0)
    entries[declarer] = score
    triggers = []
    if deal.declarer_points == 60 and not res.won:
        triggers.append("60-60")
    if deal.game is Game.GRAND and deal.hand and res.won:
        triggers.append("grand-hand-won")
    if deal.kontra and not res.won:
        triggers.append("kontra-lost")
    if res.value >= 100:
        triggers.append("value-100")
    return DealOutcome(
        "game", declarer, (declarer,), skat_result_json(res, lang), entries,
        _zero_sum(spec.players, entries), res.won, res.value, skat_title(deal, res.won),
        tuple(steps), tuple(triggers),
    )  # fmt: skip


def skat_title(deal: Any, won: bool | None = None) -> Msg:
    """Short form for the sheet row: "Grand Hand mit 2", "Null ouvert"."""
    g: Game = deal.game
    parts_de = [g.label.de]
    parts_en = [g.label.en]
    if g is Game.NULL:
        if deal.ouvert:
            parts_de.append("ouvert")
            parts_en.append("ouvert")
        if deal.hand:
            parts_de.append("Hand")
            parts_en.append("hand")
        return Msg(" ".join(parts_de), " ".join(parts_en))
    if deal.ouvert:
        parts_de.append("ouvert")
        parts_en.append("ouvert")
    elif deal.hand:
        parts_de.append("Hand")
        parts_en.append("hand")
    if deal.schwarz_announced and not deal.ouvert:
        parts_de.append("Schwarz angesagt")
        parts_en.append("schwarz announced")
    elif deal.schneider_announced and not deal.ouvert:
        parts_de.append("Schneider angesagt")
        parts_en.append("schneider announced")
    parts_de.append(f"{'mit' if deal.with_ else 'ohne'} {deal.matadors}")
    parts_en.append(f"{'with' if deal.with_ else 'without'} {deal.matadors}")
    return Msg(" ".join(parts_de), " ".join(parts_en))


def _skat_ramsch(spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int) -> DealOutcome:
    e = r.errors
    raw = r.data.get("ramsch")
    r.seen.add("ramsch")
    r.reject_unknown()
    if not spec.rules.get("ramsch"):
        e.add(
            "ramsch", "Ramsch ist an diesem Tisch nicht vereinbart.", "Ramsch is not played here."
        )
        e.raise_if_any()
    sub = Reader(raw, Errors())
    points = sub.int_map("points")
    jungfrau = sub.str_list("jungfrau") or []
    durch = sub.data.get("durchmarsch")
    sub.seen.add("durchmarsch")
    sub.reject_unknown()
    for err in sub.errors.items:
        e.items.append(type(err)(f"ramsch.{err.field}", err.msg))
    check_ramsch(active, points, jungfrau, durch, e, prefix="ramsch.")
    e.raise_if_any()
    assert points is not None
    pts: dict[str, int] = points
    factor = 2**bock
    entries = dict.fromkeys(spec.players, 0)
    steps: list[Msg] = []
    if durch is not None:
        entries[durch] = 120 * factor
        steps.append(Msg(f"Durchmarsch {durch}: {signed(120 * factor)}",
                         f"Durchmarsch {durch}: {signed(120 * factor)}"))  # fmt: skip
        losers: tuple[str, ...] = ()
    else:
        top = max(pts.values())
        losers = tuple(p for p in active if pts[p] == top)
        mult = 2 ** len(set(jungfrau))
        for p in losers:
            entries[p] = -top * mult * factor
        steps.append(Msg(f"Ramsch: {', '.join(losers)} hat die meisten Augen ({top}): "
                         f"{signed(-top)}", f"Ramsch: {', '.join(losers)} has most points "
                         f"({top}): {signed(-top)}"))  # fmt: skip
        for j in jungfrau:
            steps.append(Msg(f"Jungfrau {j}: × 2", f"Jungfrau {j}: × 2"))
        if bock:
            steps.append(Msg("Bock × 2", "Bock × 2"))
    title = (
        Msg("Ramsch", "Ramsch")
        if durch is None
        else Msg("Ramsch, Durchmarsch", "Ramsch, Durchmarsch")
    )
    return DealOutcome("ramsch", None, losers, None, entries, _zero_sum(spec.players, entries),
                       None, 0, title, tuple(steps), ())  # fmt: skip


def _schafkopf_game(spec: SheetSpec, r: Reader, bock: int, lang: str) -> DealOutcome:
    deal = read_schafkopf(r, players=spec.players, rules=spec.rules, bock=bock)
    r.reject_unknown()
    r.errors.raise_if_any()
    assert deal is not None
    res = schafkopf_value(deal)
    triggers = []
    if deal.player_points == 60:
        triggers.append("60-60")
    if deal.kontra and not res.won:
        triggers.append("kontra-lost")
    if res.value >= 100:
        triggers.append("value-100")
    return DealOutcome(
        "game", deal.declarers[0], deal.declarers, schafkopf_result_json(res, lang),
        dict(res.deltas), dict(res.deltas), res.won, res.value, schafkopf_title(deal),
        res.steps, tuple(triggers),
    )  # fmt: skip


def schafkopf_title(deal: SchafkopfDeal) -> Msg:
    """Short form for the sheet row: "Sauspiel A+D (Eichel-Sau)", "Gras-Solo Tout C"."""
    extra = " Sie" if deal.sie else (" Tout" if deal.tout else "")
    names = "+".join(deal.declarers)
    name = game_name(deal.game, deal.suit)
    if deal.game is SKGame.SAUSPIEL and deal.suit:
        sau = SUIT_NAMES[deal.suit]
        return Msg(f"Sauspiel {names} ({sau}-Sau)", f"Sauspiel {names} ({sau} Sau)")
    return Msg(f"{name.de}{extra} {names}", f"{name.en}{extra} {names}")


def _schafkopf_ramsch(spec: SheetSpec, r: Reader, bock: int) -> DealOutcome:
    r.choice("game", {"ramsch": "ramsch"})
    points = r.int_map("points")
    jungfrau = r.str_list("jungfrau") or []
    durch = r.data.get("durchmarsch")
    r.seen.add("durchmarsch")
    r.reject_unknown()
    if not spec.rules.get("ramsch"):
        r.errors.add(
            "game", "Ramsch ist an diesem Tisch nicht vereinbart.", "Ramsch is not played here."
        )
    check_ramsch(spec.players, points, jungfrau, durch, r.errors)
    r.errors.raise_if_any()
    assert points is not None and (durch is None or isinstance(durch, str))
    tariffs = dict(spec.rules.get("tariffs") or {})
    res = schafkopf_ramsch(spec.players, points, tuple(jungfrau), durch, tariffs, bock)
    title = (
        Msg("Ramsch", "Ramsch")
        if durch is None
        else Msg("Ramsch, Durchmarsch", "Ramsch, Durchmarsch")
    )
    return DealOutcome("ramsch", None, res.losers, None, dict(res.deltas), dict(res.deltas),
                       None, 0, title, res.steps, ())  # fmt: skip


# --- The whole sheet --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetState:
    """Where a pass over the deals stands after ``count`` of them; lets a sheet that only
    grew by appended deals go on from there instead of starting over."""

    count: int
    rows: tuple[dict[str, Any], ...]
    balance: Mapping[str, int]
    list_tot: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    lost_by_others: Mapping[str, int]
    bock_queue: int


def compute_sheet(
    spec: SheetSpec,
    deals: Sequence[DealRecord],
    lang: str = "de",
    resume: SheetState | None = None,
) -> dict[str, Any]:
    """Every deal's result and the running and final totals, in one pass.

    With ``resume`` (the ``state`` of an earlier result whose deals are, unchanged, the first
    ``resume.count`` of these), only the deals after them are evaluated. The result's
    ``state`` can be passed on the same way."""
    players = spec.players
    n_players = len(players)
    if resume is not None and resume.count <= len(deals):
        balance = dict(resume.balance)
        list_tot = dict(resume.list_tot)
        won = dict(resume.won)
        lost = dict(resume.lost)
        lost_by_others = dict(resume.lost_by_others)
        bock_queue = resume.bock_queue
        rows: list[dict[str, Any]] = list(resume.rows)
        todo = deals[resume.count :]
    else:
        balance = dict.fromkeys(players, 0)
        list_tot = dict.fromkeys(players, 0)
        won = dict.fromkeys(players, 0)
        lost = dict.fromkeys(players, 0)
        lost_by_others = dict.fromkeys(players, 0)
        bock_queue = 0
        rows = []
        todo = deals
    round_len = n_players if spec.game == "skat" else 4
    triggers_on = set(spec.rules.get("bock") or ())
    for d in todo:
        row: dict[str, Any] = {
            "n": d.n,
            "dealer": d.dealer,
            "active": list(d.active),
            "declarer": None,
            "passed": False,
            "struck": d.struck,
            "bock": False,
            "input": dict(d.input),
        }
        if d.struck:
            zero = dict.fromkeys(players, 0)
            row.update(result=None, list=zero, deltas=dict(zero), totals=dict(balance))
            row.update(_title_of(spec, d, lang))
            rows.append(row)
            continue
        bock = bock_queue > 0
        if bock:
            bock_queue -= 1
        try:
            out = evaluate_deal(spec, d.input, d.active, 1 if bock else 0, lang)
        except InvalidDeal as exc:
            # A stored deal that no longer evaluates must not take the sheet down.
            zero = dict.fromkeys(players, 0)
            row.update(result=None, list=zero, deltas=dict(zero), totals=dict(balance),
                       error=exc.by_field(lang), title="?", explanation=[])  # fmt: skip
            rows.append(row)
            continue
        for p in players:
            balance[p] += out.deltas[p]
            list_tot[p] += out.list[p]
        if out.kind == "game" and out.won is not None:
            for p in out.party:
                (won if out.won else lost)[p] += 1
            if not out.won and spec.game == "skat":
                for p in players:
                    if p not in out.party:
                        lost_by_others[p] += 1
        if any(t in triggers_on for t in out.triggers):
            bock_queue += round_len
        row.update(
            _described(out, lang),
            bock=bock,
            result=out.result,
            list=out.list,
            deltas=out.deltas,
            totals=dict(balance),
            bock_trigger=[t for t in out.triggers if t in triggers_on],
        )
        rows.append(row)
    stake = int(spec.rules.get("stake_cents") or 0)
    totals: dict[str, Any] = {"balance": balance}
    if spec.game == "skat":
        totals["list"] = list_tot
        if n_players in (3, 4):
            bonus = 40 if n_players == 3 else 30
            totals["seeger_fabian"] = {
                p: list_tot[p] + 50 * (won[p] - lost[p]) + bonus * lost_by_others[p]
                for p in players
            }
    totals["won"] = won
    totals["lost"] = lost
    totals["settlement"] = settle({p: balance[p] * stake for p in players})
    state = SheetState(len(deals), tuple(rows), dict(balance), dict(list_tot), dict(won),
                       dict(lost), dict(lost_by_others), bock_queue)  # fmt: skip
    return {
        "deals": rows,
        "totals": totals,
        "bock_pending": bock_queue,
        "next_dealer": next_dealer(spec, deals),
        "state": state,
    }


def _title_of(spec: SheetSpec, d: DealRecord, lang: str) -> dict[str, Any]:
    try:
        out = evaluate_deal(spec, d.input, d.active, 0, lang)
    except InvalidDeal:
        return {
            "title": "?",
            "explanation": [],
            "kind": "game",
            "party": [],
            "won": None,
            "value": 0,
        }
    return _described(out, lang)


def _described(out: DealOutcome, lang: str) -> dict[str, Any]:
    """What a row says about its deal: the same for counted and for struck deals."""
    return {
        "title": out.title.text(lang),
        "explanation": [s.text(lang) for s in out.steps],
        "kind": out.kind,
        "declarer": out.declarer,
        "passed": out.kind == "passed",
        "party": list(out.party),
        "won": out.won,
        "value": out.value,
    }


def settle(net: Mapping[str, int]) -> list[dict[str, Any]]:
    """Who pays whom: largest debtor to largest creditor; at most n − 1 transfers.

    >>> settle({"A": 360, "B": 0, "C": -560, "D": 200})
    [{'from': 'C', 'to': 'A', 'cents': 360}, {'from': 'C', 'to': 'D', 'cents': 200}]
    """
    debtors = sorted(((-v, p) for p, v in net.items() if v < 0), reverse=True)
    creditors = sorted(((v, p) for p, v in net.items() if v > 0), reverse=True)
    owe = [amount for amount, _ in debtors]
    due = [amount for amount, _ in creditors]
    out: list[dict[str, Any]] = []
    i = j = 0
    while i < len(owe) and j < len(due):
        amount = min(owe[i], due[j])
        if amount > 0:
            out.append({"from": debtors[i][1], "to": creditors[j][1], "cents": amount})
        owe[i] -= amount
        due[j] -= amount
        if owe[i] == 0:
            i += 1
        if due[j] == 0:
            j += 1
    return out


def describe_rules(spec: SheetSpec) -> list[Msg]:
    """The house rules in force, for the sheet's heading and the printout."""
    r = spec.rules
    out: list[Msg] = []
    if spec.game == "skat":
        out.append(Msg("Kontra/Re: ja" if r.get("kontra_re") else "Kontra/Re: nein",
                       "Kontra/Re: yes" if r.get("kontra_re") else "Kontra/Re: no"))  # fmt: skip
        out.append(Msg("Ramsch statt Einpassen" if r.get("ramsch") else "Einpassen ohne Ramsch",
                       "Ramsch when all pass" if r.get("ramsch") else "all-pass deals score 0"))  # fmt: skip
    else:
        t = r.get("tariffs") or {}
        out.append(Msg(
            f"Tarife: Sauspiel {t.get('sauspiel')}, Solo {t.get('solo')}, Bettel {t.get('bettel')}, "
            f"Extra {t.get('extra')}",
            f"Tariffs: Sauspiel {t.get('sauspiel')}, solo {t.get('solo')}, Bettel {t.get('bettel')}, "
            f"extra {t.get('extra')}",
        ))  # fmt: skip
        lm = r.get("laufende_min") or {}
        out.append(Msg(
            f"Laufende ab {lm.get('sauspiel')} (Wenz/Geier ab {lm.get('wenz')})",
            f"Laufende from {lm.get('sauspiel')} (Wenz/Geier from {lm.get('wenz')})",
        ))  # fmt: skip
        out.append(Msg(
            "Tout: Schneider/Schwarz zählen extra" if r.get("tout_counts_schneider_schwarz")
            else "Tout: Schneider/Schwarz inbegriffen",
            "Tout: schneider/schwarz count extra" if r.get("tout_counts_schneider_schwarz")
            else "Tout: schneider/schwarz included",
        ))  # fmt: skip
        if r.get("ramsch"):
            rt = ramsch_tariff(full_tariffs(t))
            out.append(Msg(f"Ramsch: ja, Tarif {rt}", f"Ramsch: yes, tariff {rt}"))
        else:
            out.append(Msg("Ramsch: nein", "Ramsch: no"))
    bock = r.get("bock") or []
    if bock:
        out.append(Msg("Bock nach: " + ", ".join(BOCK_NAMES[b].de for b in bock),
                       "Bock after: " + ", ".join(BOCK_NAMES[b].en for b in bock)))  # fmt: skip
    else:
        out.append(Msg("keine Bockrunden", "no Bock rounds"))
    stake = r.get("stake_cents") or 0
    out.append(Msg(f"Einsatz: {stake} Cent je Punkt", f"Stake: {stake} cents per point"))
    return out
