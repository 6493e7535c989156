"""The referee of a step answered with moves.

A step is replayed from its start position on every request: the learner's moves (ICCS), each
followed by the opponent's scripted reply where the step has one. The referee says whether the
goal is met, how many moves it took and, for a move that cannot be played, why.

Two kinds of opponent:

* ``none`` (the piece lessons): the opponent never moves. After each learner move the position
  is read again with the learner to move. A move that gives check cannot be followed that way
  (the opponent would have to answer), so it is refused unless it completes the goal.
* ``scripted``: after each learner move the reply is looked up by the learner's moves so far.
  A legal move that is not in the script (and does not complete the goal) fails the step.
* ``computer`` (endgame steps): the engine replies (``computer``: a fixed node budget, so the
  same moves always get the same replies). The step is won when the game ends in the learner's
  favour within the step's moves, held when it is not lost by then (or ends in a draw). A
  reply that takes one of the learner's pieces, a draw in a step to win, a soldier left only on
  the bottom rank and running out of moves each fail the step with what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import IllegalMoveError, InvalidMoveError, Move, Position
from engine.vocab import OUTCOME_TERMINATIONS
from tutorials.curriculum.referees.computer import Memory, computer_move
from tutorials.curriculum.referees.refusal import StepRefused, refuse
from tutorials.curriculum.schema import Step
from words.endings import ENDINGS
from words.explain import Explanation, explain_illegal, pattern_moves
from words.texts import Text, piece_kind, piece_name

# The endings a move can bring about (not a resignation, an agreement or a clock).
TERMINATION_TEXT: dict[str, Text] = {
    termination: ENDINGS[termination].name for termination in OUTCOME_TERMINATIONS
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
    # in a ``safe`` step failed by a piece left hanging: the opponent's free capture (ICCS)
    threat: str | None = None

    @property
    def last_move(self) -> str | None:
        return self.plies[-1].iccs if self.plies else None


class MoveRun:
    """The referee of one try at a move step; ``play`` one learner move at a time."""

    def __init__(self, step: Step, memory: Memory | None = None) -> None:
        if step.goal.answered_with != "moves":
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
        self.threat: str | None = None
        self.memory = memory  # where the computer's replies are kept between requests

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
            raise refuse(
                "unreadable",
                "看不懂这步棋：{m}（请用 ICCS 写法，例如 h2e2）。",
                "Cannot read the move {m!r} (write it in ICCS, like h2e2).",
                m=text,
                index=index,
                move=text,
            ) from None
        if max(move.from_file, move.to_file) >= self.pos.variant.width:
            raise refuse(
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
            raise refuse(
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
            raise StepRefused(self._explain(move), index=index, move=move.iccs(), illegal=True)
        step = self.step
        goal = step.goal
        chinese = pos.chinese(move)
        effect = pos.move_effect(move).kind
        before_pieces = pos.pieces()
        pos.push(move)
        iccs = move.iccs()
        self.moves.append(iccs)
        self.plies.append(Ply(iccs, chinese, "learner", effect, pos.fen()))
        if goal.kind == "endgame":
            return self._endgame_turn(iccs)
        to = iccs[2:]
        if goal.kind == "reach" and to in goal.targets and to not in self.collected:
            mover = before_pieces[iccs[:2]]
            if goal.piece is None or piece_kind(mover) == goal.piece:
                self.collected.append(to)
        captured = effect not in ("move", "self_destruct")
        if goal.kind == "capture" and captured and to in goal.targets and to not in self.collected:
            mover = before_pieces[iccs[:2]]
            if goal.piece is not None and piece_kind(mover) != goal.piece:
                took = Text("撞掉了", "hit") if effect == "collision" else Text("吃到了", "took")
                return self._refute(
                    iccs,
                    "wrong_piece",
                    Text(
                        "{took}，但用的是{got}；这一步要用{want}。",
                        "That {took} it, but with the {got}; this step asks you to use the {want}.",
                    ).format(
                        took=took,
                        got=piece_name(mover, colour=False),
                        want=piece_name(goal.piece, colour=False),
                    ),
                )
            if goal.effect and effect != goal.effect:
                return self._refute(
                    iccs,
                    "wrong_effect",
                    Text(
                        "吃到了，但这是{got}，题目要的是{want}。",
                        "That took it, but it was {got}; the exercise wants {want}.",
                    ).format(got=EFFECT_TEXT[effect], want=EFFECT_TEXT[goal.effect]),
                )
            self.collected.append(to)

        if step.safe:
            threat = free_capture(pos)
            if threat is not None:
                self.threat = threat.iccs()
                return self._refute(iccs, "left_hanging", hanging_text(pos, chinese, threat))
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
            return self._refute(
                iccs,
                "not_this_move",
                Text(
                    "这步是{m}，可以走，但不是这道题要找的那一步：题目要的是{want}。再试一次。",
                    "That is {m}: a legal move, but not the one this exercise is looking for; "
                    "it wants {want}. Try again.",
                ).format(m=chinese, want=wanted(step)),
            )
        if len(self.moves) >= step.move_limit:
            return self._fail(
                Explanation(
                    "too_many_moves",
                    Text("走的步数太多了，重新试一次吧。", "Too many moves: start the step again."),
                )
            )
        if step.opponent == "none":
            # The opponent does not move: the turn goes back to the learner, which a check
            # would make impossible (the side not to move may not stand in check).
            if not pos.is_check():
                self.pos = pos.with_turn(self.learner)
            else:
                pos.pop()
                self.moves.pop()
                self.plies.pop()
                if to in self.collected:
                    self.collected.remove(to)
                raise refuse(
                    "check_not_allowed",
                    "这步棋将军了。本题中对方不走棋，无法应将，所以这里不能将军；请换一步。",
                    "That move gives check. In this exercise the opponent does not move and "
                    "could not answer it, so checks are not allowed here; try another move.",
                    index=index,
                    move=iccs,
                    illegal=True,
                )
            if not self.pos.legal_moves:
                return self._fail(
                    Explanation(
                        "no_moves_left",
                        Text(
                            "你已经无着可走了，重新开始吧。", "You have no move left: start again."
                        ),
                    )
                )
            return None
        reply_text = step.replies.get(" ".join(self.moves))
        if reply_text is None:
            return self._refute(
                iccs,
                "not_this_move",
                Text(
                    "{m}可以走，但对方能够化解；这道题要的是{want}。找更有力的一步，再试一次。",
                    "{m} is legal, but it lets the opponent off the hook; this exercise wants "
                    "{want}. Look for a stronger move and try again.",
                ).format(m=chinese, want=wanted(step)),
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

    # -- endgames against the computer -------------------------------------------------------

    def _endgame_turn(self, iccs: str) -> None:
        """After the learner's move ``iccs`` in an endgame: the game's end, or the computer's
        reply and what it did."""
        step = self.step
        goal = step.goal
        pos = self.pos
        outcome = pos.outcome()
        if outcome is not None:
            return self._endgame_ended(iccs, outcome.termination, outcome.winner)
        if goal.result == "win" and self._only_bottom_soldiers(self.learner):
            return self._refute(
                iccs,
                "bottom_soldier",
                Text(
                    "兵走到了底线，成了底兵（老兵）：它不能后退，只能在底线上横走，对方的将只要"
                    "离开底线就很安全。单靠底兵赢不了，这盘已经是和棋了。再试一次：让兵停在"
                    "高处，等自己的老将把对方逼住再往下走。",
                    "Your soldier has reached the last rank (a bottom soldier): it can never "
                    "step back and only moves along that rank, so the defending general is safe "
                    "anywhere off it. A bottom soldier alone cannot win; the game is a draw now. "
                    "Try again: keep the soldier high until your general has hemmed the other "
                    "one in.",
                ),
            )
        line = [ply.iccs for ply in self.plies]
        reply = Move.from_iccs(computer_move(step.variant, step.fen, line, self.memory))
        if reply not in pos.legal_moves:
            raise RuntimeError(f"step {step.key}: the computer's move {reply.iccs()} is not legal")
        text = reply.iccs()
        before = pos.pieces()
        mover, taken = before[text[:2]], before.get(text[2:])
        reply_chinese = pos.chinese(reply)
        reply_effect = pos.move_effect(reply).kind
        pos.push(reply)
        self.plies.append(Ply(text, reply_chinese, "opponent", reply_effect, pos.fen()))
        outcome = pos.outcome()
        if outcome is not None:
            return self._endgame_ended(iccs, outcome.termination, outcome.winner)
        if taken is not None and reply_effect not in ("move", "self_destruct"):
            return self._refute(
                iccs,
                "piece_lost",
                self._loss_text(
                    Text(reply_chinese, f"{reply_chinese} ({text})"), reply_effect, mover, taken
                ),
            )
        if len(self.moves) >= goal.within:
            if goal.result == "hold":
                return self._complete()
            return self._refute(
                iccs,
                "out_of_moves",
                Text(
                    "{n}步已经用完，对方的将还站着。这盘残棋在{n}步内能赢：要一步步压缩对方"
                    "将的活动范围，不走空着。再试一次。",
                    "All {n} moves are used and the defending general still stands. This "
                    "ending can be won within {n}: take away the general's room step by step, "
                    "without wasted moves. Try again.",
                ).format(n=str(goal.within)),
            )
        return None

    def _only_bottom_soldiers(self, side: str) -> bool:
        """``side`` (``red`` or ``black``) attacks with soldiers only, and every one of them is on
        the last rank."""
        last = 9 if side == "red" else 0
        attackers = [
            (point, letter)
            for point, letter in self.pos.pieces().items()
            if (letter[-1].isupper()) == (side == "red") and piece_kind(letter) not in "KAB"
        ]
        return bool(attackers) and all(
            piece_kind(letter) == "P" and int(point[1]) == last for point, letter in attackers
        )

    def _loss_text(self, reply: Text, effect: str, mover: str, taken: str) -> Text:
        words = {
            "by": piece_name(mover, colour=False),
            "piece": piece_name(taken, colour=False),
            "reply": reply,
        }
        computer = "black" if self.learner == "red" else "red"
        if self.step.goal.result == "win":
            after = Text(
                "少了它，这盘就赢不下来了。再试一次。", "Without it the win is gone. Try again."
            )
        elif piece_kind(mover) == "P" and self._only_bottom_soldiers(computer):
            # The taker is a soldier that came down to the last rank: a bottom soldier cannot
            # win, so the game is still drawn; the step asked for every piece to be kept.
            after = Text(
                "吃子的兵到了底线，成了底兵（老兵），其实已经赢不了；可是这一步要你一个棋子也"
                "不丢。再试一次。",
                "The soldier that took it now stands on the last rank, a bottom soldier that can "
                "no longer win; but this step asks you to keep every piece. Try again.",
            )
        else:
            after = Text(
                "少了它，这盘就守不住了。再试一次。",
                "Without it the position cannot be held. Try again.",
            )
        if effect == "collision":
            what = Text(
                "对方{reply}：它的{by}和你的{piece}相撞，同归于尽。",
                "The computer plays {reply}: its {by} collides with your {piece} and both are "
                "gone.",
            )
        elif effect == "defection":
            what = Text(
                "对方{reply}：它的{by}吃掉了你的{piece}，这个棋子倒戈，成了对方的。",
                "The computer plays {reply}: its {by} takes your {piece}, which defects and now "
                "fights for the other side.",
            )
        else:
            what = Text(
                "对方{reply}：它的{by}吃掉了你的{piece}。",
                "The computer plays {reply}: its {by} takes your {piece}.",
            )
        return what.format(**words) + after

    def _endgame_ended(self, iccs: str, termination: str, winner: str | None) -> None:
        name = TERMINATION_TEXT[termination]
        if winner == self.learner or winner is None and self.step.goal.result == "hold":
            return self._complete()
        if winner is None:
            return self._refute(
                iccs,
                "endgame_draw",
                Text(
                    "对局以{t}告终，是和棋：对方逃脱了。要赢，就要每一步都取得进展，"
                    "不要来回重复。再试一次。",
                    "The game ended in a draw ({t}): the defender got away. To win, make "
                    "progress with every move instead of going back and forth. Try again.",
                ).format(t=name),
            )
        return self._refute(
            iccs,
            "endgame_lost",
            Text(
                "对局结束（{t}），你输了。再试一次。",
                "The game is over ({t}) and you have lost. Try again.",
            ).format(t=name),
        )

    def _ended_early(self, termination: str) -> Explanation:
        outcome = self.pos.outcome()
        if outcome is not None and outcome.winner == self.learner:
            # A win, but not the one the step teaches: say that it wins, and what is wanted.
            return Explanation(
                "won_otherwise",
                Text(
                    "{t}，这样也能赢棋！不过这道题要的是{want}。再试一次。",
                    "{t}: that wins the game too! But this exercise wants {want}. Try again.",
                ).format(t=TERMINATION_TEXT[termination], want=wanted(self.step)),
            )
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

    def _refute(self, iccs: str, code: str, text: Text) -> None:
        """Fail the step on the learner's move ``iccs``, saying ``text`` under ``code`` (or the
        lesson's own words for that move)."""
        return self._fail(self._authored(iccs, Explanation(code, text)))

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
        if reason.code in ("no_piece", "not_your_piece"):
            # The lesson's words for this move speak of a piece of the learner's on its point
            # (one that gets there later in the step): none stands there now.
            return reason
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
        if playing and self.message is None and len(self.moves) >= self.step.par:
            self.message = over_par(self.step)
        return MoveState(
            status=self.status,
            fen=pos.fen(),
            moves_used=len(self.moves),
            plies=list(self.plies),
            collected=list(self.collected),
            remaining=self._remaining(),
            check=pos.checked_general(),
            message=self.message,
            termination=self.ended[0] if self.ended else None,
            winner=self.ended[1] if self.ended else None,
            legal=sorted(m.iccs() for m in pos.legal_moves) if playing else [],
            tries=pattern_moves(pos) if playing else [],
            threat=self.threat,
        )


