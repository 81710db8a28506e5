"""What makes the app installable and usable while the laptop is out of reach for a moment:
the service worker (a template, served from the root so that its scope covers every page) and the page it
shows for a page it never saved (templates in ``pwa/``)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request, url_for

from skatcalc import exports

bp = Blueprint("pwa", __name__)

#: What the worker keeps when it is installed, in one place: the pages a phone may open while
#: the laptop is out of reach (by endpoint) and the static files every page loads (by name).
#: Both are made into addresses by ``url_for``, so a change in how static files are addressed
#: (a content hash in the name, say) changes the worker's list with it.
PRECACHE_PAGES = ("calculators.index", "pwa.offline", "calculators.skat",
                  "calculators.schafkopf", "calculators.bids")  # fmt: skip
PRECACHE_STATIC = ("style.css", "app.js", "icon.svg", "icon-192.png", "manifest.webmanifest")


def precache() -> list[str]:
    """The addresses the service worker fetches and keeps at its install."""
    return [url_for(e) for e in PRECACHE_PAGES] + [
        url_for("static", filename=f) for f in PRECACHE_STATIC
    ]


@bp.get("/sw.js")
def service_worker() -> Response:
    # A template, so the downloads the worker lets pass are the exports registry's (in a fixed
    # order: the same formats give the same bytes, and the browser keeps its installed worker).
    pattern = "|".join(sorted(f.extension for f in exports.formats()))
    body = render_template("pwa/sw.js", export_pattern=pattern, precache=precache())
    body += "\n"  # Jinja drops the template's last newline
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
