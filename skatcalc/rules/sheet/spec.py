"""Reading a new sheet: its game, players in seat order, first dealer and house rules."""

from __future__ import annotations

from collections.abc import Mapping

from skatcalc.jsontypes import JSONObject

from ..common import Errors, clean_name, name_key
from ..inputs import Reader
from .base import (
    BAD_NAME_MSG,
    GAMES,
    MAX_NAME,
    HouseRules,
    SheetSpec,
    bad_name_char,
    game,
    seat_name,
)


def normalize_sheet(data: object) -> SheetSpec:
    """Check a new sheet's game, players, first dealer and rules; fill in every rule."""
    r = Reader(data)
    key = r.choice("game", {k: k for k in GAMES})
    kind = game(key) if key is not None else None
    # the limit counts a name after the name rule: read as sent (the body cap bounds it),
    # then clean and count
    players = r.str_list("players", 1_000_000)
    bad = players is not None and any(bad_name_char(p) for p in players)  # as typed
    if players is not None:
        players = [clean_name(p) for p in players]
        if any(len(p) > MAX_NAME for p in players):
            r.errors.add("players", "Zu lang: höchstens %(max_len)s Zeichen je Eintrag.",
                         max_len=MAX_NAME)  # fmt: skip
            players = None
    first = r.data.get("first_dealer") if isinstance(r.data, Mapping) else None
    r.seen.add("first_dealer")
    rules_in = r.data.get("rules") if isinstance(r.data, Mapping) else None
    r.seen.add("rules")
    r.seen.add("name")
    e = r.errors
    if players is None and not e.has("players"):
        e.add("players", "Bitte die Spieler in Sitzreihenfolge nennen.")
    if players is not None:  # each name after clean_name: stored so
        if any(not p for p in players):
            e.add("players", "Ein Spielername ist leer.")
        elif bad:
            e.add("players", BAD_NAME_MSG)
        elif len(set(name_key(p) for p in players)) != len(players):
            e.add("players", "Jeder Name nur einmal, bitte.")
        elif kind is not None and len(players) not in kind.player_counts:
            e.add("players", kind.player_count_msg)
    if first is None and players:
        first = players[0]
    if isinstance(first, str) and players is not None:
        first = seat_name(players, first)  # "dieter " names the seat Dieter
    if not isinstance(first, str) or (players is not None and first not in players):
        e.add("first_dealer", "Der erste Geber muss einer der Spieler sein.")
    rules: HouseRules | None = None
    if kind is not None:
        rules = kind.rules_class.from_json(rules_in, e)
    r.reject_unknown()
    e.raise_if_any()
    assert key is not None and rules is not None and players is not None
    assert isinstance(first, str)
    return SheetSpec(key, tuple(players), first, rules)


def read_rules(key: str, data: object, e: Errors) -> HouseRules:
    """The house rules of game ``key`` in ``data``; problems go to ``e`` as ``rules.<field>``."""
    return game(key).rules_class.from_json(data, e)


def normalize_rules(key: str, data: object, e: Errors) -> JSONObject:
    """:func:`read_rules` in their stored form (an event keeps the rules its sheets get)."""
    return read_rules(key, data, e).to_json()


def merge_rules(current: Mapping[str, object], patch: Mapping[str, object]) -> dict[str, object]:
    """A change of the rules during the evening (``PATCH`` of a sheet): the keys of ``patch``
    replace those of ``current`` one by one; a nested object (``tariffs``, ``laufende_min``,
    ``stock``) merges key by key too, where both are objects. The result is checked by
    :func:`read_rules` like any rules.

    >>> merge_rules({"tariffs": {"sauspiel": 10, "solo": 20}, "ramsch": False},
    ...             {"tariffs": {"solo": 50}, "ramsch": True})
    {'tariffs': {'sauspiel': 10, 'solo': 50}, 'ramsch': True}
    """
    out = dict(current)
    for key, value in patch.items():
        old = out.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            out[key] = {**old, **value}
        else:
            out[key] = value
    return out


def play_rules(rules: Mapping[str, object]) -> dict[str, object]:
    """The rules a deal is played under: all but the stake, which is the whole evening's.

    >>> play_rules({"ramsch": True, "stake_cents": 5})
    {'ramsch': True}
    """
    return {k: v for k, v in rules.items() if k != "stake_cents"}
