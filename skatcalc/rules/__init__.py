"""What is common to the games, pure: no Flask, no database, no I/O. Each game's own rules
are in its package, ``skatcalc/games/<game>/``."""

from .common import FieldError, InvalidDeal, Msg

__all__ = ["FieldError", "InvalidDeal", "Msg"]
