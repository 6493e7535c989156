"""Tactics (战术): the material a side has, and which tactics a line that wins material shows.

Pure engine logic (no Django): the tactics miner (``puzzles.tactics_mining``) measures the gain
of a line with ``material_balance``, and the bank names each line's tactics with ``detect``.
``detect(variant, fen, line)`` replays ``line`` (ICCS, the solver's move first, then the
defender's reply, and so on) and reports the codes of ``TACTICS`` it shows, in catalogue
order; each entry of the catalogue carries its exact definition in both languages. "Attacks"
means the rules' capture reach (``Position.attackers``: a pinned attacker still counts), and a
piece is "protected" when one of its own side attacks its point. The tactics of protection
(interference, deflection, removing the defender) ask which pieces protect a point with every
piece's moves, the advisors', the elephants' and the general's step too (``_guards``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.move import Move
from engine.position import Position
from engine.variants import (
    ADVISOR,
    BLACK,
    CANNON,
    CHARIOT,
    ELEPHANT,
    FIGHTER,
    HORSE,
    KING,
    TYPE_MASK,
)

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
    Tactic(
        "discovered_attack",
        "闪击",
        "Discovered attack",
        "A piece steps aside and uncovers an attack by the piece behind it; the opponent "
        "cannot meet both threats.",
        "一子闪开，亮出身后棋子的攻击，对方顾此失彼。",
        "A solver's move gives another solver piece, one that did not move, an attack it did "
        "not have before on an enemy target other than the general (a piece nothing protects, "
        "or one worth more than the attacker): the moving piece left the line of a chariot or "
        "the leg of a horse, or made or removed a cannon's screen. The solver later captures "
        "that target with the uncovered piece; or the defender's reply moves that target away "
        "and the solver's next move captures, with the piece that moved, another target that "
        "piece attacked right after its move.",
        "攻方走一步，使另一个未动的己方棋子对对方一个目标（将帅除外：无保护的子，或价值高于"
        "攻击者的子）形成原先没有的攻击：走动的子让开了车路或马腿，或给炮添了、撤了炮架。"
        "随后攻方用亮出的子吃掉这个目标；或者对方应着把这个目标走开，攻方下一步用走动的子"
        "吃掉它走完那步时攻击的另一个目标。",
    ),
    Tactic(
        "interference",
        "拦截",
        "Interference",
        "A piece steps onto the line along which an enemy piece protects another, and the "
        "piece left unprotected is won.",
        "己子插入对方的保护线，切断保护，失根的子被吃。",
        "A solver's move puts a piece between a defender's piece and a piece of the defender's "
        "that it protects (on the line between them, on the horse's leg or on the elephant's "
        "eye; for a cannon, a second screen), so that it protects that piece no longer. Later "
        "in the line the solver captures that piece on the point where it stood, and the "
        "defender's piece still does not protect it then.",
        "攻方走一子到对方某子与它所保护的己子之间（两子之间的直线上、马腿上或象眼上；"
        "对炮则是多垫一个炮架），使它不再保护该子；随后攻方在原位吃掉该子，吃子时原来的"
        "保护子仍保护不到它。",
    ),
    Tactic(
        "deflection",
        "引离",
        "Deflection",
        "A defender is lured or driven away from its post, and the piece it guarded is won.",
        "把对方的保护子引开或赶走，它保护的子失根被吃。",
        "A defender piece that protects one of its own pieces moves in reply to the solver's "
        "move because it captures a solver piece, because its side is in check, or because the "
        "piece the solver just moved attacks it (it is unprotected, or worth more than the "
        "attacker). From its new point it no longer protects that piece, and the solver's next "
        "move, made with a piece other than the one whose move made it leave, captures that "
        "piece or gives mate on a point the defender piece protected before it moved and "
        "protects no longer.",
        "对方某子保护着己方一子；攻方走一步后，该子因吃攻方的子、因应将、或因受到攻方刚走"
        "的子攻击（它无保护或价值高于攻击者）而走开，走开后不再保护原来的子；攻方下一步"
        "用另一个子吃掉该子，或在它原先保护、如今保护不到的点上将死对方。",
    ),
    Tactic(
        "decoy",
        "引入",
        "Decoy",
        "A piece is given up to draw an enemy piece onto its point, where that piece is then "
        "won, forked or checked.",
        "弃子把对方棋子引到某一点，再在该点上吃子、捉双或将军，取得实利。",
        "A defender's piece (the general included) captures the piece the solver just moved, "
        "on the point it moved to, and that piece was worth more than what its move captured. "
        "The solver's next move captures the piece on that point, attacks it and another "
        "target at once (as a fork does), or checks the general standing there; and at the end "
        "of the line the solver is further ahead in material than before it gave the piece up.",
        "攻方走一子，其价值高于这步所吃的子，对方以某子（包括将帅）在该点把它吃掉；攻方"
        "下一步吃掉该点上的子，或同时攻击它和另一个目标（捉双），或将军站在该点的将帅；"
        "且变化结束时，攻方的子力优势比弃子前更大。",
    ),
    Tactic(
        "remove_defender",
        "消除保护",
        "Removing the defender",
        "Capture or trade off the piece that protects another, then take the piece it protected.",
        "吃掉或兑掉对方的保护子，再吃掉失去保护的子。",
        "A solver's move captures a defender piece that protected another defender piece (not "
        "the general). Later in the line the solver captures that other piece on the point "
        "where it stood, and then it is unprotected or worth more than the piece that takes "
        "it.",
        "攻方吃掉对方一个保护着其他子（将帅除外）的子；随后攻方在原位吃掉原先被保护的子，"
        "吃子时该子已无保护，或价值高于吃它的子。",
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


def _worth_attacking(position: Position, frm: int, sq: int) -> bool:
    """Whether the piece on ``sq`` is worth the attack of the piece on ``frm``: it is the
    general, nothing protects it, or it is worth more than the attacker."""
    if position.board[sq] & TYPE_MASK == KING or not _protected(position, sq):
        return True
    return _value(position, sq) > _value(position, frm)


def _targets(position: Position, frm: int, solver: int) -> set[int]:
    """The enemy points the solver's piece on ``frm`` attacks that are worth attacking: the
    general, a piece nothing protects, or a piece worth more than the attacker."""
    found = set()
    for sq, piece in enumerate(position.board):
        if not piece or piece & BLACK == solver:
            continue
        if frm not in position.attackers(sq, solver):
            continue
        if _worth_attacking(position, frm, sq):
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
    # (line index, the captured piece's id, the captor's id)
    captured_by_solver: list[tuple[int, str, str]] = []
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
    # The position before each move and after the last, and who stood where (ids) in each.
    boards: list[Position] = []
    codes: list[int] = []
    idents: list[dict[int, str]] = []
    for index, move in enumerate(moves):
        boards.append(position.copy())
        idents.append(dict(ident))
        m = position.encode(move)
        codes.append(m)
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
                captured_by_solver.append((index, ident.get(to, ""), ident.get(frm, "")))
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
    boards.append(position)
    idents.append(ident)
    for index in discovered:
        mover = line[index][2:]
        later = [i for i, _, _ in captured_by_solver if i in (index, index + 2)]
        if any(line[i][:2] == mover or i == index for i in later):
            found.add("discovered_check")
    for index, targets, forker in forks:
        if forker in captured_by_defender:
            continue  # taken at once: a decoy or a sacrifice, not a fork
        if len(targets) >= 2 and any(i > index and p in targets for i, p, _ in captured_by_solver):
            found.add("fork")
    for index, pinned in pins:
        if any(i > index and p in pinned for i, p, _ in captured_by_solver):
            found.add("pin")
    if any(i > 0 and p in trapped for i, p, _ in captured_by_solver):
        found.add("trapped_piece")
    replay = _Replay(solver, boards, codes, idents, captured_by_solver)
    for code, shows in _BY_REPLAY:
        if shows(replay):
            found.add(code)
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


# --- The tactics of protection and of lines: read from the whole line played out -------------


@dataclass(frozen=True)
class _Replay:
    """A line played out: the position before each move and after the last (``boards``), the
    moves' codes, who stood where in each of those positions (``idents``: point -> the piece's
    id, the point it stood on at the start), and the solver's captures (line index, the
    captured piece's id, the captor's id)."""

    solver: int
    boards: list[Position]
    codes: list[int]
    idents: list[dict[int, str]]
    captures: list[tuple[int, str, str]]

    @property
    def defender(self) -> int:
        return self.solver ^ BLACK

    def solver_moves(self) -> range:
        """The line indexes of the solver's moves."""
        return range(0, len(self.codes), 2)

    def where(self, ply: int, piece: str) -> int | None:
        """The point the piece ``piece`` (an id) stands on before move ``ply`` (after the line
        for ``len(codes)``), or ``None`` once it has left the board."""
        board = self.boards[ply].board
        for sq, name in self.idents[ply].items():
            if name == piece and board[sq]:
                return sq
        return None

    def balance(self, ply: int) -> float:
        """The solver's material less the defender's before move ``ply``."""
        return material_balance(self.boards[ply], "black" if self.solver else "red")


