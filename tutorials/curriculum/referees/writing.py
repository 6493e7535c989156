"""The referee of a step answered by writing a move in Chinese notation (goal ``write``).

The learner types a move (炮二平五, 马8进7, 前车进一 …). It is read with the engine's own
reader against the step's position, so every writing the engine understands is judged by the
move it names: 马2进3, 马二进三 and 馬二進三 are one answer. A text that cannot be read, or names
a move its piece cannot make, is explained; a legal move that is not asked for is named.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine import Move, Position
from engine.errors import AmbiguousMoveError, EngineError, IllegalMoveError, InvalidMoveError
from engine.notation import parse_chinese
from tutorials.curriculum.referees.refusal import refuse
from tutorials.curriculum.schema import Step
from words.explain import Explanation, explain_illegal
from words.texts import Text

# How an engine error (code, params) is said in both languages; the app gives the site's
# catalogue (core.messages), which lives above this package.
Say = Callable[[str, Mapping[str, object]], Text]

_ICCS = re.compile(r"^[a-k][0-9]\s*[-–]?\s*[a-k][0-9]$", re.IGNORECASE)
MAX_LENGTH = 32


@dataclass(frozen=True)
class WriteState:
    correct: bool
    message: Explanation
    move: str | None = None  # the move the text names (ICCS), when it names a legal one
    chinese: str | None = None  # how the site writes that move


def _plain(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _unreadable(written: str, reason: Text) -> WriteState:
    return WriteState(
        False,
        Explanation(
            "unreadable",
            Text("看不懂“{t}”：{r}", "Cannot read “{t}”: {r}").format(t=written, r=reason),
        ),
    )


def answer_written(step: Step, text: str, say: Say) -> WriteState:
    """Judge ``text`` as the written move of a ``write`` step."""
    if step.goal.kind != "write":
        raise refuse("wrong_kind", "这一步不是写着法的题。", "This step is not answered in words.")
    written = text.strip()
    if not written:
        raise refuse(
            "empty", "先写下着法（中文记谱）。", "Write the move first, in Chinese notation."
        )
    if len(written) > MAX_LENGTH:
        raise refuse("too_long", "写得太长了。", "That is too long for a move.")
    pos = Position.from_fen(step.variant, step.fen)
    if _ICCS.match(written):
        return WriteState(
            False,
            Explanation(
                "iccs_not_words",
                Text(
                    "“{t}”是 ICCS 坐标写法；这里要用中文记谱写，比如“炮二平五”。",
                    "“{t}” is ICCS coordinates; here, write the move in Chinese notation, "
                    "like 炮二平五.",
                ).format(t=written),
            ),
        )
    try:
        move = parse_chinese(pos, written)
    except AmbiguousMoveError as error:
        names = "、".join(pos.chinese(Move.from_iccs(m)) for m in error.candidates)
        return WriteState(
            False,
            Explanation(
                "ambiguous",
                Text(
                    "“{t}”可以指好几步：{c}。同一路上有两个同样的棋子时，用前、后（中）来区分。",
                    "“{t}” could be several moves: {c}. When two pieces of a kind share a file, "
                    "前 (front) and 后 (rear) tell them apart.",
                ).format(t=written, c=names),
            ),
        )
    except IllegalMoveError as error:
        named = error.params.get("move")
        if isinstance(named, str):
            try:
                attempt = Move.from_iccs(named)
                reason = explain_illegal(pos, attempt).text
            except (EngineError, ValueError, KeyError, StopIteration):
                reason = say(error.code, error.params)
            return WriteState(
                False,
                Explanation(
                    "cannot_play",
                    Text(
                        "“{t}”说的是{m}这一步，可是它不能走：{r}",
                        "“{t}” names the move {m}, but it cannot be played: {r}",
                    ).format(t=written, m=named, r=reason),
                ),
            )
        return WriteState(
            False,
            Explanation(
                "no_such_move",
                Text("“{t}”：{r}", "“{t}”: {r}").format(t=written, r=say(error.code, error.params)),
            ),
        )
    except InvalidMoveError as error:
        return _unreadable(written, say(error.code, error.params))
    iccs = move.iccs()
    standard = pos.chinese(move)
    if iccs in step.goal.accept:
        praise = step.right.get(iccs) or step.success or Text("对了！", "Right!")
        if _plain(written) != standard:
            praise = Text("{p}（通常写作{s}。）", "{p} (It is usually written {s}.)").format(
                p=praise, s=standard
            )
        return WriteState(True, Explanation("complete", praise), iccs, standard)
    authored = step.wrong.get(iccs)
    said = authored or Text(
        "“{t}”是{s}（{i}）：这步棋能走，但不是题目要的那一步。再想一想。",
        "“{t}” is {s} ({i}): a legal move, but not the one asked for. Think again.",
    ).format(t=written, s=standard, i=iccs)
    return WriteState(False, Explanation("other_move", said), iccs, standard)