# What takes a piece off the board and leaves the taker standing (a collision is a trade).
_TAKES = ("capture", "defection", "cannon_takes_missile")


def free_capture(pos: Position) -> Move | None:
    """A move of the side to move in ``pos`` that takes one of the other side's pieces where
    nothing can take back on that point, or None."""
    for move in sorted(pos.legal_moves, key=lambda m: m.iccs()):
        if pos.move_effect(move).kind not in _TAKES:
            continue
        pos.push(move)
        try:
            target = move.iccs()[2:]
            back = any(
                m.iccs()[2:] == target and pos.move_effect(m).kind != "move"
                for m in pos.legal_moves
            )
        finally:
            pos.pop()
        if not back:
            return move
    return None


def hanging_text(pos: Position, played: str, threat: Move) -> Text:
    """Why a move fails a ``safe`` step: the opponent's free capture ``threat`` (to move in
    ``pos``), with the attacker and the piece it takes named and placed."""
    text = threat.iccs()
    pieces = pos.pieces()
    return Text(
        "走了{m}之后，{a}（{f}）可以白吃你在{t}的{p}（{r}），你吃不回来。这一步不能把棋子"
        "送给对方白吃，再试一次。",
        "After {m}, the {a} on {f} can take your {p} on {t} for free ({r}) and nothing of "
        "yours can take back. This step does not allow leaving a piece to be taken for free; "
        "try again.",
    ).format(
        m=played,
        a=piece_name(pieces[text[:2]]),
        f=text[:2],
        p=piece_name(pieces[text[2:]], colour=False),
        t=text[2:],
        r=Text(pos.chinese(threat), f"{pos.chinese(threat)}, {text}"),
    )


