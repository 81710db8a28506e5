"""The sheet page's kept parts (the "Blatt" pane, the entry form, the rows, the kept page) never
show anything stale: after any sequence of changes — deals added, corrected, struck and
restored, the sheet renamed, its house rules changed, closed and reopened — every view of the
page (the editor's, a visitor's, the share link's; both languages; on the network and not) is
byte for byte the page rendered with every cache cleared, the CSRF token and the idempotency key
aside."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc import create_app
from skatcalc.services import cache

API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
GAMES = {
    "skat": (
        {"kontra_re": True, "ramsch": True, "bock": ["60-60"], "stake_cents": 1},
        [{"game": "grand", "with": True, "matadors": 2, "declarer_points": 75},
         {"game": "null", "won": False}, {"passed": True}],
        {"kontra_re": False, "stake_cents": 5},
    ),
    "schafkopf": (
        {"ramsch": True},
        [{"game": "sauspiel", "declarers": ["Bernd", "Carla"], "player_points": 70},
         {"game": "solo", "declarers": ["Anna"], "won": True}, {"passed": True}],
        {"ramsch": False},
    ),
}  # fmt: skip
CHANGES = [
    "add",
    "add2",
    "correct",
    "strike",
    "restore",
    "rename",
    "rules",
    "close",
    "reopen",
    "dealer",
]
CSRF = re.compile(r'(name="csrf_token"[^>]*value=")[^"]*(")')
IDEM = re.compile(r'(name="idem" value=")[^"]*(")')


def _norm(html: str) -> str:
    return IDEM.sub(r"\1-\2", CSRF.sub(r"\1-\2", html))


def _app(tmp: Path, lan: bool) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp / f"kept{int(lan)}.sqlite"),
                       "SECRET_KEY": "t", "LAN": lan})  # fmt: skip


class Table:
    """One sheet, with an editor's, a visitor's and the share link's view of it."""

    def __init__(self, app: Flask, game: str, lan: bool) -> None:
        self.api = app.test_client()
        rules, self.bodies, self.new_rules = GAMES[game]
        r = self.api.post(API, json={"game": game, "players": PLAYERS, "rules": rules})
        assert r.status_code == 201, r.data
        made = r.get_json()
        self.sid: int = made["id"]
        self.right = {"Authorization": f"Bearer {made['edit_token']}"} if lan else {}
        self.editor = app.test_client()
        if lan:
            assert self.editor.get(f"/sheets/{self.sid}/edit/{made['edit_token']}").status_code
        self.visitor = app.test_client()
        page = self.editor.get(f"/sheets/{self.sid}").data.decode()
        share = re.search(r"/sheets/\d+/share/([^\"'<]+)", page)
        assert share is not None
        self.views: list[tuple[FlaskClient, str]] = []
        for lang in ("de", "en"):
            self.views += [
                (self.editor, f"/sheets/{self.sid}?lang={lang}"),
                (self.editor, f"/sheets/{self.sid}?lang={lang}&saved=3"),  # the saved line
                (self.visitor, f"/sheets/{self.sid}?lang={lang}"),
                (self.visitor, f"/sheets/{self.sid}/share/{share.group(1)}?lang={lang}"),
            ]

    def count(self) -> int:
        deals = self.api.get(f"{API}/{self.sid}", headers=self.right).get_json()["deals"]
        return len(deals)

    def add(self, k: int, dealer: str | None = None) -> int:
        body = self.bodies[k % len(self.bodies)]
        if dealer is not None:  # the table dealt otherwise than the rotation says
            body = dict(body, dealer=dealer)
        for declarer in PLAYERS:  # whoever sits in this deal
            b = dict(body, declarer=declarer) if "matadors" in body or "won" in body else body
            if "declarers" in body or "passed" in body:
                b = body
            r = self.api.post(f"{API}/{self.sid}/deals", json=b, headers=self.right)
            if r.status_code == 201:
                return 201
        return int(r.status_code)

    def change(self, what: str, k: int) -> None:
        n = self.count()
        sid, right = self.sid, self.right
        go: dict[str, Callable[[], Any]] = {
            "add": lambda: self.add(k),
            "add2": lambda: self.add(k + 1),
            "dealer": lambda: self.add(k, dealer=PLAYERS[(k + 2) % len(PLAYERS)]),
            "correct": lambda: n and self.api.put(
                f"{API}/{sid}/deals/{1 + k % n}", json={"passed": True}, headers=right),
            "strike": lambda: n and self.api.delete(f"{API}/{sid}/deals/{1 + k % n}",
                                                    headers=right),
            "restore": lambda: n and self.api.post(f"{API}/{sid}/deals/{1 + k % n}/restore",
                                                   json={}, headers=right),
            "rename": lambda: self._rename(f"Abend {k}"),
            "rules": lambda: self.api.patch(f"{API}/{sid}", json={"rules": self.new_rules},
                                            headers=right),
            "close": lambda: self.api.post(f"{API}/{sid}/close", json={}, headers=right),
            "reopen": lambda: self.api.post(f"{API}/{sid}/reopen", json={}, headers=right),
        }  # fmt: skip
        go[what]()  # a change refused here (a closed sheet, nothing to strike) changes nothing

    def _rename(self, name: str) -> None:
        page = self.editor.get(f"/sheets/{self.sid}").data.decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        if token is None or 'action="/sheets/' not in page:
            return
        self.editor.post(f"/sheets/{self.sid}/rename",
                         data={"csrf_token": token.group(1), "name": name})  # fmt: skip
        self.editor.get(f"/sheets/{self.sid}")  # the redirect's page, its message shown once

    def pages(self) -> list[str]:
        out = []
        for client, path in self.views:
            r = client.get(path)
            out.append(f"{r.status_code} {path}\n{_norm(r.get_data(as_text=True))}")
        return out


@pytest.mark.parametrize(("game", "lan"), [("skat", False), ("skat", True), ("schafkopf", True)])
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=st.lists(st.sampled_from(CHANGES), min_size=1, max_size=5))
def test_every_view_after_changes_is_the_page_rendered_afresh(
    tmp_path_factory: pytest.TempPathFactory, game: str, lan: bool, changes: list[str]
) -> None:
    table = Table(_app(tmp_path_factory.mktemp("kept"), lan), game, lan)
    for k in range(3):
        table.add(k)
    table.pages()  # every kept part filled
    for k, what in enumerate(changes):
        table.change(what, k)
        kept = table.pages()
        again = table.pages()  # the kept pages themselves
        cache.clear()
        fresh = table.pages()
        for a, b, c in zip(kept, again, fresh, strict=True):
            assert a == c, (changes[: k + 1], a.splitlines()[0])
            assert b == c, (changes[: k + 1], b.splitlines()[0])


def test_the_blatt_pane_carries_this_pages_token_and_history(tmp_path: Path) -> None:
    """The kept pane is filled in per page: the CSRF token of this page's session (the same as
    in its other forms) and the history of this revision."""
    table = Table(_app(tmp_path, True), "skat", True)
    for k in range(2):
        table.add(k)
        page = table.editor.get(f"/sheets/{table.sid}").data.decode()
        pane = page[page.index('id="sheet-more"') : page.index('id="entry"')]
        assert "\x00" not in page
        tokens = set(re.findall(r'name="csrf_token" value="([^"]+)"', page))
        assert len(tokens) == 1 and tokens <= set(re.findall(r'value="([^"]+)"', pane))
        assert pane.count("eingetragen") == k + 1  # the history: one line per deal added
