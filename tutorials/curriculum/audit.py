"""Does a success message describe what happened?

A step's ``success`` text is shown after every line of moves that completes the step, so it may
only speak of what every such line did. The rule checked here, in each language separately:

* every piece the text names took part: it moved, was taken, vanished in a collision or
  defected, or gave check; the general takes part whenever there is a check or the game ends;
* every point the text names is a start or end point of a move that was played (on a question
  answered by a point: the point clicked);
* every move the text names (ICCS ``h2e2`` or Chinese ``马二进三``) was played.

And an instruction that asks for a piece ("take it with your chariot") is completed only by that
piece: by its last move, or, for a check or a mate, by a check from it (``instruction_problems``).

``completing_runs`` walks the lines that complete a step (by the referee, as the server plays
them; ``completions`` lists them, ``solve.shortest_solution`` takes the first),
``what_happened`` reads a line from its positions (the referee's plies or the API's answer),
and ``description_problems`` compares a text with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine import Move, Position
from tutorials.curriculum.referees import MoveRun, StepRefused, success_text
from tutorials.curriculum.referees.computer import LEARNER_NODES, engine_move
from tutorials.curriculum.schema import Step
from words.texts import KIND_OF_ENGLISH_NAME, Text, piece_kind

# Piece names by kind (FEN letter, upper case). Words that name an event of the general (check,
# mate) count as naming the general: the general takes part in every check.
_EN_WORDS = {
    "K": r"generals?|check(?:s|ed|ing|mate|mates|mated)?|mate[sd]?|stalemated?",
    "A": r"advisors?",
    "B": r"elephants?",
    "N": r"horses?",
    "R": r"chariots?",
    "C": r"cannons?",
    "P": r"soldiers?",
    "F": r"fighters?",
    "M": r"missiles?",
}
_EN_PATTERN = {
    kind: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for kind, words in _EN_WORDS.items()
}
_ZH_WORDS = {
    "K": "帅将困毙",
    "A": "仕士",
    "B": "相象",
    "N": "马",
    "R": "车",
    "C": "炮",
    "P": "兵卒",
}
_ZH_TWO = {"F": "战机", "M": "导弹"}
# Words made of a piece character that do not name that piece.
_ZH_NOT_A_PIECE = ("象棋", "相对", "相同", "互相", "相邻", "相连", "相当", "马上", "炮架", "士兵")

_POINT = re.compile(r"(?<![A-Za-z0-9])([a-k][0-9])(?![A-Za-z0-9])")
_ICCS = re.compile(r"(?<![A-Za-z0-9])([a-k][0-9][a-k][0-9])(?![A-Za-z0-9])")
_NUMBER = "(?:[一二三四五六七八九十]+|[0-9]+)"
_CHINESE_MOVE = re.compile(
    rf"((?:前|中|后|[二三四])?(?:战机|导弹|[帅将仕士相象马车炮兵卒]){_NUMBER}?[进退平]{_NUMBER})(?![宫线路])"
)  # not 进九宫 (into the palace)


def named_pieces_zh(text: str) -> frozenset[str]:
    for word in _ZH_NOT_A_PIECE:
        text = text.replace(word, "")
    found = {kind for kind, word in _ZH_TWO.items() if word in text}
    for word in _ZH_TWO.values():
        text = text.replace(word, "")
    found |= {kind for kind, chars in _ZH_WORDS.items() if any(c in text for c in chars)}
    return frozenset(found)


def named_pieces_en(text: str) -> frozenset[str]:
    return frozenset(kind for kind, pattern in _EN_PATTERN.items() if pattern.search(text))


def named_moves(text: str) -> frozenset[str]:
    return frozenset(_ICCS.findall(text))


def named_points(text: str) -> frozenset[str]:
    return frozenset(_POINT.findall(text))


def named_chinese_moves(text: str) -> frozenset[str]:
    return frozenset(_CHINESE_MOVE.findall(text))


@dataclass(frozen=True)
class Happened:
    """What a line of moves did: the kinds of piece that took part, the points moved from and
    to, the moves (ICCS and Chinese)."""

    kinds: frozenset[str]
    points: frozenset[str]
    moves: frozenset[str]
    chinese: frozenset[str]


def what_happened(
    variant: str, start_fen: str, plies: Sequence[tuple[str, str, str]], *, ended: bool = False
) -> Happened:
    """``plies``: (ICCS, Chinese, the position after it) of every move, the opponent's too.
    ``ended``: the game ended with the line (the generals take part)."""
    kinds: set[str] = set()
    points: set[str] = set()
    before = Position.from_fen(variant, start_fen)
    positions = [before]
    for iccs, _chinese, fen in plies:
        after = Position.from_fen(variant, fen)
        old, new = before.pieces(), after.pieces()
        origin, target = iccs[:2], iccs[2:4]
        points |= {origin, target}
        kinds.add(piece_kind(old[origin]))
        for point, letter in old.items():
            if point != origin and new.get(point) != letter:
                kinds.add(piece_kind(letter))  # taken, collided or defected
        positions.append(after)
        before = after
    for pos in positions:
        checkers = pos.checkers()
        if checkers:
            kinds.add("K")
            kinds |= {piece_kind(pos.pieces()[p]) for p in checkers}
    if ended:
        kinds.add("K")
    return Happened(
        kinds=frozenset(kinds),
        points=frozenset(points),
        moves=frozenset(p[0] for p in plies),
        chinese=frozenset(p[1] for p in plies),
    )


def description_problems(text: Text, happened: Happened) -> list[str]:
    """What ``text`` says that did not happen (empty when it describes the line truly)."""
    problems = []
    for language, words, named in (
        ("zh", text.zh, named_pieces_zh(text.zh)),
        ("en", text.en, named_pieces_en(text.en)),
    ):
        for kind in sorted(named - happened.kinds):
            problems.append(f"{language}: names a piece ({kind}) that took no part: {words!r}")
        moves = named_moves(words)
        for move in sorted(moves - happened.moves):
            problems.append(f"{language}: names the move {move}, which was not played: {words!r}")
        in_moves = {m[:2] for m in moves} | {m[2:] for m in moves}
        for point in sorted(named_points(words) - in_moves - happened.points):
            problems.append(f"{language}: names the point {point}, where nothing moved: {words!r}")
        for move in sorted(named_chinese_moves(words) - happened.chinese):
            problems.append(f"{language}: names the move {move}, which was not played: {words!r}")
    return problems


def completing_runs(step: Step, max_moves: int, *, limit: int | None = None) -> Iterator[MoveRun]:
    """The runs that complete a move step within ``max_moves`` learner moves, shortest first:
    breadth first over the learner's legal moves (in ICCS order), each played through the
    referee (so the scripted replies, the side flips and the goal checks are exactly the
    server's); every position is searched once, by its first line. At most ``limit`` moves are
    tried in all (None: no limit).

    An endgame against the computer is not searched: its one line is the engine's own play of
    the learner's side (``engine_run``)."""
    if step.goal.kind == "endgame":
        run = engine_run(step)
        if run.status == "complete" and len(run.moves) <= max_moves:
            yield run
        return
    frontier = [MoveRun(step)]
    seen: set[tuple[str, tuple[str, ...], str]] = set()
    scripted = step.opponent == "scripted"
    tried = 0
    for _depth in range(max_moves):
        following: list[MoveRun] = []
        for run in frontier:
            for move in sorted(m.iccs() for m in run.pos.legal_moves):
                tried += 1
                if limit is not None and tried > limit:
                    return
                child = run.copy()
                try:
                    child.play(move)
                except StepRefused:
                    continue
                if child.status == "complete":
                    yield child
                    continue
                if child.status == "failed":
                    continue
                key = (
                    child.pos.board_fen() + child.pos.turn,
                    tuple(sorted(child.collected)),
                    " ".join(child.moves) if scripted else "",
                )
                if key in seen:
                    continue
                seen.add(key)
                following.append(child)
        frontier = following
        if not frontier:
            return


def engine_run(step: Step, *, nodes: int = LEARNER_NODES) -> MoveRun:
    """An endgame step played to its end by the engine on the learner's side (at ``nodes`` a
    move) against the computer's replies, through the referee."""
    run = MoveRun(step)
    while run.status == "playing":
        line = [ply.iccs for ply in run.plies]
        run.play(engine_move(step.variant, step.fen, line, nodes=nodes))
    return run


def completions(step: Step, max_moves: int, *, limit: int = 20000) -> list[MoveRun]:
    """Lines that complete a move step within ``max_moves`` learner moves: every completing
    move from every position reached (each position once, by its first line), at most
    ``limit`` tries in all."""
    return list(completing_runs(step, max_moves, limit=limit))


def run_happened(step: Step, run: MoveRun) -> Happened:
    return what_happened(
        step.variant,
        step.fen,
        [(p.iccs, p.chinese, p.fen) for p in run.plies],
        ended=run.ended is not None,
    )


def success_problems(step: Step, *, extra_moves: int = 1) -> list[str]:
    """Where the step's success text would describe something that did not happen, over every
    completion within par plus ``extra_moves`` moves (fewer stars, same message)."""
    where = f"step {step.key} success"
    if step.goal.kind in ("setup", "write"):
        return []
    if step.goal.kind == "point":
        text = step.success
        if text is None:
            return []
        if step.goal.answer_from is not None:
            return []
        problems = []
        for answer in step.goal.answers:
            clicked = Happened(frozenset(), frozenset({answer}), frozenset(), frozenset())
            problems += [p for p in description_problems(text, clicked) if "piece" not in p]
        return [f"{where}: {p}" for p in dict.fromkeys(problems)]
    if step.success is None and not step.right:
        return []  # "well done" names nothing
    depth = step.par + extra_moves if step.opponent == "none" else step.par
    problems = []
    runs = completions(step, depth)
    last_moves = {run.moves[-1] for run in runs}
    for move in sorted(set(step.right) - last_moves):
        problems.append(f"{where}: right.{move} is never shown: {move} completes no line")
    for run in runs:
        text = success_text(step, run.moves)
        for problem in description_problems(text, run_happened(step, run)):
            problems.append(f"{where} after {' '.join(run.moves)}: {problem}")
    # one line per distinct problem (the first line that shows it)
    unique: dict[str, str] = {}
    for problem in problems:
        unique.setdefault(problem.split(": ", 1)[1], problem)
    return list(unique.values())


_INSTRUCTED = re.compile(
    r"\bwith (?:your |the )?(?:two )?(?:turncoat )?(general|advisor|elephant|horse|chariot|cannon"
    r"|soldier|fighter|missile)s?\b",
    re.IGNORECASE,
)


def instructed_pieces(step: Step) -> frozenset[str]:
    """The kinds of piece the instruction asks the learner to use ("with your horse"); words in
    brackets are asides, not the task."""
    task = re.sub(r"\([^)]*\)", "", step.instruction.en)
    return frozenset(KIND_OF_ENGLISH_NAME[name.lower()] for name in _INSTRUCTED.findall(task))


def instruction_problems(step: Step, *, extra_moves: int = 1) -> list[str]:
    """Lines that complete the step without the piece its instruction asks for."""
    wanted = instructed_pieces(step)
    if not wanted or step.goal.answered_with != "moves":
        return []
    depth = step.par + extra_moves if step.opponent == "none" else step.par
    problems: dict[str, str] = {}
    for run in completions(step, depth):
        index = max(i for i, ply in enumerate(run.plies) if ply.by == "learner")
        last = run.plies[index]
        before = Position.from_fen(step.variant, run.plies[index - 1].fen if index else step.fen)
        kinds = {piece_kind(before.pieces()[last.iccs[:2]])}
        if step.goal.kind in ("check", "mate", "dead_general"):
            after = Position.from_fen(step.variant, last.fen)
            kinds |= {piece_kind(after.pieces()[p]) for p in after.checkers()}
        if not kinds & wanted:
            problems.setdefault(
                last.iccs,
                (
                    f"step {step.key}: the instruction asks for {'/'.join(sorted(wanted))}, but "
                    f"{' '.join(run.moves)} completes it with {'/'.join(sorted(kinds))}"
                ),
            )
    return list(problems.values())


# ---------------------------------------------------------------------------------------------
# What an instruction promises about the way through a step

# "Find another way round" / 绕路: the way straight there is shut, and the step is a detour.
# ("The other way round" is "conversely", not a route.)
_DETOUR_EN = re.compile(r"\b(?:another way|(?<!other )way round|go(?:es)? round|detour)\b", re.I)
_DETOUR_ZH = re.compile(r"绕路|绕道|绕过去|绕行")
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ZH_COUNT = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}
# "Mate in two", "in three moves", "dead general in two"; 两步杀, 三步就够, 一步将死.
_COUNT_EN = re.compile(
    r"\b(?:(?:mate|stalemate|dead general) in (one|two|three|four|five|six)"
    r"|in (one|two|three|four|five|six) (?:more )?moves?)\b",
    re.I,
)
_COUNT_ZH = re.compile(
    r"([一两二三四五六])步(?:之内|以内|内)?(?:将死|杀|死将|困毙|就够|走到|飞到|到达)"
)


