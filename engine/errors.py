"""The engine's errors: narrow ``ValueError`` subclasses that name the bad input.

Every error carries a stable ``code`` (a key of ``MESSAGES``) and its ``params``
(a small read-only mapping of strings and numbers), besides its English message:
a program that shows the error to people renders ``code`` and ``params`` in the
reader's language, and never has to parse the English sentence. ``MESSAGES`` is
the one list of codes; the English message is always made from it.

Parameter conventions: ``colour`` is ``"red"`` or ``"black"``; ``piece`` is a
piece's English name (``"advisor"``); ``square``/``target`` are ICCS points
(``"e2"``); ``variant`` is a variant name; numbers are ``int``. The English
sentence may also use ``{Colour}`` (``Red``) and ``{pieces}`` (``advisors``),
derived from those.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

Param = str | int
Params = Mapping[str, Param]

MESSAGES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # -- variants and starts
        "variant.unknown": "unknown variant {name!r} (known: {known})",
        "variant.unknown_start": "unknown start {setup!r} for {variant} (known: {known})",
        # -- FEN (the reason; InvalidFenError adds the FEN and the rank)
        "fen.not_string": "a FEN must be a string",
        "fen.too_long": "longer than {limit} characters",
        "fen.empty": "empty",
        "fen.too_many_fields": "too many fields (expected: board side - - halfmove fullmove)",
        "fen.bad_side": "side to move must be w (or r) or b, not {found!r}",
        "fen.bad_third_field": "the third field must be '-', not {found!r}",
        "fen.bad_fourth_field": "the fourth field must be '-', not {found!r}",
        "fen.bad_halfmove": "the halfmove clock must be a whole number, not {found!r}",
        "fen.bad_fullmove": "the move number must be a whole number, not {found!r}",
        "fen.fullmove_zero": "the move number must be at least 1",
        "fen.rank_count": "expected 10 ranks separated by '/', found {count}",
        "fen.rank_too_long": "more than {width} points",
        "fen.rank_width": "{count} points where the {variant} board has {width}",
        "fen.zero_run": "an empty run cannot start with 0",
        "fen.plus_at_end": "'+' must be followed by a piece letter",
        "fen.plus_not_piece": "'+' must be followed by a piece letter, not {letter!r}",
        "fen.turncoat_not_in_variant": "'+{letter}' (turncoat {piece}) does not exist in {variant}",
        "fen.unknown_letter": "{letter!r} is not a piece of {variant}",
        "fen.general_outside_palace": "{Colour}'s general on {square} is outside its palace",
        "fen.advisor_point": "{Colour}'s advisor on {square} stands where an advisor can never go",
        "fen.elephant_point": (
            "{Colour}'s elephant on {square} stands where an elephant can never go"
        ),
        "fen.soldier_behind": "{Colour}'s soldier on {square} is behind its starting rank",
        "fen.no_general": "{Colour} has no general",
        "fen.two_generals": "{Colour} has {count} generals",
        "fen.too_many_pieces": (
            "{Colour} has {count} {pieces}; a game can give a side at most {limit}"
        ),
        "fen.too_many_turncoats": (
            "{Colour} has {count} turncoat {pieces}; a side starts with at most {limit} "
            "and never gains one"
        ),
        "fen.too_many_on_board": "{count} {pieces} on the board; a game has at most {limit}",
        "fen.other_side_in_check": (
            "the side not to move ({Colour}) is in check or its general faces the other"
        ),
        # -- points and moves
        "position.bad_square": "not a point of the {variant} board: {name!r}",
        "position.bad_side": 'a side is "red" or "black", not {side!r}',
        "position.bad_piece": "{text!r} on {square} is not a piece letter (K, r, +R…)",
        "move.not_string": "a move must be a string",
        "move.iccs_shape": "ICCS moves look like h2e2 (file a-k, rank 0-9, twice)",
        "move.same_point": "a move must change its point",
        "move.off_board": "a point is off the board",
        "move.no_piece": "there is no piece on {square}",
        "move.not_your_piece": "the piece on {square} belongs to the side not to move",
        "move.cannot_reach": "the {piece} on {square} cannot move to {target}",
        "move.general_onto_missile": "the general may never move onto a missile",
        "move.dead_general": (
            "the general cannot escape the missile in its palace: the game is over"
        ),
        "move.leaves_check": "it would leave the general in check or facing the other general",
        "move.not_legal": "not a legal move here",
        "move.ambiguous": "could be {candidates}",
        # -- Chinese notation
        "notation.empty": "empty move",
        "notation.too_long": "longer than {limit} characters",
        "notation.bad_number": "{found!r} is not a file or a count",
        "notation.bad_start": "a move starts with a piece name or 前/中/后, not {found!r}",
        "notation.name_missing": "a piece name must follow 前/中/后 or an ordinal",
        "notation.file_missing": (
            "the piece name must be followed by its file number (or preceded by 前/后)"
        ),
        "notation.ends_early": "the move ends too early",
        "notation.unexpected": "unexpected {found!r} at position {index}",
        "notation.piece_not_in_variant": "{variant} has no {pieces}",
        "notation.bad_ordinal": "there is no {order}th piece on a file",
        "notation.file_off_board": "file {file} is off the {width}-file board",
        "notation.same_file": "平 must name another file",
        "notation.bad_distance": "a {piece} cannot move {count} ranks",
        "notation.soldier_back": "a soldier never moves back",
        "notation.no_sideways": "a {piece} never moves sideways (平)",
        "notation.bad_jump": "a {piece} cannot go from file {file} to file {target}",
        "notation.never_defects": "a {piece} never defects",
        "notation.no_defection": "no piece defects in {variant}",
        "notation.no_piece_on_file": "no {colour} {piece} on file {file}",
        "notation.no_piece_fits": "no {colour} {piece} on any file fits {order}",
        "notation.no_piece_fits_file": "no {colour} {piece} on file {file} fits {order}",
        "notation.no_match": "no legal move of the {piece} on {squares} fits {tail}",
        "notation.no_defection_made": (
            "{move} makes no piece defect, but the move ends with {defected} ({name})"
        ),
        "notation.wrong_defection": "{move} makes a {defected} defect, not a {piece}",
        # -- setups (feidan)
        "setup.invalid": "invalid setup: {details}",
        "setup.arrangement_index": "arrangement index must be 0 to {limit}, got {value}",
        "setup.arrangement_letters": "an arrangement is two each of C, F, N, R; got {letters!r}",
        "setup.trigram": "trigram numbers are 1 to 8, got upper={upper}, lower={lower}",
        "setup.number_range": "{label} must be 1 to {limit}, got {value}",
        "setup.bad_colour": "color must be 'red' or 'black', got {found!r}",
        "setup.bad_method": "method must be one of {known}, got {found!r}",
        "setup.no_reveal": "no valid reveal against this {colour} half in {attempts} draws",
        "setup.naive_time": (
            "plum_blossom needs a time-zone-aware datetime (a naive time has no "
            "definite moment): got {moment}"
        ),
        # -- perft and the command line
        "perft.depth": "perft depth must be at least {limit}",
        "cli.depth": "depth must be between 0 and 8, not {value}",
        # -- the playing engine
        "play.moves_not_list": "moves must be a list of ICCS moves, not one string",
        "play.bad_level": "level must be an integer from 1 to 8, not {value}",
        "play.not_positive": "{name} must be a positive integer, not {value}",
        "play.game_over": "the game is over: {termination}",
        "play.bad_seed": "seed must be an integer, not {value}",
        "play.all_excluded": "no legal move is left to search once {count} are excluded",
        # -- the solver: bad requests
        "solver.not_a_position": "expected a Position, not {type}",
        "solver.unknown_goal": "unknown goal {goal!r} (known: {known})",
        "solver.unknown_mode": "unknown mode {mode!r} (known: {known})",
        "solver.unknown_algorithm": "unknown algorithm {algorithm!r} (known: {known})",
        "solver.bad_memory": "the memory bound must be a whole number of MiB >= 1, not {value}",
        "solver.length_not_int": "the length must be a whole number, not {value}",
        "solver.length_range": "the length must be between 1 and {limit}, not {value}",
        "solver.no_dead_general": "{variant} has no dead-general rule",
        "solver.game_over": "the game is already over ({status}): {fen}",
        "solver.no_solution": "a proof with status {status} has no solution to judge",
        "solver.too_many_moves": "more attacker moves than the puzzle allows",
        "solver.bad_budget": "--{name} must be positive, not {value}",
        "solver.malformed_tree": "malformed proof tree {part}",
        "solver.proof_not_object": "a proof must be a JSON object",
        "solver.proof_version": "unknown proof format version {version}",
        "solver.proof_status": "unknown proof status {status!r}",
        "solver.malformed_proof": "malformed proof: {detail}",
        "solver.proof_not_json": "a proof must be JSON: {detail}",
        # -- the solver: why a proof is not sound and unique (Proof.reason)
        "proof.no_win": "no forced {goal} within {moves} moves",
        "proof.no_win_no_check": "no forced {goal} within {moves} moves (no checking move)",
        "proof.budget_exhausted": "the node or time budget ran out before the proof was complete",
        "proof.shorter": (
            "a forced {goal} in {moves} (key {keys}) is shorter than the stated {stated}"
        ),
        "proof.cooked": "more than one key: {keys}",
        "proof.tree_cut": "the solution tree was cut where the budget ran out",
        # -- the judge of a line played against a proof (Judgement.reason)
        "judge.checks_only": "every move must give check in this puzzle",
        "judge.no_time": "the move could not be checked within the budget",
        "judge.escapes": "{move} escapes",
        "judge.ends_game": "the move ends the game by {status}",
        "judge.too_slow": "the move does not win in time",
        "judge.attacker_to_move": "the attacker is to move",
        "judge.no_defence_in_time": "no defence chosen within the budget",
        "judge.keeps_win": "the move keeps the win",
        "judge.solved": "{status}",
        "judge.game_ended": "the game ended by {status}",
        # -- named kill patterns (engine.patterns)
        "patterns.not_mate": (
            "the line does not end in checkmate or a dead general (it ends {status}): {fen}"
        ),
        "patterns.attacker_mated": "the line ends with the attacker mated, not the defender: {fen}",
    }
)
CODES: Final[frozenset[str]] = frozenset(MESSAGES)


def _derived(params: Params) -> dict[str, Param]:
    values: dict[str, Param] = dict(params)
    colour = params.get("colour")
    if isinstance(colour, str):
        values["Colour"] = colour.capitalize()
    piece = params.get("piece")
    if isinstance(piece, str):
        values["pieces"] = piece + "s"
    return values


def english(code: str, params: Params | None = None) -> str:
    """The English sentence of ``code`` with ``params`` filled in."""
    return MESSAGES[code].format_map(_derived(params or {}))


def frozen(params: Mapping[str, object] | None) -> Params:
    """A read-only copy of ``params`` (values kept as str or int)."""
    clean: dict[str, Param] = {}
    for key, value in (params or {}).items():
        clean[key] = value if isinstance(value, int) and not isinstance(value, bool) else str(value)
    return MappingProxyType(clean)


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input: ``code`` (a key
    of ``MESSAGES``), ``params`` and the English message."""

    def __init__(self, code: str, params: Mapping[str, object] | None = None) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown engine error code {code!r}")
        self.code = code
        self.params = frozen(params)
        super().__init__(self._message())

    def _message(self) -> str:
        return english(self.code, self.params)


