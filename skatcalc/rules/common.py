"""Building blocks shared by the Skat and Schafkopf rules: bilingual text and input errors."""

from __future__ import annotations

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


def signed(n: int) -> str:
    """Scores are written with an explicit sign and a real minus, as on a paper list."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"
