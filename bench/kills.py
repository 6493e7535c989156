"""The prover on long kills from real games: a set of master-game finishes of 6 to 20 moves, and
how many of them the prover decides in full mode within a budget, against Fairy-Stockfish.

The set (``bench/records/kills.json``) is built from the shipped master games
(``core/data/master-games/master-games.jsonl.gz``) that end in checkmate on the board by this
site's rules (348 of 27,950), in an order drawn from ``--seed``. From each game one kill: the
position ``k`` of the winner's moves before the mate (the kill as it was played), for k = 6, 8,
10, ... up to 20, going back while Fairy-Stockfish (``go mate k``, one thread, at most
``--peer-seconds``) finds a forced mate there; the longest such position is kept, with the
length ``j`` the peer found (shorter than the kill as played where the player missed a faster
one) when ``j`` is 6 to 20. Positions the bank holds (the same game and ply) are left out; a
game whose kill is not forced 6 moves out gives none. The first ``--mated`` such games are looked
at; then games the loser resigned (won 1-0 or 0-1, the record ending with no end by the rules)
give the winner's last position to move in, kept when the peer's ``go mate 20`` finds a mate of
6 to 20 moves there. The set stops at ``--count`` entries; ``played`` is the kill's length as
played (none for a resignation).

Measured (``--measure``): each entry is put to the prover as "mate in ``j``, full mode" (every
defence, every first move: sound and unique, cooked, shorter or no win) within ``--seconds`` of
wall clock each, CPU seconds counted; "decided" is any answer but ``budget_exhausted``. The peer's
``go mate j`` is timed on the same positions in the same run. One line a run goes to
``bench/records/kills.jsonl`` with ``--record``.

    .venv/bin/python bench/kills.py --build              # writes bench/records/kills.json
    .venv/bin/python bench/kills.py --measure --record   # the figures, and a record line
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from uci import UciEngine  # noqa: E402

from engine import Move, Position  # noqa: E402
from engine.solver import Budget, find_win, solve  # noqa: E402

GAMES = ROOT / "core" / "data" / "master-games" / "master-games.jsonl.gz"
BANK = ROOT / "puzzles" / "data" / "bank.json"
SET = ROOT / "bench" / "records" / "kills.json"
RECORD = ROOT / "bench" / "records" / "kills.jsonl"
PEER = "/usr/games/fairy-stockfish"
SHORTEST, LONGEST = 6, 20
BANDS = ((6, 8), (9, 12), (13, 20))


class Peer(UciEngine):
    """Fairy-Stockfish over UCI, xiangqi, one thread."""

    def __init__(self, path: str) -> None:
        super().__init__(path, Threads=1, Hash=64)

    def mate(self, fen: str, n: int, seconds: float) -> tuple[float, int | None]:
        """Seconds to a ``go mate n`` answer (at most ``seconds``), and the mate it found in
        moves of the side to move (``None``: none)."""
        self.new_position(fen)
        started = time.perf_counter()
        self._send(f"go mate {n} movetime {int(seconds * 1000)}")
        lines = self._wait("bestmove")
        spent = time.perf_counter() - started
        found = None
        for line in lines:
            if " score mate " in line:
                value = int(line.split(" score mate ")[1].split()[0])
                found = value if value > 0 else None
        return spent, found

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


def finished_games() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The shipped master games that end in checkmate on the board by this site's rules, and
    those won (1-0, 0-1) whose record stops without an end by the rules (the loser resigned),
    read whole."""
    mated, resigned = [], []
    with gzip.open(GAMES, "rt", encoding="utf-8") as handle:
        for line in handle:
            game = json.loads(line)
            end = game.get("rules_end")
            moves = game["moves"].split()
            item = {"id": game["id"], "moves": moves, "result": game["result"]}
            if end and end[1] == "checkmate" and end[0] == len(moves):
                mated.append(item)
            elif end is None and game.get("stop") is None and game["result"] in ("1-0", "0-1"):
                resigned.append(item)
    return mated, resigned


