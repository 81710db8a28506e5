"""A registered name corrected at the desk: ``event_desk.renamed`` rewrites a deal body (or a
deal's snapshot) wherever it names the player, and nothing else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skatcalc.jsontypes import JSONValue
from skatcalc.services.event_desk import renamed

NAMES = st.sampled_from(["Anna", "Bernt", "Carl"])
# a deal body as the games store it: names in the player keys, lists and Ramsch maps
BODIES = st.fixed_dictionaries(
    {"declarer": NAMES, "game": st.sampled_from(["grand", "null", "clubs"])},
    optional={
        "players": st.lists(NAMES, max_size=3),
        "ramsch": st.fixed_dictionaries(
            {
                "points": st.dictionaries(NAMES, st.integers(0, 120)),
                "jungfrau": st.lists(NAMES, max_size=2),
            }  # fmt: skip
        ),
    },
)


@given(BODIES, NAMES)
def test_renaming_there_and_back_gives_the_body(body: dict[str, JSONValue], old: str) -> None:
    new = "Bernd"  # a name no body holds yet
    assert renamed(renamed(body, old, new), new, old) == body


@given(BODIES, NAMES)
def test_a_renamed_body_names_the_old_player_nowhere(body: dict[str, JSONValue], old: str) -> None:
    assert old not in repr(renamed(body, old, "Bernd"))


def test_a_snapshot_is_renamed_inside_its_input() -> None:
    before: JSONValue = {
        "dealer": "Anna",
        "active": ["Anna", "Carl"],
        "input": {"declarer": "Anna"},
    }
    assert renamed(before, "Anna", "Ann") == {
        "dealer": "Ann", "active": ["Ann", "Carl"], "input": {"declarer": "Ann"}}  # fmt: skip
    assert renamed(7, "Anna", "Ann") == 7
