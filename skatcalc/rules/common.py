"""Building blocks shared by the Skat and Schafkopf rules: texts for people, input errors."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date


def clean_name(name: str) -> str:
    """The one rule for every name a person types (players, seats, a deal's declarer or
    dealer, registrations, groups): Unicode NFC, trimmed, every run of whitespace of any kind
    (tab, no-break space, other Unicode spaces, line breaks) one space. The typed case stays;
    limits count this form.

    >>> clean_name("  Dora\u00a0\t Lena ")
    'Dora Lena'
    >>> clean_name("Jose\u0301") == "Jos\u00e9"
    True
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """What two names are compared by: :func:`clean_name`, case-folded ("dieter " is Dieter).

    >>> name_key(" dieter "), name_key("DIETER") == name_key("Dieter")
    ('dieter', True)
    """
    return unicodedata.normalize("NFC", clean_name(name).casefold())


@dataclass(frozen=True, init=False)
class Msg:
    """A text for a person, as data: the German msgid (German is the source language; its
    ``%(name)s`` placeholders filled from ``params``) and, where the same German reads
    differently in English, a ``context``. The rules never translate: the edges (API, pages,
    CSV, PDF) hand a Msg to ``skatcalc.text.translate``, which looks it up in the catalogue.

    >>> Msg("Zusammen %(n)s Augen", n=110).de
    'Zusammen 110 Augen'
    >>> Msg("%(what)s: %(n)s", what=Msg("verloren"), n="−54").de
    'verloren: −54'
    """

    id: str
    params: tuple[tuple[str, str | int | Msg], ...]
    context: str | None

    def __init__(
        self, id: str, /, *, context: str | None = None, **params: str | int | Msg
    ) -> None:
        self._set(id, context, params)

    def _set(self, id: str, context: str | None, params: Mapping[str, str | int | Msg]) -> None:
        # into the instance's dict at once: a deal's value makes ~20 messages, and three
        # ``object.__setattr__`` calls each were a fifth of its cost
        vars(self).update(id=id, params=tuple(params.items()), context=context)

    @classmethod
    def of(cls, id: str, params: Mapping[str, str | int | Msg], context: str | None = None) -> Msg:
        """A message with its parameters given as a mapping."""
        msg = cls.__new__(cls)
        msg._set(id, context, params)
        return msg

    def render(self, template: Callable[[Msg], str]) -> str:
        """The text with ``template(msg)`` as the (translated) form of every message in it."""
        text = template(self)
        if not self.params:
            return text
        return text % {k: v.render(template) if isinstance(v, Msg) else v for k, v in self.params}

    @property
    def de(self) -> str:
        """The German text: the msgid itself, filled in (no catalogue needed)."""
        return self.render(_msgid)

    def __str__(self) -> str:
        return self.de


def _msgid(msg: Msg) -> str:
    return msg.id


def pmsg(context: str, id: str, /, **params: str | int | Msg) -> Msg:
    """A message whose German reads like another one's but not its English (``pybabel``
    collects the context from here)."""
    return Msg.of(id, params, context)


def joined(sep: str, items: Sequence[str | int | Msg]) -> Msg:
    """A list of messages (or names) as one, the same separator in every language. Its msgid
    holds placeholders only and is no catalogue entry: the lookup leaves it as it is."""
    ids = sep.replace("%", "%%").join(f"%({i})s" for i in range(len(items)))
    return Msg.of(ids, {str(i): v for i, v in enumerate(items)})


# A msgid of one placeholder and no catalogue entry: the lookup leaves it as it is.
_VERBATIM = "%(text)s"


def verbatim(text: str) -> Msg:
    """A text shown as it is in every language (a stored title, "Kontra"): never looked up
    in the catalogue, where the same German word might mean something else."""
    return Msg(_VERBATIM, text=text)


@dataclass(frozen=True)
class FieldError:
    field: str
    msg: Msg


