"""skatcalc: score keeper and game-value calculator for Skat and Schafkopf.

Importing the package loads nothing else: the pure rules (``skatcalc.rules``) and the games
(``skatcalc.games``) can be used without Flask, WTForms or sqlite-utils. The app factory lives in
``skatcalc.app`` and stays importable as ``skatcalc.create_app`` (loaded on first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from flask_wtf.csrf import CSRFProtect

    from .app import create_app as create_app

    csrf: CSRFProtect

# Names of skatcalc.app that users and the blueprints reach through the package.
_LAZY = ("create_app", "csrf")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module 'skatcalc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
