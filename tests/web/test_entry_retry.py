"""A save whose answer was lost is sent again with the same idempotency key (by hand, or by the
offline queue on the phone): the deal is there, and the page says so ("Spiel n war schon
gespeichert"), not that another phone saved it; the same key with other taps is still
refused. The deals after it do not change what the retry means."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc.rules.sheet import SheetSpec, default_active

API = "/api/v1/sheets"


def new_sheet(client: FlaskClient, players: list[str], game: str = "skat") -> int:
    r = client.post(API, json={"game": game, "players": players})
    assert r.status_code == 201
    return int(r.get_json()["id"])


def deals(client: FlaskClient, sid: int) -> list[tuple[int, str, str | None]]:
    got = client.get(f"{API}/{sid}").get_json()["deals"]
    return [(d["n"], d["dealer"], d.get("declarer")) for d in got]


def first_deal(**more: str) -> dict[str, Any]:
    """Deal 1 at four as the page's form sends it: Anna deals and sits out, Ben plays."""
    return {"kind": "game", "declarer": "Ben", "game": "grand", "spitzen": "w2",
            "won": "true", "n": "1", "idem": "key-of-deal-1", "dealer": "Anna",
            "dealer_shown": "Anna", "active": ["Ben", "Cem", "Dora"], **more}  # fmt: skip


def test_the_retry_after_a_lost_answer_is_told_it_was_saved(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Ben", "Cem", "Dora"])
    entry = first_deal()
    assert client.post(f"/sheets/{sid}/deals", data=entry).status_code in (302, 303)
    # the answer never came back; the phone sends the same form again: Ben deals now, and
    # read as the next deal the form would be refused (Ben sits out)
    r = client.post(f"/sheets/{sid}/deals", data=entry, follow_redirects=True)
    page = r.data.decode()
    assert r.status_code == 200
    assert "Spiel 1 war schon gespeichert." in page
    assert "von einem anderen Gerät?" not in page
    assert deals(client, sid) == [(1, "Anna", "Ben")]


def test_the_retry_is_told_after_later_deals_and_a_closed_evening(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Ben", "Cem", "Dora"])
    entry = first_deal()
    client.post(f"/sheets/{sid}/deals", data=entry)
    for declarer in ("Cem", "Dora", "Anna"):  # other phones went on meanwhile
        body = {"declarer": declarer, "game": "grand", "matadors": 1, "with": True, "won": True}
        assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    assert client.post(f"{API}/{sid}/close", json={}).status_code == 200
    r = client.post(f"/sheets/{sid}/deals", data=entry)
    assert r.status_code in (302, 303) and "saved=1" in r.headers["Location"]
    assert len(deals(client, sid)) == 4


def test_the_same_key_with_other_taps_is_still_refused(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Ben", "Cem", "Dora"])
    client.post(f"/sheets/{sid}/deals", data=first_deal())
    r = client.post(f"/sheets/{sid}/deals", data=first_deal(spitzen="w3"))
    assert r.status_code == 409
    assert "war schon als Spiel 1 gespeichert, seither wurde es geändert" in r.data.decode()
    assert deals(client, sid) == [(1, "Anna", "Ben")]


def test_a_dealer_set_by_hand_is_part_of_the_retry(client: FlaskClient) -> None:
    sid = new_sheet(client, ["Anna", "Ben", "Cem", "Dora"])
    client.post(f"{API}/{sid}/deals", json={"passed": True})  # Anna dealt
    entry = first_deal(n="2", dealer="Dora", dealer_shown="Ben", active=[], idem="k2")
    entry["declarer"] = "Anna"
    assert client.post(f"/sheets/{sid}/deals", data=entry).status_code in (302, 303)
    r = client.post(f"/sheets/{sid}/deals", data=entry, follow_redirects=True)
    assert "Spiel 2 war schon gespeichert." in r.data.decode()
    assert deals(client, sid) == [(1, "Anna", None), (2, "Dora", "Anna")]


@pytest.mark.parametrize("players", [["A", "B", "C", "D"], ["A", "B", "C", "D", "E"]])
def test_the_api_retry_is_a_replay_after_the_rotation_moved(
    client: FlaskClient, players: list[str]
) -> None:
    sid = new_sheet(client, players)
    body = {"declarer": "B", "game": "grand", "matadors": 2, "with": True, "won": True}
    h = {"Idempotency-Key": "api-1"}
    assert client.post(f"{API}/{sid}/deals", json=body, headers=h).status_code == 201
    # B deals now and sits out: read as the next deal the body would be a 422
    again = client.post(f"{API}/{sid}/deals", json=body, headers=h)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    size=st.integers(3, 5),
    before=st.integers(0, 4),
    after=st.integers(0, 4),
    pick=st.integers(0, 2),
    close=st.booleans(),
)
def test_law_a_resent_form_is_the_deal_it_saved(
    client: FlaskClient, size: int, before: int, after: int, pick: int, close: bool
) -> None:
    """Whatever came before and after it, a form sent again with its key stores nothing and
    is told that its deal was saved."""
    players = ["Anna", "Ben", "Cem", "Dora", "Ede"][:size]
    sid = new_sheet(client, players)
    for _ in range(before):
        client.post(f"{API}/{sid}/deals", json={"passed": True})
    sheet = client.get(f"{API}/{sid}").get_json()
    dealer = sheet["next_dealer"]
    playing = default_active(SheetSpec("skat", tuple(players), "Anna", {}), dealer)
    n = before + 1
    entry = {"kind": "game", "declarer": playing[pick], "game": "grand", "spitzen": "w1",
             "won": "true", "n": str(n), "idem": f"law-{sid}", "dealer": dealer,
             "dealer_shown": dealer, "active": list(playing)}  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals", data=entry).status_code in (302, 303)
    for _ in range(after):
        client.post(f"{API}/{sid}/deals", json={"passed": True})
    if close:
        client.post(f"{API}/{sid}/close", json={})
    count = len(client.get(f"{API}/{sid}").get_json()["deals"])
    r = client.post(f"/sheets/{sid}/deals", data=entry)
    assert r.status_code in (302, 303) and r.headers["Location"].endswith(f"saved={n}")
    page = client.get(r.headers["Location"]).data.decode()
    if not close:  # (a closed sheet's page has no confirmation line; the redirect says it)
        assert f"Spiel {n} war schon gespeichert." in page
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == count
