"""A sheet's entry and house-rules forms around the games' own, and both directions of the
mapping between such a form and the API's JSON body. Forms render and read fields; the rules
engine judges the values.

* form → body: each game's ``<game>_input`` (``skatcalc/games/<game>/forms.py``: a calculator
  or a sheet's game), ``deal_body`` (a sheet's entry: game, Ramsch or passed, dealer and who played),
  ``rules_body`` (a new sheet's or a club night's house rules);
* body → form: ``form_from_deal`` (a stored deal, for its correction, or the correction as
  typed after a 409), the inverse of ``correction_body``: a correction saved untouched stores
  the same deal (``tests/web/test_correction_roundtrip.py``, a law over generated bodies);
* per game (``GAME_FORMS`` in ``skatcalc/games/forms.py``, by the registry's key): its entry form, its games' body,
  its house rules and a stored game back into the form;
* the rules engine's messages back onto the fields: ``attach_errors``.

Every form is turned into the same JSON-shaped input the API takes, so a deal entered on a
page and one sent to the API go through one parser and one scoring function.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from flask import Flask, make_response, render_template
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import BooleanField, Field
from wtforms.validators import Optional

from skatcalc.games import bock_triggers, contract_marks, script_json

# parse_int and field_int: the whole-number reading every page's forms share
from skatcalc.games.form_fields import (
    DealMeta,
    FormData,
    MultiCheckboxField,
    field_choices,
    not_a_number,
    parse_int,
)
from skatcalc.games.forms import GAME_FORMS, GameRulesFields
from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.sheet import BOCK_NAMES, GAMES, SheetSpec, default_active, forehand, seat_after
from skatcalc.rules.sheet import game as game_kind
from skatcalc.services import sheets as service
from skatcalc.services.sheets import Deal, Sheet
from skatcalc.text import _, field_errors, translate
from skatcalc.web.i18n import page_lang

# --- Live previews: when a half-filled form is worth asking about --------------------------
# A form tapped half-way (no game, no Spitzen, no outcome yet) is no error and gets no
# message, only an empty preview; letters in a number field are told at once.


def deal_ready(sheet: Sheet, form: DealMeta, body: Mapping[str, object]) -> bool:
    """A sheet's entry (``deal_body``) complete enough for the preview row."""
    if form.kind.data == "passed":
        return False  # nothing to show: an all-pass deal counts nothing
    if form.kind.data == "ramsch":
        ramsch = body.get("ramsch")  # Skat nests it, Schafkopf does not
        return bool((ramsch if isinstance(ramsch, Mapping) and ramsch else body).get("points"))
    return GAME_FORMS[sheet.game].game_ready(body)


def preview_messages(errors: list[tuple[str, str]], ready: bool) -> list[str]:
    """The messages a preview shows: all of them for a complete form, else only the
    not-a-number ones (a missing outcome is no error while still tapping)."""
    wrong = not_a_number()
    out: list[str] = []
    for name, message in errors:
        if name == "declarer_points" and message != wrong:
            # typed points against the buttons: the compact line says so in short
            message = _("Die Augen sagen etwas anderes als die Knöpfe (gewonnen/verloren, "
                        "Schneider). Bitte eins davon ändern.")  # fmt: skip
        if (ready or message == wrong) and message not in out:
            out.append(message)
    return out


def exc_messages(exc: InvalidDeal, lang: str) -> list[str]:
    """The rules engine's messages, each once, in field order."""
    out: list[str] = []
    for msgs in field_errors(exc, lang).values():
        out += [m for m in msgs if m not in out]
    return out


def preview_answer(messages: list[str], html: str = "") -> Response:
    """A live preview's answer, an HTML fragment: the messages (422), else ``html`` (empty for
    a form not finished yet). Never kept by a cache: it answers one state of one form."""
    if messages:
        resp = make_response(render_template("deals/_messages.html", messages=messages), 422)
    else:
        resp = make_response(html, 200)
    resp.headers["Cache-Control"] = "no-store"
    return resp


FIELD_ALIASES = {"with": "spitzen", "matadors": "spitzen"}
# Ramsch on a sheet: Skat nests it under "ramsch", Schafkopf does not; one place each on the form
RAMSCH_ALIASES = {"ramsch.points": "ramsch_points", "points": "ramsch_points",
                  "ramsch.jungfrau": "jungfrau", "ramsch.durchmarsch": "durchmarsch",
                  "ramsch.pushes": "pushes"}  # fmt: skip


