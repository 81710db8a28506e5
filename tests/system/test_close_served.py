"""The second touch through the real server (``skatcalc serve``): list B follows the desk,
the close names the open double-entry tables and takes ``force``, a closed event keeps its
pot, and a Skat series lets every player deal equally."""

from __future__ import annotations

from pathlib import Path

from tests.support import serve

API = "/api/v1"
GRAND = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 75}


def test_the_close_and_list_b_through_skatcalc_serve(tmp_path: Path) -> None:
    with serve(tmp_path / "served.sqlite") as s:
        r = s.call("POST", f"{API}/events", json_body={"game": "skat", "deals": {"4": 50}})
        assert r.status == 422 and "deals.4" in r.json()["errors"]
        r = s.call("POST", f"{API}/events", json_body={"game": "skat", "deals": {"4": 4},
                                                       "double_entry": True})  # fmt: skip
        assert r.status == 201, r.body
        event_id = r.json()["id"]
        names = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gabi", "Hugo"]
        assert s.call("POST", f"{API}/events/{event_id}/players",
                      json_body={"names": names}).status == 200  # fmt: skip
        r = s.call("POST", f"{API}/events/{event_id}/series",
                   json_body={"seating": "draw", "seed": 5})  # fmt: skip
        t1, t2 = r.json()["tables"]
        r = s.call("POST", f"{API}/events/{event_id}/series/1/swap",
                   json_body={"a": t1["players"][0], "b": t2["players"][0]})  # fmt: skip
        assert r.status == 200, r.body
        a = s.call("GET", f"{API}/sheets/{t1['sheet']}").json()
        b = s.call("GET", f"{API}/sheets/{t1['sheet_b']}").json()
        assert (b["players"], b["first_dealer"]) == (a["players"], a["first_dealer"])
        r = s.call("POST", f"{API}/sheets/{t1['sheet']}/deals",
                   json_body={"declarer": a["players"][1], **GRAND})  # fmt: skip
        assert r.status == 201, r.body
        r = s.call("POST", f"{API}/events/{event_id}/close", json_body={"pot_cents": 100})
        assert r.status == 409
        assert r.json()["errors"]["_"][:2] == [
            "Tisch 1 (Serie 1): Liste B hat 0 von 1 Spielen; nicht bestätigt",
            "Tisch 2 (Serie 1): nicht bestätigt",
        ]
        r = s.call("POST", f"{API}/events/{event_id}/close",
                   json_body={"pot_cents": 100, "force": True})  # fmt: skip
        assert r.status == 200 and r.json()["pot_cents"] == 100
        r = s.call("POST", f"{API}/events/{event_id}/close", json_body={"pot_cents": 200})
        assert r.status == 409 and r.json()["event"]["pot_cents"] == 100
        history = s.call("GET", f"{API}/events/{event_id}").json()["history"]
        assert [(h["action"], h["by"]) for h in history][-2:] == [("prizes", "local"),
                                                                  ("close", "local")]  # fmt: skip
