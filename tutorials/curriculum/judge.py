"""Playing a step: the server's referee.

A step is replayed from its start position on every request: the learner's moves (ICCS), each
followed by the opponent's scripted reply where the step has one. The referee says whether the
goal is met, how many moves it took and, for a move that cannot be played, why.

Two kinds of opponent:

* ``none`` (the piece lessons): the opponent never moves. After each learner move the position
  is read again with the learner to move. A move that gives check cannot be followed that way
  (the opponent would have to answer), so it is refused unless it completes the goal.
* ``scripted``: after each learner move the reply is looked up by the learner's moves so far.
  A legal move that is not in the script (and does not complete the goal) fails the step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Position,
    can_claim_draw,
    combine_secret_setups,
    plum_blossom,
    validate_secret_half,
)
from engine.setups import plum_blossom_from_numbers
from tutorials.curriculum.explain import Explanation, explain_illegal, pattern_moves
from tutorials.curriculum.schema import Step
from tutorials.curriculum.texts import Text, piece_name

TERMINATION_TEXT = {
    "checkmate": Text("将死", "checkmate"),
    "stalemate": Text("困毙", "stalemate"),
    "dead_general": Text("死将", "dead general"),
    "perpetual_check": Text("长将", "perpetual check"),
    "perpetual_chase": Text("长捉", "perpetual chase"),
    "repetition": Text("重复局面", "repetition"),
    "forced_variation": Text("强制变着", "forced variation"),
    "natural_limit": Text("自然限着", "natural limit"),
}
EFFECT_TEXT = {
    "move": Text("普通走子", "a plain move"),
    "capture": Text("普通吃子", "an ordinary capture"),
    "collision": Text("碰炸（双方同归于尽）", "a collision (both pieces vanish)"),
    "self_destruct": Text("导弹自毁", "a missile self-destruct"),
    "cannon_takes_missile": Text("炮吃导弹", "a cannon taking a missile"),
    "defection": Text("反间策反", "a defection"),
}

MAX_PLIES = 400


class StepRefused(ValueError):
    """Input that cannot be played: an unreadable or illegal move, a move after the end, a wrong
    kind of answer. ``index`` is the position of the bad move in the list (if any)."""

    def __init__(
        self, explanation: Explanation, *, index: int | None = None, move: str | None = None
    ) -> None:
        super().__init__(explanation.text.en)
        self.explanation = explanation
        self.index = index
        self.move = move


def _refuse(
    code: str,
    zh: str,
    en: str,
    *,
    index: int | None = None,
    move: str | None = None,
    **values: object,
) -> StepRefused:
    return StepRefused(Explanation(code, Text(zh, en).format(**values)), index=index, move=move)


def stars_for(moves_used: int, par: int) -> int:
    """3 stars at or under par, 2 up to twice par, else 1."""
    if moves_used <= par:
        return 3
    if moves_used <= 2 * par:
        return 2
    return 1


def stars_for_mistakes(mistakes: int) -> int:
    """Questions and setups: 3 stars at the first try, 2 at the second, then 1."""
    return max(1, 3 - mistakes)


@dataclass
class Ply:
    iccs: str
    chinese: str
    by: str  # learner | opponent
    effect: str
    fen: str = ""  # the position after this ply


@dataclass
class MoveState:
    """Where a step stands after the learner's moves."""

    status: str  # playing | complete | failed
    fen: str
    moves_used: int
    plies: list[Ply]
    collected: list[str]
    remaining: list[str]
    check: str | None
    message: Explanation | None = None
    termination: str | None = None
    winner: str | None = None
    legal: list[str] = field(default_factory=list)
    tries: list[str] = field(default_factory=list)

    @property
    def last_move(self) -> str | None:
        return self.plies[-1].iccs if self.plies else None


def _general_in_check(pos: Position) -> str | None:
    if not pos.is_check():
        return None
    letter = "K" if pos.turn == "red" else "k"
    return next(p for p, v in pos.pieces().items() if v == letter)


def _with_turn(pos: Position, turn: str) -> Position:
    fields = pos.fen().split()
    fields[1] = "w" if turn == "red" else "b"
    return Position.from_fen(pos.variant, " ".join(fields))