class UnknownVariantError(EngineError):
    """The variant name is not one the engine knows."""

    def __init__(self, name: object) -> None:
        from engine.variants import VARIANTS

        self.name = name
        super().__init__("variant.unknown", {"name": name, "known": ", ".join(sorted(VARIANTS))})


class InvalidFenError(EngineError):
    """A FEN string that cannot describe a legal position of the variant. ``params``
    holds the reason's values and, when it is about one rank, ``rank``."""

    def __init__(self, fen: str, code: str, rank: int | None = None, **params: object) -> None:
        self.fen = fen
        self.rank = rank
        if rank is not None:
            params["rank"] = rank
        super().__init__(code, params)
        self.reason = english(code, self.params)

    def _message(self) -> str:
        rank = self.params.get("rank")
        where = f"rank {rank}: " if rank is not None else ""
        return f"invalid FEN {self.fen!r}: {where}{english(self.code, self.params)}"


class InvalidMoveError(EngineError):
    """A move written in a way the engine cannot read."""

    def __init__(self, text: object, code: str, fen: str | None = None, **params: object) -> None:
        self.text = text
        self.fen = fen
        params.setdefault("input", text if isinstance(text, str) else repr(text))
        super().__init__(code, params)
        self.reason = english(code, self.params)

    def _message(self) -> str:
        at = f" in {self.fen}" if self.fen else ""
        return f"invalid move {self.text!r}{at}: {english(self.code, self.params)}"


