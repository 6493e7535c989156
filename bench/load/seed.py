"""Seed the load benchmark's database (``python -m bench.load.seed USERS PUZZLES OUT.json``).

Makes USERS players and PUZZLES published puzzles (copies of one mate in 1 and one mate in 2,
proved by the prover), and writes their names, ids, main lines and a wrong first move to
OUT.json for the load script, with the main line of every puzzle a Streak or Storm run can
offer (``run_lines``: the bank's and the seeded ones), which the runners play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import django

PUZZLES = [
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", 1, "a0a1"),
    ("3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1", 2, "e0e1"),
]
PASSWORD = "load-test-password-42"


def main(users: int, puzzles: int, out: Path) -> None:
    django.setup()
    from accounts.models import User
    from puzzles import proving
    from puzzles.models import Puzzle
    from puzzles.services import puzzle_publish, runs

    names = [f"load{i}" for i in range(users)]
    template = User(username="template")
    template.set_password(PASSWORD)  # one Argon2 hash, shared: seeding stays quick
    User.objects.bulk_create(
        [User(username=name, password=template.password) for name in names],
        ignore_conflicts=True,
    )
    proofs = {
        fen: proving.prove(variant="xiangqi", fen=fen, goal="mate", moves_to_win=n)
        for fen, n, _ in PUZZLES
    }
    made = []
    lines = {fen: proving.main_line(proofs[fen].proof or {}) for fen, _n, _wrong in PUZZLES}
    for index in range(puzzles):
        fen, n, wrong = PUZZLES[index % len(PUZZLES)]
        puzzle = Puzzle.objects.create(
            variant="xiangqi", fen=fen, goal="mate", moves_to_win=n,
            status=Puzzle.Status.DRAFT, source=Puzzle.Source.MINED,
        )  # fmt: skip
        puzzle_publish(puzzle=puzzle, result=proofs[fen])
        # The server plays the proof's main line against it: the line the players follow.
        made.append({"id": puzzle.pk, "line": lines[fen], "wrong": wrong})
    offered = Puzzle.objects.filter(
        status=Puzzle.Status.PUBLISHED, moves_to_win__lte=runs.STREAK_MAX_MOVES
    ).values_list("pk", "proof")
    run_lines = {pk: proving.main_line(proof or {}) for pk, proof in offered}
    out.write_text(
        json.dumps({"users": names, "password": PASSWORD, "puzzles": made, "run_lines": run_lines})
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