class MoveRun:
    """The referee of one try at a move step; ``play`` one learner move at a time."""

    def __init__(self, step: Step) -> None:
        if step.goal.kind in ("setup", "point"):
            raise ValueError(f"step {step.key} is answered with a {step.goal.kind}, not moves")
        self.step = step
        self.pos = Position.from_fen(step.variant, step.fen)
        self.learner = self.pos.turn
        self.moves: list[str] = []
        self.plies: list[Ply] = []
        self.collected: list[str] = []
        self.status = "playing"
        self.message: Explanation | None = None
        self.ended: tuple[str, str | None] | None = None

    def copy(self) -> MoveRun:
        other = MoveRun.__new__(MoveRun)
        other.__dict__.update(self.__dict__)
        other.pos = self.pos.copy()
        other.moves = list(self.moves)
        other.plies = list(self.plies)
        other.collected = list(self.collected)
        return other

    # -- the goal -----------------------------------------------------------------------------

    def _remaining(self) -> list[str]:
        return [t for t in self.step.goal.targets if t not in self.collected]

    def _goal_met(self, move: Move, effect: str) -> bool | Explanation:
        """After the learner's move (position: opponent to move). True, False, or a failure."""
        goal = self.step.goal
        pos = self.pos
        status = pos.status()
        kind = goal.kind
        if kind == "reach":
            return not self._remaining()
        if kind == "capture":
            return not self._remaining()
        if kind == "check":
            if not pos.is_check():
                return False
            if goal.check_from and not set(pos.checkers()) & set(goal.check_from):
                return Explanation(
                    "wrong_checker",
                    Text(
                        "这是将军，但不是题目要求的那个棋子将军。",
                        "That is check, but not by the piece this exercise asks for.",
                    ),
                )
            return True
        if kind in ("mate", "stalemate", "dead_general"):
            wanted = {"mate": "checkmate"}.get(kind, kind)
            return status == wanted
        if kind == "move":
            if goal.accept and move.iccs() not in goal.accept:
                return False
            return goal.effect is None or effect == goal.effect
        if kind == "outcome":
            return self._outcome_met()
        return False

    def _outcome_met(self) -> bool:
        goal = self.step.goal
        outcome = self.pos.outcome()
        if outcome is None or outcome.termination != goal.termination:
            return False
        winner = None if goal.winner == "none" else goal.winner
        return goal.winner is None or outcome.winner == winner

    # -- playing ------------------------------------------------------------------------------

    def _read(self, text: str, index: int) -> Move:
        try:
            move = Move.from_iccs(text)
        except InvalidMoveError:
            raise _refuse(
                "unreadable",
                "看不懂这步棋：{m}（请用 ICCS 写法，例如 h2e2）。",
                "Cannot read the move {m!r} (write it in ICCS, like h2e2).",
                m=text,
                index=index,
                move=text,
            ) from None
        if max(move.from_file, move.to_file) >= self.pos.variant.width:
            raise _refuse(
                "off_board",
                "{m}不在棋盘上。",
                "{m} is off the board.",
                m=text,
                index=index,
                move=text,
            )
        return move

    def play(self, text: str) -> None:
        """Play one learner move (and the reply). Raises StepRefused for a move that cannot be
        played; a legal move that fails the exercise sets ``status`` to failed."""
        index = len(self.moves)
        if self.status != "playing":
            raise _refuse(
                "after_end",
                "这一步练习已经结束（第{n}步之后不能再走）。",
                "This step is already over; no move can follow move {n}.",
                n=index,
                index=index,
                move=text,
            )
        move = self._read(text, index)
        pos = self.pos
        if move not in pos.legal_moves:
            raise StepRefused(self._explain(move), index=index, move=move.iccs())
        step = self.step
        goal = step.goal
        chinese = pos.chinese(move)
        effect = pos.move_effect(move).kind
        before_pieces = pos.pieces()
        pos.push(move)
        iccs = move.iccs()
        self.moves.append(iccs)
        self.plies.append(Ply(iccs, chinese, "learner", effect, pos.fen()))
        to = iccs[2:]
        if goal.kind == "reach" and to in goal.targets and to not in self.collected:
            mover = before_pieces[iccs[:2]]
            if goal.piece is None or mover[-1].upper() == goal.piece:
                self.collected.append(to)
        captured = effect not in ("move", "self_destruct")
        if goal.kind == "capture" and captured and to in goal.targets and to not in self.collected:
            mover = before_pieces[iccs[:2]]
            if goal.piece is not None and mover[-1].upper() != goal.piece:
                took = Text("撞掉了", "hit") if effect == "collision" else Text("吃到了", "took")
                return self._fail(
                    self._authored(
                        iccs,
                        Explanation(
                            "wrong_piece",
                            Text(
                                "{took}，但用的是{got}；这一步要用{want}。",
                                "That {took} it, but with the {got}; this step asks you to use the {want}.",
                            ).format(
                                took=took,
                                got=piece_name(mover, colour=False),
                                want=piece_name(goal.piece, colour=False),
                            ),
                        ),
                    )
                )
            if goal.effect and effect != goal.effect:
                return self._fail(
                    self._authored(
                        iccs,
                        Explanation(
                            "wrong_effect",
                            Text(
                                "吃到了，但这是{got}，题目要的是{want}。",
                                "That took it, but it was {got}; the exercise wants {want}.",
                            ).format(got=EFFECT_TEXT[effect], want=EFFECT_TEXT[goal.effect]),
                        ),
                    )
                )
            self.collected.append(to)

        met = self._goal_met(move, effect)
        if isinstance(met, Explanation):
            return self._fail(self._authored(iccs, met))
        if met:
            return self._complete()
        outcome = pos.outcome()
        if outcome is not None:
            return self._fail(self._authored(iccs, self._ended_early(outcome.termination)))
        if step.opponent == "none" and (
            goal.kind in ("mate", "stalemate", "dead_general")
            or goal.kind == "check"
            and step.par == 1
        ):
            return self._fail(self._authored(iccs, self._missed(goal.kind)))
        if goal.kind == "move" and (goal.accept or goal.effect):
            return self._fail(
                self._authored(
                    iccs,
                    Explanation(
                        "not_this_move",
                        Text(
                            "这步棋可以走，但不是这道题要找的那一步。再试一次。",
                            "That move is legal, but it is not the one this exercise is looking for. "
                            "Try again.",
                        ),
                    ),
                )
            )
        if len(self.moves) >= step.move_limit:
            return self._fail(
                Explanation(
                    "too_many_moves",
                    Text("走的步数太多了，重新试一次吧。", "Too many moves: start the step again."),
                )
            )
        if step.opponent == "none":
            try:
                self.pos = _with_turn(pos, self.learner)
            except InvalidFenError:
                pos.pop()
                self.moves.pop()
                self.plies.pop()
                if to in self.collected:
                    self.collected.remove(to)
                raise _refuse(
                    "check_not_allowed",
                    "这步棋将军了。本题中对方不走棋，无法应将，所以这里不能将军；请换一步。",
                    "That move gives check. In this exercise the opponent does not move and "
                    "could not answer it, so checks are not allowed here; try another move.",
                    index=index,
                    move=iccs,
                ) from None
            if not self.pos.legal_moves:
                return self._fail(
                    Explanation(
                        "no_moves_left",
                        Text(
                            "你已经无子可动了，重新开始吧。", "You have no move left: start again."
                        ),
                    )
                )
            return None
        reply_text = step.replies.get(" ".join(self.moves))
        if reply_text is None:
            return self._fail(
                self._authored(
                    iccs,
                    Explanation(
                        "not_this_move",
                        Text(
                            "这步棋可以走，但对方能够化解。找更有力的一步，再试一次。",
                            "That move is legal, but it lets the opponent off the hook. Look for a "
                            "stronger move and try again.",
                        ),
                    ),
                )
            )
        reply = Move.from_iccs(reply_text)
        if reply not in pos.legal_moves:
            raise RuntimeError(f"step {step.key}: the scripted reply {reply_text} is not legal")
        reply_chinese = pos.chinese(reply)
        reply_effect = pos.move_effect(reply).kind
        pos.push(reply)
        self.plies.append(Ply(reply.iccs(), reply_chinese, "opponent", reply_effect, pos.fen()))
        if goal.kind == "outcome" and self._outcome_met():
            return self._complete()
        outcome = pos.outcome()
        if outcome is not None:
            return self._fail(self._ended_early(outcome.termination))
        return None

    def _ended_early(self, termination: str) -> Explanation:
        return Explanation(
            "game_over",
            Text(
                "对局结束了（{t}），但没有完成这道题的目标。再试一次。",
                "The game ended ({t}) without reaching this exercise's goal. Try again.",
            ).format(t=TERMINATION_TEXT[termination]),
        )

    def _missed(self, kind: str) -> Explanation:
        """A one-move goal that the move did not reach, said from the position after it."""
        pos = self.pos
        if kind == "check":
            return Explanation(
                "no_check",
                Text("这步棋没有将军。再试一次。", "That move does not give check. Try again."),
            )
        if kind == "stalemate":
            return Explanation(
                "not_stalemate",
                Text(
                    "对方还有棋可走，不是困毙。再试一次。",
                    "Your opponent still has a move: that is not stalemate. Try again.",
                ),
            )
        if pos.is_check():
            escape = next(iter(pos.legal_moves))
            if kind == "dead_general":
                return Explanation(
                    "not_dead_general",
                    Text(
                        "将军了，但对方还能应将，比如{m}，所以不是死将。再试一次。",
                        "Check, but your opponent can still answer it, for example with {m}: no "
                        "dead general. Try again.",
                    ).format(m=pos.chinese(escape)),
                )
            return Explanation(
                "not_mate",
                Text(
                    "将军了，但对方还能应将，比如{m}。再试一次。",
                    "Check, but your opponent can still answer it, for example with {m}. Try again.",
                ).format(m=pos.chinese(escape)),
            )
        return Explanation(
            "no_check",
            Text("这步棋没有将军。再试一次。", "That move does not give check. Try again."),
        )

    def _authored(self, iccs: str, situation: Explanation) -> Explanation:
        """The lesson's own words for this move (``wrong`` in the file), if it has them, under
        the code of what happened; else the explanation of what happened."""
        text = self.step.wrong.get(iccs)
        return situation if text is None else Explanation(situation.code, text)

    def _explain(self, move: Move) -> Explanation:
        try:
            reason = explain_illegal(self.pos, move)
        except (IllegalMoveError, ValueError, KeyError, StopIteration):
            reason = Explanation("illegal", Text("这步棋不合规则。", "That move is not legal."))
        return self._authored(move.iccs(), reason)

    def _complete(self) -> None:
        self.status = "complete"
        outcome = self.pos.outcome()
        if outcome is not None:
            self.ended = (outcome.termination, outcome.winner)
        self.message = Explanation("complete", success_text(self.step, self.moves))

    def _fail(self, explanation: Explanation) -> None:
        self.status = "failed"
        self.message = explanation
        outcome = self.pos.outcome()
        if outcome is not None:
            self.ended = (outcome.termination, outcome.winner)

    # -- reporting ----------------------------------------------------------------------------

    def state(self) -> MoveState:
        pos = self.pos
        playing = self.status == "playing"
        return MoveState(
            status=self.status,
            fen=pos.fen(),
            moves_used=len(self.moves),
            plies=list(self.plies),
            collected=list(self.collected),
            remaining=self._remaining(),
            check=_general_in_check(pos),
            message=self.message,
            termination=self.ended[0] if self.ended else None,
            winner=self.ended[1] if self.ended else None,
            legal=sorted(m.iccs() for m in pos.legal_moves) if playing else [],
            tries=pattern_moves(pos) if playing else [],
        )


