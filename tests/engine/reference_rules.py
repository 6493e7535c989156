"""A slow, literal reading of the rules, kept apart from the engine.

Nothing here is shared with ``engine/``: the board is a dict from (file, rank)
to a FEN letter (``"+r"`` for a turncoat), and every rule is spelled out the
plain way, piece by piece. The differential tests compare the engine with it
on positions where no outside program can serve as the oracle (feidan,
xinban), and on xiangqi as well.
"""

from __future__ import annotations

from dataclasses import dataclass

FILES = "abcdefghijk"

Point = tuple[int, int]
Board = dict[Point, str]

ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))

# captured turncoat -> captor kinds that make it defect
DEFECTION = {
    "r": set("abncp"),
    "n": set("rcp"),
    "c": set("kabnrp"),
}


def kind(piece: str) -> str:
    return piece[-1].lower()


def is_red(piece: str) -> bool:
    return piece[-1].isupper()


def turncoat(piece: str) -> bool:
    return piece.startswith("+")


def plain(kind_letter: str, red: bool) -> str:
    return kind_letter.upper() if red else kind_letter


@dataclass
class RefPosition:
    variant: str
    width: int
    board: Board
    red_to_move: bool
    defection_requires_check: bool = False

    # -- construction -------------------------------------------------

    @classmethod
    def from_fen(
        cls, variant: str, fen: str, defection_requires_check: bool = False
    ) -> RefPosition:
        width = 11 if variant == "feidan" else 9
        rows, side = fen.split()[:2]
        board: Board = {}
        for i, row in enumerate(rows.split("/")):
            rank = 9 - i
            f = 0
            j = 0
            while j < len(row):
                if row[j].isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    f += int(row[j:k])
                    j = k
                elif row[j] == "+":
                    board[(f, rank)] = row[j : j + 2]
                    f += 1
                    j += 2
                else:
                    board[(f, rank)] = row[j]
                    f += 1
                    j += 1
        return cls(variant, width, board, side != "b", defection_requires_check)

    def board_fen(self) -> str:
        rows = []
        for rank in range(9, -1, -1):
            row = ""
            empty = 0
            for f in range(self.width):
                piece = self.board.get((f, rank))
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    # -- geometry -----------------------------------------------------

    def on_board(self, p: Point) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < 10

    def in_palace(self, p: Point, red: bool) -> bool:
        centre = self.width // 2
        ranks = (0, 1, 2) if red else (7, 8, 9)
        return centre - 1 <= p[0] <= centre + 1 and p[1] in ranks

    @staticmethod
    def on_own_half(p: Point, red: bool) -> bool:
        return p[1] <= 4 if red else p[1] >= 5

    def in_base(self, p: Point, red: bool) -> bool:
        if self.variant != "feidan":
            return False
        rank = 0 if red else 9
        return p in ((0, rank), (self.width - 1, rank))

    def between(self, a: Point, b: Point) -> list[Point]:
        """Points strictly between a and b on one file or rank."""
        if a[0] == b[0]:
            step = 1 if b[1] > a[1] else -1
            return [(a[0], r) for r in range(a[1] + step, b[1], step)]
        step = 1 if b[0] > a[0] else -1
        return [(f, a[1]) for f in range(a[0] + step, b[0], step)]

    # -- how a piece reaches a point -----------------------------------

    def reaches(self, board: Board, frm: Point, to: Point, capturing: bool) -> bool:
        """Could the piece on ``frm`` go to ``to`` by its movement rule
        (``capturing``: by its capture rule, which differs for the cannon)?
        Colours of the pieces on the points are not looked at here."""
        piece = board[frm]
        k = kind(piece)
        red = is_red(piece)
        df, dr = to[0] - frm[0], to[1] - frm[1]
        if k == "k":
            if abs(df) + abs(dr) == 1 and self.in_palace(to, red):
                return True
            # the flying general: capturing along an open file (never a legal move,
            # but it is what makes facing generals a check)
            target = board.get(to)
            return (
                capturing
                and target is not None
                and kind(target) == "k"
                and df == 0
                and not any(p in board for p in self.between(frm, to))
            )
        if k == "a":
            return abs(df) == 1 and abs(dr) == 1 and self.in_palace(to, red)
        if k == "b":
            if abs(df) != 2 or abs(dr) != 2 or not self.on_own_half(to, red):
                return False
            return (frm[0] + df // 2, frm[1] + dr // 2) not in board
        if k == "n":
            if {abs(df), abs(dr)} != {1, 2}:
                return False
            leg = (frm[0], frm[1] + dr // 2) if abs(dr) == 2 else (frm[0] + df // 2, frm[1])
            return leg not in board
        if k in ("r", "m"):
            if (df == 0) == (dr == 0):
                return False
            return not any(p in board for p in self.between(frm, to))
        if k == "c":
            if (df == 0) == (dr == 0):
                return False
            screens = sum(1 for p in self.between(frm, to) if p in board)
            return screens == (1 if capturing else 0)
        if k == "p":
            forward = 1 if red else -1
            if df == 0 and dr == forward:
                return True
            crossed = not self.on_own_half(frm, red)
            return crossed and dr == 0 and abs(df) == 1
        if k == "f":
            if {abs(df), abs(dr)} != {1, 3}:
                return False
            if abs(dr) == 3:
                s = 1 if dr > 0 else -1
                legs = [(frm[0], frm[1] + s), (frm[0], frm[1] + 2 * s)]
            else:
                s = 1 if df > 0 else -1
                legs = [(frm[0] + s, frm[1]), (frm[0] + 2 * s, frm[1])]
            return not all(leg in board for leg in legs)
        raise AssertionError(piece)

    def attacked(self, board: Board, target: Point, by_red: bool) -> bool:
        """Is ``target`` attacked by a piece of the side ``by_red``?"""
        return any(
            is_red(piece) == by_red and self.reaches(board, p, target, capturing=True)
            for p, piece in board.items()
            if p != target
        )

    def king(self, board: Board, red: bool) -> Point:
        letter = "K" if red else "k"
        return next(p for p, piece in board.items() if piece == letter)

    def checkers(self, board: Board, red: bool) -> list[Point]:
        k = self.king(board, red)
        return [
            p
            for p, piece in board.items()
            if is_red(piece) != red and self.reaches(board, p, k, capturing=True)
        ]

    # -- moves --------------------------------------------------------

    def pseudo_moves(self) -> list[tuple[Point, Point]]:
        red = self.red_to_move
        board = self.board
        moves = []
        for frm, piece in board.items():
            if is_red(piece) != red:
                continue
            for f in range(self.width):
                for r in range(10):
                    to = (f, r)
                    if to == frm:
                        continue
                    target = board.get(to)
                    if target is not None and is_red(target) == red:
                        continue
                    if target is not None and kind(piece) == "k":
                        if kind(target) == "m":
                            continue  # the general never touches a missile
                        if kind(target) == "k":
                            continue
                    if self.reaches(board, frm, to, capturing=target is not None):
                        moves.append((frm, to))
        return moves

    def after(self, frm: Point, to: Point) -> tuple[Board, str]:
        """The board after a pseudo-legal move, and what happened."""
        board = dict(self.board)
        mover = board.pop(frm)
        target = board.get(to)
        red = is_red(mover)
        if target is None:
            board[to] = mover
            return board, "move"
        if self.variant == "feidan" and "m" in (kind(mover), kind(target)):
            if kind(target) == "m" and kind(mover) == "c":
                board[to] = mover
                return board, "cannon_takes_missile"
            if (
                kind(mover) == "m"
                and kind(target) == "m"
                and self.in_base(frm, red)
                and self.in_base(to, not red)
            ):
                return board, "self_destruct"
            del board[to]
            return board, "collision"
        ordinary = dict(board)
        ordinary[to] = mover
        if self.variant == "xinban" and turncoat(target) and kind(mover) in DEFECTION[kind(target)]:
            defected = dict(ordinary)
            defected[frm] = plain(kind(target), red)
            gives_check = self.reaches(defected, frm, self.king(defected, not red), True)
            own_safe = not self.attacked(defected, self.king(defected, red), not red)
            if own_safe and (gives_check or not self.defection_requires_check):
                return defected, "defection"
        return ordinary, "capture"

    def legal_moves(self) -> dict[str, tuple[Board, str]]:
        """ICCS move -> (board after, effect), with the dead-general rule."""
        red = self.red_to_move
        legal = {}
        for frm, to in self.pseudo_moves():
            board, effect = self.after(frm, to)
            if not self.attacked(board, self.king(board, red), not red):
                legal[iccs(frm, to)] = (board, effect)
        if self.variant == "feidan":
            king = self.king(self.board, red)
            palace_missile = any(
                kind(self.board[p]) == "m" and self.in_palace(p, red)
                for p in self.checkers(self.board, red)
            )
            general_escapes = any(move[:2] == point_name(king) for move in legal)
            if palace_missile and not general_escapes:
                return {}
        return legal

    def in_check(self) -> bool:
        return bool(self.checkers(self.board, self.red_to_move))

    def status(self) -> str:
        if self.legal_moves():
            return "ongoing"
        if self.variant == "feidan":
            red = self.red_to_move
            if any(
                kind(self.board[p]) == "m" and self.in_palace(p, red)
                for p in self.checkers(self.board, red)
            ):
                return "dead_general"
        return "checkmate" if self.in_check() else "stalemate"

    def child(self, board: Board) -> RefPosition:
        return RefPosition(
            self.variant, self.width, board, not self.red_to_move, self.defection_requires_check
        )

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        return sum(self.child(board).perft(depth - 1) for board, _ in moves.values())


def point_name(p: Point) -> str:
    return f"{FILES[p[0]]}{p[1]}"


def iccs(frm: Point, to: Point) -> str:
    return point_name(frm) + point_name(to)
