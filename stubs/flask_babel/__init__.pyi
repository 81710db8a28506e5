# The part of Flask-Babel this app uses (the package ships no types).
from collections.abc import Callable
from typing import Any

from babel import Locale
from flask import Flask

class Babel:
    def __init__(self, app: Flask | None = ..., **kwargs: Any) -> None: ...
    def init_app(
        self, app: Flask, locale_selector: Callable[[], str | None] | None = ..., **kwargs: Any
    ) -> None: ...

def get_locale() -> Locale | None: ...