def wanted(step: Step) -> Text:
    """What the step asks for, in a few words ("give check", "a collision")."""
    goal = step.goal
    kind = goal.kind
    if kind == "reach":
        if goal.piece:
            return Text("用{p}走到绿圈的点上", "the {p} on the points circled in green").format(
                p=piece_name(goal.piece, colour=False)
            )
        return Text("走到绿圈的点上", "reaching the points circled in green")
    if kind == "capture":
        if goal.effect:
            return Text("用{e}拿下绿圈里的棋子", "{e} on the pieces circled in green").format(
                e=EFFECT_TEXT[goal.effect]
            )
        return Text("吃掉绿圈里的棋子", "taking the pieces circled in green")
    if kind == "move":
        if goal.effect and not goal.accept:
            return Text("一步{e}", "a move that is {e}").format(e=EFFECT_TEXT[goal.effect])
        return Text("题目里说的那一步", "the move the instruction describes")
    if kind == "outcome" and goal.termination:
        return Text("以{t}结束对局", "the game ending by {t}").format(
            t=TERMINATION_TEXT[goal.termination]
        )
    return {
        "check": Text("将军", "a check"),
        "mate": Text("将死对方", "checkmate"),
        "stalemate": Text("困毙对方", "stalemate"),
        "dead_general": Text(
            "死将（导弹在九宫里将军，将无处可躲）",
            "a dead general (a missile checking in the palace, the general with no escape)",
        ),
    }.get(kind, Text("题目的目标", "the exercise's goal"))


