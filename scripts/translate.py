"""Add English translations for new German texts, then compile the catalogue.

    python scripts/translate.py "Vorhand=Forehand" "Eintrag in der Skatliste=Entry in the Skat list"

Runs the same steps as the README (extract, update, compile) and fails on any text that is
still untranslated, so a new message cannot slip through.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "skatcalc" / "translations" / "en" / "LC_MESSAGES" / "messages.po"
# skatcalc/text.py's translation functions and the rules' messages (rules/common.py: Msg,
# pmsg, Errors.add): the text (and a context) pybabel collects
KEYWORDS = ["-k", "_", "-k", "pgettext:1c,2", "-k", "translate", "-k", "ptranslate:1c,2",
            "-k", "Msg", "-k", "pmsg:1c,2", "-k", "add:2"]  # fmt: skip


def main(pairs: list[str]) -> int:
    pot = ROOT / "build" / "messages.pot"
    pot.parent.mkdir(exist_ok=True)
    run = ["pybabel"]
    subprocess.run([*run, "extract", "-F", "babel.cfg", *KEYWORDS, "-o", str(pot), "."],
                   cwd=ROOT, check=True, capture_output=True)  # fmt: skip
    subprocess.run([*run, "update", "-i", str(pot), "-d", "skatcalc/translations",
                    "--no-fuzzy-matching"], cwd=ROOT, check=True, capture_output=True)  # fmt: skip
    given = dict(p.split("=", 1) for p in pairs)
    with PO.open("rb") as f:
        catalog = read_po(f)
    for msg in catalog:
        if msg.id and not msg.string and msg.id in given:
            msg.string = given[msg.id]
    missing = [m.id for m in catalog if m.id and not m.string]
    with PO.open("wb") as f:
        write_po(f, catalog, width=100, ignore_obsolete=True)
    subprocess.run([*run, "compile", "-d", "skatcalc/translations"], cwd=ROOT, check=True,
                   capture_output=True)  # fmt: skip
    if missing:
        print("untranslated:", *missing, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
