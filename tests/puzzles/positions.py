"""Puzzle positions used by the puzzles tests (FEN literals; their proofs are computed by the
prover in the tests, never stored by hand)."""

# Mate in 2, sound and unique: g8g9 is the only key (a classical problem, 双孙扶老).
MATE_IN_2 = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
MATE_IN_2_KEY = "g8g9"

# Mate in 1, sound and unique: a0d0.
MATE_IN_1 = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
MATE_IN_1_KEY = "a0d0"

# Cooked mate in 1: b1b9 and b1d1 both mate.
COOKED_IN_1 = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1"

# Only a general each: nothing to win.
NO_WIN = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"

# Missile Xiangqi: c7f7 puts a missile in Black's palace with check, and the general cannot
# step out of check: dead general in one.
DEAD_GENERAL_IN_1 = "5k5/11/2M8/11/11/11/11/11/4R1R4/4K6 w - - 0 1"

# A classical mate in 4 that takes the prover tens of thousands of positions.
HARD_MATE_IN_4 = "5k3/4P4/b1Rcba3/3N5/9/C1R6/2P6/9/4p4/4cK3 w - - 0 1"