def over_par(step: Step) -> Explanation:
    """Said while a step goes on after its par: it can still be finished, or started again."""
    return Explanation(
        "over_par",
        Text(
            "这一步最少{n}步就能完成（标准步数），你已经走满{n}步，目标还没有达到。可以接着走完"
            "（星会少一些），也可以点“再试一次”从头来，争取三颗星。",
            "This step can be done in {n} moves (its par), you have used them and the goal is "
            "not reached yet. Play on to finish it for fewer stars, or press “Try again” to "
            "start over and aim for three.",
        ).format(n=step.par),
    )


def success_text(step: Step, moves: Sequence[str]) -> Text:
    """What the learner reads when ``moves`` complete the step: the words for its last move
    (``right``), else the step's success text, else a plain "well done"."""
    last = moves[-1] if moves else ""
    return step.right.get(last) or step.success or Text("完成！", "Well done!")


def play_moves(step: Step, moves: Sequence[str], memory: Memory | None = None) -> MoveState:
    """Replay ``moves`` from the step's start; raises StepRefused for a bad move. ``memory``
    keeps the computer's replies in an endgame between requests."""
    if len(moves) > min(step.move_limit, MAX_PLIES):
        raise refuse(
            "too_many_moves",
            "步数太多：这一步最多{n}步。",
            "Too many moves: this step allows at most {n}.",
            n=step.move_limit,
        )
    run = MoveRun(step, memory)
    for text in moves:
        run.play(text)
    return run.state()


def start_state(step: Step) -> MoveState:
    return MoveRun(step).state()
