"""Read the JSON-shaped input of docs/api.md strictly: the :class:`Reader` every game's input
reading (``skatcalc/games/<game>/inputs.py``) and the house rules use.

The API, the HTML forms and the stored sheet deals all go through it, so a deal means the
same thing wherever it was entered. Pure: no Flask, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import Errors, Msg

BIG = 1_000_000_000
FIELD_MISSING = Msg("Dieses Feld fehlt.")
MISSING = object()


class Reader:
    """Reads typed fields from a mapping, noting every wrong type and every unknown field."""

    def __init__(self, data: object, errors: Errors | None = None) -> None:
        self.errors = errors if errors is not None else Errors()
        if not isinstance(data, Mapping):
            self.errors.add("_", "Erwartet wird ein JSON-Objekt mit Feldern.")
            data = {}
        self.data: Mapping[str, Any] = data
        self.seen: set[str] = set()

    def _get(self, name: str) -> Any:
        self.seen.add(name)
        value = self.data.get(name, MISSING)
        return MISSING if value is None else value

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def boolean(self, name: str, default: bool | None = False) -> bool | None:
        v = self._get(name)
        if v is MISSING:
            return default
        if not isinstance(v, bool):
            self.errors.add(name, "Erwartet: wahr oder falsch.")
            return default
        return v

    def integer(self, name: str, default: int | None = None) -> int | None:
        v = self._get(name)
        if v is MISSING:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            self.errors.add(name, "Erwartet: eine ganze Zahl.")
            return default
        if abs(v) > BIG:
            self.errors.add(name, "Diese Zahl ist viel zu groß.")
            return default
        return v

    def choice(
        self,
        name: str,
        choices: Mapping[str, object],
        required: bool = True,
        missing: Msg | None = None,
    ) -> Any:
        v = self._get(name)
        if v is MISSING:
            if required:
                m = missing or FIELD_MISSING
                self.errors.add(name, m)
            return None
        if not isinstance(v, str) or v not in choices:
            allowed = ", ".join(choices)
            self.errors.add(name, "Erlaubt sind: %(allowed)s.", allowed=allowed)
            return None
        return choices[v]

    def str_list(self, name: str, max_len: int = 40) -> list[str] | None:
        v = self._get(name)
        if v is MISSING:
            return None
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.errors.add(name, "Erwartet: eine Liste von Namen.")
            return None
        if len(v) > 100 or any(len(x) > max_len for x in v):
            self.errors.add(
                name, "Zu lang: höchstens %(max_len)s Zeichen je Eintrag.", max_len=max_len
            )
            return None
        return v

    def int_map(self, name: str) -> dict[str, int] | None:
        v = self._get(name)
        if v is MISSING:
            return None
        if not isinstance(v, Mapping) or not all(
            isinstance(k, str) and isinstance(x, int) and not isinstance(x, bool) and abs(x) <= BIG
            for k, x in v.items()
        ):
            self.errors.add(name, "Erwartet: ein Objekt mit ganzen Zahlen.")
            return None
        return dict(v)

    def reject_unknown(self, allowed: set[str] | None = None) -> None:
        known = self.seen | (allowed or set())
        for key in self.data:
            if key not in known:
                self.errors.add(str(key)[:60], "Unbekanntes Feld.")


NO_GAME = Msg("Bitte ein Spiel wählen.")
