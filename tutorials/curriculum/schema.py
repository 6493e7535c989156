"""Lessons as data: the dataclasses a lesson file is read into, and the reader.

A lesson file (TOML, one per lesson, ``tutorials/lessons/<course>/<nn>-<name>.toml``) looks like::

    slug = "xiangqi-horse"
    course = "xiangqi"                      # the variant the lesson is played in
    coordinates = true                      # the texts name points: show ICCS coordinates
    order = 50                              # place in the course
    title = { zh = "马", en = "The horse" }
    summary = { zh = "…", en = "…" }

    [[steps]]
    position = "Ke0 ke9 Nb0"               # pieces on points (or: fen = "…")
    turn = "red"                            # the learner's side (default red)
    instruction = { zh = "…", en = "…" }
    goal = "reach"                          # see GOAL_KINDS
    targets = ["c2", "d4"]
    par = 2

Every field is checked when the file is read; a mistake raises ``LessonFileError`` naming the
file, the step and the field.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import InvalidFenError, Move, Position, find_variant
from engine.errors import InvalidMoveError
from engine.fen import write_fen
from engine.patterns import find_pattern
from engine.setups import SECRET_METHODS
from engine.tactics import TACTICS
from engine.vocab import MOVE_EFFECTS, OUTCOME_TERMINATIONS
from words.texts import Text

COURSES = ("xiangqi", "feidan", "xinban")

# What a step asks for, and how it is answered:
#   moves:  reach, capture, check, mate, stalemate, dead_general, move, outcome, endgame
#   setup:  setup (arrange a legal secret setup of Red's half)
#   point:  point (answer a question by clicking a point)
#   write:  write (type a move in Chinese notation: one of ``accept``, however it is written)
MOVE_GOALS = (
    "reach",
    "capture",
    "check",
    "mate",
    "stalemate",
    "dead_general",
    "move",
    "outcome",
    "endgame",
)
GOAL_KINDS = (*MOVE_GOALS, "setup", "point", "write")
# What an ``effect`` or an ``outcome`` goal may name: the engine's own words.
EFFECTS = MOVE_EFFECTS
TERMINATIONS = OUTCOME_TERMINATIONS
# endgame: win the position against the computer, or hold it (not lose) for ``within`` moves
ENDGAME_RESULTS = ("win", "hold")
_POINT = re.compile(r"^[a-k][0-9]$")
_PIECE_TOKEN = re.compile(r"^(\+?[KABNRCPFMkabnrcpfm])([a-k][0-9])$")

TACTIC_CODES = frozenset(t.code for t in TACTICS)


def is_tactic(code: object) -> bool:
    """Whether ``code`` names a tactic (``engine.tactics``: a fork, a pin, ...) rather than a
    kill pattern: a step that ends a tactics lesson offers the trainer on the tactics puzzles
    of that theme."""
    return isinstance(code, str) and code in TACTIC_CODES and find_pattern(code) is None


class LessonFileError(ValueError):
    """A lesson file that cannot be used, with where the problem is."""


@dataclass(frozen=True)
class Goal:
    kind: str
    # reach: points to visit; capture: points of the pieces to take
    targets: tuple[str, ...] = ()
    # reach: only moves of this piece type (FEN letter, upper case) collect targets;
    # capture: only this piece type may take the targets (another one fails the step)
    piece: str | None = None
    # move: the accepted moves (ICCS); empty: any legal move
    accept: tuple[str, ...] = ()
    # move: the position must have exactly one legal move (checked by the data test)
    only_move: bool = False
    # capture / move: what the move must do (defection, collision …)
    effect: str | None = None
    # check: the checking piece must stand on one of these points after the move
    check_from: tuple[str, ...] = ()
    # outcome
    termination: str | None = None
    winner: str | None = None
    # point: the right answers; answer_from computes them instead (see point_answers)
    answers: tuple[str, ...] = ()
    answer_from: Mapping[str, Any] | None = None
    # setup
    method: str | None = None
    placement: Mapping[str, str] | None = None
    black_half: Mapping[str, str] | None = None
    require_moved: int = 0
    # setup: one legal answer (the data test checks that it is accepted)
    example: Mapping[str, str] | None = None
    # endgame: win or hold against the computer within this many of the learner's moves
    result: str | None = None
    within: int = 0

    @property
    def answered_with(self) -> str:
        """How the learner answers: ``moves`` (every goal of MOVE_GOALS), ``point``, ``setup``
        or ``write``; each has its referee in ``tutorials.curriculum.referees``."""
        return "moves" if self.kind in MOVE_GOALS else self.kind


@dataclass(frozen=True)
class Step:
    key: str
    index: int
    variant: str
    fen: str
    orientation: str
    instruction: Text
    goal: Goal
    par: int = 1
    # none: the opponent never moves; scripted: replies from the data; computer: the engine
    # replies (endgame steps)
    opponent: str = "none"
    replies: Mapping[str, str] = field(default_factory=dict)
    wrong: Mapping[str, Text] = field(default_factory=dict)
    # what to say when the step is completed by this move (ICCS), instead of ``success``
    right: Mapping[str, Text] = field(default_factory=dict)
    success: Text | None = None
    hint: Text | None = None
    ruling: Text | None = None
    arrows: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    hints: bool = True
    # a learner move that leaves one of the learner's pieces to be taken for free (no
    # recapture on that point) fails the step, with the capture shown
    safe: bool = False
    # the lesson page offers a game against the computer at this level once the step is done
    play_level: int | None = None
    # the lesson page offers the puzzle trainer on this theme (a kill pattern's code) once the
    # step is done, in the course's variant
    practise_theme: str | None = None

    @property
    def learner(self) -> str:
        return "red" if self.fen.split()[1] in ("w", "r") else "black"

    @property
    def move_limit(self) -> int:
        """How many moves the learner may use before the step counts as failed."""
        if self.goal.kind == "endgame":
            return self.goal.within
        return max(10, 4 * self.par)


@dataclass(frozen=True)
class Lesson:
    slug: str
    course: str
    order: int
    title: Text
    summary: Text
    steps: tuple[Step, ...]
    rulings: tuple[Text, ...] = ()
    # the texts name points in ICCS ("c3", "a to k"): the board shows ICCS coordinates
    coordinates: bool = False
    content_hash: str = ""
    source: str = ""
    # the steps' tables as written in the file (what the database keeps)
    raw_steps: tuple[Mapping[str, Any], ...] = field(default=(), compare=False, repr=False)

    @property
    def variant(self) -> str:
        return self.course


# ---------------------------------------------------------------------------------------------
# Reading


def board_fen(variant: str, pieces: str, turn: str) -> str:
    """A FEN from a list of pieces on points: ``"Ke0 ke9 +Rb2"``."""
    table = find_variant(variant)
    board: dict[int, str] = {}
    for token in pieces.split():
        match = _PIECE_TOKEN.match(token.strip(","))
        if not match:
            raise LessonFileError(f"{token!r} is not a piece on a point (like Ke0 or +rb9)")
        letter, point = match.groups()
        file, rank = "abcdefghijk".index(point[0]), int(point[1])
        if file >= table.width:
            raise LessonFileError(f"{point} is off the {table.width}-file board")
        square = rank * table.width + file
        if square in board:
            raise LessonFileError(f"two pieces on {point}")
        board[square] = letter
    if turn not in ("red", "black"):
        raise LessonFileError(f"turn must be red or black, not {turn!r}")
    return write_fen(table, board, red_to_move=turn == "red")


def _optional_text(data: Any, where: str) -> Text | None:
    return None if data is None else _required_text(data, where)


def _required_text(data: Any, where: str) -> Text:
    if data is None:
        raise LessonFileError(f"{where}: missing (a table with zh and en)")
    if not isinstance(data, Mapping) or set(data) != {"zh", "en"}:
        raise LessonFileError(f"{where}: must have exactly the keys zh and en")
    zh, en = data["zh"], data["en"]
    if not (isinstance(zh, str) and isinstance(en, str) and zh.strip() and en.strip()):
        raise LessonFileError(f"{where}: zh and en must be non-empty strings")
    return Text(zh.strip(), en.strip())


def _points(data: Any, where: str) -> tuple[str, ...]:
    if data is None:
        return ()
    if not isinstance(data, list) or not all(isinstance(p, str) and _POINT.match(p) for p in data):
        raise LessonFileError(f"{where}: must be a list of points like e0")
    return tuple(data)


def _moves(data: Any, where: str) -> tuple[str, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise LessonFileError(f"{where}: must be a list of ICCS moves")
    for text in data:
        try:
            Move.from_iccs(text)
        except InvalidMoveError as error:
            raise LessonFileError(f"{where}: {error}") from None
    return tuple(m.lower() for m in data)


def _placement(data: Any, where: str) -> dict[str, str] | None:
    """A secret half: ``"Ma0 Mk0 Kf0 …"`` or a table point -> letter."""
    if data is None:
        return None
    if isinstance(data, str):
        out: dict[str, str] = {}
        for token in data.split():
            match = _PIECE_TOKEN.match(token)
            if not match:
                raise LessonFileError(f"{where}: {token!r} is not a piece on a point")
            letter, point = match.groups()
            if point in out:
                raise LessonFileError(f"{where}: two pieces on {point}")
            out[point] = letter
        return out
    if isinstance(data, Mapping):
        return {str(k): str(v) for k, v in data.items()}
    raise LessonFileError(f"{where}: must be a string of pieces on points or a table")


_STEP_KEYS = {
    "key",
    "fen",
    "position",
    "turn",
    "halfmove",
    "orientation",
    "instruction",
    "goal",
    "targets",
    "piece",
    "accept",
    "only_move",
    "effect",
    "check_from",
    "termination",
    "winner",
    "answers",
    "answer_from",
    "method",
    "placement",
    "black_half",
    "require_moved",
    "example",
    "result",
    "within",
    "par",
    "opponent",
    "line",
    "replies",
    "wrong",
    "right",
    "success",
    "hint",
    "ruling",
    "arrows",
    "marks",
    "hints",
    "play_level",
    "practise_theme",
    "safe",
}


def _step(data: Any, index: int, course: str, where: str) -> Step:
    if not isinstance(data, Mapping):
        raise LessonFileError(f"{where}: a step must be a table")
    unknown = set(data) - _STEP_KEYS
    if unknown:
        raise LessonFileError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kind = data.get("goal")
    if kind not in GOAL_KINDS:
        raise LessonFileError(f"{where}: goal must be one of {', '.join(GOAL_KINDS)}")
    turn = data.get("turn", "red")
    variant = course
    plum = isinstance(data.get("answer_from"), Mapping) and "draw_claim" not in data["answer_from"]
    if kind == "setup" or kind == "point" and plum:
        if course != "feidan":
            raise LessonFileError(f"{where}: setups and plum-blossom boards are feidan only")
        fen = find_variant("feidan").default_start
    elif "fen" in data:
        fen = str(data["fen"]).strip()
    elif "position" in data:
        fen = board_fen(variant, str(data["position"]), turn)
        if "halfmove" in data:
            fields = fen.split()
            fields[4], fields[5] = str(int(data["halfmove"])), str(int(data["halfmove"]) // 2 + 1)
            fen = " ".join(fields)
    else:
        raise LessonFileError(f"{where}: give a position (pieces on points) or a fen")
    try:
        Position.from_fen(variant, fen)
    except InvalidFenError as error:
        raise LessonFileError(f"{where}: {error}") from None
    learner = "red" if fen.split()[1] in ("w", "r") else "black"

    goal = Goal(
        kind=kind,
        targets=_points(data.get("targets"), f"{where}.targets"),
        piece=data.get("piece"),
        accept=_moves(data.get("accept"), f"{where}.accept"),
        only_move=bool(data.get("only_move", False)),
        effect=data.get("effect"),
        check_from=_points(data.get("check_from"), f"{where}.check_from"),
        termination=data.get("termination"),
        winner=data.get("winner"),
        answers=_points(data.get("answers"), f"{where}.answers"),
        answer_from=data.get("answer_from"),
        method=data.get("method"),
        placement=_placement(data.get("placement"), f"{where}.placement"),
        black_half=_placement(data.get("black_half"), f"{where}.black_half"),
        require_moved=int(data.get("require_moved", 0)),
        example=_placement(data.get("example"), f"{where}.example"),
        result=data.get("result"),
        within=int(data.get("within", 0)),
    )
    if goal.kind in ("reach", "capture") and not goal.targets:
        raise LessonFileError(f"{where}: a {goal.kind} goal needs targets")
    if goal.piece is not None and (
        not isinstance(goal.piece, str) or len(goal.piece) != 1 or goal.piece not in "KABNRCPFM"
    ):
        raise LessonFileError(f"{where}: piece must be one upper-case FEN letter")
    if goal.piece is not None and goal.kind not in ("reach", "capture"):
        raise LessonFileError(f"{where}: piece is for reach and capture goals only")
    if goal.effect is not None and goal.effect not in EFFECTS:
        raise LessonFileError(f"{where}: effect must be one of {', '.join(EFFECTS)}")
    if goal.kind == "outcome" and goal.termination not in TERMINATIONS:
        raise LessonFileError(f"{where}: an outcome goal needs a termination")
    if goal.winner not in (None, "red", "black", "none"):
        raise LessonFileError(f"{where}: winner must be red, black or none")
    if goal.kind == "write":
        if not goal.accept:
            raise LessonFileError(f"{where}: a write goal needs the accepted moves (accept)")
        legal = {m.iccs() for m in Position.from_fen(variant, fen).legal_moves}
        if set(goal.accept) - legal:
            raise LessonFileError(f"{where}: accept names a move that is not legal here")
    if goal.kind == "point" and not goal.answers and not goal.answer_from:
        raise LessonFileError(f"{where}: a point goal needs answers or answer_from")
    if goal.kind == "setup":
        if goal.method not in SECRET_METHODS:
            raise LessonFileError(
                f"{where}: a setup goal needs method {' or '.join(SECRET_METHODS)}"
            )
        if goal.placement is None or goal.example is None:
            raise LessonFileError(
                f"{where}: a setup goal needs a starting placement and an example"
            )
    if goal.kind == "endgame":
        if goal.result not in ENDGAME_RESULTS:
            raise LessonFileError(f"{where}: an endgame goal needs result win or hold")
        if goal.within < 1:
            raise LessonFileError(f"{where}: an endgame goal needs within (the learner's moves)")
        if int(data.get("par", 1)) > goal.within:
            raise LessonFileError(f"{where}: par is more than within")
        if "line" in data or "replies" in data or "opponent" in data:
            raise LessonFileError(f"{where}: in an endgame the computer replies (no script)")
    elif "result" in data or "within" in data:
        raise LessonFileError(f"{where}: result and within are for endgame goals only")
    if goal.answer_from is not None:
        spec = goal.answer_from
        if set(spec) - {"numbers", "piece", "draw_claim"}:
            raise LessonFileError(f"{where}: answer_from knows numbers, piece and draw_claim")

    line = _moves(data.get("line"), f"{where}.line")
    replies: dict[str, str] = {}
    for i in range(1, len(line), 2):
        replies[" ".join(line[0:i:2])] = line[i]
    raw_replies = data.get("replies") or {}
    if not isinstance(raw_replies, Mapping):
        raise LessonFileError(f"{where}.replies: must be a table 'learner moves' = 'reply'")
    for key, reply in raw_replies.items():
        moves = _moves(str(key).split(), f"{where}.replies")
        replies[" ".join(moves)] = _moves([reply], f"{where}.replies")[0]
    opponent = data.get("opponent", "scripted" if replies else "none")
    if kind == "endgame":
        opponent = "computer"
    elif opponent not in ("none", "scripted"):
        raise LessonFileError(f"{where}: opponent must be none or scripted")
    if opponent == "scripted" and not replies and goal.kind in ("reach", "capture"):
        raise LessonFileError(f"{where}: a scripted opponent needs a line or replies")

    wrong_data = data.get("wrong") or {}
    if not isinstance(wrong_data, Mapping):
        raise LessonFileError(f"{where}.wrong: must be a table 'move or point' = {{ zh, en }}")
    wrong = {str(k).lower(): _required_text(v, f"{where}.wrong.{k}") for k, v in wrong_data.items()}
    right_data = data.get("right") or {}
    if not isinstance(right_data, Mapping):
        raise LessonFileError(f"{where}.right: must be a table 'move' = {{ zh, en }}")
    if right_data and kind not in (*MOVE_GOALS, "write"):
        raise LessonFileError(f"{where}.right: only steps answered with moves have it")
    _moves(list(right_data), f"{where}.right")
    right = {str(k).lower(): _required_text(v, f"{where}.right.{k}") for k, v in right_data.items()}
    par = int(data.get("par", 1))
    if par < 1:
        raise LessonFileError(f"{where}: par must be at least 1")
    hints_default = goal.kind not in ("move", "point", "mate", "dead_general", "stalemate", "write")
    play_level = data.get("play_level")
    if play_level is not None and (not isinstance(play_level, int) or not 1 <= play_level <= 8):
        raise LessonFileError(f"{where}: play_level must be a level from 1 to 8")
    practise_theme = data.get("practise_theme")
    if practise_theme is not None:
        pattern = find_pattern(str(practise_theme))
        if (pattern is None or variant not in pattern.variants) and not is_tactic(practise_theme):
            raise LessonFileError(
                f"{where}: practise_theme must be a kill pattern of {variant} (engine.patterns) "
                "or a tactic (engine.tactics)"
            )
    return Step(
        key=str(data.get("key") or index + 1),
        index=index,
        variant=variant,
        fen=fen,
        orientation=str(data.get("orientation", learner)),
        instruction=_required_text(data.get("instruction"), f"{where}.instruction"),
        goal=goal,
        par=par,
        opponent=opponent,
        replies=replies,
        wrong=wrong,
        right=right,
        success=_optional_text(data.get("success"), f"{where}.success"),
        hint=_optional_text(data.get("hint"), f"{where}.hint"),
        ruling=_optional_text(data.get("ruling"), f"{where}.ruling"),
        arrows=_moves(data.get("arrows"), f"{where}.arrows"),
        marks=_points(data.get("marks"), f"{where}.marks"),
        hints=bool(data.get("hints", hints_default)),
        safe=_safe(data.get("safe", False), kind, where),
        play_level=play_level,
        practise_theme=practise_theme,
    )


def _safe(value: Any, kind: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise LessonFileError(f"{where}: safe must be true or false")
    if value and kind not in MOVE_GOALS or value and kind == "endgame":
        raise LessonFileError(f"{where}: safe is for steps answered with moves (not endgames)")
    return value


def lesson_from_data(data: Mapping[str, Any], *, source: str = "") -> Lesson:
    where = source or "lesson"
    for name in ("slug", "course", "order", "title", "summary", "steps"):
        if name not in data:
            raise LessonFileError(f"{where}: missing {name}")
    known = {"slug", "course", "order", "coordinates", "title", "summary", "steps", "rulings"}
    unknown = set(data) - known
    if unknown:
        raise LessonFileError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    slug = str(data["slug"])
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
        raise LessonFileError(f"{where}: slug must be lower-case words joined by '-'")
    course = data["course"]
    if course not in COURSES:
        raise LessonFileError(f"{where}: course must be one of {', '.join(COURSES)}")
    steps_data = data["steps"]
    if not isinstance(steps_data, list) or not steps_data:
        raise LessonFileError(f"{where}: a lesson needs at least one step")
    steps = tuple(_step(s, i, course, f"{where} step {i + 1}") for i, s in enumerate(steps_data))
    keys = [s.key for s in steps]
    if len(set(keys)) != len(keys):
        raise LessonFileError(f"{where}: two steps share a key")
    rulings = tuple(
        _required_text(r, f"{where}.rulings[{i}]") for i, r in enumerate(data.get("rulings") or [])
    )
    coordinates = data.get("coordinates", False)
    if not isinstance(coordinates, bool):
        raise LessonFileError(f"{where}: coordinates must be true or false")
    digest = hashlib.sha256(
        json.dumps(data, sort_keys=True, ensure_ascii=False, default=str).encode()
    ).hexdigest()
    return Lesson(
        slug=slug,
        course=course,
        order=int(data["order"]),
        title=_required_text(data["title"], f"{where}.title"),
        summary=_required_text(data["summary"], f"{where}.summary"),
        steps=steps,
        rulings=rulings,
        coordinates=coordinates,
        content_hash=digest,
        source=source,
        raw_steps=tuple(json.loads(json.dumps(s, default=str)) for s in steps_data),
    )


def step_from_data(data: Mapping[str, Any], *, index: int, course: str, where: str = "") -> Step:
    """A step rebuilt from its table (as stored with the lesson)."""
    return _step(data, index, course, where or f"step {index + 1}")


LESSONS_DIR = Path(__file__).resolve().parent.parent / "lessons"


def lesson_files(root: Path = LESSONS_DIR) -> list[Path]:
    return sorted(root.glob("*/*.toml"))


def read_lesson_file(path: Path) -> Lesson:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LessonFileError(f"{path.name}: {error}") from None
    lesson = lesson_from_data(data, source=f"{path.parent.name}/{path.name}")
    if path.parent.name != lesson.course:
        raise LessonFileError(
            f"{path.name}: lies in {path.parent.name}/ but says course {lesson.course}"
        )
    return lesson


def read_lessons(root: Path = LESSONS_DIR) -> list[Lesson]:
    """Every lesson file under ``root``, in course then lesson order."""
    lessons = [read_lesson_file(p) for p in lesson_files(root)]
    slugs = [lesson.slug for lesson in lessons]
    for slug in set(slugs):
        if slugs.count(slug) > 1:
            raise LessonFileError(f"two lesson files use the slug {slug!r}")
    lessons.sort(key=lambda lesson: (COURSES.index(lesson.course), lesson.order, lesson.slug))
    return lessons
