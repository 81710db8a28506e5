"""Building blocks shared by the Skat and Schafkopf rules: bilingual text and input errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

LANGUAGES = ("de", "en")


@dataclass(frozen=True)
class Msg:
    """A sentence in both languages of the table; German is the default."""

    de: str
    en: str

    def text(self, lang: str = "de") -> str:
        return self.en if lang == "en" else self.de


@dataclass(frozen=True)
class FieldError:
    field: str
    msg: Msg


@dataclass
class InvalidDeal(Exception):
    """Raised with every problem of an input at once, keyed by field name ("_" = whole input)."""

    errors: list[FieldError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(f"{e.field}: {e.msg.en}" for e in self.errors)

    def by_field(self, lang: str = "de") -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for err in self.errors:
            out.setdefault(err.field, []).append(err.msg.text(lang))
        return out


class Errors:
    """Collects field errors so that one answer names every problem, not only the first."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, field_name: str, de: str, en: str) -> None:
        self.items.append(FieldError(field_name, Msg(de, en)))

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
            e.add(f_points, "Bitte die Augen angeben.", "Give the card points.")
    elif set(points) != set(players):
        e.add(f_points, f"Bitte die Augen aller {n} Mitspieler angeben.",
              f"Give the card points of all {n} who played.")  # fmt: skip
    elif any(not 0 <= v <= 120 for v in points.values()):
        e.add(f_points, "Augen je Spieler: 0 bis 120.", "Points per player: 0 to 120.")
    elif sum(points.values()) != 120:
        e.add(f_points, f"Zusammen {sum(points.values())} Augen, es müssen 120 sein.",
              f"Together {sum(points.values())} points; they must make 120.")  # fmt: skip
    if any(j not in players for j in jungfrau) or len(set(jungfrau)) != len(jungfrau):
        e.add(f_jungfrau, "Jungfrau: nur Mitspieler, jeder einmal.",
              "Jungfrau: players of the deal, each once.")  # fmt: skip
    if durchmarsch is not None and (not isinstance(durchmarsch, str) or durchmarsch not in players):
        e.add(f_durch, "Durchmarsch: nur ein Mitspieler.", "Durchmarsch: a player of the deal.")
    if points is None or e.has(f_points):
        return
    if not e.has(f_jungfrau) and any(points[j] != 0 for j in jungfrau):
        e.add(f_jungfrau, "Wer keinen Stich bekam, hat 0 Augen.",
              "A player who took no trick has 0 points.")  # fmt: skip
    if isinstance(durchmarsch, str) and not e.has(f_durch) and points[durchmarsch] != 120:
        e.add(f_durch, "Durchmarsch heißt alle Stiche, also 120 Augen.",
              "Durchmarsch means every trick, so 120 points.")  # fmt: skip


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


def signed(n: int) -> str:
    """Scores are written with an explicit sign and a real minus, as on a paper list.

    >>> signed(72), signed(-54), signed(0)
    ('+72', '−54', '0')
    """
    return number(n, signed=True)
