"""Engine benchmark: perft and legal-move generation, against two peers.

Run from the repository root::

    python bench/engine_bench.py            # full run, about two minutes
    python bench/engine_bench.py --quick    # smoke run, a few seconds
    python bench/engine_bench.py --full     # also cchess perft(4) of the start (very slow)

What it prints, side by side in one run:

* perft of the xiangqi start (depths 3 and 4) and of three middlegames
  (depth 3), for this engine and for ``cchess`` (pure Python, PyPI cchess
  1.25.5). cchess has no perft of its own: the loop here counts with its
  legal-move API (``ChessBoard.create_moves`` filtered by
  ``is_checked_move``, a ``copy()`` of the board for each child), which is
  the way its own ``no_moves`` finds legal moves. Node counts of both are
  compared; cchess perft(4) of the start is estimated from its depth-3 speed
  unless ``--full`` is given.
* the time of one legal-move list, FEN parsing included (median over many
  runs), for this engine, cchess and Fairy-Stockfish through ``pyffish``
  (C++, one ``legal_moves(variant, fen, [])`` call, which also parses the FEN);
* perft(3) of the feidan and xinban starts (no peer plays these variants);
* Fairy-Stockfish's own perft (``/usr/games/fairy-stockfish``, UCI
  ``go perft N`` with ``UCI_Variant xiangqi``; wall time of the search,
  from the command to its node count, the engine started and the position
  set beforehand) on the same positions;
* the compiled engine against the plain Python sources (a child process
  with ``ENGINE_PURE=1``): perft(3) of the start and a middlegame list;
* the ratios, and the goals: perft at least 500x faster than cchess,
  perft(3) of the start about 30 ms, perft(4) at most 0.7 s, a middlegame
  legal-move list at most 20 microseconds (median).

Our perft times are the median of ``--repeat`` runs (3 by default).

Times are CPU time of the benchmark process (``time.process_time``), so that
other programs sharing the machine disturb them little; the load average is
printed at the top all the same.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uci import UciEngine  # noqa: E402

import engine  # noqa: E402
from engine import Position, perft  # noqa: E402

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MIDDLEGAMES = {
    "middlegame A": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "middlegame B": "r1bakabr1/9/1cn3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 1 6",
    "middlegame C": "1nbCka2r/4r4/4b3n/pc2p1p2/P2P4p/1Npc5/2P3P1P/R7N/4AR3/2BCKAB2 w - - 21 21",
}
BARE = "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"
GOAL_CCHESS_RATIO = 500.0
GOAL_PERFT3 = 0.03
GOAL_PERFT4 = 0.7
GOAL_LIST_US = 20.0
FAIRY_STOCKFISH = os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish")
REPEAT = 3


# -- peers ------------------------------------------------------------------------


def cchess_available() -> bool:
    try:
        import cchess  # noqa: F401
    except ImportError:
        return False
    return True


def pyffish_available() -> bool:
    try:
        import pyffish  # noqa: F401
    except ImportError:
        return False
    return True


def cchess_legal(board: object) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """cchess's legal moves: its generated moves that do not leave the mover in check."""
    return [m for m in board.create_moves() if not board.is_checked_move(m[0], m[1])]  # type: ignore[attr-defined]


def cchess_perft(board: object, depth: int) -> int:
    moves = cchess_legal(board)
    if depth == 1:
        return len(moves)
    total = 0
    for frm, to in moves:
        child = board.copy()  # type: ignore[attr-defined]
        child._move_piece(frm, to)
        child.next_turn()
        total += cchess_perft(child, depth - 1)
    return total


# -- timing -------------------------------------------------------------------------


# CPU time of this process rather than wall time: the figures stay close to
# those of an idle machine when other programs share the processors.
clock_ns = time.process_time_ns


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = clock_ns()
    result = fn()
    return result, (clock_ns() - start) / 1e9


def timed_median(fn: Callable[[], int], runs: int) -> tuple[int, float]:
    """The result and the median time of ``runs`` calls."""
    results = [timed(fn) for _ in range(max(runs, 1))]
    return results[0][0], statistics.median(seconds for _, seconds in results)


