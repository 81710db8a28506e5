"""The parts of a sheet as the API shows it (``services.sheets.sheet_json``) that the files
read: typed, so a renderer names the fields it takes instead of reaching into an untyped dict."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

Payment = TypedDict("Payment", {"from": str, "to": str, "cents": int})


class Bierlachs(TypedDict):
    round: int
    lost: dict[str, int]


class Totals(TypedDict):
    balance: dict[str, int]
    won: dict[str, int]
    lost: dict[str, int]
    settlement: list[Payment]
    list: NotRequired[dict[str, int]]
    written: NotRequired[dict[str, int]]
    seeger_fabian: NotRequired[dict[str, int]]
    bierlachs: NotRequired[Bierlachs]
    stock: NotRequired[int]
    stock_back: NotRequired[dict[str, int]]


class Deal(TypedDict):
    n: int
    dealer: str
    struck: bool
    deltas: dict[str, int]
    totals: dict[str, int]
    kind: NotRequired[str]
    declarer: NotRequired[str | None]
    party: NotRequired[list[str] | None]
    written: NotRequired[dict[str, int]]
    written_totals: NotRequired[dict[str, int]]
    list: NotRequired[dict[str, int | None]]
    stock: NotRequired[int]


class SheetDoc(TypedDict):
    name: str
    game: str
    players: list[str]
    created: str
    deals: list[Deal]
    totals: Totals
    day: NotRequired[str | None]


def sheet_doc(sheet: Mapping[str, object]) -> SheetDoc:
    """``sheet_json``'s answer as the typed record it is (its shape is the API's contract)."""
    return cast(SheetDoc, sheet)
