"""Service benchmark: the position API and the bank's re-proof, compiled engine against the
plain Python sources.

Run from the repository root::

    python bench/service_bench.py            # about two minutes
    python bench/service_bench.py --quick    # smoke run, a few seconds

What it prints, side by side in one run, here and in a child process on the plain sources
(``ENGINE_PURE=1``, the peer):

* the position API (``POST /api/positions/``, through Django's test client with
  ``config.settings.test``; the view's answer cache is emptied before every request, so each
  one parses the FEN, plays the moves and lists the legal moves): the median time of one
  request, for a xiangqi middlegame with two moves, the feidan start with two moves and the
  xinban start, and of the service it calls (``core.services.position_analyse``: the engine's
  work, notation included, without HTTP, DRF and JSON);
* the bank's re-proof (``puzzles.bankfile.reprove_entry``, what ``manage.py reprove_bank``
  runs in each worker) of a fixed sample of the shipped bank: the entries of each variant
  around its median stored proof time, in CPU time of the whole sample (each entry must still
  prove sound);
* one FEN read (``Position.from_fen`` of the middlegame), one legal-move list with the read,
  and the read with the Chinese name of every legal move (``engine/notation.py``), the
  engine's share of a request.

Times are CPU time of the process (``time.process_time``); the ratios are what counts on a
shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MIDDLEGAME = "r1bakabr1/9/1cn3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 1 6"
REQUESTS = {
    "xiangqi middlegame, 2 moves": {"variant": "xiangqi", "fen": MIDDLEGAME, "moves": ["g6g7", "c7e8"]},
    "feidan start, 2 moves": {"variant": "feidan", "moves": ["c2f2", "c7f7"]},
    "xinban start": {"variant": "xinban"},
}  # fmt: skip
SAMPLE_PER_VARIANT = 8


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm up
    samples = []
    for _ in range(runs):
        start = time.process_time_ns()
        fn()
        samples.append(time.process_time_ns() - start)
    return statistics.median(samples) / 1e9


def api_figures(runs: int) -> dict[str, float]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.test import Client

    from core.api import ANSWERS
    from core.services import position_analyse

    client = Client()
    figures = {}
    for name, body in REQUESTS.items():

        def request(body: dict[str, Any] = body) -> None:
            ANSWERS.clear()
            response = client.post("/api/positions/", body, content_type="application/json")
            assert response.status_code == 200, response.content

        def service(body: dict[str, Any] = body) -> None:
            position_analyse(variant=body["variant"], fen=body.get("fen"),
                             moves=body.get("moves", ()))  # fmt: skip

        figures[f"POST /api/positions/: {name}, ms"] = median_seconds(request, runs)
        figures[f"  the service alone (position_analyse), {name}, ms"] = median_seconds(
            service, runs
        )
    return figures


def bank_sample(per_variant: int) -> list[dict[str, Any]]:
    """The ``per_variant`` entries of each variant whose stored proof times lie nearest the
    variant's median (ties by key): typical puzzles, not the few that take a minute."""
    from puzzles.bankfile import read_bank

    entries = read_bank()
    sample = []
    for variant in sorted({e["variant"] for e in entries}):
        mine = sorted((e for e in entries if e["variant"] == variant),
                      key=lambda e: (e["seconds"], e["key"]))  # fmt: skip
        middle = len(mine) // 2
        start = max(0, middle - per_variant // 2)
        sample += mine[start : start + per_variant]
    return sample


def reprove_figure(per_variant: int) -> tuple[float, int]:
    from puzzles.bankfile import reprove_entry

    sample = bank_sample(per_variant)
    start = time.process_time()
    results = [reprove_entry(entry) for entry in sample]
    seconds = time.process_time() - start
    failed = [r.key for r in results if not r.ok]
    assert not failed, f"no longer sound: {failed}"
    return seconds, len(sample)


def engine_figures(runs: int) -> dict[str, float]:
    from engine import Position

    return {
        "one FEN read": median_seconds(lambda: Position.from_fen("xiangqi", MIDDLEGAME), runs),
        "FEN read + legal-move list": median_seconds(
            lambda: len(Position.from_fen("xiangqi", MIDDLEGAME).legal_moves), runs
        ),
        "FEN read + legal moves in Chinese": median_seconds(
            lambda: chinese_names(Position.from_fen("xiangqi", MIDDLEGAME)), runs
        ),
    }


def chinese_names(pos: Any) -> list[str]:
    return [pos.chinese(m) for m in pos.legal_moves]


def measure(quick: bool) -> dict[str, Any]:
    runs = 20 if quick else 200
    per_variant = 2 if quick else SAMPLE_PER_VARIANT
    seconds, count = reprove_figure(per_variant)
    import engine

    return {
        "compiled": engine.COMPILED,
        "api": api_figures(runs),
        "reprove": seconds,
        "reprove_count": count,
        "engine": engine_figures(runs * 10),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.quick)))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    here = measure(args.quick)
    child = subprocess.run(
        [sys.executable, __file__, "--child", *(["--quick"] if args.quick else [])],
        cwd=ROOT,
        env={**os.environ, "ENGINE_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    pure = json.loads(child.stdout.strip().splitlines()[-1])
    assert not pure["compiled"]
    mode = "compiled (mypyc)" if here["compiled"] else "plain Python (no compiled build)"
    print(f"service benchmark, python {sys.version.split()[0]}, load average {load:.2f}")
    print()
    rows = [[name, pure["api"][name] * 1e3, here["api"][name] * 1e3] for name in here["api"]]
    rows.append(
        [f"bank re-proof, {here['reprove_count']} puzzles, s", pure["reprove"], here["reprove"]]
    )
    rows += [[f"{name}, us", pure["engine"][name] * 1e6, here["engine"][name] * 1e6]
             for name in here["engine"]]  # fmt: skip
    header = ["median per request (CPU)", "plain Python", mode, "speed-up"]
    cells = [[name, f"{p:.3f}", f"{h:.3f}", f"{p / h:.2f}x"] for name, p, h in rows]
    widths = [max(len(r[i]) for r in [header, *cells]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(
            "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