class FairyStockfish(UciEngine):
    """Fairy-Stockfish over UCI, for its own ``go perft``."""

    def cpu(self) -> float | None:
        """CPU seconds the engine process has used (Linux; 10 ms steps)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def perft(self, fen: str, depth: int) -> tuple[int, float, float | None]:
        """Leaf count, wall seconds and CPU seconds of ``go perft depth``."""
        self._send(f"position fen {fen}")
        self._send("isready")
        self._wait("readyok")
        cpu = self.cpu()
        start = time.perf_counter()
        self._send(f"go perft {depth}")
        line = self._wait("Nodes searched")[-1]
        seconds = time.perf_counter() - start
        after = self.cpu()
        used = after - cpu if after is not None and cpu is not None else None
        return int(line.split(":")[1]), seconds, used

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


def sf_basis(wall: float, cpu: float | None) -> float:
    """Fairy-Stockfish's time to compare with ours: its CPU time once it is long enough to
    be read in 10 ms steps, its wall time otherwise."""
    return cpu if cpu is not None and cpu >= 0.1 else wall


def fairy_stockfish() -> FairyStockfish | None:
    path = shutil.which(FAIRY_STOCKFISH)
    return FairyStockfish(path) if path else None


def median_us(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm up
    samples = []
    for _ in range(runs):
        start = clock_ns()
        fn()
        samples.append(clock_ns() - start)
    return statistics.median(samples) / 1000.0


def fmt_s(seconds: float | None, estimated: bool = False) -> str:
    if seconds is None:
        return "-"
    text = f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"
    return f"~{text}" if estimated else text


def fmt_ratio(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.1f}x"


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)), line]
    for row in rows:
        cells = zip(row, widths, strict=True)
        out.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(cells)))
    return "\n".join(out)


# -- sections -----------------------------------------------------------------------


def perft_section(quick: bool, full: bool, repeat: int) -> tuple[str, dict[str, float | None]]:
    has_cchess = cchess_available()
    fsf = fairy_stockfish()
    if has_cchess:
        import cchess
    cases: list[tuple[str, str, int, bool]] = []  # name, fen, depth, run cchess
    if quick:
        cases.append(("xiangqi start", START, 2, True))
        cases.append(("xiangqi start", START, 3, False))
        cases += [(name, fen, 2, True) for name, fen in list(MIDDLEGAMES.items())[:1]]
    else:
        cases.append(("xiangqi start", START, 3, True))
        cases.append(("xiangqi start", START, 4, full))
        cases += [(name, fen, 3, True) for name, fen in MIDDLEGAMES.items()]
    rows = []
    figures: dict[str, float | None] = {}
    ratios = []  # measured (not estimated) speed-ups over cchess
    cchess_rate = None  # nodes per second of cchess on the start, for estimates
    for name, fen, depth, run_cchess in cases:
        nodes, ours = timed_median(
            lambda fen=fen, depth=depth: perft(Position.from_fen("xiangqi", fen), depth), repeat
        )
        theirs: float | None = None
        estimated = False
        agree = ""
        if has_cchess and run_cchess:
            their_nodes, theirs = timed(
                lambda fen=fen, depth=depth: cchess_perft(cchess.ChessBoard(fen), depth)
            )
            agree = "yes" if their_nodes == nodes else f"NO ({their_nodes})"
            if name == "xiangqi start":
                cchess_rate = their_nodes / theirs
        elif has_cchess and cchess_rate:
            theirs = nodes / cchess_rate
            estimated = True
            agree = "(not run)"
        ratio = theirs / ours if theirs else None
        sf_seconds: float | None = None
        sf_cpu: float | None = None
        if fsf is not None:
            sf_nodes, sf_seconds, sf_cpu = min(
                (fsf.perft(fen, depth) for _ in range(max(repeat, 1))), key=lambda r: r[1]
            )
            if sf_nodes != nodes:
                agree += f" (fairy-stockfish: {sf_nodes})"
        rows.append(
            [
                name,
                str(depth),
                f"{nodes:,}",
                fmt_s(ours),
                fmt_s(theirs, estimated),
                fmt_ratio(ratio),
                fmt_s(sf_seconds),
                "-" if sf_cpu is None else fmt_s(sf_cpu),
                "-" if sf_seconds is None else f"{sf_basis(sf_seconds, sf_cpu) / ours:.3f}x",
                agree,
            ]
        )
        if sf_seconds is not None:
            figures[f"{name} d{depth} fairy-stockfish"] = sf_seconds
        figures[f"{name} d{depth}"] = ours
        if ratio is not None and not estimated:
            ratios.append(ratio)
    figures["min cchess ratio"] = min(ratios) if ratios else None
    text = table(
        [
            "perft (xiangqi)",
            "depth",
            "nodes",
            "ours s",
            "cchess s",
            "ours vs cchess",
            "fairy-sf s",
            "fairy-sf cpu s",
            "ours vs fairy-sf",
            "same count",
        ],
        rows,
    )
    if not has_cchess:
        text += "\n(cchess is not installed: its columns are empty)"
    if fsf is None:
        text += f"\n({FAIRY_STOCKFISH} not found: the fairy-sf columns are empty)"
    else:
        fsf.close()
        text += (
            "\n(ours: median CPU time of the runs; fairy-sf: its best wall time, one thread, and"
            " the CPU time of that run in 10 ms steps; the ratio is its time (CPU from 0.1 s up, else"
            " wall) over ours; below 1x Fairy-Stockfish is faster)"
        )
    return text, figures


def legal_list_section(quick: bool) -> tuple[str, dict[str, float | None]]:
    runs = 30 if quick else 300
    has_cchess = cchess_available()
    has_sf = pyffish_available()
    if has_cchess:
        import cchess
    if has_sf:
        import pyffish as sf
    rows = []
    figures: dict[str, float | None] = {}
    positions = {"xiangqi start": START, **MIDDLEGAMES}
    for name, fen in positions.items():
        ours = median_us(lambda fen=fen: len(Position.from_fen("xiangqi", fen).legal_moves), runs)
        parsed = Position.from_fen("xiangqi", fen)

        def generate_only(pos: Position = parsed) -> int:
            pos.push_pass()  # a pass and its take-back forget the computed moves
            pos.pop_code()
            return len(pos.legal_codes())

        gen_only = median_us(generate_only, runs)
        theirs = (
            median_us(lambda fen=fen: len(cchess_legal(cchess.ChessBoard(fen))), max(runs // 3, 10))
            if has_cchess
            else None
        )
        ff = (
            median_us(lambda fen=fen: len(sf.legal_moves("xiangqi", fen, [])), runs)
            if has_sf
            else None
        )
        rows.append(
            [
                name,
                f"{ours:.1f}",
                f"{gen_only:.1f}",
                "-" if theirs is None else f"{theirs:.0f}",
                "-" if ff is None else f"{ff:.1f}",
                fmt_ratio(theirs / ours if theirs else None),
                "-" if ff is None else f"{ff / ours:.2f}x",
            ]
        )
        if name != "xiangqi start":
            figures["max middlegame list us"] = max(
                figures.get("max middlegame list us") or 0.0, ours
            )
    text = table(
        [
            "one legal-move list (median)",
            "ours us",
            "ours, no parse",
            "cchess us",
            "pyffish us",
            "ours vs cchess",
            "ours vs pyffish",
        ],
        rows,
    )
    text += "\n(FEN parsing included except in 'no parse'; a ratio above 1x means ours is faster)"
    if has_sf:
        floor = median_us(lambda: sf.legal_moves("xiangqi", BARE, []), runs)
        text += (
            f"\n(pyffish costs about {floor:.0f} us per call even for a bare position"
            " with two generals and an advisor: its column measures the call, not move generation)"
        )
    return text, figures


PURE_PROBE = """
import statistics, sys, time
from engine import COMPILED, Position, perft
assert not COMPILED
fen, mid, runs, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
clock = time.process_time_ns
times = []
for _ in range(repeat):
    start = clock()
    perft(Position.from_fen("xiangqi", fen), 3)
    times.append(clock() - start)
