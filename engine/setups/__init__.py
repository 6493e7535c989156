"""Feidan setups: the plum-blossom open setup and the secret setups.

Feidan (Missile Xiangqi) can start in three ways besides the fixed start position:

* **Plum-blossom numbers (梅花易数)**, in ``engine.setups.plum``: the moment a game
  starts gives a hexagram, and the hexagram picks one of the 2520 ways to put the eight
  officers on their points.
* **Secret setups (暗布明着)**, in ``engine.setups.secret``: each side arranges its own
  half unseen, then both halves are revealed, under "five soldiers guard the gate"
  (五兵守门) or "middle soldier guards the gate" (中兵守门).

Points are ICCS names on the 11-file board (``a0`` … ``k9``), pieces are FEN letters; the
board, the pieces' points and the FEN come from the engine (``engine.setups.points``).
"""

from __future__ import annotations

from engine.setups.plum import (
    ARRANGEMENT_COUNT,
    CHINA_TIME_ZONE,
    OFFICER_LETTERS,
    OFFICER_POINTS,
    TRIGRAMS,
    Hexagram,
    PlumBlossomSetup,
    arrangement,
    arrangement_fen,
    arrangement_rank,
    hexagram,
    plum_blossom,
    plum_blossom_from_numbers,
)
from engine.setups.points import Color
from engine.setups.secret import (
    SECRET_METHODS,
    SecretMethod,
    SecretReveal,
    SetupError,
    Violation,
    combine_secret_setups,
    random_secret_half,
    redraw_until_valid,
    secret_setup_fen,
    validate_secret_half,
)

__all__ = [
    "ARRANGEMENT_COUNT",
    "CHINA_TIME_ZONE",
    "OFFICER_LETTERS",
    "OFFICER_POINTS",
    "SECRET_METHODS",
    "TRIGRAMS",
    "Color",
    "Hexagram",
    "PlumBlossomSetup",
    "SecretMethod",
    "SecretReveal",
    "SetupError",
    "Violation",
    "arrangement",
    "arrangement_fen",
    "arrangement_rank",
    "combine_secret_setups",
    "hexagram",
    "plum_blossom",
    "plum_blossom_from_numbers",
    "random_secret_half",
    "redraw_until_valid",
    "secret_setup_fen",
    "validate_secret_half",
]