def promised_moves(text: Text) -> tuple[int | None, int | None]:
    """The number of moves an instruction promises the step takes (zh, en), None where it
    promises none."""
    zh = _COUNT_ZH.search(text.zh)
    en = _COUNT_EN.search(text.en)
    return (
        _ZH_COUNT[zh.group(1)] if zh else None,
        _COUNT_WORDS[(en.group(1) or en.group(2)).lower()] if en else None,
    )


def promises_detour(text: Text) -> tuple[bool, bool]:
    return bool(_DETOUR_ZH.search(text.zh)), bool(_DETOUR_EN.search(text.en))


def route_problems(step: Step) -> list[str]:
    """Where the instruction's promise about the route disagrees with the lines the referee
    accepts: a number of moves that is not the par, one language promising what the other does
    not, or a detour ("find another way round") that a line within par does not take: every
    completion that earns the full stars must move only the one piece that arrives, and take
    nothing on the way (moving or taking a blocker is clearing the way, not going round)."""
    where = f"step {step.key}"
    problems: list[str] = []
    for count in set(promised_moves(step.instruction)) - {None}:
        if count != step.par:
            problems.append(
                f"{where}: the instruction promises {count} moves, the par is {step.par}"
            )
    zh_detour, en_detour = promises_detour(step.instruction)
    if zh_detour != en_detour:
        problems.append(f"{where}: only one language promises a detour")
    if not (zh_detour or en_detour) or step.goal.answered_with != "moves":
        return problems
    for run in completions(step, step.par):
        at: str | None = None
        for ply in run.plies:
            if ply.by != "learner":
                continue
            if at is not None and ply.iccs[:2] != at:
                problems.append(
                    f"{where}: promises a detour, but {' '.join(run.moves)} moves another piece"
                )
                break
            if ply.effect != "move":
                problems.append(
                    f"{where}: promises a detour, but {' '.join(run.moves)} takes a piece"
                )
                break
            at = ply.iccs[2:]
    return problems