lists = []
for _ in range(runs):
    start = clock()
    len(Position.from_fen("xiangqi", mid).legal_moves)
    lists.append(clock() - start)
print(statistics.median(times) / 1e9, statistics.median(lists) / 1e3)
"""


def compiled_section(quick: bool, repeat: int) -> tuple[str, dict[str, float | None]]:
    """The same two measurements here and in a child process on the plain sources."""
    runs = 30 if quick else 300
    mid = MIDDLEGAMES["middlegame B"]
    _, here_perft = timed_median(lambda: perft(Position.from_fen("xiangqi", START), 3), repeat)
    here_list = median_us(lambda: len(Position.from_fen("xiangqi", mid).legal_moves), runs)
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", PURE_PROBE, START, mid, str(runs), str(repeat)],
        cwd=root,
        env={**os.environ, "ENGINE_PURE": "1", "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    pure_perft, pure_list = (float(x) for x in result.stdout.split())
    mode = "compiled (mypyc)" if engine.COMPILED else "plain Python (no compiled build)"
    rows = [
        ["perft(3) of the start, s", fmt_s(pure_perft), fmt_s(here_perft)],
        ["middlegame B list, us", f"{pure_list:.1f}", f"{here_list:.1f}"],
    ]
    rows = [[*r, f"{float(r[1]) / float(r[2]):.1f}x"] for r in rows]
    text = table(["this engine", "plain Python", mode, "speed-up"], rows)
    return text, {"pure perft3": pure_perft}


def variants_section(quick: bool) -> tuple[str, dict[str, float | None]]:
    depth = 2 if quick else 3
    rows = []
    figures: dict[str, float | None] = {}
    for variant in ("feidan", "xinban"):
        nodes, seconds = timed(lambda variant=variant: perft(Position.start(variant), depth))
        rows.append([f"{variant} start", str(depth), f"{nodes:,}", fmt_s(seconds)])
        figures[f"{variant} d{depth}"] = seconds
    return table(["perft (no peer)", "depth", "nodes", "ours s"], rows), figures


def goals_section(figures: dict[str, float | None], quick: bool) -> str:
    def check(value: float | None, ok: bool) -> str:
        return "-" if value is None else ("met" if ok else "MISSED")

    ratio = figures.get("min cchess ratio")
    d3 = figures.get("xiangqi start d3")
    d4 = figures.get("xiangqi start d4")
    lst = figures.get("max middlegame list us")
    rows = [
        [
            f"perft >= {GOAL_CCHESS_RATIO:.0f}x faster than cchess",
            fmt_ratio(ratio) + " (lowest)" if ratio else "-",
            check(ratio, ratio is not None and ratio >= GOAL_CCHESS_RATIO),
        ],
        [
            f"perft(3) of the start about {GOAL_PERFT3} s",
            fmt_s(d3),
            check(d3, d3 is not None and d3 <= GOAL_PERFT3 * 1.1),
        ],
        [
            f"perft(4) of the start <= {GOAL_PERFT4} s",
            fmt_s(d4),
            check(d4, d4 is not None and d4 <= GOAL_PERFT4),
        ],
        [
            f"middlegame legal-move list <= {GOAL_LIST_US:.0f} us",
            "-" if lst is None else f"{lst:.1f} us (slowest)",
            check(lst, lst is not None and lst <= GOAL_LIST_US),
        ],
    ]
    text = table(["goal", "measured", ""], rows)
    if quick:
        text += "\n(--quick: small depths, the perft goals are not all measured)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run with small depths")
    parser.add_argument("--full", action="store_true", help="also run cchess perft(4) of the start")
    parser.add_argument(
        "--repeat", type=int, default=REPEAT, help="runs of each of our perfts (the median counts)"
    )
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    mode = "quick" if args.quick else "full"
    build = "compiled engine" if engine.COMPILED else "plain Python engine"
    print(
        f"engine benchmark ({mode}, {build}), python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cpu, load average {load:.2f}"
    )
    print()
    figures: dict[str, float | None] = {}
    for section in (
        lambda: perft_section(args.quick, args.full, args.repeat),
        lambda: legal_list_section(args.quick),
        lambda: compiled_section(args.quick, args.repeat),
        lambda: variants_section(args.quick),
    ):
        text, found = section()
        figures.update(found)
        print(text)
        print()
    print(goals_section(figures, args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
