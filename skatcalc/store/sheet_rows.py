"""The one decoder of a stored sheet row, as the club's store reads sheets (a player's sheets,
a group's, a club night's tables): the sheets' own (``db._sheet`` today). When the sheets'
store holds it, this line points there and nothing else in the club's store changes."""

from __future__ import annotations

from .records import sheet_of as decode_sheet

__all__ = ["decode_sheet"]