def success_text(step: Step, moves: Sequence[str]) -> Text:
    """What the learner reads when ``moves`` complete the step: the words for its last move
    (``right``), else the step's success text, else a plain "well done"."""
    last = moves[-1] if moves else ""
    return step.right.get(last) or step.success or Text("完成！", "Well done!")


def play_moves(step: Step, moves: Sequence[str]) -> MoveState:
    """Replay ``moves`` from the step's start; raises StepRefused for a bad move."""
    if len(moves) > min(step.move_limit, MAX_PLIES):
        raise _refuse(
            "too_many_moves",
            "步数太多：这一步最多{n}步。",
            "Too many moves: this step allows at most {n}.",
            n=step.move_limit,
        )
    run = MoveRun(step)
    for text in moves:
        run.play(text)
    return run.state()


def start_state(step: Step) -> MoveState:
    return MoveRun(step).state()


# ---------------------------------------------------------------------------------------------
# Questions answered by clicking a point


@dataclass(frozen=True)
class PointState:
    correct: bool
    message: Explanation
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dynamic:
    """A board computed when the step is shown (today's plum-blossom position)."""

    fen: str
    caption: Text
    answers: tuple[str, ...]


def dynamic_board(step: Step, moment: datetime) -> Dynamic | None:
    """The board and answers of a step whose answer depends on the moment (or None)."""
    spec = step.goal.answer_from
    if not spec or "draw_claim" in spec:
        return None
    if "numbers" in spec:
        setup = plum_blossom_from_numbers(*[int(n) for n in spec["numbers"]])
    else:
        setup = plum_blossom(moment)
    piece = str(spec.get("piece", "F"))
    answers = tuple(sorted(p for p, v in setup.officers.items() if v == piece))
    upper, lower = setup.upper_trigram, setup.lower_trigram
    reading = setup.lunar_date or ""
    values = {
        "y": setup.year_branch,
        "m": setup.lunar_month,
        "d": setup.lunar_day,
        "h": setup.hour_branch,
        "u": upper,
        "un": setup.upper_number,
        "l": lower,
        "ln": setup.lower_number,
        "x": setup.moving_line,
        "name": setup.hexagram,
        "eng": setup.hexagram_english,
        "s": setup.number,
        "i": setup.arrangement_index,
    }
    caption = Text(
        (
            "{name}卦。"
            + (f"{reading}：" if reading else "")
            + "年支 {y}、月 {m}、日 {d}、时支 {h} → 上卦{u}（{un}）、下卦{l}（{ln}）、动爻 {x}，"
            "数 S = {s}，第 {i} 种排法。"
        ).format(**values),
        (
            "Hexagram {name} ({eng}). "
            + (f"{reading}: " if reading else "")
            + "year branch {y}, month {m}, day {d}, hour branch {h} → upper trigram {u} ({un}), "
            "lower trigram {l} ({ln}), moving line {x}; number S = {s}, arrangement {i}."
        ).format(**values),
    )
    return Dynamic(fen=setup.fen, caption=caption, answers=answers)