def _guards(position: Position, sq: int, side: int) -> list[int]:
    """The points of ``side``'s pieces that protect ``sq``: that could move onto it by their
    moves were an enemy piece there (a pinned piece still counts). ``Position.attackers`` less
    the general along the file (it flies only at the other general), and the advisors, the
    elephants (their eye empty) and the general's step in its palace, which it leaves out."""
    board = position.board
    g = position.g
    colour = side >> 5
    found = [p for p in position.attackers(sq, side) if board[p] & TYPE_MASK != KING]
    for p in position.occupied[colour]:
        kind = board[p] & TYPE_MASK
        if kind == KING:
            steps = g.king_moves[colour][p]
        elif kind == ADVISOR:
            steps = g.advisor_moves[colour][p]
        elif kind == ELEPHANT:
            steps = tuple(to for to, eye in g.elephant_moves[colour][p] if not board[eye])
        else:
            continue
        if sq in steps:
            found.append(p)
    return found


def _between(position: Position, guard: int, sq: int) -> set[int]:
    """The points where a piece can cut the piece on ``guard`` off ``sq``: the points between
    them on their rank or file, a horse's leg, an elephant's eye, a fighter's legs."""
    g = position.g
    piece = position.board[guard]
    kind = piece & TYPE_MASK
    if kind == HORSE:
        return {leg for h, leg in g.horse_attackers[sq] if h == guard}
    if kind == ELEPHANT:
        return {eye for to, eye in g.elephant_moves[(piece & BLACK) >> 5][guard] if to == sq}
    if kind == FIGHTER:
        return {leg for f, *legs in g.fighter_attackers[sq] if f == guard for leg in legs}
    direction = g.ray_dir[sq].get(guard)
    if direction is None:
        return set()
    ray = g.rays[sq][direction]
    return set(ray[: ray.index(guard)])