def attach_errors(form: FlaskForm, exc: InvalidDeal | None, extra: list[tuple[str, str]],
                  lang: str) -> list[str]:  # fmt: skip
    """Put each message next to its field; what belongs to no field is returned."""
    general: list[str] = []
    pairs = list(extra)
    if exc is not None:
        pairs += [(k, m) for k, msgs in field_errors(exc, lang).items() for m in msgs]
    for name, message in pairs:
        attr = FIELD_ALIASES.get(name) or RAMSCH_ALIASES.get(name, name).replace(".", "_")
        field = getattr(form, attr, None) if attr != "_" else None
        if isinstance(field, Field):
            if name in FIELD_ALIASES and field.errors:
                continue  # "with" and "matadors" are one control: one message is enough
            field.errors = list(field.errors or []) + [message]
        else:
            general.append(message)
    return general


# --- House rules of a new sheet (and of a club night's tables) --------------------------------


class SheetRulesFields(GameRulesFields):
    """The house rules chosen when a sheet (or a club night, for all its tables) is made:
    here those every game has, Ramsch for an all-pass deal and the Bock triggers (each game's
    own from its ``GameKind.bock_triggers``); each game's own fields (Skat's Kontra/Re,
    Schafkopf's tariffs and Stock …) are in ``games.forms.GameRulesFields``: the game's
    ``forms.py`` declares, sets up, reads and fills them, its
    ``templates/games/<game>/_rules.html`` draws them. A rule every game shares is a field
    here, its line in ``rules_body`` and its control in ``templates/sheets/_rules_fields.html``."""

    ramsch = BooleanField()
    bock_on = BooleanField()  # the big Bock toggle: on with the usual triggers unless chosen
    bock = MultiCheckboxField(validators=[Optional()])

    def setup_rules(self) -> None:
        # Choices are set on the bound fields: WTForms 3.3 deprecates tuples in declarations.
        lang = page_lang()
        self.bock.choices = [(b, translate(BOCK_NAMES[b], lang)) for b in bock_triggers()]
        for forms in GAME_FORMS.values():
            forms.setup_rules(self)

    def fill_rules(self, rules: Mapping[str, object]) -> None:
        """The fields from a sheet's stored rules (the "Hausregeln" page)."""
        self.ramsch.data = bool(rules.get("ramsch"))
        self.bock_on.data = bool(rules.get("bock"))
        bock = rules.get("bock")
        self.bock.data = list(bock) if isinstance(bock, list) else []
        for forms in GAME_FORMS.values():
            forms.fill_rules(self, rules)


#: the Bock triggers the big toggle turns on when none is chosen: the rule book's four
#: (docs/rules.md 1.10), as far as the game knows them
DEFAULT_BOCK = ("60-60", "grand-hand-won", "kontra-lost", "value-100")


