"""The save goes on from the sheet's kept computation (services/sheets.py ``add_deal``): it
reads no deal, evaluates the new one once, and answers exactly the bytes the sheet read afresh
gives, in both games, whatever the rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask

from skatcalc.rules.sheet import SheetSpec, default_active
from skatcalc.rules.sheet import compute as rules_compute
from skatcalc.services import cache
from skatcalc.services import sheets as service
from skatcalc.store import sheets as store

API = "/api/v1/sheets"

SHEETS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("skat", ["Anna", "Bernd", "Carla"], {"kontra_re": True, "ramsch": True, "bockramsch": True,
     "bock": ["60-60", "grand-hand-won", "value-100"], "bierlachs": 301, "stake_cents": 1}),
    ("skat", ["Anna", "Bernd", "Carla", "Dora", "Emil"],
     {"bock": ["kontra-lost", "schneider-lost"], "kontra_re": True}),
    ("schafkopf", ["Anna", "Bernd", "Carla", "Dora"], {"ramsch": True, "bock": ["60-60"],
     "stock": {"cents": 20, "taken_by": "any", "lost": "double"}}),
    ("schafkopf", ["Anna", "Bernd", "Carla", "Dora", "Emil"],
     {"bock": ["kontra-lost"], "scale": {"preset": "nur-gute"}}),
]  # fmt: skip


def body(rnd: random.Random, game: str, active: list[str]) -> dict[str, Any]:
    """A deal as an app sends it (now and then one the sheet refuses)."""
    k = rnd.random()
    if k < 0.1:
        return {"passed": True}
    if game == "skat":
        if k < 0.25:
            a, b = rnd.randint(0, 60), rnd.randint(0, 60)
            return {"ramsch": {"points": dict(zip(active, [a, b, 120 - a - b], strict=True))}}
        out: dict[str, Any] = {"game": rnd.choice(["grand", "clubs", "hearts", "null"]),
                               "declarer": rnd.choice(active + ["Nobody"])}  # fmt: skip
        if out["game"] == "null":
            return {**out, "won": rnd.random() < 0.6}
        out.update(matadors=rnd.randint(1, 3), declarer_points=rnd.randint(0, 120))
        if rnd.random() < 0.3:
            out.update(hand=True, kontra=True)
        return dict(reversed(list(out.items()))) if rnd.random() < 0.5 else out
    if k < 0.2:
        c = sorted(rnd.randint(0, 120) for _ in range(3))
        parts = [c[0], c[1] - c[0], c[2] - c[1], 120 - c[2]]
        return {"game": "ramsch", "points": dict(zip(active, parts, strict=True))}
    key = rnd.choice(["sauspiel", "solo", "wenz", "bettel"])
    out = {"game": key, "declarers": rnd.sample(active, 2 if key == "sauspiel" else 1)}
    out["won" if key == "bettel" else "player_points"] = rnd.choice([True, False, 70, 40])
    if rnd.random() < 0.3:
        out["kontra"] = rnd.randint(0, 2)
    return out


@pytest.mark.parametrize("which", range(len(SHEETS)))
def test_the_answer_is_the_sheet_read_afresh(app: Flask, which: int) -> None:
    game, players, rules = SHEETS[which]
    c = app.test_client()
    r = c.post(API, json={"game": game, "players": players, "rules": rules})
    sid = r.get_json()["id"]
    rnd = random.Random(which)
    spec = SheetSpec(game, tuple(players), players[0])
    saved = 0
    for k in range(30):
        lang = ("de", "en")[k % 2]
        sheet = c.get(f"{API}/{sid}", headers={"Accept-Language": lang}).get_json()
        active = list(default_active(spec, sheet["next_dealer"]))
        r = c.post(f"{API}/{sid}/deals", json=body(rnd, game, active),
                   headers={"Accept-Language": lang})  # fmt: skip
        assert r.status_code in (201, 422), r.get_json()
        saved += r.status_code == 201
        answer = r.data
        cache.clear()  # the sheet as the deals give it, nothing kept
        again = c.get(f"{API}/{sid}", headers={"Accept-Language": lang})
        if r.status_code == 201:
            assert answer == again.data
        assert len(again.get_json()["deals"]) == saved
    assert saved >= 10


def test_a_save_reads_no_deal_and_evaluates_the_deal_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]}).get_json()["id"]
    for who in ("Bernd", "Carla", "Anna"):
        grand = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}
        assert c.post(f"{API}/{sid}/deals", json={**grand, "declarer": who}).status_code == 201
    assert c.get(f"{API}/{sid}").status_code == 200  # what a phone shows after a save

    def no_read(*_args: object) -> None:
        raise AssertionError("a save on a kept computation read the deals")

    evaluated: list[object] = []
    real = rules_compute.evaluate_deal

    def counted(*args: Any, **kwargs: Any) -> Any:
        evaluated.append(args[1])
        return real(*args, **kwargs)

    with app.test_request_context():
        db = service.get_db()
        loaded = service.load_sheet(db, sid)  # the request's one read of the sheet
        for name in ("get_deals", "deal_heads", "deal_count", "last_counting_deal", "get_sheet",
                     "sheet_revision", "has_key", "keyed_deal"):  # fmt: skip
            monkeypatch.setattr(store, name, no_read)
        monkeypatch.setattr(rules_compute, "evaluate_deal", counted)
        monkeypatch.setattr(service, "evaluate_deal", counted)
        saved = service.add_deal(db, loaded, {"passed": True})
    assert saved.n == 4 and saved.stored and saved.sheet.rev == loaded.rev + 1
    assert len(evaluated) == 1
    monkeypatch.undo()
    fresh = c.get(f"{API}/{sid}").get_json()
    assert fresh["updated"] == saved.sheet.updated and fresh["deals"][-1]["passed"] is True
    # with a key: stored once, and the re-sent save finds its deal by it, as ever
    keyed = {"Idempotency-Key": "k1"}
    first = c.post(f"{API}/{sid}/deals", json={"passed": True}, headers=keyed)
    again = c.post(f"{API}/{sid}/deals", json={"passed": True}, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(again.get_json()["deals"]) == 5


def test_a_write_between_load_and_lock_reads_the_deals(app: Flask) -> None:
    """The kept computation counts only while the revision under the write lock is the
    loaded one: a deal saved meanwhile (another phone) is seen, not overwritten."""
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]}).get_json()["id"]
    assert c.get(f"{API}/{sid}").status_code == 200
    with app.test_request_context():
        db = service.get_db()
        loaded = service.load_sheet(db, sid)
        other = service.add_deal(db, loaded, {"passed": True})  # the other phone, first
        mine = service.add_deal(db, loaded, {"passed": True})  # from the same loaded sheet
    assert (other.n, mine.n) == (1, 2)
    deals = c.get(f"{API}/{sid}").get_json()["deals"]
    assert [(d["n"], d["dealer"]) for d in deals] == [(1, "Anna"), (2, "Bernd")]


def test_the_rows_are_encoded_once(app: Flask) -> None:
    """The answer's rows are kept as UTF-8 with their text: a save encodes its new row only."""
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]}).get_json()["id"]
    for _ in range(3):
        assert c.post(f"{API}/{sid}/deals", json={"passed": True}).status_code == 201
    with app.test_request_context():
        db = service.get_db()
        out = service.sheet_json(db, service.load_sheet(db, sid), "de")
        dumps = app.json.dumps
        rows = out["deals"]
        assert all(type(d) is cache.KeptJson for d in rows)
        assert all(d.encoded_utf8(dumps) is d.encoded_utf8(dumps) for d in rows)
        assert all(d.encoded_utf8(dumps) == dumps(d).encode() for d in rows)
        whole = b"".join(service.api_pieces(db, service.load_sheet(db, sid), "de", dumps))
        assert whole == (dumps(out) + "\n").encode()


def test_deals_written_by_hand_without_the_revision_are_read_when_the_save_finds_them(
    app: Flask,
) -> None:
    # Every write of the app moves the sheet's revision; deals put in by hand (another tool,
    # sqlite3 at the prompt) do not. The kept computation then says deal 1 is next while it
    # is stored: the save goes the long way, and never answers 500.
    client = app.test_client()
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]})
    sid = r.get_json()["id"]
    assert client.get(f"{API}/{sid}").status_code == 200  # its computation kept
    with app.app_context():
        db = service.get_db()
        with db.atomic():
            for n in (1, 2, 3):
                db.execute("insert into deals (sheet_id, n, dealer, active, input, struck,"
                           " version, created, updated) values (?, ?, 'A', '[\"B\", \"C\", \"A\"]',"
                           " '{\"passed\": true}', 0, 1, '', '')", [sid, n])  # fmt: skip
    r = client.post(f"{API}/{sid}/deals", json={"passed": True})
    assert r.status_code == 201, r.get_json()
    assert [d["n"] for d in client.get(f"{API}/{sid}").get_json()["deals"]] == [1, 2, 3, 4]
