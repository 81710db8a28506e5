"""A paper table's foot and a phone's deal at the same moment, through ``skatcalc serve``:
one of the two wins, never both (the foot and the deal take the same write lock, and each
checks the other under it)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from tests.support import Answer, Served, serve

API = "/api/v1"
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gabi", "Heinz", "Ilse", "Jens",
         "Karl", "Lena", "Mia"]  # fmt: skip


def _until_served(send: Any) -> Answer:
    """A write answered 503 (the server's write slots busy: nothing stored) is sent again, as
    a phone does."""
    for _ in range(50):
        answer = send()
        if answer.status != 503:
            return answer
        time.sleep(0.05)
    return answer


def _race(server: Served, event_id: int, tables: list[dict[str, Any]]) -> dict[Any, Answer]:
    """Every table's foot and a deal for it, all sent at once."""
    answers: dict[tuple[int, str], Answer] = {}

    def foot(t: dict[str, Any]) -> None:
        body = {"players": {p: {"points": 0, "won": 0, "lost": 0} for p in t["players"]},
                "passed": 8 if len(t["players"]) == 4 else 6}  # fmt: skip
        url = f"{API}/events/{event_id}/series/1/tables/{t['table']}/foot"
        answers[(t["table"], "foot")] = _until_served(
            lambda: server.call("PUT", url, json_body=body)
        )

    def deal(t: dict[str, Any]) -> None:
        url = f"{API}/sheets/{t['sheet']}/deals"
        answers[(t["table"], "deal")] = _until_served(
            lambda: server.call("POST", url, json_body={"passed": True})
        )

    threads = [threading.Thread(target=f, args=(t,)) for t in tables for f in (foot, deal)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return answers


def test_a_foot_and_a_deal_at_once_never_both_count(tmp_path: Path) -> None:
    with serve(tmp_path / "race.sqlite") as server:
        for round_ in range(3):
            r = server.call("POST", f"{API}/events", json_body={
                "name": f"Race {round_}", "game": "skat", "deals": {"4": 8, "3": 6}})  # fmt: skip
            event_id = r.json()["id"]
            server.call("POST", f"{API}/events/{event_id}/players", json_body={"names": NAMES})
            tables = server.call("POST", f"{API}/events/{event_id}/series",
                                 json_body={"seating": "draw", "seed": round_}).json()["tables"]  # fmt: skip
            answers = _race(server, event_id, tables)
            for t in tables:
                got_foot = answers[(t["table"], "foot")].status
                got_deal = answers[(t["table"], "deal")].status
                assert {got_foot, got_deal} in ({200, 409}, {201, 409}), (got_foot, got_deal)
                url = f"{API}/events/{event_id}/series/1/tables/{t['table']}"
                state = server.call("GET", url).json()
                deals = server.call("GET", f"{API}/sheets/{t['sheet']}").json()["deals"]
                if got_foot == 200:
                    assert state["paper"] is True and deals == []
                else:
                    assert "paper" not in state and len(deals) == 1