def rules_body(form: SheetRulesFields, game: str | None,
               errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
    """The API's ``rules`` from a form with ``SheetRulesFields``, for ``game``; the rules
    engine (``normalize_sheet``) judges them (an unknown game is refused there, with only
    the rules every game shares)."""
    forms = GAME_FORMS.get(game or "")
    triggers = tuple(game_kind(game).bock_triggers) if forms is not None and game else ()
    bock = [b for b in (form.bock.data or []) if forms is None or b in triggers]
    if form.bock_on.data and not bock:
        bock = [t for t in DEFAULT_BOCK if forms is None or t in triggers]
    rules: dict[str, object] = {"ramsch": bool(form.ramsch.data), "bock": bock}
    if forms is not None:
        rules.update(forms.house_rules(form, errors))
    return rules


# --- A sheet's entry and correction forms -----------------------------------------------------


def rules_at(sheet: Sheet, n: int) -> Mapping[str, object]:
    """The house rules deal ``n`` was played under (a change applies from its deal on): what
    its correction form offers, so an old deal's Kontra or pushes are not lost to a rule
    turned off since."""
    for change in service.stored_changes(sheet):
        before = change.get("before")
        if isinstance(before, dict) and n < int(change.get("from_n") or 0):
            return before
    return sheet.rules


def deal_form(sheet: Sheet, formdata: FormData | None = None,
              rules: Mapping[str, object] | None = None, **kwargs: object) -> DealMeta:  # fmt: skip
    """The entry form of the sheet's next deal, or under ``rules`` (``rules_at``) that of
    a deal corrected."""
    players = sheet.players
    rules = sheet.rules if rules is None else rules
    form = GAME_FORMS[sheet.game].deal_form(players, formdata, **kwargs)
    # Under the Ramsch house rule nobody "passes in": an all-pass deal is played as Ramsch.
    if rules.get("ramsch"):
        kinds = [("game", _("Spiel")), ("ramsch", "Ramsch")]
        if rules.get("stock"):  # a table with a Stock may still pass a deal into it
            kinds.append(("passed", _("eingepasst")))
    elif rules.get("bockramsch"):  # Ramsch only in a Bockramsch round
        kinds = [("game", _("Spiel")), ("ramsch", "Ramsch"), ("passed", _("eingepasst"))]
    else:
        kinds = [("game", _("Spiel")), ("passed", _("eingepasst"))]
    form.kind.choices = kinds
    form.pushes.choices = [(str(k), str(k)) for k in range(4)]
    form.declarer.choices = [(p, p) for p in players]
    form.dealer.choices = [(p, p) for p in players]
    form.active.choices = [(p, p) for p in players]
    form.jungfrau.choices = [(p, p) for p in players]
    form.durchmarsch.choices = [("", "—")] + [(p, p) for p in players]
    if not form.kind.data:
        form.kind.data = "game"
    if not form.idem.data:
        form.idem.data = secrets.token_urlsafe(12)
    return form


def deal_body(sheet: Sheet, form: DealMeta, proposed_dealer: str,
              errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
    """The API deal body from the sheet's entry form."""
    players = sheet.players
    spec = service.spec_of(sheet)
    dealer, active = form_placement(spec, form, proposed_dealer)
    body: dict[str, object]
    if form.kind.data == "passed":
        body = {"passed": True}
    elif form.kind.data == "ramsch":
        # Only the three who played have points (at 4 and 5 the dealer sits out).
        # (a dealer who is not at the table is refused below, with its message)
        playing = active or (default_active(spec, dealer) if dealer in players else ())
        points: dict[str, int] = {}
        for i, p in enumerate(players):
            raw = (getattr(form, f"r{i}").data or "").strip()
            if raw and p in playing:
                value = parse_int(raw)
                if value is None:
                    errors.append((f"r{i}", not_a_number()))
                else:
                    points[p] = value
        ramsch: dict[str, object] = {
            "points": points,
            "jungfrau": list(form.jungfrau.data or []),
            "durchmarsch": form.durchmarsch.data or None,
        }
        pushes = parse_int(form.pushes.data or "0")
        if pushes is None:
            errors.append(("pushes", not_a_number()))
        elif pushes:  # a push on a sheet without Schieberamsch is refused by the rules
            ramsch["pushes"] = pushes
        body = game_kind(sheet.game).ramsch_deal(ramsch)
    else:
        body = GAME_FORMS[sheet.game].game_body(form, errors)
    if dealer != proposed_dealer:
        body["dealer"] = dealer
    if active is not None:
        body["active"] = list(active)
    n = parse_int(form.n.data or "")
    if n is not None and n > 0:
        body["n"] = n
    return body


def correction_body(sheet: Sheet, form: DealMeta, deal: Deal,
                    errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
    """The body a correction form of ``deal`` saves (and previews): ``deal_body`` with the
    deal's dealer filled in, and its players as stored while the form names the same
    ones (their stored order kept: the form lists them from Vorhand on)."""
    body = deal_body(sheet, form, deal.dealer, errors)
    if form.kind.data == "game":
        GAME_FORMS[sheet.game].keep_unsaid(body, deal.input)
    body.setdefault("dealer", deal.dealer)
    if body["dealer"] != deal.dealer:
        return body  # another dealer, or a name that is none: the rules judge it as typed
    spec = service.spec_of(sheet)
    active = body.get("active")
    named = active if isinstance(active, list) and active else default_active(spec, deal.dealer)
    if set(named) == set(deal.active):
        body["active"] = list(deal.active)
        if tuple(deal.active) == tuple(default_active(spec, deal.dealer)):
            del body["active"]
    return body


def form_placement(spec: SheetSpec, form: DealMeta, proposed_dealer: str
                   ) -> tuple[str, tuple[str, ...] | None]:  # fmt: skip
    """The dealer of the form's deal, and who played when that is not the rotation's."""
    players = spec.players
    dealer = form.dealer.data or proposed_dealer
    chosen = list(form.active.data or [])
    shown = form.dealer_shown.data
    if shown in players and dealer == shown:
        # The person left the proposed dealer alone: the dealer is whoever the rotation says
        # now (another phone may have saved or struck a deal meanwhile), and so are the
        # players unless they were changed on this form.
        dealer = proposed_dealer
        if set(chosen) == set(default_active(spec, shown)):
            chosen = []
    if chosen and dealer in players and set(chosen) != set(default_active(spec, dealer)):
        # from forehand on, as the rotation lists them
        return dealer, tuple(p for k in range(1, len(players) + 1)
                             if (p := seat_after(players, dealer, k)) in chosen)  # fmt: skip
    return dealer, None


def forehand_of(players: list[str], dealer: str, active: list[str]) -> str | None:
    """Vorhand of a deal for the entry and correction forms."""
    return forehand(players, dealer, active)


def correction_form(sheet: Sheet, deal: Deal, formdata: FormData | None = None) -> DealMeta:
    """Deal ``deal``'s correction form under the rules it was played under, offering its own
    kind (an imported all-pass deal, a Bockramsch round's Ramsch) and the one posted."""
    form = deal_form(sheet, formdata, rules=rules_at(sheet, deal.n))
    kind = game_kind(sheet.game)
    wanted = {form.kind.data if formdata is not None else None,
              "passed" if deal.input.get("passed") else None,
              "ramsch" if kind.ramsch_body(deal.input) else None}  # fmt: skip
    kinds = field_choices(form.kind)
    offered = [k for k, _label in kinds]
    if "ramsch" in wanted and "ramsch" not in offered:
        kinds.insert(1, ("ramsch", "Ramsch"))
    if "passed" in wanted and "passed" not in offered:
        kinds.append(("passed", _("eingepasst")))
    form.kind.choices = kinds
    return form


def form_from_deal(sheet: Sheet, deal: Deal, body: Mapping[str, object] | None = None
                   ) -> DealMeta:  # fmt: skip
    """The correction form of ``deal`` filled in with a body: the stored deal's (a
    correction's start) or, after a refusal, the one typed; the inverse of
    ``correction_body``, so a correction saved untouched stores the same deal."""
    inp: Mapping[str, object] = deal.input if body is None else body
    form = correction_form(sheet, deal)
    form.dealer.data = inp.get("dealer") or deal.dealer
    active = inp.get("active")
    form.active.data = list(active) if isinstance(active, list) and active else list(deal.active)
    form.version.data = str(deal.version)
    if inp.get("passed"):
        form.kind.data = "passed"
        return form
    ramsch = game_kind(sheet.game).ramsch_body(inp)
    if ramsch:
        form.kind.data = "ramsch"
        for i, p in enumerate(sheet.players):
            getattr(form, f"r{i}").data = str(ramsch.get("points", {}).get(p, ""))
        form.jungfrau.data = list(ramsch.get("jungfrau") or [])
        form.durchmarsch.data = ramsch.get("durchmarsch") or ""
        form.pushes.data = str(ramsch.get("pushes") or 0)
        return form
    form.kind.data = "game"
    GAME_FORMS[sheet.game].fill_game(form, inp)
    return form


def deal_taken(sheet: Sheet, form: DealMeta) -> service.Taken | None:
    """The ``service.Taken`` of an entry whose deal number another phone has saved since
    (None if its number is still the next one, or it names none)."""
    try:
        n = int(form.n.data or 0)
    except (TypeError, ValueError):
        return None
    count = len(service.computed(service.get_db(), sheet).rows)
    return service.Taken(n, count + 1) if 0 < n <= count else None


def refresh_entry(sheet: Sheet, form: DealMeta, proposed: str) -> None:
    """A kept entry after another phone's save: it now means the next free number, and an
    untouched dealer follows the rotation as it is now; a declarer who does not play the
    next deal (he deals it) is taken off, so the page shows the next deal's players."""
    data = service.computed_sheet(service.get_db(), sheet, page_lang())
    form.n.data = str(len(data["deals"]) + 1)
    keep_declarer = True
    if form.dealer.data == form.dealer_shown.data:
        spec = service.spec_of(sheet)
        shown = form.dealer_shown.data
        # (a post without the proposed dealer, not from the page, has no rotation to follow)
        chosen = set(form.active.data or [])
        if shown in spec.players and chosen == set(default_active(spec, shown)):
            form.active.data = list(default_active(spec, proposed))
        form.dealer.data = proposed
        form.dealer_shown.data = proposed
        playing = set(form.active.data or default_active(spec, proposed))
        keep_declarer = getattr(form, "declarer", None) is None or form.declarer.data in playing
    if not keep_declarer:
        form.declarer.data = None


def init_app(app: Flask) -> None:
    """The helpers the deal forms' templates (``templates/deals/``) call, and ``games``: what
    every template asks of a game (``games[sheet.game].keeps_list``, ``.label|tr``) instead
    of comparing its key."""
    app.jinja_env.globals["games"] = GAMES
    # the entry forms' data-contracts: what app.js shows for each contract, from its table
    app.jinja_env.globals["contract_data"] = script_json
    # the contract buttons' classes (rare ones on the second screen, red suits), from its table
    app.jinja_env.globals["contract_marks"] = contract_marks
    # which games know each Bock trigger: a trigger of some games only is shown for those
    app.jinja_env.globals["bock_games"] = bock_triggers()
    for forms in GAME_FORMS.values():  # what a game's own templates call (Skat's Spitzen)
        app.jinja_env.globals.update(forms.template_globals())
    app.jinja_env.globals["forehand"] = forehand_of