def wrong_answer_problems(step: Step, solution: Sequence[str] | None = None) -> list[str]:
    """Where an authored wrong answer (``wrong``) would not be read where it fits.

    A step's words for a move are shown whenever that move is tried, so on the step's way (its
    start, and the position after each learner move of ``solution`` and of the scripted lines)
    the move must be legal wherever the learner's piece stands on its point: an illegal try is
    answered by the rule that forbids it, not by words written about the move. And somewhere
    on that way playing it must bring its words (a move that completes the step, or that the
    step simply goes on after, never shows them). Nor may it win the game on the spot (a "wrong"
    trade that left the other side without a legal move once did). ``solution`` is a shortest one when not
    given. On a step answered in writing the words are for a legal move of its position (an
    illegal one is explained by the rules)."""
    if not step.wrong or step.goal.answered_with not in ("moves", "write"):
        return []
    where = f"step {step.key} wrong"
    if step.goal.kind == "write":
        pos = Position.from_fen(step.variant, step.fen)
        return [
            f"{where}.{key}: not a legal move of the step's position"
            for key in step.wrong
            if Move.from_iccs(key) not in pos.legal_moves
        ]
    if solution is None:
        solution = next((run.moves for run in completing_runs(step, step.par)), [])
    runs: dict[str, MoveRun] = {"": MoveRun(step)}
    for line in [list(solution), *(key.split() for key in step.replies)]:
        run = MoveRun(step)
        for text in line:
            try:
                run.play(text)
            except StepRefused:
                break
            if run.status != "playing":
                break
            runs.setdefault(" ".join(run.moves), run.copy())
    problems: list[str] = []
    for key, words in step.wrong.items():
        tried = Move.from_iccs(key)
        shown = False
        for moves, run in runs.items():
            mover = run.pos.pieces().get(key[:2])
            if mover is None or mover[-1].isupper() != (run.learner == "red"):
                continue  # the page offers no such try here
            at = f"{where}.{key} after {moves or 'no move'}"
            if tried not in run.pos.legal_moves:
                problems.append(f"{at}: illegal, so its words answer a try they do not fit")
                continue
            child = run.copy()
            try:
                child.play(key)
            except StepRefused as refused:
                shown = shown or refused.explanation.text == words
                continue
            if child.status == "failed" and child.message is not None:
                shown_here = child.message.text == words
                shown = shown or shown_here
                after = run.pos.copy()
                after.push(tried)
                outcome = after.outcome()
                if shown_here and outcome is not None and outcome.winner == run.learner:
                    problems.append(f"{at}: wins the game at once ({outcome.termination})")
        if not shown:
            problems.append(f"{where}.{key}: no play of the step's way shows its words")
    return problems