@dataclass
class InvalidDeal(Exception):
    """Raised with every problem of an input at once, keyed by field name ("_" = whole input);
    ``skatcalc.text.field_errors`` gives the texts in a language."""

    errors: list[FieldError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(f"{e.field}: {e.msg.de}" for e in self.errors)


class Errors:
    """Collects field errors so that one answer names every problem, not only the first."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, field_name: str, text: str | Msg, /, **params: str | int | Msg) -> None:
        """``text``: a German msgid with ``%(name)s`` placeholders filled from ``params``, or a
        message made already."""
        self.items.append(
            FieldError(field_name, text if isinstance(text, Msg) else Msg.of(text, params))
        )

    def has(self, field_name: str) -> bool:
        return any(e.field == field_name for e in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise InvalidDeal(list(self.items))


def check_ramsch(
    players: Sequence[str],
    points: Mapping[str, int] | None,
    jungfrau: Sequence[str],
    durchmarsch: object,
    e: Errors,
    prefix: str = "",
) -> None:
    """A Ramsch as the table reports it (Skat and Schafkopf alike): every player's card
    points, 0 to 120 and 120 together; a Jungfrau took no trick; a Durchmarsch took all."""
    f_points, f_jungfrau, f_durch = prefix + "points", prefix + "jungfrau", prefix + "durchmarsch"
    n = len(players)
    if points is None:
        if not e.has(f_points):
            e.add(f_points, "Bitte die Augen angeben.")
    elif set(points) != set(players):
        e.add(f_points, "Bitte die Augen aller %(n)s Mitspieler angeben.", n=n)  # fmt: skip
    elif any(not 0 <= v <= 120 for v in points.values()):
        e.add(f_points, "Augen je Spieler: 0 bis 120.")
    elif sum(points.values()) != 120:
        e.add(f_points, "Zusammen %(sum)s Augen, es müssen 120 sein.", sum=sum(points.values()))
    if any(j not in players for j in jungfrau) or len(set(jungfrau)) != len(jungfrau):
        e.add(f_jungfrau, "Jungfrau: nur Mitspieler, jeder einmal.")  # fmt: skip
    if durchmarsch is not None and (not isinstance(durchmarsch, str) or durchmarsch not in players):
        e.add(f_durch, "Durchmarsch: nur ein Mitspieler.")
    if points is None or e.has(f_points):
        return
    if not e.has(f_jungfrau) and any(points[j] != 0 for j in jungfrau):
        e.add(f_jungfrau, "Wer keinen Stich bekam, hat 0 Augen.")  # fmt: skip
    if isinstance(durchmarsch, str) and not e.has(f_durch) and points[durchmarsch] != 120:
        e.add(f_durch, "Durchmarsch heißt alle Stiche, also 120 Augen.")  # fmt: skip


# Thousands separators by language, used from 10,000 on (a four-digit score stays ungrouped).
GROUPING = {"de": ".", "en": ","}


def number(n: int, lang: str | None = None, signed: bool = False) -> str:
    """A score as the table writes it: a real minus, "+" when ``signed``, and — given the page's
    language — grouped from 10,000 on. The one formatter of signed numbers for pages, API
    explanations, CSV, PDF and charts.

    >>> number(-54), number(72, signed=True), number(0, signed=True)
    ('−54', '+72', '0')
    >>> number(12345, "de"), number(-12345, "en", signed=True), number(9999, "de")
    ('12.345', '−12,345', '9999')
    """
    digits = str(abs(n))
    if lang is not None and abs(n) >= 10_000:
        digits = f"{abs(n):,}".replace(",", GROUPING.get(lang, ","))
    if n < 0:
        return f"\u2212{digits}"
    return f"+{digits}" if signed and n > 0 else digits


def decimal(x: float, lang: str | None = None, digits: int = 1) -> str:
    """A figure with decimals (an average) as the table writes it: a real minus, and the
    decimal comma unless the language is English. The formatter of non-whole figures.

    >>> decimal(12.5, "de"), decimal(-0.25, "en", 2), decimal(3, "de", 0)
    ('12,5', '−0.25', '3')
    """
    text = f"{abs(x):.{digits}f}"
    if lang != "en":
        text = text.replace(".", ",")
    return f"\u2212{text}" if x < 0 else text


def money(cents: int, lang: str | None = None) -> str:
    """An amount of money as pages, CSV and PDFs write it: euros with two decimals, grouped by
    thousands in the language's way, a real minus. The one formatter of amounts.

    >>> money(123456, "de"), money(-250, "en"), money(5)
    ('1.234,56 €', '−2.50 €', '0,05 €')
    """
    euros, rest = divmod(abs(cents), 100)
    if lang == "en":
        text = f"{euros:,}.{rest:02d}"
    else:
        text = f"{euros:,}".replace(",", ".") + f",{rest:02d}"
    return f"{chr(0x2212) if cents < 0 else ''}{text} €"


def signed(n: int) -> str:
    """Scores are written with an explicit sign and a real minus, as on a paper list.

    >>> signed(72), signed(-54), signed(0)
    ('+72', '−54', '0')
    """
    return number(n, signed=True)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


def parse_day(raw: str) -> date:
    """A day written YYYY-MM-DD and nothing else (``date.fromisoformat`` also takes
    2026-W01-1 and 20260131); ValueError otherwise.

    >>> parse_day("2026-01-31")
    datetime.date(2026, 1, 31)
    >>> parse_day("2026-W01-1")
    Traceback (most recent call last):
    ValueError: not a day as YYYY-MM-DD: '2026-W01-1'
    """
    if not _DAY.fullmatch(raw):
        raise ValueError(f"not a day as YYYY-MM-DD: {raw!r}")
    return date.fromisoformat(raw)
