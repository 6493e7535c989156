"""Positions used by the app and browser tests (FEN literals, checked by the engine)."""

# Red to move; b1b9 mates (double-chariot mate).
MATE_IN_ONE = {
    "xiangqi": "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    "xinban": "3k5/+R8/9/9/9/9/9/9/1+R7/4K4 w - - 0 1",
    "feidan": "4k6/R10/11/11/11/11/11/11/1R9/5K5 w - - 0 1",
}
MATING_MOVE = "b1b9"

# Red to move; the missile c7f7 checks from inside Black's palace and the general cannot step
# out of check: dead general.
DEAD_GENERAL_IN_ONE = "5k5/11/2M8/11/11/11/11/11/4R1R4/4K6 w - - 0 1"

# Black to move, not in check, no legal move.
STALEMATE = "3k5/8R/9/9/9/9/9/9/4R4/5K3 b - - 0 1"

# Two opening moves per variant: (red, black), in ICCS.
OPENINGS = {
    "xiangqi": ("h2e2", "h9g7"),
    "xinban": ("h2e2", "h9g7"),
    "feidan": ("i2f2", "i9h7"),
}
