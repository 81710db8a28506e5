"""What makes the app installable and usable while the laptop is out of reach for a moment:
the service worker (a template, served from the root so that its scope covers every page) and the page it
shows for a page it never saved (templates in ``pwa/``)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, render_template, request, url_for

from skatcalc import exports

bp = Blueprint("pwa", __name__)


@bp.get("/sw.js")
def service_worker() -> Response:
    # A template, so the downloads the worker lets pass are the exports registry's (in a fixed
    # order: the same formats give the same bytes, and the browser keeps its installed worker).
    pattern = "|".join(sorted(f.extension for f in exports.formats()))
    # The static files under their hashed names: a new version of one is a new worker.
    names = ("style.css", "app.js", "icon.svg", "icon-192.png", "manifest.webmanifest")
    static_urls = ", ".join(json.dumps(url_for("static", filename=n)) for n in names)
    body = (
        render_template("pwa/sw.js", export_pattern=pattern, static_urls=static_urls) + "\n"
    )  # Jinja drops the last
    resp = Response(body, content_type="text/javascript; charset=utf-8")
    resp.headers["Service-Worker-Allowed"] = "/"
    resp.cache_control.no_cache = True  # the browser asks again each time; a 304 is enough
    resp.cache_control.max_age = 0
    resp.add_etag()
    resp.make_conditional(request)  # in place: a 304 when the tag matches
    return resp


@bp.get("/offline")
def offline() -> str:
    return render_template("pwa/offline.html")
