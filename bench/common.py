"""What the benchmarks share: the table, a mix of deals as an evening has them, and a server of
this checkout on a free loopback port."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULES = {"kontra_re": False, "ramsch": False, "bock": ["60-60"], "stake_cents": 1}

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
DEALS = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50},
    {"passed": True},
    {"game": "null", "hand": True, "won": True},
    {"game": "clubs", "matadors": 3, "with": False, "hand": True, "declarer_points": 95},
    {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, stderr: Any = subprocess.DEVNULL, threads: str | None = None,
                 processes: str | None = None,
                 stdout: Any = subprocess.DEVNULL,
                 port: int | None = None) -> tuple[subprocess.Popen[bytes], int]:  # fmt: skip
    """``skatcalc serve`` of this checkout on a free loopback port with its own database
    (and ``--threads`` / ``--processes`` when given), returned once it answers."""
    port = port or free_port()
    extra = ["--threads", str(threads)] if threads else []
    extra += ["--processes", str(processes)] if processes else []
    server = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.server.cli", "serve", "--port", str(port), "--db", str(db),
         *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=stdout, stderr=stderr,
    )  # fmt: skip
    for _ in range(200):
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("GET", "/")
            probe.getresponse().read()
            probe.close()
            break
        except OSError:
            time.sleep(0.05)
    return server, port


def sheet_file(n: int) -> dict[str, Any]:
    """An evening of n deals as an export file (the import route stores it)."""
    from skatcalc.rules.sheet import SheetSpec, default_active

    spec = SheetSpec("skat", tuple(PLAYERS), "Anna", RULES)
    deals = []
    for k in range(n):
        dealer = PLAYERS[k % 4]
        active = default_active(spec, dealer)
        body = dict(DEALS[k % len(DEALS)])
        if "passed" not in body:
            body["declarer"] = active[k % 3]
        deals.append({"n": k + 1, "dealer": dealer, "active": list(active), "input": body})
    return {"name": f"{n} Spiele", "game": "skat", "players": PLAYERS, "first_dealer": "Anna",
            "rules": RULES, "deals": deals}  # fmt: skip