def _discovered_attack(replay: _Replay) -> bool:
    """A solver's move gives another solver piece that did not move a new attack on a target
    other than the general, and that piece later captures it; or the target runs and the
    piece that moved captures one of its own targets at once."""
    solver = replay.solver
    for index in replay.solver_moves():
        before, after = replay.boards[index], replay.boards[index + 1]
        frm, to = replay.codes[index] >> 8, replay.codes[index] & 255
        ids = replay.idents[index + 1]
        uncovered: dict[int, set[str]] = {}  # target point -> the ids of its new attackers
        for sq, piece in enumerate(after.board):
            if not piece or piece & BLACK == solver or piece & TYPE_MASK == KING:
                continue
            fresh = set(after.attackers(sq, solver)) - set(before.attackers(sq, solver))
            for by in fresh - {frm, to}:
                if after.board[by] & TYPE_MASK != KING and _worth_attacking(after, by, sq):
                    uncovered.setdefault(sq, set()).add(ids.get(by, ""))
        for sq, attackers in uncovered.items():
            target = ids.get(sq, "")
            if any(i > index and p == target and by in attackers for i, p, by in replay.captures):
                return True
        ran = replay.codes[index + 1] >> 8 if index + 1 < len(replay.codes) else -1
        if index + 2 >= len(replay.codes) or ran not in uncovered:
            continue
        # The uncovered target ran: the piece that moved takes another that it attacks.
        mover = ids.get(to, "")
        own = {ids.get(sq, "") for sq in _targets(after, to, solver) - {ran}}
        if any(i == index + 2 and p in own and by == mover for i, p, by in replay.captures):
            return True
    return False


def _cut_off_when_taken(replay: _Replay, index: int, sq: int, guard: str) -> bool:
    """Whether the solver captures the piece on ``sq`` there, after move ``index`` and before
    it moves, at a moment when the piece ``guard`` (an id) does not protect it."""
    target = replay.idents[index + 1].get(sq, "")
    for i, piece, _by in replay.captures:
        if i <= index or piece != target:
            continue
        if replay.codes[i] & 255 != sq:
            return False  # it moved first: what it was cut off from on ``sq`` no longer counts
        now = replay.where(i, guard)
        return now is None or now not in _guards(replay.boards[i], sq, replay.defender)
    return False


