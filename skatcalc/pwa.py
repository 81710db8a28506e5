"""What makes the app installable and usable while the laptop is out of reach for a moment:
the service worker (served from the root so that its scope covers every page) and the page it
shows for a page it never saved (templates in ``pwa/``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, send_from_directory

bp = Blueprint("pwa", __name__)


@bp.get("/sw.js")
def service_worker() -> Response:
    resp = send_from_directory(current_app.static_folder or "", "sw.js", max_age=0)
    resp.headers["Content-Type"] = "text/javascript; charset=utf-8"
    resp.headers["Service-Worker-Allowed"] = "/"
    return resp


@bp.get("/offline")
def offline() -> str:
    return render_template("pwa/offline.html")
