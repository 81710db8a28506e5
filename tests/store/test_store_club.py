"""The club's storage (skatcalc/store: players, groups, club nights): typed frozen records
round-trip through the store, an event has one shape however it is read, and the services
and routes of the club hold no SQL."""

from __future__ import annotations

import dataclasses

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from skatcalc import store as conn
from skatcalc.services import events, players
from skatcalc.store import events as event_rows
from skatcalc.store import players as player_rows
from skatcalc.store import sheets as sheet_store
from skatcalc.store.club_records import (
    Event,
    Group,
    Player,
    PlayerLogEntry,
    Registration,
    SeriesRow,
    TableOfSheet,
    TableRow,
    decode_deals,
    encode_deals,
)

SKAT_EVENT = {"name": "Clubabend", "date": "2026-11-20", "game": "skat", "deals": {"4": 4, "3": 3},
              "fees": {"entry_cents": 1000, "lost_game_cents": 50}}  # fmt: skip
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Fritz", "Gabi"]


def _event_with_a_series(client: FlaskClient) -> tuple[int, list[dict[str, object]]]:
    r = client.post("/api/v1/events", json=SKAT_EVENT)
    assert r.status_code == 201, r.json
    event_id = int(r.json["id"])
    assert (
        client.post(f"/api/v1/events/{event_id}/players", json={"names": NAMES}).status_code == 200
    )
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw", "seed": 7})
    assert r.status_code == 201, r.json
    return event_id, r.json["tables"]


@pytest.mark.parametrize(
    ("stored", "deals"),
    [
        ('{"4": 48, "3": 36}', {4: 48, 3: 36}),
        ('{"4": 52}', {4: 52}),
        ("{}", {}),
        (None, {}),  # a series never lengthened
        ("", {}),
    ],
)
def test_deals_per_table_size_decode_to_int_keys(stored: str | None, deals: dict[int, int]) -> None:
    assert decode_deals(stored) == deals


@given(st.dictionaries(st.integers(3, 5), st.integers(1, 200)))
def test_deals_round_trip_through_their_stored_json(deals: dict[int, int]) -> None:
    assert decode_deals(encode_deals(deals)) == deals


def test_a_player_round_trips_and_merges(app: Flask) -> None:
    with app.app_context():
        db = conn.get_db()
        anna = players.player_for_name(db, "  anna ")
        ana = players.player_for_name(db, "Ana")
        got = players.get_player(db, anna)
        assert isinstance(got, Player)
        assert (got.id, got.name, got.key, got.merged_into) == (anna, "anna", "anna", None)
        assert players.find_player(db, "ANNA") == anna
        players.rename_player(db, anna, "Anna")
        players.merge_players(db, anna, ana)
        assert players.get_player(db, ana).merged_into == anna
        assert players.resolve(db, ana) == anna
        assert players.aliases(db, anna) == ["Ana"]
        assert [p.name for p in players.list_players(db)] == ["Anna"]
        log = players.player_log(db, anna)
        assert all(isinstance(e, PlayerLogEntry) for e in log)
        assert [(e.action, e.detail.get("from")) for e in log] == [
            ("merge", "Ana"),
            ("rename", "anna"),
        ]
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.name = "Berta"


def test_a_group_round_trips(app: Flask) -> None:
    rules = {"rank_by": "list", "min_sheets": 2, "best": None}
    with app.app_context():
        db = conn.get_db()
        made = players.create_group(db, "Hirsch", "skat", rules)
        assert isinstance(made, Group)
        assert (made.name, made.game, made.rules, made.sheets) == ("Hirsch", "skat", rules, None)
        assert players.get_group(db, made.id) == made
        players.update_group(db, made.id, "Goldener Hirsch", {**rules, "best": 3})
        again = players.get_group(db, made.id)
        assert (again.name, again.rules["best"], again.edit_token) == ("Goldener Hirsch", 3,
                                                                       made.edit_token)  # fmt: skip
        (listed,) = players.list_groups(db)
        assert dataclasses.replace(listed, sheets=None) == again and listed.sheets == 0