def draw_claimants(step: Step) -> tuple[str, ...]:
    """The points of the generals whose side may declare a draw by attack power (xinban)."""
    pos = Position.from_fen(step.variant, step.fen)
    pieces = pos.pieces()
    return tuple(
        sorted(
            next(p for p, v in pieces.items() if v == ("K" if side == "red" else "k"))
            for side in ("red", "black")
            if can_claim_draw(pos, side)
        )
    )


def point_answers(step: Step, moment: datetime | None) -> tuple[str, ...]:
    spec = step.goal.answer_from
    if spec and "draw_claim" in spec:
        return draw_claimants(step)
    if spec:
        if moment is None and "numbers" not in spec:
            raise _refuse(
                "moment_missing",
                "这道题需要出题的时刻。",
                "This question needs the moment its board was shown.",
            )
        board = dynamic_board(step, moment or datetime.now(UTC))
        assert board is not None
        return board.answers
    return step.goal.answers


def answer_point(step: Step, point: str, moment: datetime | None = None) -> PointState:
    if step.goal.kind != "point":
        raise _refuse("wrong_kind", "这一步不是点选题。", "This step is not answered by a point.")
    point = point.strip().lower()
    width = 11 if step.variant == "feidan" else 9
    if len(point) != 2 or point[0] not in "abcdefghijk"[:width] or not point[1].isdigit():
        raise _refuse(
            "bad_point", "{p}不是棋盘上的点。", "{p!r} is not a point of the board.", p=point
        )
    answers = point_answers(step, moment)
    if point in answers:
        return PointState(
            True, Explanation("complete", step.success or Text("对了！", "Right!")), answers
        )
    custom = step.wrong.get(point)
    if custom is not None:
        return PointState(False, Explanation("wrong_point", custom))
    return PointState(
        False,
        Explanation(
            "wrong_point",
            Text("不对，{p}不是答案。再想一想。", "No, {p} is not the answer. Think again.").format(
                p=point
            ),
        ),
    )