_CLICK_POINT = re.compile(
    r"(?:点击|click(?: on)? the point|click)\s*[a-k][0-9](?![A-Za-z0-9])", re.I
)


def answer_in_prompt_problems(step: Step) -> list[str]:
    """A question must not give its own answer before the learner acts: the instruction (and the
    ruling shown with it) of a step answered by a point names none of the answer points, in
    either language; a step answered by one of a few set moves names them in one notation at
    most (playing 炮二平五 from the words is the exercise; 炮二平五 with its h2e2 beside it gives
    the answer away)."""
    where = f"step {step.key}"
    problems: list[str] = []
    prompts = [t for t in (step.instruction, step.ruling) if t is not None]
    goal = step.goal
    if goal.kind == "point":
        for text in prompts:
            for language, words in (("zh", text.zh), ("en", text.en)):
                # "Click the point c3" asks to read the name: the point is the question.
                words = _CLICK_POINT.sub("", words)
                for point in sorted(named_points(words) & set(goal.answers)):
                    problems.append(f"{where} ({language}): the question names its answer {point}")
    if goal.kind == "write":
        pos = Position.from_fen(step.variant, step.fen)
        chinese = {pos.chinese(Move.from_iccs(m)) for m in goal.accept}
        for text in prompts:
            for language, words in (("zh", text.zh), ("en", text.en)):
                for move in sorted(named_chinese_moves(words) & chinese):
                    problems.append(f"{where} ({language}): the question writes its answer {move}")
    if goal.kind == "move" and goal.accept:
        pos = Position.from_fen(step.variant, step.fen)
        chinese = {pos.chinese(Move.from_iccs(m)) for m in goal.accept}
        for text in prompts:
            for language, words in (("zh", text.zh), ("en", text.en)):
                as_iccs = named_moves(words) & set(goal.accept)
                as_chinese = named_chinese_moves(words) & chinese
                if as_iccs and as_chinese:
                    problems.append(
                        f"{where} ({language}): names its answer in both notations: "
                        f"{sorted(as_iccs)} {sorted(as_chinese)}"
                    )
    return problems
