"""What every game's forms (``skatcalc/games/<game>/forms.py``) and the sheet's own forms
(``deal_forms.py``) share: the multi-checkbox field, whole numbers from text fields, the
fields of a sheet's entry around the game (:class:`DealMeta`) and the pages' side of a game
(:class:`GameForms`). Forms render and read fields; the rules judge the values."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeVar

from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.validators import Optional
from wtforms.widgets import CheckboxInput, ListWidget

from skatcalc.text import _

from ..rules.sheet.base import Result

F = TypeVar("F")


class FormData(Protocol):
    """What a form reads a post or an address's query from (werkzeug's ``MultiDict``)."""

    def __contains__(self, key: object, /) -> bool: ...

    def getlist(self, key: str) -> list[str]: ...


def form_as(form: object, kind: type[F]) -> F:
    """``form`` as a game's own form class: a game's hooks are handed only the forms its own
    ``deal_form`` and ``calculator_form`` made, or one with its house-rule fields."""
    if not isinstance(form, kind):
        raise TypeError(f"a {kind.__name__} was expected, not a {type(form).__name__}")
    return form


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: object) -> None:  # choices are checked by the rules engine
        pass


def parse_int(text: object) -> int | None:
    """A plain whole number ("-12", "075"), else None: no "²", no "1_000", no 5000 digits."""
    if isinstance(text, str) and re.fullmatch(r"-?[0-9]{1,9}", text.strip().strip('"')):
        return int(text.strip().strip('"'))
    return None


def field_int(field: Field, errors: list[tuple[str, str]]) -> int | None:
    raw = (field.data or "").strip() if isinstance(field.data, str) else field.data
    if raw in (None, ""):
        return None
    if isinstance(raw, int):
        return raw
    value = parse_int(str(raw))
    if value is None:
        errors.append((field.name, not_a_number()))
    return value


def known_game(form: GameChoice, game: str, errors: list[tuple[str, str]]) -> bool:
    """A game from the address that the form does not offer (``/skat?game=xx``): the message
    names the games as the buttons do, in the page's language, not the API's values."""
    choices = field_choices(form.game)
    names = [label for value, label in choices]
    if game in [value for value, _label in choices]:
        return True
    errors.append(("game", _("Unbekanntes Spiel. Möglich: %(names)s.", names=", ".join(names))))
    return False


class GameChoice(Protocol):
    """A form with a game's contract buttons (``game``): the calculator's or an entry's."""

    @property
    def game(self) -> RadioField: ...


def field_choices(field: SelectField) -> list[tuple[str, str]]:
    """A choice field's (value, label) pairs, as the forms set them up (lists of pairs)."""
    return [(str(c[0]), str(c[1])) for c in field.choices or () if isinstance(c, tuple)]


def not_a_number() -> str:
    """The message of a number field holding no whole number (``field_int``)."""
    return _("Bitte eine ganze Zahl eingeben.")


class DealMeta(FlaskForm):
    kind = RadioField(validators=[Optional()], validate_choice=False, default="game")
    declarer = RadioField(validators=[Optional()], validate_choice=False)
    dealer = SelectField(validators=[Optional()], validate_choice=False)
    active = MultiCheckboxField(validators=[Optional()])
    r0 = StringField()
    r1 = StringField()
    r2 = StringField()
    r3 = StringField()
    r4 = StringField()
    jungfrau = MultiCheckboxField(validators=[Optional()])
    ramsch_points = HiddenField()  # no input of its own: carries the messages about r0…r4
    durchmarsch = RadioField(validators=[Optional()], validate_choice=False)
    # Schieberamsch: how often the skat was pushed on (shown on such sheets only)
    pushes = RadioField(validators=[Optional()], validate_choice=False, default="0")
    version = HiddenField()
    idem = HiddenField()
    n = HiddenField()  # the deal number the entry form showed
    dealer_shown = HiddenField()  # the dealer it proposed: unchanged means "the rotation"


class GameForms:
    """What the pages need of a game besides its rules (``rules.sheet.game(key)``): its entry
    form and both directions of form <-> body for its games and its house rules. One
    subclass per game, in :data:`GAME_FORMS` under the registry's key. Each hook is handed
    only what the game's own forms made: its entry form (a :class:`DealMeta`), its
    calculator's form, a form with its house-rule fields (``object`` here, as those are a
    mixin of every game's fields); the game narrows it with :func:`form_as`."""

    def deal_form(self, players: list[str], formdata: FormData | None,
                  **kwargs: object) -> DealMeta:  # fmt: skip
        """The entry form of a sheet of this game, its game fields set up."""
        raise NotImplementedError

    def setup_rules(self, form: object) -> None:
        """The choices of the game's own house-rule fields on a form with ``SheetRulesFields``."""

    def fill_rules(self, form: object, rules: Mapping[str, object]) -> None:
        """The game's own house-rule fields from a sheet's stored rules (the Hausregeln page)."""

    def house_rules(self, form: object, errors: list[tuple[str, str]]) -> dict[str, object]:
        """The game's own house rules from a form with ``SheetRulesFields``."""
        raise NotImplementedError

    def game_body(self, form: DealMeta, errors: list[tuple[str, str]]) -> dict[str, object]:
        """A played game's deal body from the entry form."""
        raise NotImplementedError

    def fill_game(self, form: DealMeta, inp: Mapping[str, object]) -> None:
        """The entry form's game fields from a stored game's body (a correction)."""
        raise NotImplementedError

    def keep_unsaid(self, body: dict[str, object], stored: Mapping[str, object]) -> None:
        """A correction's game body (``game_body``) given what its form cannot say back of
        the stored game's body ``stored`` (an order of names the form's boxes do not keep),
        where the person left that part as it was."""

    def game_ready(self, body: Mapping[str, object]) -> bool:
        """A game's body (``game_body``) complete enough for the live preview."""
        raise NotImplementedError

    # The game's calculator page (``/<game>``, ``web/calculators.py``): its form, the body
    # read from it, when a half-filled one is worth a preview; the value is the game's
    # ``GameKind.deal_value``.

    def calculator_form(self, args: FormData) -> FlaskForm:
        """The calculator's form from the address's query (no CSRF: a GET), set up."""
        raise NotImplementedError

    def calculator_body(self, form: FlaskForm,
                        errors: list[tuple[str, str]]) -> dict[str, object]:  # fmt: skip
        """The API body of ``POST /api/v1/<game>/value`` from the calculator's form."""
        raise NotImplementedError

    def calculator_ready(self, body: Mapping[str, object]) -> bool:
        """A calculator's body complete enough to be valued (the live preview)."""
        raise NotImplementedError

    def calculator_submitted(self, args: FormData) -> bool:
        """Whether the calculator's query is a submitted form (else the page opens fresh)."""
        return "submitted" in args

    def calculator_fresh(self, form: FlaskForm) -> None:
        """The calculator's form as it opens, before anything is submitted."""

    def calculator_context(self, form: FlaskForm) -> dict[str, object]:
        """What the calculator's page (``templates/calculators/<game>.html``) draws besides
        the form and the result."""
        return {}

    def calculator_shown(self, form: FlaskForm, result: Result) -> None:
        """The calculator's form after a result: what the result settled, shown as such."""

    def bid_table(self) -> list[tuple[int, Sequence[object]]]:
        """The bid table (``/bids``): each bid and the games of exactly that value; none for
        a game without bidding."""
        return []

    def template_globals(self) -> dict[str, Callable[..., object]]:
        """What the game's own templates (``templates/games/<game>/``) call, by name."""
        return {}