# ---------------------------------------------------------------------------------------------
# Secret setups

_VIOLATION_ZH = {
    "unknown_point": "{p}不是棋盘上的点。",
    "two_pieces_one_point": "{p}上放了两个棋子。",
    "unknown_piece": "{p}上的棋子不是飞弹象棋的棋子。",
    "wrong_color": "{p}上放的是对方的棋子。",
    "not_own_half": "{p}：{q}必须摆在本方半边（红方 0–4 路横线）。",
    "general_outside_palace": "{p}：帅必须摆在九宫里。",
    "advisor_point": "{p}：仕只能摆在仕的点上（e0 g0 f1 e2 g2）。",
    "elephant_point": "{p}：相只能摆在相能走到的七个点上（d0 h0 b2 f2 j2 d4 h4）。",
    "missile_not_in_base": "{p}：导弹必须摆在导弹基地里（a0 和 k0）。",
    "soldier_not_on_start_point": "{p}：五兵守门时，五个兵都留在原位（b3 d3 f3 h3 j3）。",
    "soldier_behind_start_rank": "{p}：兵只能摆在兵线和它前面的一条横线上（3–4 路），不能在兵线后面。",
    "centre_soldier_missing": "{p}：中兵守门时，中兵必须留在中路原位 f3。",
    "wrong_piece_count": "棋子数目不对：每方正好二十个棋子（帅1、仕2、相2、马2、车2、炮2、兵5、战机2、导弹2）。",
}


