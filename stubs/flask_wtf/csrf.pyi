from typing import Any

from flask import Flask

class CSRFProtect:
    def __init__(self, app: Flask | None = ...) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def exempt(self, view: Any) -> Any: ...
    def protect(self) -> None: ...

class CSRFError(Exception):
    description: str

def generate_csrf(secret_key: str | None = ..., token_key: str | None = ...) -> str: ...
def validate_csrf(
    data: str | None,
    secret_key: str | None = ...,
    time_limit: int | None = ...,
    token_key: str | None = ...,
) -> None: ...
