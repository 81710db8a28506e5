"""The static files as pages link them: each under a name that carries its content's hash
(``style.3f9a2c1d7e.css``), answered with a year's ``immutable`` caching, so a returning phone
asks for nothing but the page; the stylesheets and scripts without their comments and
indentation, which a phone would otherwise download for nobody.

The one place that knows the hashed names: ``url_for('static', filename='style.css')`` gives
the hashed address everywhere (pages, the service worker's list), through a URL default. The
plain ``/static/<name>`` stays answered as it was (the file as written, revalidated each time),
for what an older page or an installed home-screen icon still asks for."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

import rjsmin
from flask import Flask, Response, current_app, request

YEAR = 365 * 24 * 3600
PACKABLE = ("text/", "application/manifest+json", "image/svg+xml")
_KEY = "skatcalc.assets"

# A CSS string literal is kept as written: `content: ": "` needs its spaces.
_CSS_STRING = re.compile(r"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')")
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def minify_css(text: str) -> str:
    """Comments and needless whitespace out; strings and the space before a `:` (a descendant's
    pseudo-class, `.seg :checked`) stay, so the rules mean what they meant.

    >>> minify_css('a > b , c { color: red ; }  /* x */ p::before { content: ": "; }')
    'a>b,c{color:red}p::before{content:": "}'
    """
    text = _CSS_COMMENT.sub("", text)
    parts = _CSS_STRING.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:  # a string literal
            out.append(part)
            continue
        part = re.sub(r"\s+", " ", part)
        part = re.sub(r" ?([{};,>]) ?", r"\1", part)
        part = re.sub(r": ", ":", part)
        out.append(part)
    return "".join(out).replace(";}", "}").strip()


def minify_js(text: str) -> str:
    """Comments and needless white space out, by rjsmin (a tokenising minifier: strings,
    regular expressions and template literals stay as written).

    >>> minify_js('// a\\nfunction f() {\\n  // b\\n  return `x // y`;\\n}\\n')
    'function f(){return`x // y`;}'
    """
    return str(rjsmin.jsmin(text))


@dataclass(frozen=True)
class Asset:
    """One static file as served under its hashed name."""

    name: str  # as in the folder: style.css
    hashed: str  # style.3f9a2c1d7e.css
    body: bytes
    mimetype: str
    packed: bytes | None  # gzipped once, as hard as gzip goes: every phone gets these bytes

    @property
    def tag(self) -> str:
        return self.hashed.split(".")[-2]


def _prepare(name: str, data: bytes) -> Asset:
    if name.endswith(".css"):
        data = minify_css(data.decode("utf-8")).encode("utf-8")
    elif name.endswith(".js"):
        data = minify_js(data.decode("utf-8")).encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:10]
    stem, dot, ext = name.rpartition(".")
    hashed = f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if name.endswith(".webmanifest"):
        mimetype = "application/manifest+json"
    packed = None
    if mimetype.startswith(PACKABLE) and len(data) >= 1024:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    return Asset(name, hashed, data, mimetype, packed)


@dataclass(frozen=True)
class Assets:
    by_name: dict[str, Asset]
    by_hashed: dict[str, Asset]

    @property
    def names(self) -> str:
        """Every file's hashed name: what a page that links them follows from."""
        return " ".join(sorted(self.by_hashed))


def build(folder: str | Path) -> Assets:
    """Every file of the static folder (not below it) under its hashed name.

    Built once per process for the same files (by name and content): the minified, gzipped
    forms cost some 20 ms of CPU, and a process that makes several apps (the tests make
    hundreds) would otherwise build the same table for each."""
    files = sorted(p for p in Path(folder).iterdir() if p.is_file())
    raw = [p.read_bytes() for p in files]
    key = tuple((p.name, hashlib.sha256(data).digest()) for p, data in zip(files, raw, strict=True))
    table = _BUILT.get(key)
    if table is None:
        found = [_prepare(p.name, data) for p, data in zip(files, raw, strict=True)]
        table = Assets({a.name: a for a in found}, {a.hashed: a for a in found})
        _BUILT.clear()  # only the newest: a changed file makes the old table useless
        _BUILT[key] = table
    return table


_BUILT: dict[tuple[tuple[str, bytes], ...], Assets] = {}


def assets() -> Assets:
    table: Assets = current_app.extensions[_KEY]
    return table


def _url_default(endpoint: str, values: dict[str, object]) -> None:
    if endpoint != "static":
        return
    filename = values.get("filename", "")
    asset = assets().by_name.get(filename) if isinstance(filename, str) else None
    if asset is not None:
        values["filename"] = asset.hashed


def init_app(app: Flask) -> None:
    # Read once per app: the files do not change while it runs (a new version is a restart).
    app.extensions[_KEY] = build(app.static_folder or "static")
    plain = app.view_functions["static"]

    def static(filename: str) -> Response:
        asset = assets().by_hashed.get(filename)
        if asset is None:
            answer = plain(filename=filename)
            assert isinstance(answer, Response)  # Flask's send_static_file
            return answer
        text = asset.mimetype.startswith("text/")
        resp = Response(
            asset.body, content_type=asset.mimetype + ("; charset=utf-8" if text else "")
        )
        packed = asset.packed is not None and request.accept_encodings["gzip"] > 0
        if asset.packed is not None:
            resp.vary.add("Accept-Encoding")
            if packed:
                resp.set_data(asset.packed)
                resp.headers["Content-Encoding"] = "gzip"
        resp.set_etag(asset.tag, weak=packed)  # the same content, other bytes when packed
        resp.cache_control.public = True
        resp.cache_control.max_age = YEAR
        resp.cache_control.immutable = True
        resp.make_conditional(request)  # in place: a 304 when the tag matches
        return resp

    app.view_functions["static"] = static
    app.url_defaults(_url_default)
