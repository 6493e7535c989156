"""The prover against a plain minimax over the public API, on small random
positions of every variant: the same shortest win, the same key moves,
for every goal and both modes (wins of one and two moves)."""

import random

import pytest

from engine import Position
from engine.solver import solve

GOALS = {
    "mate": {"checkmate"},
    "dead_general": {"dead_general"},
    "win": {"checkmate", "stalemate", "dead_general"},
}
PIECES = {
    "xiangqi": "RRNNCCPPrnbap",
    "xinban": "RN+R+N+C+r+n+cCPrnbap",
    "feidan": "RMMNCFPFrmnbap",
}


def _fen(rng: random.Random, variant: str) -> str:
    width = 11 if variant == "feidan" else 9
    centre = width // 2
    board: dict[tuple[int, int], str] = {
        (rng.randrange(7, 10), centre + rng.randrange(-1, 2)): "k",
        (rng.randrange(0, 3), centre + rng.randrange(-1, 2)): "K",
    }
    letters = PIECES[variant]
    tokens = [letters[i : i + 2] if letters[i] == "+" else letters[i] for i in range(len(letters))]
    tokens = [t for i, t in enumerate(tokens) if i == 0 or letters[i - 1] != "+"]
    for piece in rng.sample(tokens, rng.randint(4, 7)):
        # Red's pieces mostly near Black's general, where mates happen
        rank = rng.randrange(6, 10) if piece[-1].isupper() else rng.randrange(0, 10)
        board.setdefault((rank, rng.randrange(width)), piece)
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(width):
            piece = board.get((rank, file))
            if piece:
                row += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"


def _wins(pos: Position, goal: set[str], n: int, checks_only: bool) -> list[str]:
    """The attacker's moves that force the goal within n (plain minimax)."""
    keys = []
    for move in list(pos.legal_moves):
        pos.push(move)
        try:
            if checks_only and not pos.is_check():
                continue
            status = pos.status()
            if status != "ongoing":
                win = status in goal
            elif n == 1:
                win = False
            else:
                win = True
                for reply in list(pos.legal_moves):
                    pos.push(reply)
                    try:
                        if not _wins(pos, goal, n - 1, checks_only):
                            win = False
                            break
                    finally:
                        pos.pop()
        finally:
            pos.pop()
        if win:
            keys.append(move.iccs())
    return keys


def _cases(count: int, seed: int) -> list:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        variant = rng.choice(sorted(PIECES))
        try:
            pos = Position.from_fen(variant, _fen(rng, variant))
        except ValueError:
            continue
        if pos.status() != "ongoing" or len(pos.legal_moves) > 40:
            continue
        goals = ["mate", "win"] + (["dead_general"] if variant == "feidan" else [])
        cases.append((variant, pos.fen(), rng.choice(goals), rng.random() < 0.4))
    return cases


@pytest.mark.parametrize(("variant", "fen", "goal", "checks_only"), _cases(60, 7))
def test_the_prover_agrees_with_plain_minimax(
    variant: str, fen: str, goal: str, checks_only: bool
) -> None:
    pos = Position.from_fen(variant, fen)
    mode = "checks_only" if checks_only else "full"
    one = _wins(pos, GOALS[goal], 1, checks_only)
    two = one or _wins(pos, GOALS[goal], 2, checks_only)
    proof = solve(pos, goal, 2, mode=mode)
    if one:
        assert proof.moves_to_win == 1 and proof.status == "shorter"
        assert set(proof.key_moves) == set(one)
    elif two:
        assert proof.moves_to_win == 2
        assert set(proof.key_moves) == set(two)
        assert proof.status == ("cooked" if len(two) > 1 else "sound_unique")
    else:
        assert proof.status == "no_win"