def _interference(replay: _Replay) -> bool:
    """A solver's move puts a piece between a defender's piece and a piece it protects, which
    it protects no longer, and the solver later captures that piece where it stood, still cut
    off from it."""
    defender = replay.defender
    for index in replay.solver_moves():
        before, after = replay.boards[index], replay.boards[index + 1]
        frm, to = replay.codes[index] >> 8, replay.codes[index] & 255
        ids = replay.idents[index + 1]
        for sq, piece in enumerate(after.board):
            if not piece or piece & BLACK != defender or piece & TYPE_MASK == KING:
                continue
            kept = set(_guards(after, sq, defender))
            for guard in _guards(before, sq, defender):
                if guard in (frm, to) or guard in kept or to not in _between(before, guard, sq):
                    continue
                if _cut_off_when_taken(replay, index, sq, ids.get(guard, "")):
                    return True
    return False


def _deflection(replay: _Replay) -> bool:
    """A defender piece that protects a piece leaves because it captures, because of a check,
    or because the solver's last move attacks it; the solver's next move, by another piece,
    captures the piece it protected, or mates on a point it protected."""
    solver, defender = replay.solver, replay.defender
    for index in replay.solver_moves():
        if index + 2 >= len(replay.codes):
            break
        mid, after = replay.boards[index + 1], replay.boards[index + 2]
        to = replay.codes[index] & 255
        reply = replay.codes[index + 1]
        guard, went = reply >> 8, reply & 255
        forced = bool(mid.board[went]) or mid.is_check() or guard in _targets(mid, to, solver)
        if not forced:
            continue
        at = replay.codes[index + 2] & 255
        if replay.codes[index + 2] >> 8 == to:
            continue  # the piece that drove it away wins too: it attacked both, a fork
        if guard not in _guards(mid, at, defender) or went in _guards(after, at, defender):
            continue
        taken = after.board[at]
        if taken and taken & BLACK == defender and at != went and taken == mid.board[at]:
            return True
        if replay.boards[index + 3].status() in ("checkmate", "dead_general"):
            return True
    return False


def _decoy(replay: _Replay) -> bool:
    """The defender takes the piece the solver gave up on its point; the solver's next move
    takes the piece there, forks it or checks the general there, and the line gains."""
    solver = replay.solver
    for index in replay.solver_moves():
        if index + 2 >= len(replay.codes):
            break
        before, mid = replay.boards[index], replay.boards[index + 1]
        frm, to = replay.codes[index] >> 8, replay.codes[index] & 255
        if replay.codes[index + 1] & 255 != to or not mid.board[to]:
            continue
        if mid.board[to] & BLACK != solver:
            continue  # a missile's collision left the point empty, or the piece defected
        took = _value(before, to) if before.board[to] else 0.0
        if _value(before, frm) <= took:
            continue  # not given up: it took as much as it was worth, or more
        after, then = replay.boards[index + 2], replay.boards[index + 3]
        there = after.board[to]
        step_to = replay.codes[index + 2] & 255
        exploits = step_to == to
        if not exploits and then.board[step_to] and then.board[step_to] & BLACK == solver:
            targets = _targets(then, step_to, solver)
            exploits = to in targets and len(targets) >= 2
        if not exploits and there & TYPE_MASK == KING and then.is_check():
            exploits = True
        if exploits and replay.balance(len(replay.codes)) > replay.balance(index):
            return True
    return False


def _remove_defender(replay: _Replay) -> bool:
    """A solver's capture removes a piece that protected another, and the solver later takes
    that other piece where it stood, unprotected or worth more than its captor."""
    defender = replay.defender
    for index in replay.solver_moves():
        before = replay.boards[index]
        to = replay.codes[index] & 255
        if not before.board[to] or before.board[to] & BLACK != defender:
            continue
        ids = replay.idents[index]
        for sq, piece in enumerate(before.board):
            if not piece or piece & BLACK != defender or piece & TYPE_MASK == KING or sq == to:
                continue
            if to not in _guards(before, sq, defender):
                continue
            for i, taken, _by in replay.captures:
                if i <= index or taken != ids.get(sq, "") or replay.codes[i] & 255 != sq:
                    continue
                board, frm = replay.boards[i], replay.codes[i] >> 8
                if not _guards(board, sq, defender) or _value(board, sq) > _value(board, frm):
                    return True
    return False


# The tactics read from the replayed line, in the catalogue's order.
_BY_REPLAY: tuple[tuple[str, Callable[[_Replay], bool]], ...] = (
    ("discovered_attack", _discovered_attack),
    ("interference", _interference),
    ("deflection", _deflection),
    ("decoy", _decoy),
    ("remove_defender", _remove_defender),
)
