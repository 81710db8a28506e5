"""German and English: the catalogue covers every message, and pages switch completely."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path
from typing import Any

from babel.messages.catalog import Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "skatcalc" / "translations" / "en" / "LC_MESSAGES"
METHODS = [("skatcalc/**.py", "python"), ("templates/**.html", "jinja2")]
# the translation functions of skatcalc/text.py and the rules' messages (Msg, pmsg,
# Errors.add), as in scripts/translate.py and the README
KEYWORDS = {"_": None, "gettext": None, "pgettext": ((1, "c"), 2), "ngettext": (1, 2),
            "translate": None, "ptranslate": ((1, "c"), 2), "Msg": None,
            "pmsg": ((1, "c"), 2), "add": (2,)}  # fmt: skip


def extracted() -> set[tuple[str | None, Any]]:
    out: set[tuple[str | None, Any]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), METHODS, keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            out.add((context, message))
        elif isinstance(message, tuple) and all(message):  # ngettext: (singular, plural)
            out.add((context, message))
    return out


def load_po() -> list[Message]:
    with (CATALOG / "messages.po").open("rb") as f:
        return [m for m in read_po(f) if m.id]


def test_every_message_has_an_english_translation() -> None:
    po = load_po()
    translated = {(m.context, m.id): m.string for m in po if m.id}
    used = extracted()
    assert len(used) > 100
    # a plural entry's translation is a tuple: every form must be filled in
    missing = sorted((m for m in used if not translated.get(m) or not all(translated[m])), key=str)
    assert missing == [], f"untranslated: {missing}"


# the same calls as KEYWORDS: name -> (index of the context or None, index of the msgid)
CALLS = {"_": (None, 0), "gettext": (None, 0), "translate": (None, 0), "Msg": (None, 0),
         "pgettext": (0, 1), "ptranslate": (0, 1), "pmsg": (0, 1), "add": (None, 1)}  # fmt: skip


def test_messages_inside_messages_are_translated_too() -> None:
    """pybabel skips a message written inside another one's parameters (Msg("%(x)s", x=Msg(
    "...")) in a list); the syntax tree of every module does not."""
    translated = {(m.context, m.id): m.string for m in load_po() if m.id}
    found = set()
    for path in sorted((ROOT / "skatcalc").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in CALLS:
                continue
            ctx_at, id_at = CALLS[name]
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            if len(args) <= id_at or not isinstance(args[id_at], str) or not args[id_at]:
                continue
            context = args[ctx_at] if ctx_at is not None else None
            found.add((context, args[id_at]))
    assert len(found) > 300
    missing = sorted((m for m in found if not translated.get(m)), key=str)
    assert missing == [], f"untranslated: {missing}"


def test_compiled_catalogue_matches_the_po_file() -> None:
    """The .mo the app loads gives every .po translation (update both with pybabel)."""
    with (CATALOG / "messages.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    for m in load_po():
        if isinstance(m.id, tuple | list):  # a plural entry: one and two in English
            forms = (mo.ngettext(m.id[0], m.id[1], 1), mo.ngettext(m.id[0], m.id[1], 2))
            assert forms == tuple(m.string), m.id
            continue
        got = mo.pgettext(m.context, m.id) if m.context else mo.gettext(m.id)
        assert got == m.string, (m.context, m.id)


def test_pages_switch_language_and_remember_it(client: FlaskClient) -> None:
    sid = client.post(
        "/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}
    ).get_json()["id"]
    de = client.get(f"/sheets/{sid}").data.decode()
    assert "Spiel 1" in de and 'lang="de"' in de
    en = client.get(f"/sheets/{sid}?lang=en").data.decode()
    assert "Deal 1" in en and 'lang="en"' in en and "Balance (zero-sum)" in en
    # remembered by cookie on the next page, without ?lang
    again = client.get("/skat").data.decode()
    assert "Calculate" in again and "Contract" in again
    for word in ("Berechnen", "Alleinspieler", "Speichern"):
        assert word not in again
    assert "Berechnen" in client.get("/skat?lang=de").data.decode()


def test_numbers_and_dates_per_locale(client: FlaskClient) -> None:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": ["A", "B", "C", "D"],
                                            "rules": {"tariffs": {"solo": 5000, "extra": 1000}}})  # fmt: skip
    sid = r.get_json()["id"]
    client.post(f"/api/v1/sheets/{sid}/deals", json={"game": "solo", "declarers": ["A"],
                                                     "won": True, "laufende": 4})  # fmt: skip
    de = client.get(f"/sheets/{sid}?lang=de").data.decode()
    en = client.get(f"/sheets/{sid}?lang=en").data.decode()
    assert "+27.000" in de and "+27,000" in en  # (5000 + 4 × 1000) × 3
    assert "90,00 €" in de and "90.00 €" in en
