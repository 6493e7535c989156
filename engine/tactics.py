"""Tactics (战术): the material a side has, and which tactics a line that wins material shows.

Pure engine logic (no Django): the tactics miner (``puzzles.tactics_mining``) measures the gain
of a line with ``material_balance``, and the bank names each line's tactics with ``detect``.
``detect(variant, fen, line)`` replays ``line`` (ICCS, the solver's move first, then the
defender's reply, and so on) and reports the codes of ``TACTICS`` it shows, in catalogue
order; each entry of the catalogue carries its exact definition in both languages. "Attacks"
means the rules' capture reach (``Position.attackers``: a pinned attacker still counts), and a
piece is "protected" when one of its own side attacks its point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.move import Move
from engine.position import Position
from engine.variants import BLACK, CANNON, CHARIOT, KING, TYPE_MASK

# The values of docs/rules.md §8 (chariot 9 > missile 6 > fighter 5 > cannon 4.5 > horse 4 >
# advisor 2 = elephant 2 > soldier 1); the general has none.
VALUES: dict[str, float] = {
    "r": 9.0,
    "m": 6.0,
    "f": 5.0,
    "c": 4.5,
    "n": 4.0,
    "a": 2.0,
    "b": 2.0,
    "p": 1.0,
    "k": 0.0,
}


def piece_value(letter: str) -> float:
    """The value of a piece by its FEN letter(s) (a turncoat's ``+`` ignored)."""
    return VALUES[letter[-1].lower()]


def material(position: Position, side: str) -> float:
    """The value of ``side``'s pieces (``"red"`` or ``"black"``)."""
    red = side == "red"
    return sum(
        piece_value(text) for text in position.pieces().values() if text[-1].isupper() == red
    )


def material_balance(position: Position, side: str) -> float:
    """``side``'s material less the other side's."""
    other = "black" if side == "red" else "red"
    return material(position, side) - material(position, other)


@dataclass(frozen=True)
class Tactic:
    """One tactic: ``code`` (the puzzle theme's slug), its names, a summary and the exact
    definition ``detect`` uses, in English and Chinese."""

    code: str
    zh: str
    en: str
    summary_en: str
    summary_zh: str
    definition_en: str
    definition_zh: str


TACTICS: tuple[Tactic, ...] = (
    Tactic(
        "double_check",
        "双将",
        "Double check",
        "Two pieces check at once: no block or capture answers both.",
        "两子同时将军，垫将或吃子都无法同时解除。",
        "After one of the solver's moves, two or more of its pieces give check.",
        "攻方走完某一步后，有两个或更多棋子同时将军。",
    ),
    Tactic(
        "discovered_check",
        "抽将",
        "Discovered check",
        "A piece steps aside and uncovers a check; the piece that moved wins material.",
        "走开一子亮出将军，走开的子趁机吃子。",
        "A solver's move gives check by a piece other than the one that moved, and the piece "
        "that moved captures on that move or on the solver's next move.",
        "攻方一步棋由走动子以外的棋子将军，且走动的子在这步或攻方下一步吃子。",
    ),
    Tactic(
        "fork",
        "捉双",
        "Fork",
        "One piece attacks two targets at once; only one can be saved.",
        "一子同时攻击两个目标，对方只能顾及其一。",
        "After a solver's move, the piece that moved attacks two or more enemy targets (the "
        "general, a piece nothing protects, or a piece worth more than it), the defender never "
        "takes that piece in the line, and the solver later captures one of the targets.",
        "攻方走完一步后，走动的子同时攻击两个或更多目标（将帅、无保护的子、或价值高于它的子），"
        "防守方在变化中没有吃掉这个子，且攻方随后吃掉其中一个目标。",
    ),
    Tactic(
        "pin",
        "牵制",
        "Pin",
        "A piece cannot move without exposing the general or a bigger piece behind it.",
        "一子被牵住，走开就会让身后的将帅或大子受攻。",
        "After a solver's move, a solver's chariot attacks an enemy piece with the enemy "
        "general or a piece worth more behind it on the same line (for a cannon: beyond a "
        "screen), and the solver captures the pinned piece or the one behind it later in the "
        "line.",
        "攻方走完一步后，攻方的车直接攻击对方一子，其后同一线上是对方的将帅或价值更高的子"
        "（炮则隔一个炮架），且攻方随后在变化中吃掉被牵制的子或其后的子。",
    ),
    Tactic(
        "trapped_piece",
        "困子",
        "Trapped piece",
        "A piece has nowhere safe to go and is won.",
        "一子无路可逃，被吃掉。",
        "A piece worth 4 or more that the solver captures after its first move had, right "
        "after that first move (which gives no check), legal moves, and every one of them went "
        "to a point the solver attacks.",
        "攻方第一步（不将军）走完时，其后被攻方吃掉的价值不小于4的子虽有着法，"
        "但每一着都走到攻方控制的点。",
    ),
    Tactic(
        "sacrifice",
        "弃子",
        "Sacrifice",
        "The solver gives up material on the way.",
        "进攻方在过程中弃子。",
        "The defender's reply captures the piece the solver just moved, and that piece was "
        "worth at least 2 more than what its move captured.",
        "防守方的应着吃掉攻方刚走的子，而该子比它这步所吃的子至少多值2分。",
    ),
    Tactic(
        "defection",
        "策反",
        "Defection",
        "A turncoat you take comes over to your side: you win the piece and gain one.",
        "吃掉策反子，它倒戈成为你的子：既得一子，又添一子。",
        "One of the solver's moves takes a turncoat that defects: the captured piece comes "
        "over to the solver, on the point its captor left (New-version Xiangqi).",
        "攻方某一步吃掉对方的策反子，该子被策反倒戈，成为攻方的子，站在吃子棋子原来的位置"
        "（新版象棋）。",
    ),
    Tactic(
        "missile_collision",
        "导弹碰炸",
        "Missile collision",
        "A missile and the piece it meets both leave the board: a good trade wins material.",
        "导弹与它碰上的子同归于尽：换得划算就是得子。",
        "One of the solver's moves is a collision: its missile moves onto an enemy piece, or "
        "one of its pieces other than a cannon or the general moves onto an enemy missile, and "
        "both are removed (Missile Xiangqi).",
        "攻方某一步造成碰炸：己方导弹走到对方棋子上，或己方炮、将以外的棋子走到对方导弹上，"
        "双方棋子一同离开棋盘（飞弹象棋）。",
    ),
    Tactic(
        "hanging_piece",
        "白吃",
        "Hanging piece",
        "An unprotected piece (无根子) is there to be taken.",
        "吃掉对方没有保护的子（无根子）。",
        "The solver's first move captures a piece and stands on its point (not a collision), "
        "and no defender piece attacks that point afterwards.",
        "攻方第一步吃子并占据该点（不是碰炸），吃子之后防守方没有棋子攻击该点。",
    ),
)
CODES = tuple(t.code for t in TACTICS)


def _value(position: Position, sq: int) -> float:
    """The value of the piece on ``sq``; the general is above everything."""
    if position.board[sq] & TYPE_MASK == KING:
        return 100.0
    return piece_value(position.piece_at(position.square_name(sq)) or "k")


def _protected(position: Position, sq: int) -> bool:
    """Whether a piece of the side that owns ``sq`` attacks it."""
    return bool(position.attackers(sq, position.board[sq] & BLACK))


def _targets(position: Position, frm: int, solver: int) -> set[int]:
    """The enemy points the solver's piece on ``frm`` attacks that are worth attacking: the
    general, a piece nothing protects, or a piece worth more than the attacker."""
    own = _value(position, frm)
    found = set()
    for sq, piece in enumerate(position.board):
        if not piece or piece & BLACK == solver:
            continue
        if frm not in position.attackers(sq, solver):
            continue
        if piece & TYPE_MASK == KING or not _protected(position, sq) or _value(position, sq) > own:
            found.add(sq)
    return found


def _pins(position: Position, solver: int) -> set[tuple[int, int]]:
    """(pinned point, point behind) of the enemy pieces the solver's chariots and cannons pin."""
    width = position.width
    height = len(position.board) // width
    found = set()
    for sq, piece in enumerate(position.board):
        kind = piece & TYPE_MASK
        if not piece or piece & BLACK != solver or kind not in (CHARIOT, CANNON):
            continue
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            hits: list[int] = []
            f, r = sq % width + df, sq // width + dr
            while 0 <= f < width and 0 <= r < height and len(hits) < 3:
                if position.board[r * width + f]:
                    hits.append(r * width + f)
                f, r = f + df, r + dr
            if kind == CANNON:
                hits = hits[1:]  # the screen
            if len(hits) < 2:
                continue
            pinned, behind = hits[0], hits[1]
            enemy = [p for p in (pinned, behind) if position.board[p] & BLACK != solver]
            if len(enemy) < 2 or position.board[pinned] & TYPE_MASK == KING:
                continue
            if _value(position, behind) > _value(position, pinned):
                found.add((pinned, behind))
    return found


def detect(variant: str, fen: str, line: Sequence[str]) -> list[str]:
    """The codes of the tactics ``line`` (ICCS, the solver first) shows from ``fen``, in
    catalogue order. Raises ``EngineError`` for a position or a move the rules refuse."""
    position = Position.from_fen(variant, fen)
    solver = position.side
    found: set[str] = set()
    # Each solver move: (its index in the line, from, to, captured point or None).
    moves = [Move.from_iccs(text) for text in line]
    captured_by_solver: list[tuple[int, str]] = []  # (line index, the captured piece's id)
    # Follow pieces by identity: the id of a piece is where it stood at the start.
    ident: dict[int, str] = {sq: position.square_name(sq) for sq, v in enumerate(position.board)
                             if v}  # fmt: skip
    forks: list[tuple[int, set[str], str]] = []  # (index, targets, the forking piece)
    captured_by_defender: set[str] = set()
    pins: list[tuple[int, set[str]]] = []
    discovered: list[int] = []
    trapped: set[str] = set()
    last_value_given = 0.0
    last_to = -1
    for index, move in enumerate(moves):
        m = position.encode(move)
        frm, to = m >> 8, m & 255
        target = position.board[to]
        solving = index % 2 == 0
        if solving:
            kind = position.effects(m)[1] if target else "move"
            if kind == "defection":
                found.add("defection")
            elif kind == "collision":
                found.add("missile_collision")
            moved_value = _value(position, frm)
            target_value = _value(position, to) if target else 0.0
            if target:
                captured_by_solver.append((index, ident.get(to, "")))
            position.push(move)
            ident[to] = ident.pop(frm, position.square_name(to))
            if position.is_check():
                checkers = [position.square(p) for p in position.checkers()]
                if len(checkers) >= 2:
                    found.add("double_check")
                if any(sq != to for sq in checkers):
                    discovered.append(index)
            targets = {ident.get(sq, "") for sq in _targets(position, to, solver)}
            forks.append((index, targets, ident.get(to, "")))
            pins.append(
                (index, {ident.get(sq, "") for pair in _pins(position, solver) for sq in pair})
            )
            if index == 0:
                stands = kind in ("capture", "cannon_takes_missile", "defection")
                if stands and not position.attackers(to, solver ^ BLACK):
                    found.add("hanging_piece")
                if not position.is_check():  # in check, every piece is bound by the check
                    trapped = _trapped(position, solver, ident)
            last_value_given = moved_value - target_value
            last_to = to
        else:
            if target:
                captured_by_defender.add(ident.get(to, ""))
            if target and to == last_to and last_value_given >= 2.0:
                found.add("sacrifice")
            position.push(move)
            ident[to] = ident.pop(frm, position.square_name(to))
    for index in discovered:
        mover = line[index][2:]
        later = [i for i, _ in captured_by_solver if i in (index, index + 2)]
        if any(line[i][:2] == mover or i == index for i in later):
            found.add("discovered_check")
    for index, targets, forker in forks:
        if forker in captured_by_defender:
            continue  # taken at once: a decoy or a sacrifice, not a fork
        if len(targets) >= 2 and any(i > index and p in targets for i, p in captured_by_solver):
            found.add("fork")
    for index, pinned in pins:
        if any(i > index and p in pinned for i, p in captured_by_solver):
            found.add("pin")
    if any(i > 0 and p in trapped for i, p in captured_by_solver):
        found.add("trapped_piece")
    return [code for code in CODES if code in found]


def _trapped(position: Position, solver: int, ident: dict[int, str]) -> set[str]:
    """The ids of the defender's pieces worth 4 or more that have legal moves (the defender
    to move), every one of them to a point the solver attacks."""
    moves_of: dict[int, list[int]] = {}
    for move in position.legal_moves:
        m = position.encode(move)
        moves_of.setdefault(m >> 8, []).append(m)
    found = set()
    for sq, piece in enumerate(position.board):
        if not piece or piece & BLACK == solver or piece & TYPE_MASK == KING:
            continue
        if _value(position, sq) < 4.0:
            continue
        if sq not in moves_of:
            continue  # held by a pin, or walled in by its own side: not this tactic
        safe = False
        for m in moves_of[sq]:
            if not position.attacked_after(m, m & 255, solver):
                safe = True
                break
        if not safe:
            found.add(ident.get(sq, ""))
    return found