def test_an_event_has_one_shape_however_it_is_read(client: FlaskClient) -> None:
    event_id, tables = _event_with_a_series(client)
    with client.application.app_context():
        db = conn.get_db()
        one = events.get_event(db, event_id)
        (listed,) = events.list_events(db)
        assert isinstance(one, Event) and isinstance(listed, Event)
        assert one.deals == listed.deals == {4: 4, 3: 3}
        # the list counts what the single read does not; everything else is the same record
        assert (listed.player_count, listed.series_count) == (7, 1)
        assert dataclasses.replace(listed, player_count=None, series_count=None) == one
        # the table of a sheet names the same deals per table size, int keys too
        table = events.event_of_sheet(db, int(tables[0]["sheet"]))
        assert isinstance(table, TableOfSheet)
        assert (table.event_id, table.name, table.series, table.table_n) == (event_id,
                                                                           "Clubabend", 1, 1)  # fmt: skip
        assert table.deals == one.deals
        assert events.event_of_sheet(db, 10**9) is None
    r = client.post(f"/api/v1/events/{event_id}/series/1/lengthen", json={"deals": {"4": 8}})
    assert r.status_code == 200, r.json
    with client.application.app_context():
        db = conn.get_db()
        series = events.get_series(db, event_id, 1)
        assert isinstance(series, SeriesRow) and series.deals == {4: 8, 3: 3}
        assert events.get_event(db, event_id).deals == {4: 4, 3: 3}  # the event's own stay
        four = next(t for t in tables if len(t["players"]) == 4)
        assert events.event_of_sheet(db, int(four["sheet"])).deals == {4: 8, 3: 3}


def test_registrations_are_typed_records(client: FlaskClient) -> None:
    event_id, _tables = _event_with_a_series(client)
    client.post(f"/api/v1/events/{event_id}/players", json={"names": ["Hans"]})
    with client.application.app_context():
        db = conn.get_db()
        regs = events.registrations(db, event_id)
        assert all(isinstance(r, Registration) for r in regs)
        assert [r.name for r in regs] == [*NAMES, "Hans"]
        assert [r.start_no for r in regs] == list(range(1, 9))
        assert [r.from_series for r in regs] == [1] * 7 + [2]
        assert not any(r.away for r in regs)
        # the seated players have become players; Hans has not sat at a table yet
        assert all(isinstance(r.player_id, int) for r in regs[:7]) and regs[7].player_id is None
        events.set_away(db, event_id, "hans", True)
        assert events.registrations(db, event_id)[7].away is True


def test_the_store_reads_what_the_service_wrote(client: FlaskClient) -> None:
    event_id, tables = _event_with_a_series(client)
    with client.application.app_context():
        db = conn.get_db()
        assert event_rows.series_count(db, event_id) == 1
        assert len(event_rows.table_sheet_ids(db, event_id)) == len(tables)
        stored = event_rows.table_sheets(db, event_id)
        assert all(isinstance(t, TableRow) for t in stored)
        assert [(t.series, t.n, t.sheet.id, t.sheet.players) for t in stored] == [
            (1, t["table"], t["sheet"], t["players"]) for t in tables
        ]
        # a table's sheet is the sheet as the sheets' store reads it: no table columns in it
        assert stored[0].sheet == sheet_store.get_sheet(db, int(tables[0]["sheet"]))
        assert (stored[0].sheet_b, stored[0].signed, stored[0].series_deals) == (None, (), {})
        desk = event_rows.series_tables(db, event_id, 1)
        assert [(t.n, t.sheet, t.entered) for t in desk] == [(t.n, t.sheet, 0) for t in stored]
        sheet = int(tables[0]["sheet"])
        seats = player_rows.seat_players(db, [sheet])[sheet]
        assert [name for _pid, name in seats] == tables[0]["players"]
        assert player_rows.sheet_player_ids(db, sheet) == [pid for pid, _name in seats]
        assert event_rows.live_token(db, 10**9) is None