class IllegalMoveError(EngineError):
    """A well-formed move that is not legal in the position. When ``params`` has
    ``move`` (the ICCS move a Chinese text was read as), the reason is about it."""

    def __init__(
        self, text: object, fen: str, code: str = "move.not_legal", **params: object
    ) -> None:
        self.text = text
        self.fen = fen
        params.setdefault("input", text if isinstance(text, str) else repr(text))
        super().__init__(code, params)
        self.reason = self._reason()

    def _reason(self) -> str:
        reason = english(self.code, self.params)
        move = self.params.get("move")
        if move is not None and move != self.params["input"] and self.code.startswith("move."):
            reason = f"{move}: {reason}"
        return reason

    def _message(self) -> str:
        return f"illegal move {self.text!r} in {self.fen}: {self._reason()}"


class AmbiguousMoveError(EngineError):
    """A move in Chinese notation that fits more than one legal move."""

    def __init__(self, text: object, fen: str, candidates: list[str]) -> None:
        self.text = text
        self.fen = fen
        self.candidates = candidates
        super().__init__(
            "move.ambiguous",
            {
                "input": text if isinstance(text, str) else repr(text),
                "candidates": ", ".join(candidates),
            },
        )

    def _message(self) -> str:
        return f"ambiguous move {self.text!r} in {self.fen}: {english(self.code, self.params)}"
