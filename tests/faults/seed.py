"""Seed a fault-test database: ``python -m tests.faults.seed USERS`` (settings and database from
the environment). Makes users ``player1`` … ``playerN`` and one published puzzle (proved by the
prover), and prints their ids as JSON."""

from __future__ import annotations

import json
import sys

import django

# Mate in 1, sound and unique (a0d0).
MATE_IN_1 = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
PASSWORD = "fault-test-password"


def main(users: int) -> dict[str, object]:
    django.setup()
    from accounts.models import User
    from puzzles import proving
    from puzzles.models import Puzzle
    from puzzles.services import puzzle_publish

    names = [f"player{i}" for i in range(1, users + 1)]
    for name in names:
        if not User.objects.filter(username=name).exists():
            User.objects.create_user(username=name, password=PASSWORD)
    puzzle = Puzzle.objects.create(
        variant="xiangqi", fen=MATE_IN_1, goal="mate", moves_to_win=1,
        status=Puzzle.Status.DRAFT, source=Puzzle.Source.MINED,
    )  # fmt: skip
    result = proving.prove(variant="xiangqi", fen=MATE_IN_1, goal="mate", moves_to_win=1)
    puzzle_publish(puzzle=puzzle, result=result)
    return {"users": names, "password": PASSWORD, "puzzle": puzzle.pk, "fen": MATE_IN_1}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
