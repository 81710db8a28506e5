"""A correction saved untouched through ``skatcalc serve`` behind nginx as docs/operations.md
puts it (CSRF on, rights from the edit link): the page's form, sent as a browser sends it,
stores the same deal with the same value (the Schwarz of Kreuz mit 1 stays: 48, not 24): in fact it
stores nothing, the deal keeps its version."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.deal_bodies import form_fields, normal
from tests.support import Served

API = "/api/v1/sheets"
SITE = "https://skat.example.org"


def test_an_untouched_correction_through_serve_and_nginx(behind_nginx: Served) -> None:
    made = behind_nginx.call("POST", API, json_body={"game": "skat", "players": ["A", "B", "C"]},
                             client="127.0.0.2")  # fmt: skip
    assert made.status == 201, made.body
    sheet = made.json()
    sid, bearer = sheet["id"], {"Authorization": f"Bearer {sheet['edit_token']}"}
    deals = [{"game": "clubs", "with": True, "matadors": 1, "won": True,
              "all_tricks": "declarer", "declarer": "B"},
             {"game": "diamonds", "with": True, "matadors": 3, "won": True,
              "schneider": True, "declarer": "C"}]  # fmt: skip
    for body in deals:
        r = behind_nginx.call("POST", f"{API}/{sid}/deals", json_body=body, headers=bearer,
                              client="127.0.0.2")  # fmt: skip
        assert r.status == 201, r.body
    link = behind_nginx.call("GET", f"/sheets/{sid}/edit/{sheet['edit_token']}",
                             client="127.0.0.2")  # fmt: skip
    edit = [c.split(";", 1)[0] for c in link.cookies() if c.startswith(f"edit_{sid}=")]
    assert edit
    before = behind_nginx.call("GET", f"{API}/{sid}", client="127.0.0.2").json()["deals"]
    assert [d["value"] for d in before] == [48, 45]
    for n in (1, 2):
        action = f"/sheets/{sid}/deals/{n}/edit"
        page = behind_nginx.call("GET", action, client="127.0.0.2",
                                 headers={"Cookie": edit[0]})  # fmt: skip
        assert page.status == 200
        session = [c.split(";", 1)[0] for c in page.cookies() if c.startswith("session=")]
        fields = form_fields(page.body.decode(), action)
        assert any(k == "csrf_token" for k, _v in fields)
        r = behind_nginx.call("POST", action, data=urlencode(fields).encode(), client="127.0.0.2",
                              headers={"Cookie": "; ".join([*edit, *session]),
                                       "Referer": f"{SITE}{action}",
                                       "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert r.status in (302, 303), r.body[:2000]
    after = behind_nginx.call("GET", f"{API}/{sid}", client="127.0.0.2").json()["deals"]
    for old, new in zip(before, after, strict=True):
        assert normal("skat", new["input"], old["dealer"]) == normal("skat", old["input"],
                                                                    old["dealer"])  # fmt: skip
        assert (new["value"], new["deltas"]) == (old["value"], old["deltas"])
        # nothing changed, nothing written: no new version, the body as it was
        assert new["version"] == old["version"]
        assert new["input"] == old["input"]