_COUNT = re.compile(r"has (\d+) (\w+); a side has exactly (\d+)")
_KIND_OF_NOUN = {
    noun: kind
    for kind, nouns in {
        "K": "general generals",
        "A": "advisor advisors",
        "B": "elephant elephants",
        "N": "horse horses",
        "R": "chariot chariots",
        "C": "cannon cannons",
        "P": "soldier soldiers",
        "F": "fighter fighters",
        "M": "missile missiles",
    }.items()
    for noun in nouns.split()
}


def _count_zh(message: str) -> str | None:
    """The engine's count of one kind of piece ("Red has 1 missile; a side has exactly 2
    missiles.") in Chinese, naming the piece and both numbers; None if it reads otherwise."""
    match = _COUNT.search(message)
    if match is None or match.group(2) not in _KIND_OF_NOUN:
        return None
    have, noun, needed = match.groups()
    name = piece_name(_KIND_OF_NOUN[noun], colour=False).zh
    return f"{name}的数目不对：现在摆了{have}个，每方正好{needed}个。"


@dataclass(frozen=True)
class SetupViolation:
    point: str | None
    code: str
    text: Text


@dataclass(frozen=True)
class SetupState:
    valid: bool
    violations: list[SetupViolation]
    message: Explanation
    fen: str


def check_setup(step: Step, placement: Mapping[str, str]) -> SetupState:
    goal = step.goal
    if goal.kind != "setup":
        raise _refuse("wrong_kind", "这一步不是布局题。", "This step is not a setup.")
    if len(placement) > 40:
        raise _refuse("too_many_pieces", "棋子太多。", "Too many pieces.")
    violations = validate_secret_half("red", dict(placement), goal.method)  # type: ignore[arg-type]
    explained = []
    for v in violations:
        letter = dict(placement).get(v.point or "", "")
        values: dict[str, object] = {"p": v.point or ""}
        if letter and letter[-1].upper() in "KABNRCPFM":
            values["q"] = piece_name(letter, colour=False).zh
        else:
            values["q"] = "棋子"
        zh = _count_zh(v.message) if v.code == "wrong_piece_count" else None
        zh = zh or _VIOLATION_ZH.get(v.code, v.message).format(**values)
        explained.append(SetupViolation(v.point, v.code, Text(zh, v.message)))
    if explained:
        return SetupState(
            False,
            explained,
            Explanation(
                "setup_invalid",
                Text(
                    "布局不合规则，请按提示改正。",
                    "The setup breaks the rules; fix what is marked.",
                ),
            ),
            fen="",
        )
    start = goal.placement or {}
    moved = sum(1 for p, v in placement.items() if start.get(p) != v)
    if moved < goal.require_moved:
        return SetupState(
            False,
            [],
            Explanation(
                "setup_unchanged",
                Text(
                    "布局合规，但请至少改动{n}个棋子的位置。",
                    "The setup is legal, but move at least {n} pieces from where they started.",
                ).format(n=goal.require_moved),
            ),
            fen="",
        )
    if goal.black_half is not None:
        reveal = combine_secret_setups(dict(placement), dict(goal.black_half), goal.method)  # type: ignore[arg-type]
        if reveal.void:
            reasons = {
                "generals_facing": Text("将帅对面", "the generals face each other"),
                "red_in_check": Text("红帅被将军", "Red's general is in check"),
                "black_in_check": Text("黑将被将军", "Black's general is in check"),
            }
            why = reasons[reveal.reasons[0]]
            return SetupState(
                False,
                [],
                Explanation(
                    "reveal_void",
                    Text(
                        "两边亮出来后{w}：这样的亮子无效，双方要重新布局。改一改你的布局。",
                        "When both halves are revealed, {w}: such a reveal is void and both sides set "
                        "up again. Change your setup.",
                    ).format(w=why),
                ),
                fen=reveal.fen,
            )
        fen = reveal.fen
    else:
        fen = ""
    return SetupState(
        True,
        [],
        Explanation("complete", step.success or Text("布局合规！", "A legal setup!")),
        fen=fen,
    )
