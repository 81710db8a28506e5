"""The download formats of a sheet, each registered once (as Datasette registers its output
renderers): ``export.<extension>`` answers through the registry, and the sheet page's links and
the service worker's list of downloads are read from it instead of being written out again."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sqlite_utils import Database

from skatcalc.services.sheets import Sheet


@dataclass(frozen=True)
class Format:
    extension: str  # the address's ``export.<extension>`` and the file name's
    mimetype: str  # the bare type: Werkzeug adds "; charset=utf-8" to a text/ type itself
    label: str  # the link's text on the sheet page (a format's name: the same in every language)
    # (database, the sheet the request loaded, language) -> the file's bytes
    render: Callable[[Database, Sheet, str], bytes]


# In registration order: the order of the sheet page's links.
FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Adds ``fmt`` (or replaces the format of its extension). The extension goes into
    addresses and into the service worker's pattern, so it is lower-case letters and digits."""
    if not re.fullmatch(r"[a-z0-9]+", fmt.extension):
        raise ValueError(f"not an extension: {fmt.extension!r}")
    FORMATS[fmt.extension] = fmt
    return fmt


def formats() -> list[Format]:
    return list(FORMATS.values())