def bank_positions() -> set[tuple[str, int]]:
    data = json.loads(BANK.read_text(encoding="utf-8"))
    entries = data["puzzles"] if isinstance(data, dict) else data
    return {(str(e["source_game"]), int(e["ply"])) for e in entries if e.get("source_game")}


def _position(moves: list[str], ply: int) -> str | None:
    position = Position.start("xiangqi")
    for text in moves[:ply]:
        position.push(Move.from_iccs(text))
    if position.outcome() is not None:
        return None
    return Position.from_fen("xiangqi", position.fen()).fen()


def build(seed: int, count: int, mated: int, peer_seconds: float) -> list[dict[str, Any]]:
    """One kill a game: the longest the peer confirms as forced, going back from the mate
    ``SHORTEST`` of the winner's moves, then two at a time, while the peer finds a mate."""
    peer = Peer(PEER)
    banked = bank_positions()
    games, resigned = finished_games()
    random.Random(seed).shuffle(games)
    random.Random(seed).shuffle(resigned)
    entries: list[dict[str, Any]] = []
    try:
        for game in games[:mated]:
            if len(entries) >= count:
                break
            moves = game["moves"]
            best = None
            for k in range(SHORTEST, min(LONGEST, (len(moves) - 20) // 2) + 1, 2):
                ply = len(moves) - (2 * k - 1)  # the plies played before the kill's first move
                fen = _position(moves, ply)
                if fen is None:
                    break
                spent, found = peer.mate(fen, k, peer_seconds)
                print(f"ccpd:{game['id']} ply {ply}: played {k}, peer {found} ({spent:.1f} s)")
                if found is None:
                    break
                if SHORTEST <= found <= LONGEST and (f"ccpd:{game['id']}", ply) not in banked:
                    best = {
                        "game": f"ccpd:{game['id']}",
                        "ply": ply,
                        "played": k,
                        "moves": found,
                        "fen": fen,
                    }
            if best is not None:
                entries.append(best)
                print(f"  kept: mate in {best['moves']} ({len(entries)})")
        for game in resigned:
            if len(entries) >= count:
                break
            moves = game["moves"]
            winner = "w" if game["result"] == "1-0" else "b"
            # the winner's last position to move in: the record's end, or before its last move
            ply = len(moves) if (len(moves) % 2 == 0) == (winner == "w") else len(moves) - 1
            fen = _position(moves, ply) if ply >= 20 else None
            if fen is None or fen.split()[1] != winner:
                continue
            if (f"ccpd:{game['id']}", ply) in banked:
                continue
            spent, found = peer.mate(fen, LONGEST, peer_seconds)
            print(f"ccpd:{game['id']} ply {ply} (resigned): peer {found} ({spent:.1f} s)")
            if found is not None and SHORTEST <= found <= LONGEST:
                entries.append(
                    {"game": f"ccpd:{game['id']}", "ply": ply, "played": None, "moves": found,
                     "fen": fen}
                )  # fmt: skip
                print(f"  kept: mate in {found} ({len(entries)})")
    finally:
        peer.close()
    print(f"{len(entries)} kills kept")
    return entries


def band(n: int) -> str:
    for low, high in BANDS:
        if low <= n <= high:
            return f"{low}-{high}"
    return str(n)


def measure(seconds: float, peer_seconds: float, limit: int | None) -> dict[str, Any]:
    data = json.loads(SET.read_text(encoding="utf-8"))
    entries = data["kills"][:limit] if limit else data["kills"]
    peer = Peer(PEER) if shutil.which(PEER) or Path(PEER).exists() else None
    load = os.getloadavg()
    rows = []
    try:
        for e in entries:
            position = Position.from_fen("xiangqi", e["fen"])
            n = e["moves"]
            budget = Budget(seconds=seconds)
            cpu = time.process_time()
            win = find_win(position, "mate", n, budget, mode="full")
            found = time.process_time() - cpu
            cpu = time.process_time()
            proof = solve(position, "mate", n, budget, "full")
            spent = time.process_time() - cpu
            peer_time = peer.mate(e["fen"], n, peer_seconds)[0] if peer else None
            rows.append(
                {
                    "game": e["game"],
                    "moves": n,
                    "status": proof.status,
                    "found": win.moves_to_win if win is not None else None,
                    "find": round(found, 3),
                    "solve": round(spent, 3),
                    "nodes": proof.nodes,
                    "peer": round(peer_time, 3) if peer_time is not None else None,
                }
            )
            print(
                f"{e['game']:>11} mate in {n:>2}: {proof.status:<17} {spent:6.2f} s CPU, "
                f"{proof.nodes:>10,} nodes; first win {found:6.2f} s; "
                f"peer {peer_time if peer_time is None else round(peer_time, 2)} s"
            )
    finally:
        if peer is not None:
            peer.close()
    print(f"\nReal-game kills, full mode, at most {seconds:g} s each; load before "
          f"{load[0]:.1f} {load[1]:.1f}, after {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'moves':>6} {'kills':>5} {'decided':>8} {'solve p50':>9} {'peer p50':>9}  statuses")
    summary: dict[str, Any] = {"bands": {}}
    for name in [f"{lo}-{hi}" for lo, hi in BANDS] + ["all"]:
        group = [r for r in rows if name == "all" or band(r["moves"]) == name]
        if not group:
            continue
        decided = [r for r in group if r["status"] != "budget_exhausted"]
        statuses: dict[str, int] = {}
        for r in group:
            statuses[r["status"]] = statuses.get(r["status"], 0) + 1
        solve_p50 = statistics.median(r["solve"] for r in group)
        peers = [r["peer"] for r in group if r["peer"] is not None]
        peer_p50 = statistics.median(peers) if peers else None
        print(
            f"{name:>6} {len(group):>5} {len(decided):>4} ({100 * len(decided) // len(group):>2}%)"
            f" {solve_p50:>8.2f}s {peer_p50 if peer_p50 is None else f'{peer_p50:.2f}s':>9}  "
            + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        )
        summary["bands"][name] = {
            "kills": len(group),
            "decided": len(decided),
            "solve_p50": round(solve_p50, 3),
            "peer_p50": round(peer_p50, 3) if peer_p50 is not None else None,
            "statuses": statuses,
        }
    summary.update(seconds=seconds, load=[round(x, 1) for x in load], rows=rows)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="store_true", help="build bench/records/kills.json")
    parser.add_argument("--measure", action="store_true", help="prove the set, with the peer")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--count", type=int, default=40, help="--build: kills in the set")
    parser.add_argument("--mated", type=int, default=120, help="--build: mated games looked at")
    parser.add_argument("--seconds", type=float, default=20.0, help="the prover's budget each")
    parser.add_argument("--peer-seconds", type=float, default=10.0, help="the peer's, each")
    parser.add_argument("--limit", type=int, help="--measure: the first N kills only")
    parser.add_argument("--record", action="store_true", help="--measure: append a record line")
    args = parser.parse_args()
    if args.build:
        entries = build(args.seed, args.count, args.mated, args.peer_seconds)
        about = (
            "Kills from master games that end in checkmate: the winner's position k moves "
            "before the mate (k drawn from 6 to 20), not in the bank; moves: the forced mate "
            "Fairy-Stockfish found there (go mate k). Built by bench/kills.py --build "
            f"--seed {args.seed} --count {args.count}."
        )
        SET.write_text(
            json.dumps({"about": about, "kills": entries}, ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8",
        )
        print(f"wrote {SET.relative_to(ROOT)}")
    if args.measure:
        summary = measure(args.seconds, args.peer_seconds, args.limit)
        if args.record:
            summary["date"] = time.strftime("%Y-%m-%d")
            summary["commit"] = (
                os.popen("git -C " + str(ROOT) + " rev-parse --short HEAD").read().strip()
            )
            with RECORD.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(summary, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
