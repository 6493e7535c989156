"""Why a move cannot be played, in words, in both languages.

The engine decides whether a move is legal; this module says why not, from the position:
the horse's leg (蹩马脚), the elephant's eye (塞象眼), the cannon's screen (炮打隔子), the
fighter's two blocking points (阻航), the palace, the river, the general and the missile, and
which enemy piece would attack the general after the move.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Position
from words.texts import Text, piece_kind, piece_name

FILES = "abcdefghijk"


@dataclass(frozen=True)
class Explanation:
    """``code`` is stable (for programs and tests), ``text`` is for people."""

    code: str
    text: Text


def _xy(point: str) -> tuple[int, int]:
    return FILES.index(point[0]), int(point[1])


def _name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank}"


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _is_red(letter: str) -> bool:
    return letter[-1].isupper()


def _in_palace(pos: Position, file: int, rank: int, red: bool) -> bool:
    ranks = range(0, 3) if red else range(7, 10)
    return file in pos.variant.palace_files and rank in ranks


def _own_half(rank: int, red: bool) -> bool:
    return rank <= 4 if red else rank >= 5


def _between(pieces: dict[str, str], a: tuple[int, int], b: tuple[int, int]) -> list[str]:
    """Occupied points strictly between two points of one file or rank."""
    df, dr = _sign(b[0] - a[0]), _sign(b[1] - a[1])
    f, r = a[0] + df, a[1] + dr
    found = []
    while (f, r) != b:
        if _name(f, r) in pieces:
            found.append(_name(f, r))
        f, r = f + df, r + dr
    return found


def _e(code: str, zh: str, en: str, **values: object) -> Explanation:
    return Explanation(code, Text(zh, en).format(**values))


def pattern_fault(pos: Position, move: Move) -> Explanation | None:
    """The movement rule the move breaks, or None when the piece may move so by its pattern."""
    pieces = pos.pieces()
    origin = _name(move.from_file, move.from_rank)
    target = _name(move.to_file, move.to_rank)
    letter = pieces.get(origin)
    if letter is None:
        return _e("no_piece", "{p}上没有棋子。", "There is no piece on {p}.", p=origin)
    red = _is_red(letter)
    if red != (pos.turn == "red"):
        return _e(
            "not_your_piece",
            "{p}上是对方的棋子。",
            "The piece on {p} is your opponent's.",
            p=origin,
        )
    piece = piece_name(letter, colour=False)
    occupant = pieces.get(target)
    if occupant is not None and _is_red(occupant) == red:
        return _e(
            "own_piece",
            "{p}上是你自己的{q}，不能吃自己的棋子。",
            "Your own {q} stands on {p}; you cannot capture your own piece.",
            p=target,
            q=piece_name(occupant, colour=False),
        )
    kind = piece_kind(letter)
    a, b = _xy(origin), _xy(target)
    df, dr = b[0] - a[0], b[1] - a[1]
    forward = dr if red else -dr

    if kind == "K":
        if abs(df) + abs(dr) != 1:
            return _e(
                "general_step",
                "帅（将）每步只能横或竖走一格。",
                "The general moves one point at a time, straight along a line.",
            )
        if not _in_palace(pos, *b, red):
            return _e(
                "general_palace",
                "帅（将）不能走出九宫。",
                "The general may not leave its palace (九宫).",
            )
        if occupant is not None and piece_kind(occupant) == "M":
            return _e(
                "general_missile",
                "帅（将）永远不能碰导弹：它只能回避，不能吃掉导弹。",
                "The general may never move onto a missile: it can only step away from "
                "it, never take it.",
            )
    elif kind == "A":
        if abs(df) != 1 or abs(dr) != 1:
            return _e(
                "advisor_step",
                "仕（士）每步只能斜走一格。",
                "The advisor moves one point diagonally.",
            )
        if not _in_palace(pos, *b, red):
            return _e(
                "advisor_palace",
                "仕（士）不能走出九宫。",
                "The advisor may not leave its palace (九宫).",
            )
    elif kind == "B":
        if abs(df) != 2 or abs(dr) != 2:
            return _e(
                "elephant_step",
                "相（象）走“田”字：每步斜走两格。",
                "The elephant moves exactly two points diagonally (the 田 shape).",
            )
        if not _own_half(b[1], red):
            return _e(
                "elephant_river", "相（象）不能过河。", "The elephant may never cross the river."
            )
        eye = _name(a[0] + df // 2, a[1] + dr // 2)
        if eye in pieces:
            return _e(
                "elephant_eye",
                "塞象眼：“田”字中心{e}上有{q}，相（象）过不去。",
                "Blocked elephant's eye (塞象眼): the centre of the 田, {e}, is occupied by a {q}.",
                e=eye,
                q=piece_name(pieces[eye]),
            )
    elif kind == "N":
        if sorted((abs(df), abs(dr))) != [1, 2]:
            return _e(
                "horse_step",
                "马走“日”字：先直走一格，再斜走一格。",
                "The horse moves one point straight, then one diagonally outward (the 日 shape).",
            )
        leg = _name(a[0] + _sign(df) * (abs(df) == 2), a[1] + _sign(dr) * (abs(dr) == 2))
        if leg in pieces:
            return _e(
                "horse_leg",
                "蹩马脚：马腿{l}上有{q}，马不能朝这个方向走。",
                "Hobbled horse (蹩马脚): the point next to it in that direction, {l}, "
                "is occupied by a {q}.",
                l=leg,
                q=piece_name(pieces[leg]),
            )
    elif kind == "F":
        if sorted((abs(df), abs(dr))) != [1, 3]:
            return _e(
                "fighter_step",
                "战机走“目”字：一个方向走一格，另一个方向走三格。",
                "The fighter flies along the 目 shape: one point one way and three the other.",
            )
        sx, sy = (_sign(df), 0) if abs(df) == 3 else (0, _sign(dr))
        legs = [_name(a[0] + sx, a[1] + sy), _name(a[0] + 2 * sx, a[1] + 2 * sy)]
        if all(leg in pieces for leg in legs):
            return _e(
                "fighter_blocked",
                "阻航：{l1}和{l2}两点都有棋子，战机不能起飞；只有一个棋子时不受阻。",
                "Grounded (阻航): both {l1} and {l2} are occupied. One piece there would "
                "not stop the fighter; two do.",
                l1=legs[0],
                l2=legs[1],
            )
    elif kind in ("R", "M", "C"):
        if df and dr:
            return _e(
                "line_step",
                "{q}只能沿直线（横线或竖线）走。",
                "The {q} moves only along a file or a rank.",
                q=piece,
            )
        screens = _between(pieces, a, b)
        if kind == "C" and occupant is not None:
            if len(screens) != 1:
                count = len(screens)
                if count == 0:
                    return _e(
                        "cannon_no_screen",
                        "炮打隔子：炮吃子必须隔一个棋子（炮架），这里中间没有棋子。",
                        "A cannon captures only by jumping over exactly one piece (炮打隔子);"
                        " there is no piece in between here.",
                    )
                return _e(
                    "cannon_screens",
                    "炮打隔子：炮只能隔一个棋子吃子，这里中间有{n}个棋子。",
                    "A cannon captures only by jumping over exactly one piece (炮打隔子); "
                    "here {n} pieces stand in between.",
                    n=count,
                )
        elif screens:
            first = screens[0]
            if kind == "C":
                return _e(
                    "cannon_path",
                    "炮不吃子时和车一样走，不能跳过{p}上的{q}。",
                    "When it does not capture, a cannon moves like a chariot and cannot "
                    "jump the {q} on {p}.",
                    p=first,
                    q=piece_name(pieces[first]),
                )
            return _e(
                "path_blocked",
                "{p}上的{q}挡住了去路，{r}不能越子。",
                "The {q} on {p} blocks the way; a {r} cannot jump.",
                p=first,
                q=piece_name(pieces[first]),
                r=piece,
            )
    elif kind == "P":
        if abs(df) + abs(dr) != 1:
            return _e(
                "soldier_step", "兵（卒）每步只走一格。", "A soldier moves one point at a time."
            )
        if forward < 0:
            return _e("soldier_back", "兵（卒）永远不能后退。", "A soldier never moves backward.")
        if df and _own_half(a[1], red):
            return _e(
                "soldier_sideways",
                "兵（卒）过河以前只能向前走；过了河才能左右走。",
                "Before it crosses the river a soldier only moves forward; sideways steps "
                "come after the river.",
            )
    return None


def _after(pos: Position, move: Move) -> Position:
    """The position after a move that follows its piece's pattern, legal or not, with the
    mover to move again (so that ``checkers()`` names what attacks the mover's general)."""
    after = pos.copy()
    # the engine's make-move applies collisions and defections too
    after.push_code(after.encode(move))
    return after.with_turn(pos.turn)


def _general_point(pos: Position, red: bool) -> str:
    target = "K" if red else "k"
    return next(p for p, letter in pos.pieces().items() if letter == target)


def check_fault(pos: Position, move: Move) -> Explanation:
    """Why a move that follows its pattern is still illegal: it leaves the general attacked."""
    if pos.is_dead_general():
        return _e(
            "dead_general",
            "死将：导弹在九宫里将军，将（帅）无处可躲，这盘棋已经结束，任何棋子都救不了。",
            "Dead general: a missile in the palace gives check and the general has no "
            "point to step to, so the game is over; no other piece can save it.",
        )
    red = pos.turn == "red"
    after = _after(pos, move)
    general = _general_point(after, red)
    attackers = after.checkers()
    own_general = _general_point(pos, red)
    enemy_general = _general_point(pos, not red)
    facing = general[0] == enemy_general[0] and not _between(
        after.pieces(), _xy(general), _xy(enemy_general)
    )
    if facing or (attackers and attackers == [enemy_general] and general[0] == enemy_general[0]):
        return _e(
            "generals_facing",
            "将帅不能对面：走了这步，两个将帅会在同一条直线上直接相对。",
            "The generals may never face each other on an open file (将帅对面): after "
            "this move nothing would stand between them.",
        )
    where = attackers[0] if attackers else ""
    attacker = piece_name(after.pieces()[where]) if attackers else Text("对方棋子", "enemy piece")
    if _name(move.from_file, move.from_rank) == own_general:
        return _e(
            "general_attacked",
            "{g}不能走到{p}：那里会被{p2}上的{q}吃掉。",
            "The general cannot go to {p}: the {q} on {p2} would attack it there.",
            g=piece_name("K" if red else "k"),
            p=general,
            p2=where,
            q=attacker,
        )
    if pos.is_check():
        return _e(
            "check_unanswered",
            "你正被将军。这步棋没有解除{p}上{q}的将军。",
            "You are in check, and this move does not answer the check from the {q} on {p}.",
            p=where,
            q=attacker,
        )
    return _e(
        "exposes_general",
        "走了这步，{p}上的{q}就会将你的军，所以不能走。",
        "After this move the {q} on {p} would attack your general, so it is not allowed.",
        p=where,
        q=attacker,
    )


def explain_illegal(pos: Position, move: Move) -> Explanation:
    """Why ``move`` is not legal in ``pos`` (call only for illegal moves)."""
    fault = pattern_fault(pos, move)
    if fault is not None:
        return fault
    return check_fault(pos, move)


def pattern_moves(pos: Position) -> list[str]:
    """Every move the side to move could try by its pieces' patterns, ignoring blocks, the
    palace, the river and checks (but not its own pieces): the moves a board lets a learner
    attempt, so that a wrong one can be explained."""
    pieces = pos.pieces()
    red = pos.turn == "red"
    width = pos.variant.width
    out: set[str] = set()
    for origin, letter in pieces.items():
        if _is_red(letter) != red:
            continue
        f, r = _xy(origin)
        kind = piece_kind(letter)
        if kind in ("R", "M", "C"):
            steps = [(x, r) for x in range(width) if x != f] + [(f, y) for y in range(10) if y != r]
        else:
            deltas = {
                "K": [(0, 1), (0, -1), (1, 0), (-1, 0)],
                "P": [(0, 1), (0, -1), (1, 0), (-1, 0)],
                "A": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
                "B": [(2, 2), (2, -2), (-2, 2), (-2, -2)],
                "N": [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)],
                "F": [(1, 3), (-1, 3), (1, -3), (-1, -3), (3, 1), (3, -1), (-3, 1), (-3, -1)],
            }[kind]
            steps = [(f + dx, r + dy) for dx, dy in deltas]
        for x, y in steps:
            if not (0 <= x < width and 0 <= y < 10):
                continue
            occupant = pieces.get(_name(x, y))
            if occupant is not None and _is_red(occupant) == red:
                continue
            out.add(origin + _name(x, y))
    return sorted(out)
