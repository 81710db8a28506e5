"""Settled results stay settled: a club-night table stops at its series' length (the organiser
may lengthen it), a closed event or closed sheet refuses every write until reopened, and the
next series is not seated over an unfinished one without the organiser's confirmation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc.services import sheets as service

API = "/api/v1"
PASSED = {"passed": True}


def _event(client: FlaskClient, deals: dict[str, int] | None = None,
           players: str = "ABCD") -> tuple[int, list[int]]:  # fmt: skip
    """An event with one series seated; its id and its tables' sheet ids."""
    r = client.post(f"{API}/events", json={"game": "skat", "deals": deals or {"4": 4, "3": 3}})
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")  # the organiser's cookie
    client.post(f"{API}/events/{event_id}/players", json={"names": list(players)})
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 1})
    assert r.status_code == 201, r.json
    return event_id, [t["sheet"] for t in r.json["tables"]]


def _sheet(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", **extra}
    r = client.post(f"{API}/sheets", json=body)
    assert r.status_code == 201
    return dict(r.json)


def _deals(client: FlaskClient, sheet_id: int) -> list[dict[str, Any]]:
    return list(client.get(f"{API}/sheets/{sheet_id}").json["deals"])


# --- A finished table ----------------------------------------------------------------------


def test_a_finished_table_takes_no_further_deal(client: FlaskClient) -> None:
    _event_id, (sheet,) = _event(client)
    for _ in range(4):
        assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 201
    r = client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    assert r.status_code == 409
    assert r.json["errors"]["_"][0].startswith("Serie fertig: 4 von 4 Spielen")
    assert len(r.json["sheet"]["deals"]) == 4  # the sheet as it is; nothing stored
    r = client.post(f"{API}/sheets/{sheet}/deals", json=PASSED, headers={"Accept-Language": "en"})
    assert r.json["errors"]["_"][0].startswith("Series finished: 4 of 4 deals")
    # corrections of the played deals stay possible; a struck deal was never dealt
    assert client.put(f"{API}/sheets/{sheet}/deals/4", json=PASSED).status_code == 200
    assert client.delete(f"{API}/sheets/{sheet}/deals/4").status_code == 200
    assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 201
    assert len(_deals(client, sheet)) == 5


def test_a_resent_last_save_of_a_series_is_answered_not_refused(client: FlaskClient) -> None:
    _event_id, (sheet,) = _event(client)
    url = f"{API}/sheets/{sheet}/deals"
    for _ in range(3):
        client.post(url, json=PASSED)
    key = {"Idempotency-Key": "last-one"}
    assert client.post(url, json=PASSED, headers=key).status_code == 201
    again = client.post(url, json=PASSED, headers=key)  # its answer was lost: sent again
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert client.post(url, json=PASSED, headers={"Idempotency-Key": "new"}).status_code == 409


def test_a_finished_table_on_the_page_keeps_what_was_typed(client: FlaskClient) -> None:
    _event_id, (sheet,) = _event(client)
    for _ in range(4):
        client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    page = client.get(f"/sheets/{sheet}").get_data(as_text=True)
    assert "Serie fertig" in page
    form = {"kind": "game", "declarer": "A", "declarer_points": "87"}
    r = client.post(f"/sheets/{sheet}/deals", data=form)
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    assert "Serie fertig: 4 von 4 Spielen" in page
    assert 'value="87"' in page  # the entry as typed
    assert len(_deals(client, sheet)) == 4


def test_the_organiser_lengthens_a_series(client: FlaskClient) -> None:
    event_id, (sheet,) = _event(client)
    for _ in range(4):
        client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    url = f"{API}/events/{event_id}/series/1/lengthen"
    r = client.post(url, json={"deals": {"4": 8}})
    assert r.status_code == 200, r.json
    assert r.json["series"][0]["deals"] == {"3": 3, "4": 8}
    assert r.json["series"][0]["tables"][0]["deals"] == 8
    assert r.json["series"][0]["tables"][0]["left"] == 4
    assert r.json["deals"] == {"3": 3, "4": 4}  # the event's plan for later series stays
    assert r.json["history"][-1]["action"] == "lengthen"
    for _ in range(4):
        assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 201
    r = client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    assert r.status_code == 409 and "8 von 8" in r.json["errors"]["_"][0]
    # never below what was played, only sizes the game seats, only numbers, every player
    # deals as often (a multiple of the table size)
    for body, field in [({"deals": {"4": 4}}, "deals.4"), ({"deals": {"4": 10}}, "deals.4"),
                        ({"deals": {"3": 13}}, "deals.3"), ({"deals": {"5": 9}}, "deals.5"),
                        ({"deals": {"4": "x"}}, "deals"), ({"deals": {}}, "deals"),
                        ({"deals": {"4": 9}, "x": 1}, "x")]:  # fmt: skip
        r = client.post(url, json=body)
        assert r.status_code == 422 and field in r.json["errors"], (body, r.json)
    assert client.post(f"{API}/events/{event_id}/series/7/lengthen",
                       json={"deals": {"4": 9}}).status_code == 404  # fmt: skip


def test_lengthening_on_the_series_page(client: FlaskClient) -> None:
    event_id, (sheet,) = _event(client)
    page = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert 'name="deals4" value="4"' in page
    r = client.post(f"/events/{event_id}/series/1/lengthen", data={"deals4": "6"},
                    follow_redirects=True)  # fmt: skip
    assert "Bei 4 Spielern am Tisch muss die Serie durch 4 teilbar sein" in r.get_data(True)
    r = client.post(f"/events/{event_id}/series/1/lengthen", data={"deals4": "8"},
                    follow_redirects=True)  # fmt: skip
    assert "Serie 1 verlängert" in r.get_data(as_text=True)
    assert client.get(f"{API}/events/{event_id}").json["series"][0]["deals"]["4"] == 8
    r = client.post(f"/events/{event_id}/series/1/lengthen", data={"deals4": "0"},
                    follow_redirects=True)  # fmt: skip
    assert "Spiele je Serie: 1 bis 200" in r.get_data(as_text=True)
    assert "noch 8 Spiele" in client.get(f"/sheets/{sheet}").get_data(as_text=True)


def test_only_the_organiser_lengthens(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id, _tables = _event(organiser)
    stranger = lan_app.test_client()
    url = f"{API}/events/{event_id}/series/1/lengthen"
    assert stranger.post(url, json={"deals": {"4": 9}}).status_code == 403
    assert stranger.post(f"/events/{event_id}/series/1/lengthen", data={"deals4": "9"}).status_code == 403  # fmt: skip


# --- A closed event ------------------------------------------------------------------------


def _writes(client: FlaskClient, sheet: int) -> dict[str, Any]:
    """Every write to a sheet, through the API and the page: name → response."""
    return {
        "api add": client.post(f"{API}/sheets/{sheet}/deals", json=PASSED),
        "api correct": client.put(f"{API}/sheets/{sheet}/deals/1", json=PASSED),
        "api strike": client.delete(f"{API}/sheets/{sheet}/deals/1"),
        "api restore": client.post(f"{API}/sheets/{sheet}/deals/2/restore", json={}),
        "page add": client.post(f"/sheets/{sheet}/deals", data={"kind": "passed"}),
        "page correct": client.post(f"/sheets/{sheet}/deals/1/edit", data={"kind": "passed"}),
        "page strike": client.post(f"/sheets/{sheet}/deals/1/strike"),
        "page restore": client.post(f"/sheets/{sheet}/deals/2/restore"),
        "page undo": client.post(f"/sheets/{sheet}/undo", data={"n": "1"}),
        "page rename": client.post(f"/sheets/{sheet}/rename", data={"name": "Neu"}),
    }


def test_a_closed_event_refuses_every_write_to_its_tables(client: FlaskClient) -> None:
    event_id, (sheet,) = _event(client)
    client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    client.delete(f"{API}/sheets/{sheet}/deals/2")
    before = client.get(f"{API}/sheets/{sheet}").json
    prizes = client.post(f"{API}/events/{event_id}/close", json={}).json
    assert prizes["closed"]
    for what, r in _writes(client, sheet).items():
        assert r.status_code == 409, what
        text = r.json["errors"]["_"][0] if r.is_json else r.get_data(as_text=True)
        assert "Das Turnier ist abgeschlossen" in text, what
        if r.is_json:
            assert r.json["sheet"]["closed"] is True and r.json["sheet"]["deals"] == before["deals"]
    after = client.get(f"{API}/sheets/{sheet}").json
    assert after["deals"] == before["deals"] and after["name"] == before["name"]
    assert after["closed"] is True and after["closed_at"] == prizes["closed"]
    # registrations keep their documented 422
    r = client.post(f"{API}/events/{event_id}/players", json={"names": ["Z"]})
    assert r.status_code == 422
    # the table's page: no entry form, the line instead
    page = client.get(f"/sheets/{sheet}").get_data(as_text=True)
    assert "Turnier abgeschlossen am" in page and 'id="entry"' not in page


def test_reopening_the_event_takes_writes_again_and_both_are_in_the_history(
    client: FlaskClient,
) -> None:
    event_id, (sheet,) = _event(client)
    client.post(f"{API}/sheets/{sheet}/deals", json=PASSED)
    assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200
    closed_at = client.get(f"{API}/events/{event_id}").json["closed"]
    # a second close keeps the first one's time
    client.post(f"{API}/events/{event_id}/close", json={})
    assert client.get(f"{API}/events/{event_id}").json["closed"] == closed_at
    r = client.post(f"{API}/events/{event_id}/reopen", json={})
    assert r.status_code == 200 and r.json["closed"] is None
    assert [h["action"] for h in r.json["history"] if h["action"] != "register"] == [
        "close",
        "reopen",
    ]
    assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 201
    sheet_json = client.get(f"{API}/sheets/{sheet}").json
    assert sheet_json["closed"] is False
    assert [h["action"] for h in sheet_json["history"]] == ["add", "close", "reopen", "add"]
    page = client.get(f"/sheets/{sheet}").get_data(as_text=True)
    assert "Abend abgeschlossen" in page and "Abend wieder geöffnet" in page  # its history


def test_the_event_close_page_closes_reopens_and_tells_when(client: FlaskClient) -> None:
    event_id, (sheet,) = _event(client)
    r = client.post(f"/events/{event_id}/close", data={"payout_kind": "shares",
                    "payout": "100", "action": "close"})  # fmt: skip
    assert r.status_code == 302
    closed = client.get(f"{API}/events/{event_id}").json["closed"]
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    from datetime import datetime

    local = datetime.fromisoformat(closed).astimezone()
    assert f"Abgeschlossen am {local:%d.%m.%Y}, {local:%H:%M}." in page
    assert 'value="reopen"' in page and "Verlauf" in page
    assert client.get(f"{API}/events/{event_id}/prizes").json["closed"] == closed
    assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 409
    r = client.post(f"/events/{event_id}/close", data={"payout_kind": "shares",
                    "payout": "100", "action": "reopen"})  # fmt: skip
    assert r.status_code == 302
    assert client.get(f"{API}/events/{event_id}/prizes").json["closed"] is None
    assert client.post(f"{API}/sheets/{sheet}/deals", json=PASSED).status_code == 201


def test_only_the_organiser_reopens(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id, _tables = _event(organiser)
    organiser.post(f"{API}/events/{event_id}/close", json={})
    stranger = lan_app.test_client()
    assert stranger.post(f"{API}/events/{event_id}/reopen", json={}).status_code == 403
    assert organiser.post(f"{API}/events/{event_id}/reopen", data="x").status_code == 415
    assert organiser.post(f"{API}/events/{event_id}/reopen", json=[1]).status_code == 422
    assert organiser.post(f"{API}/events/{event_id}/reopen").status_code == 415
    assert organiser.post(f"{API}/events/999/reopen", json={}).status_code == 404


def test_a_table_closes_only_with_its_event(client: FlaskClient) -> None:
    event_id, (sheet,) = _event(client, players="ABCD")
    name = client.get(f"{API}/events/{event_id}").json["name"]
    for action in ("close", "reopen"):
        r = client.post(f"{API}/sheets/{sheet}/{action}", json={})
        assert r.status_code == 409
        assert f"Veranstaltung „{name}“" in r.json["errors"]["_"][0]
        assert r.json["sheet"]["closed"] is False
        r = client.post(f"/sheets/{sheet}/{action}")
        assert r.status_code == 409 and name in r.get_data(as_text=True)
    page = client.get(f"/sheets/{sheet}").get_data(as_text=True)
    assert "Abend abschließen" not in page


# --- A closed sheet ------------------------------------------------------------------------


def test_a_sheet_closes_and_reopens_with_its_edit_right(lan_app: Flask) -> None:
    c = lan_app.test_client()
    made = _sheet(c)
    sid, auth = made["id"], {"Authorization": f"Bearer {made['edit_token']}"}
    assert made["closed"] is False and made["closed_at"] is None
    stranger = lan_app.test_client()
    assert stranger.post(f"{API}/sheets/{sid}/close", json={}).status_code == 403
    assert stranger.post(f"/sheets/{sid}/close").status_code == 403
    c.post(f"{API}/sheets/{sid}/deals", json=PASSED, headers=auth)
    r = c.post(f"{API}/sheets/{sid}/close", json={}, headers=auth)
    assert r.status_code == 200 and r.json["closed"] is True and r.json["closed_at"]
    assert c.post(f"{API}/sheets/{sid}/close", headers=auth).status_code == 415  # JSON only
    r = c.post(f"{API}/sheets/{sid}/deals", json=PASSED, headers=auth)
    assert r.status_code == 409
    assert r.json["errors"]["_"][0].startswith("Der Abend ist abgeschlossen")
    assert r.json["sheet"]["closed"] is True and len(r.json["sheet"]["deals"]) == 1
    assert stranger.post(f"{API}/sheets/{sid}/reopen", json={}).status_code == 403
    r = c.post(f"{API}/sheets/{sid}/reopen", json={}, headers=auth)
    assert r.status_code == 200 and r.json["closed"] is False and r.json["closed_at"] is None
    assert c.post(f"{API}/sheets/{sid}/deals", json=PASSED, headers=auth).status_code == 201
    history = c.get(f"{API}/sheets/{sid}").json["history"]
    assert [(h["action"], h["n"]) for h in history] == [("add", 1), ("close", 0),
                                                         ("reopen", 0), ("add", 2)]  # fmt: skip


def test_a_closed_sheet_refuses_every_write(client: FlaskClient) -> None:
    sid = _sheet(client)["id"]
    client.post(f"{API}/sheets/{sid}/deals", json=PASSED)
    client.post(f"{API}/sheets/{sid}/deals", json=PASSED)
    client.delete(f"{API}/sheets/{sid}/deals/2")
    before = client.get(f"{API}/sheets/{sid}").json
    assert client.post(f"{API}/sheets/{sid}/close", json={}).status_code == 200
    for what, r in _writes(client, sid).items():
        assert r.status_code == 409, what
        text = r.json["errors"]["_"][0] if r.is_json else r.get_data(as_text=True)
        assert "Der Abend ist abgeschlossen" in text, what
    after = client.get(f"{API}/sheets/{sid}").json
    assert after["deals"] == before["deals"] and after["name"] == before["name"]


def test_a_closed_sheet_page_shows_the_line_and_keeps_a_refused_entry(
    client: FlaskClient,
) -> None:
    made = _sheet(client)
    sid = made["id"]
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert "Abend abschließen" in page and 'id="entry"' in page
    assert client.post(f"/sheets/{sid}/close").status_code == 302
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert "Abend abgeschlossen am" in page and "Abend wieder öffnen" in page
    assert 'id="entry"' not in page and "Umbenennen" not in page
    share = client.get(f"/sheets/{sid}/share/{made['share_token']}").get_data(as_text=True)
    assert "Abend abgeschlossen am" in share and "Abend wieder öffnen" not in share
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "game", "declarer": "A",
                                                  "declarer_points": "87"})  # fmt: skip
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    assert "Der Abend ist abgeschlossen" in page and 'value="87"' in page
    assert _deals(client, sid) == []
    assert "nichts mehr zu korrigieren" not in page
    r = client.post(f"/sheets/{sid}/reopen", follow_redirects=True)
    assert "Abend wieder geöffnet." in r.get_data(as_text=True)
    assert client.post(f"/sheets/{sid}/deals", data={"kind": "passed"}).status_code == 302


def test_sheet_close_buttons_need_the_form_token(csrf_app: Flask) -> None:
    c = csrf_app.test_client()
    sid = _sheet(c)["id"]
    assert c.post(f"/sheets/{sid}/close").status_code == 400
    assert c.get(f"{API}/sheets/{sid}").json["closed"] is False


def test_every_service_write_goes_through_the_closed_guard(app: Flask) -> None:
    """The guard is in the one write path (service.sheet_write), not in the views."""
    with app.app_context():
        db = service.get_db()
        sheet = service.create_sheet(db, "x", "skat", ["A", "B", "C"], "A", {})
        sheet = service.add_deal(db, sheet, PASSED).sheet
        sheet = service.close_sheet(db, sheet).sheet
        writes = {
            "add": lambda: service.add_deal(db, sheet, PASSED),
            "correct": lambda: service.correct_deal(db, sheet, 1, PASSED),
            "strike": lambda: service.strike_deal(db, sheet, 1),
            "restore": lambda: service.restore_deal(db, sheet, 1),
            "undo": lambda: service.undo_save(db, sheet, 1),
            "rename": lambda: service.rename_sheet(db, sheet, "y"),
        }
        for what, write in writes.items():
            with pytest.raises(service.Settled):
                write()
            assert service.load_sheet(db, sheet.id).rev == sheet.rev, what


def test_a_closed_sheet_exports_and_imports_with_its_history(client: FlaskClient) -> None:
    sid = _sheet(client)["id"]
    client.post(f"{API}/sheets/{sid}/deals", json=PASSED)
    client.post(f"{API}/sheets/{sid}/close", json={})
    exported = client.get(f"{API}/sheets/{sid}/export.json").json
    r = client.post(f"{API}/sheets/import", json=exported)
    assert r.status_code == 201, r.json
    assert [h["action"] for h in r.json["history"]] == ["add", "close"]
    assert r.json["closed"] is False  # the copy is a new sheet, open


# --- Seating over an unfinished series -----------------------------------------------------


def test_seating_over_an_unfinished_series_needs_force(client: FlaskClient) -> None:
    event_id, (t1, t2) = _event(client, {"4": 4}, players="ABCDEFGH")
    for _ in range(4):
        client.post(f"{API}/sheets/{t1}/deals", json=PASSED)
    client.post(f"{API}/sheets/{t2}/deals", json=PASSED)
    url = f"{API}/events/{event_id}/series"
    r = client.post(url, json={"seating": "ranking"})
    assert r.status_code == 409
    msg = r.json["errors"]["_"][0]
    assert "Serie 1 ist noch nicht fertig: Tisch 2 (1 von 4 Spielen)" in msg
    assert "Tisch 1" not in msg and len(r.json["event"]["series"]) == 1
    assert client.post(url, json={"seating": "ranking", "force": "yes"}).status_code == 422
    r = client.post(url, json={"seating": "ranking", "force": True})
    assert r.status_code == 201 and r.json["n"] == 2


def test_seating_over_an_unfinished_series_on_the_page(client: FlaskClient) -> None:
    event_id, (t1, t2) = _event(client, {"4": 4}, players="ABCDEFGH")
    for _ in range(4):
        client.post(f"{API}/sheets/{t1}/deals", json=PASSED)
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert 'name="force"' in page
    form = {"seating": "ranking", "n": "2"}
    r = client.post(f"/events/{event_id}/series", data=form, follow_redirects=True)
    assert "Serie 1 ist noch nicht fertig: Tisch 2 (0 von 4 Spielen)" in r.get_data(as_text=True)
    assert len(client.get(f"{API}/events/{event_id}").json["series"]) == 1
    r = client.post(f"/events/{event_id}/series", data={**form, "force": "y"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/series/2")
    # once every table is through, no confirmation is asked
    for t in client.get(f"{API}/events/{event_id}").json["series"][1]["tables"]:
        for _ in range(4):
            client.post(f"{API}/sheets/{t['sheet']}/deals", json=PASSED)
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "ranking"})
    assert r.status_code == 201 and r.json["n"] == 3


def test_tables_of_events_closed_before_the_upgrade_are_closed(tmp_path: Path) -> None:
    from skatcalc import store
    from skatcalc.store import migrations as schema
    from skatcalc.store import sheets as sheet_store

    db = store.connect(str(tmp_path / "old.sqlite"))
    schema.migrations.apply(db, stop_before="m011_settled")
    at = "2026-11-27T22:15:00+00:00"
    for sid in (1, 2):
        db.execute(
            "insert into sheets (id, name, game, players, first_dealer, rules, edit_token, "
            "share_token, created, updated) values (?, 'old', 'skat', '[\"A\", \"B\", \"C\"]', "
            "'A', '{}', 'e', ?, ?, ?)",
            [sid, f"s{sid}", at, at],
        )
    db.execute(
        "insert into events (id, name, day, game, deals, rules, entry_cents, lost_game_cents, "
        "payout, edit_token, created, closed) values (1, 'E', '2026-11-27', 'skat', "
        "'{\"3\": 2}', '{}', 0, 0, '{\"kind\": \"shares\", \"values\": [100]}', 't', ?, ?)",
        [at, at],
    )
    db.execute("insert into event_series (event_id, n, seating, created) values (1, 1, 'draw', ?)",
               [at])  # fmt: skip
    db.execute("insert into event_tables (event_id, series, n, sheet_id) values (1, 1, 1, 1)")
    db.conn.commit()
    schema.migrations.apply(db)
    assert sheet_store.get_sheet(db, 1).closed == at  # the closed event's table
    assert sheet_store.get_sheet(db, 2).closed is None  # any other sheet stays open
    db.close()


def test_a_closed_sheet_is_deleted_only_after_reopening(client: FlaskClient) -> None:
    sid = _sheet(client)["id"]
    client.post(f"{API}/sheets/{sid}/close", json={})
    r = client.post(f"/sheets/{sid}/delete", follow_redirects=True)
    assert "zum Löschen erst wieder öffnen" in r.get_data(as_text=True)
    assert client.get(f"{API}/sheets/{sid}").status_code == 200
    client.post(f"{API}/sheets/{sid}/reopen", json={})
    assert client.post(f"/sheets/{sid}/delete").status_code == 302
    assert client.get(f"{API}/sheets/{sid}").status_code == 404
