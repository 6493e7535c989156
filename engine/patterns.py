"""Named kill patterns (基本杀法): which of the traditional mating patterns, and which of the
Missile and New-version patterns of this site, a mate is an example of.

``detect(variant, fen, line)`` replays ``line`` (ICCS, the attacker's move first) from
``fen``; the final position must be a checkmate or a dead general of the defender. Most
patterns are read from that final position: which pieces give check, and for each of the
general's *flight points* (the points next to it, orthogonally, inside its palace) whether the
defender's own piece stands there or which attacking pieces would take the general there. A
few need the line (the last move, a sacrifice on the palace centre, the pieces that defected).

Points are read relative to the defender's palace: ``dx`` is the file offset from the centre
file (negative or positive alike), ``dy`` the ranks from the defender's own back rank (0 on
the back rank, 1 for the palace centre's rank, 2 for the palace's front rank). "The trough"
(卧槽) is ``|dx| = 2, dy = 1``, "the fishing point" (钓鱼) ``|dx| = 2, dy = 2``, "the high
fishing point" (高钓) ``|dx| = 2, dy = 3``.

``PATTERNS`` is the catalogue, in the order ``detect`` reports codes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.errors import EngineError, IllegalMoveError
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
    MISSILE,
    SOLDIER,
    TYPE_MASK,
)

ALL_VARIANTS = ("xiangqi", "feidan", "xinban")
FAMILIES = ("traditional", "feidan", "xinban")


@dataclass(frozen=True)
class Pattern:
    """One named pattern: ``code`` (ASCII snake_case, also the puzzle theme's slug), its names,
    the variants it can occur in, a one-line summary and the exact definition ``detect`` uses,
    in English and Chinese. ``family`` is ``traditional`` (a classical name of xiangqi, found on
    any board) or the variant whose rules it needs (``feidan``, ``xinban``)."""

    code: str
    zh: str
    en: str
    variants: tuple[str, ...]
    family: str
    summary_en: str
    summary_zh: str
    definition_en: str
    definition_zh: str

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "zh": self.zh,
            "en": self.en,
            "variants": list(self.variants),
            "family": self.family,
            "summary_en": self.summary_en,
            "summary_zh": self.summary_zh,
            "definition_en": self.definition_en,
            "definition_zh": self.definition_zh,
        }


# --- the facts of one mate --------------------------------------------------------------------


@dataclass
class Flight:
    """One flight point of the mated general: ``own`` when its own piece stands there, else the
    points of the attacking pieces that would take the general there (``covers``)."""

    point: int
    own: bool
    covers: list[int] = field(default_factory=list)


@dataclass
class Mate:
    """The final position of a mating line and what the line did on the way."""

    pos: Position
    status: str
    attacker: int  # colour bit (0 Red, BLACK Black) of the side that mates
    king: int  # the mated general's point
    checkers: list[int]
    flights: list[Flight]
    # the attacker's last move: from, to, the moving piece's value, its kind (MoveEffect.kind)
    last_from: int = -1
    last_to: int = -1
    last_piece: int = 0
    last_kind: str = ""
    # an attacker's chariot landed on the palace centre and the defender took it there (大刀剜心)
    centre_sacrifice: bool = False
    # an attacker's chariot took the advisor on the palace centre and no defender's move could
    # take it back there (大胆穿心)
    centre_pierce: bool = False
    # the defender's general's point before the line, and how many times it stepped back
    # towards its back rank in answer to a soldier's check
    king_start: int = -1
    driven_home: int = 0
    defections: int = 0  # how many of the attacker's moves made a piece defect
    # how many of the attacker's captures a cannon made over the defender's own general, the
    # general its only screen (炮碾丹砂)
    general_screen_captures: int = 0
    joined: set[int] = field(default_factory=set)  # points of pieces that defected to the attacker
    last_joined: int = -1  # the point where the last move's defected piece stands

    # -- geometry relative to the defender's palace
    def rel(self, sq: int) -> tuple[int, int]:
        """(dx, dy) of ``sq``: file offset from the centre file, ranks from the defender's back."""
        width = self.pos.width
        file, rank = sq % width, sq // width
        dy = rank if self.attacker else self.pos.height - 1 - rank
        return file - width // 2, dy

    def kind(self, sq: int) -> int:
        return self.pos.board[sq] & TYPE_MASK

    def is_attacker(self, sq: int) -> bool:
        v = self.pos.board[sq]
        return v != 0 and v & BLACK == self.attacker

    def attacker_points(self, kind: int) -> list[int]:
        return [sq for sq in self.pos.occupied[self.attacker >> 5] if self.kind(sq) == kind]

    def covered_by(self, sq: int) -> list[Flight]:
        """The flight points the attacking piece on ``sq`` covers."""
        return [f for f in self.flights if sq in f.covers]

    def between(self, a: int, b: int) -> list[int]:
        """The points strictly between ``a`` and ``b`` on one file or rank (empty otherwise)."""
        return _between(self.pos.width, a, b)

    def needs(self, sq: int) -> bool:
        """Is the attacking piece on ``sq`` part of the mate: without it, would the defender
        have a move (or no longer be mated)?"""
        pieces = self.pos.pieces()
        del pieces[self.pos.square_name(sq)]
        try:
            bare = Position.from_pieces(self.pos.variant, pieces, turn=self.pos.turn)
        except EngineError:
            return False
        return bare.status() not in ("checkmate", "dead_general")

    def on_line(self, a: int, b: int) -> bool:
        width = self.pos.width
        return a != b and (a % width == b % width or a // width == b // width)

    def screen(self, cannon: int) -> int:
        """The screen of a cannon that checks the general (-1 when it has none)."""
        pieces = [sq for sq in self.between(cannon, self.king) if self.pos.board[sq]]
        return pieces[0] if len(pieces) == 1 else -1

    def line_checkers(self) -> list[int]:
        return [c for c in self.checkers if self.kind(c) in (CHARIOT, CANNON, MISSILE, KING)]


def _flights(pos: Position, king: int, attacker: int) -> list[Flight]:
    board = pos.board
    defender = attacker ^ BLACK
    palace = pos.g.palace[defender >> 5]
    width = pos.width
    general = board[king]
    found = []
    for step in (width, -width, 1, -1):
        sq = king + step
        if sq not in palace or (step in (1, -1) and sq // width != king // width):
            continue
        there = board[sq]
        if there and there & BLACK == defender:
            found.append(Flight(sq, True))
            continue
        if there and there & TYPE_MASK in pos.untouchable:
            # the general may never step onto a missile: it covers its own point
            found.append(Flight(sq, False, [sq]))
            continue
        board[king] = 0
        board[sq] = general
        try:
            covers = pos.attackers(sq, attacker)
        finally:
            board[sq] = there
            board[king] = general
        found.append(Flight(sq, False, covers))
    return found


def _track_joined(joined: set[int], fr: int, to: int, kind: str, mover_is_attacker: bool) -> None:
    """Keep ``joined`` (points of the pieces that defected to the attacker) up to date."""
    moved = fr in joined
    joined.discard(fr)
    joined.discard(to)
    if kind in ("collision", "self_destruct"):
        return
    if moved:
        joined.add(to)
    if kind == "defection" and mover_is_attacker:
        joined.add(fr)


def _between(width: int, a: int, b: int) -> list[int]:
    """The points strictly between ``a`` and ``b`` on one file or rank (empty otherwise)."""
    if a % width == b % width:
        step = width if b > a else -width
    elif a // width == b // width:
        step = 1 if b > a else -1
    else:
        return []
    return list(range(a + step, b, step))


def _rank_from_back(pos: Position, sq: int, attacker: int) -> int:
    """How many ranks ``sq`` stands from the defender's back rank."""
    rank = sq // pos.width
    return rank if attacker else pos.height - 1 - rank


def read_mate(variant: str, fen: str, line: Sequence[str]) -> Mate:
    """Replay ``line`` from ``fen`` and gather the facts of its mate; ``EngineError`` when the
    FEN or a move is bad, or the line does not end in the defender's checkmate or dead general."""
    pos = Position.from_fen(variant, fen)
    attacker = pos.side if line else pos.side ^ BLACK
    width = pos.width
    joined: set[int] = set()
    last = (-1, -1, 0, "")
    defections = 0
    centre_hit = -1
    centre_sacrifice = False
    centre_pierce = False
    last_joined = -1
    defender_bit = attacker ^ BLACK
    king_start = pos.kings[defender_bit >> 5]
    driven_home = 0
    soldier_check = False
    general_screen_captures = 0
    for text in line:
        if not isinstance(text, str):
            raise IllegalMoveError(text, pos.fen(), "move.not_string")
        move = Move.from_iccs(text.strip())
        m = pos.encode(move)
        if not pos.is_legal(move):
            code, params = pos.illegal_reason(m)
            raise IllegalMoveError(text, pos.fen(), code, **params)
        fr, to = m >> 8, m & 255
        piece = pos.board[fr]
        captured = pos.board[to]
        _changes, kind = pos.effects(m)
        by_attacker = piece & BLACK == attacker
        if by_attacker:
            last = (fr, to, piece, kind)
            if kind == "defection":
                defections += 1
            if captured and piece & TYPE_MASK == CANNON:
                screens = [sq for sq in _between(width, fr, to) if pos.board[sq]]
                king_now = pos.kings[defender_bit >> 5]
                general_screen_captures += screens == [king_now]
            dx = to % width - width // 2
            dy = to // width if attacker else pos.height - 1 - to // width
            on_centre = (dx, dy) == (0, 1) and piece & TYPE_MASK == CHARIOT and kind != "collision"
            centre_hit = to if on_centre else -1
        elif centre_hit >= 0 and to == centre_hit and captured and captured & BLACK == attacker:
            centre_sacrifice = True
        _track_joined(joined, fr, to, kind, by_attacker)
        if by_attacker:
            last_joined = fr if kind == "defection" else -1
        elif piece & TYPE_MASK == KING and soldier_check:
            # the general steps back towards its own back rank after a soldier's check
            driven_home += _rank_from_back(pos, to, attacker) < _rank_from_back(pos, fr, attacker)
        pos.push(move)
        if by_attacker:
            king = pos.kings[defender_bit >> 5]
            soldier_check = piece & TYPE_MASK == SOLDIER and to in pos.attackers(king, attacker)

        if centre_hit == to and by_attacker and captured and captured & TYPE_MASK == ADVISOR:
            # the chariot took the central advisor: can any reply take it back there?
            centre_pierce |= not any(code & 255 == to for code in pos.legal_codes())
    status = pos.status()
    if status not in ("checkmate", "dead_general"):
        raise EngineError("patterns.not_mate", {"status": status, "fen": pos.fen()})
    if pos.side == attacker:
        raise EngineError("patterns.attacker_mated", {"fen": pos.fen()})
    king = pos.kings[(attacker ^ BLACK) >> 5]
    return Mate(
        pos=pos,
        status=status,
        attacker=attacker,
        king=king,
        checkers=pos.attackers(king, attacker),
        flights=_flights(pos, king, attacker),
        centre_sacrifice=centre_sacrifice,
        centre_pierce=centre_pierce,
        king_start=king_start,
        driven_home=driven_home,
        defections=defections,
        general_screen_captures=general_screen_captures,
        joined=joined,
        last_joined=last_joined if last_joined in joined else -1,
        last_from=last[0],
        last_to=last[1],
        last_piece=last[2],
        last_kind=last[3],
    )


# --- the detectors ----------------------------------------------------------------------------

Detector = Callable[[Mate], bool]


def _checking_cannon_with_screen(m: Mate, screen_kind: int) -> bool:
    for c in m.checkers:
        if m.kind(c) == CANNON:
            s = m.screen(c)
            if s >= 0 and m.is_attacker(s) and m.kind(s) == screen_kind:
                return True
    return False


def _horse_cannon(m: Mate) -> bool:
    return _checking_cannon_with_screen(m, HORSE)


def _double_cannon(m: Mate) -> bool:
    return _checking_cannon_with_screen(m, CANNON)


def _smothered_palace(m: Mate) -> bool:
    width = m.pos.width
    file_of = m.king % width
    if not any(m.kind(c) == CANNON and c % width == file_of for c in m.checkers):
        return False
    beside = [f for f in m.flights if f.point % width != file_of]
    return bool(beside) and all(f.own and m.kind(f.point) == ADVISOR for f in beside)


def _iron_bolt(m: Mate) -> bool:
    dx, _ = m.rel(m.king)
    if dx != 0:
        return False
    width = m.pos.width
    side_check = any(
        m.kind(c) in (CHARIOT, SOLDIER) and c // width == m.king // width for c in m.checkers
    )
    if not side_check:
        return False
    for f in m.flights:
        if f.point % width != m.king % width:
            continue
        guards = f.covers if not f.own else _pinners(m, f.point)
        if any(m.kind(c) == CANNON and m.rel(c)[0] == 0 for c in guards):
            return True
    return False


def _pinners(m: Mate, sq: int) -> list[int]:
    """The attacking pieces that would check the general if the piece on ``sq`` left."""
    board = m.pos.board
    there = board[sq]
    board[sq] = 0
    try:
        return [c for c in m.pos.attackers(m.king, m.attacker) if c not in m.checkers]
    finally:
        board[sq] = there


def _checking_horse_at(m: Mate, points: set[tuple[int, int]]) -> bool:
    return any(m.kind(c) == HORSE and _abs_rel(m, c) in points for c in m.checkers)


def _abs_rel(m: Mate, sq: int) -> tuple[int, int]:
    dx, dy = m.rel(sq)
    return abs(dx), dy


def _horse_at_covering(m: Mate, point: tuple[int, int]) -> bool:
    for h in m.attacker_points(HORSE):
        if _abs_rel(m, h) == point and (h in m.checkers or m.covered_by(h)):
            return True
    return False


def _trough_horse(m: Mate) -> bool:
    return _checking_horse_at(m, {(2, 1)})


def _fishing_horse(m: Mate) -> bool:
    return _horse_at_covering(m, (2, 2))


def _high_fishing_horse(m: Mate) -> bool:
    return _horse_at_covering(m, (2, 3))


def _corner_horse(m: Mate) -> bool:
    return _checking_horse_at(m, {(1, 2)})


def _eight_corner_horse(m: Mate) -> bool:
    dx, dy = m.rel(m.king)
    if abs(dx) != 1 or dy not in (0, 2):
        return False
    return any(m.rel(h) == (-dx, 2 - dy) and m.covered_by(h) for h in m.attacker_points(HORSE))


def _side_tiger(m: Mate) -> bool:
    width = m.pos.width
    side_check = any(
        m.kind(c) in (CHARIOT, SOLDIER) and c // width == m.king // width for c in m.checkers
    )
    if not side_check:
        return False
    for f in m.flights:
        if f.point % width == m.king % width and any(m.kind(c) == HORSE for c in f.covers):
            return True
    return False


def _facing_general(m: Mate) -> bool:
    return any(f.covers and all(m.kind(c) == KING for c in f.covers) for f in m.flights)


def _double_chariot(m: Mate) -> bool:
    width = m.pos.width
    chariots = m.attacker_points(CHARIOT)
    for c in m.checkers:
        if m.kind(c) != CHARIOT:
            continue
        along_rank = c // width == m.king // width
        for other in chariots:
            if other == c or not m.covered_by(other):
                continue
            if along_rank and abs(other // width - c // width) == 1:
                return True
            if not along_rank and abs(other % width - c % width) == 1:
                return True
    return False


def _heart_sacrifice(m: Mate) -> bool:
    return m.centre_sacrifice


def _heart_pierce(m: Mate) -> bool:
    return m.centre_pierce


def _cannon_grind(m: Mate) -> bool:
    return m.general_screen_captures > 0


def _heaven_earth_cannon(m: Mate) -> bool:
    cannons = m.attacker_points(CANNON)
    centre = [c for c in cannons if m.rel(c)[0] == 0]
    bottom = [c for c in cannons if m.rel(c)[1] == 0]
    for a in centre:
        for b in bottom:
            if a != b and (a in m.checkers or b in m.checkers) and _acts(m, a) and _acts(m, b):
                return True
    return False


def _golden_hook(m: Mate) -> bool:
    dx, dy = m.rel(m.king)
    if dy != 0:
        return False
    width = m.pos.width
    if not any(m.kind(c) == CANNON and c // width == m.king // width for c in m.checkers):
        return False
    if any(m.kind(c) == CHARIOT for c in m.checkers):
        return False  # a chariot's check beside the cannon is 夹车炮 or the chariot's own mate
    # the point in front of the general, the way up its own file
    return any(
        m.rel(f.point) == (dx, 1) and any(m.kind(c) == SOLDIER for c in f.covers) for f in m.flights
    )


def _cross_cannons(m: Mate) -> bool:
    if m.rel(m.king) == (0, 0):
        return False  # the cross on the general's home point is 天地炮
    width = m.pos.width
    cannons = [c for c in m.attacker_points(CANNON) if _acts(m, c)]
    on_file = [c for c in cannons if c % width == m.king % width]
    on_rank = [c for c in cannons if c // width == m.king // width]
    return any(a in m.checkers or b in m.checkers for a in on_file for b in on_rank)


def _acts(m: Mate, sq: int) -> bool:
    """Does the attacking piece on ``sq`` give check or cover a flight point?"""
    return sq in m.checkers or bool(m.covered_by(sq))


def _chariot_cannon(m: Mate) -> bool:
    for c in m.checkers:
        if m.kind(c) != CHARIOT:
            continue
        for cannon in m.attacker_points(CANNON):
            if (
                m.on_line(cannon, m.king)
                and c in m.between(cannon, m.king)
                and not any(m.pos.board[sq] for sq in m.between(cannon, c))
            ):
                return True
    return False


def _two_ghosts(m: Mate) -> bool:
    sides = {
        m.rel(s)[0]
        for s in m.attacker_points(SOLDIER)
        if abs(m.rel(s)[0]) == 1 and m.rel(s)[1] <= 2
    }
    return sides == {-1, 1}


def _sea_bottom_moon(m: Mate) -> bool:
    width = m.pos.width
    _, king_dy = m.rel(m.king)
    return any(
        m.kind(c) == CHARIOT and c % width == m.king % width and m.rel(c)[1] < king_dy
        for c in m.checkers
    )


def _two_horses(m: Mate) -> bool:
    horses = [c for c in m.checkers if m.kind(c) == HORSE]
    for h in horses:
        for other in m.attacker_points(HORSE):
            if other != h and (other in m.checkers or m.covered_by(other)):
                return True
    return False


def _spring_horse(m: Mate) -> bool:
    if m.last_piece & TYPE_MASK != HORSE or m.last_to not in m.checkers:
        return False
    fr = m.last_from
    for c in m.line_checkers():
        if c != m.last_to and fr in m.between(c, m.king):
            return True
    for f in m.flights:
        for c in f.covers:
            if m.kind(c) in (CHARIOT, CANNON, MISSILE) and fr in m.between(c, f.point):
                return True
    return False


def _empty_head_cannon(m: Mate) -> bool:
    if m.rel(m.king)[0] != 0:
        return False
    width = m.pos.width
    for c in m.attacker_points(CANNON):
        if c % width != m.king % width:
            continue
        between = m.between(c, m.king)
        if not between or any(m.pos.board[sq] for sq in between):
            continue
        # the front cannon of 重炮 is the rear one's screen, not an empty head
        if not any(c in m.between(k, m.king) for k in m.checkers) and m.needs(c):
            return True
    return False


def _buddha_home(m: Mate) -> bool:
    if m.king_start < 0 or m.rel(m.king_start)[1] == 0 or m.rel(m.king)[1] != 0:
        return False
    return m.driven_home > 0 and any(_acts(m, s) for s in m.attacker_points(SOLDIER))


def _minister_presses(m: Mate) -> bool:
    width = m.pos.width
    if not any(m.kind(c) == CHARIOT and c // width == m.king // width for c in m.checkers):
        return False
    _, king_dy = m.rel(m.king)
    for f in m.flights:
        if f.point % width != m.king % width or m.rel(f.point)[1] != king_dy + 1:
            continue
        # its own advisor or elephant on the general's head, and nothing else holds that point
        minister = f.own and m.kind(f.point) in (ADVISOR, ELEPHANT)
        return minister and not _covers_if_empty(m, f.point)
    return False


def _covers_if_empty(m: Mate, sq: int) -> list[int]:
    """The attacking pieces that would take the general on ``sq`` were its own piece not there."""
    board = m.pos.board
    there, general = board[sq], board[m.king]
    board[m.king] = 0
    board[sq] = general
    try:
        return m.pos.attackers(sq, m.attacker)
    finally:
        board[sq] = there
        board[m.king] = general


def _white_horse(m: Mate) -> bool:
    if m.rel(m.king)[1] == 0:
        return False
    return any(m.kind(c) == HORSE and m.rel(c)[1] == 0 for c in m.checkers)


def _smothered(m: Mate) -> bool:
    return bool(m.flights) and all(f.own for f in m.flights)


def _double_check(m: Mate) -> bool:
    return len(m.checkers) >= 2


# -- feidan


def _palace_missiles(m: Mate) -> list[int]:
    return [
        c for c in m.checkers if m.kind(c) == MISSILE and abs(m.rel(c)[0]) <= 1 and m.rel(c)[1] <= 2
    ]


def _missile_strike(m: Mate) -> bool:
    return m.status == "dead_general" and m.last_to in _palace_missiles(m)


def _others(m: Mate, missiles: list[int]) -> set[int]:
    return {c for f in m.flights for c in f.covers if c not in missiles}


def _dead_general_net(m: Mate) -> bool:
    if m.status != "dead_general":
        return False
    return len(_others(m, _palace_missiles(m))) >= 2


def _sealed_palace(m: Mate) -> bool:
    if m.status != "dead_general":
        return False
    return not _others(m, _palace_missiles(m))


def _fighter_missile(m: Mate) -> bool:
    if not any(m.kind(c) == MISSILE for c in m.checkers):
        return False
    return any(f in m.checkers or m.covered_by(f) for f in m.attacker_points(FIGHTER))


def _fighter_mate(m: Mate) -> bool:
    return any(m.kind(c) == FIGHTER for c in m.checkers)


def _collision_opens(m: Mate) -> bool:
    if m.last_kind not in ("collision", "self_destruct"):
        return False
    opened = m.last_to if m.last_kind != "self_destruct" else m.last_from
    return any(opened in m.between(c, m.king) for c in m.line_checkers())


def _missile_mate(m: Mate) -> bool:
    return m.status == "checkmate" and any(m.kind(c) == MISSILE for c in m.checkers)


# -- xinban


def _defection_check(m: Mate) -> bool:
    return m.last_kind == "defection" and m.last_joined in m.checkers


def _defector_mate(m: Mate) -> bool:
    return any(c in m.joined and c != m.last_joined for c in m.checkers)


def _defection_screen(m: Mate) -> bool:
    return any(m.kind(c) == CANNON and m.screen(c) in m.joined for c in m.checkers)


def _defection_cover(m: Mate) -> bool:
    return any(j not in m.checkers and m.covered_by(j) for j in m.joined)


def _double_defection(m: Mate) -> bool:
    return m.defections >= 2


# --- the catalogue ----------------------------------------------------------------------------


def _p(
    code: str,
    zh: str,
    en: str,
    summary: tuple[str, str],
    definition: tuple[str, str],
    family: str = "traditional",
) -> Pattern:
    variants = ALL_VARIANTS if family == "traditional" else (family,)
    return Pattern(code, zh, en, variants, family, summary[0], summary[1], *definition)


PATTERNS: tuple[Pattern, ...] = (
    _p(
        "horse_cannon",
        "马后炮",
        "Horse-and-cannon mate",
        (
            "A cannon checks with its own horse as the screen.",
            "炮以己方的马为炮架将军。",
        ),
        (
            "A cannon gives check and its screen (the one piece between it and the general) "
            "is a horse of the attacker.",
            "将军的炮与将之间唯一的炮架是进攻方自己的马。",
        ),
    ),
    _p(
        "double_cannon",
        "重炮",
        "Double cannon",
        (
            "Two cannons on one line: the front one is the screen of the rear one.",
            "双炮同线，前炮做后炮的炮架将军。",
        ),
        (
            "A cannon gives check and its screen is another cannon of the attacker.",
            "将军的炮与将之间唯一的炮架是进攻方的另一门炮。",
        ),
    ),
    _p(
        "smothered_palace",
        "闷宫",
        "Smothered palace",
        (
            "A cannon checks along the general's file while its own advisors wall it in.",
            "炮沿将所在的直线将军，将的两侧被自己的士堵死。",
        ),
        (
            "A cannon gives check along the general's file, and every flight point of the "
            "general off that file (at least one) is occupied by one of the defender's own "
            "advisors. A cannon checking along the general's rank is not 闷宫, even with an "
            "advisor in front of the general.",
            "炮沿将所在的直线（竖线）将军；将的出路中不在这条直线上的点（至少一个）全部被防守方"
            "自己的士占据。炮沿横线将军不算闷宫，即使将的前方有自己的士。",
        ),
    ),
    _p(
        "iron_bolt",
        "铁门栓",
        "Iron bolt",
        (
            "A central cannon bars the general's file while a chariot checks from the side.",
            "中炮镇住中路，车（兵）从侧面将军。",
        ),
        (
            "The general stands on the centre file; a chariot or soldier gives check along the "
            "general's rank; an attacking cannon on the centre file holds the general's flight "
            "point on that file: it covers the point, or the defender's own piece there is "
            "pinned by it (were the piece to leave, the cannon would check).",
            "将在中路；车或兵沿将所在的横线将军；进攻方位于中路的炮控制将在中路上的出路："
            "或者直接控制该点，或者牵制站在该点的防守方棋子（该子一离开，炮就将军）。",
        ),
    ),
    _p(
        "trough_horse",
        "卧槽马",
        "Horse in the trough",
        (
            "A horse checks from the trough, the second rank two files from the centre.",
            "马在卧槽位（对方底二线的三、七路）将军。",
        ),
        (
            "A horse gives check from a point two files from the centre file on the "
            "defender's second rank (|dx| = 2, dy = 1).",
            "将军的马位于防守方底二线、离中路两路的点（|dx| = 2，dy = 1）。",
        ),
    ),
    _p(
        "fishing_horse",
        "钓鱼马",
        "Fishing horse",
        (
            "A horse on the third rank two files from the centre seals the general's way out.",
            "马在对方三线的三、七路（田字对角），封锁将的出路。",
        ),
        (
            "An attacking horse on a point two files from the centre file on the defender's "
            "third rank (|dx| = 2, dy = 2) gives check or covers at least one flight point.",
            "进攻方的马位于防守方第三线、离中路两路的点（|dx| = 2，dy = 2），"
            "并且将军或控制将的至少一个出路。",
        ),
    ),
    _p(
        "corner_horse",
        "挂角马",
        "Horse on the palace corner",
        (
            "A horse checks from a front corner of the palace.",
            "马在九宫顶角将军。",
        ),
        (
            "A horse gives check from a front corner of the defender's palace (|dx| = 1, dy = 2).",
            "将军的马位于防守方九宫的顶角（|dx| = 1，dy = 2）。",
        ),
    ),
    _p(
        "eight_corner_horse",
        "八角马",
        "Eight-corner horse",
        (
            "A horse on the far corner of the palace locks a general in the opposite corner.",
            "马与将分处九宫斜对角，马锁住将的两条出路。",
        ),
        (
            "The general stands on a corner of its palace and an attacking horse on the "
            "diagonally opposite corner covers at least one of its flight points.",
            "将在九宫的一个角上，进攻方的马在斜对的另一个角上，并控制将的至少一个出路。",
        ),
    ),
    _p(
        "high_fishing_horse",
        "高钓马",
        "High fishing horse",
        (
            "A horse one rank above the fishing point guards the palace's side points.",
            "马在钓鱼马位置再高一线，控制九宫两侧的中点。",
        ),
        (
            "An attacking horse on a point two files from the centre file on the defender's "
            "fourth rank (|dx| = 2, dy = 3) gives check or covers at least one flight point.",
            "进攻方的马位于防守方第四线、离中路两路的点（|dx| = 2，dy = 3），"
            "并且将军或控制将的至少一个出路。",
        ),
    ),
    _p(
        "side_tiger",
        "侧面虎",
        "Tiger on the flank",
        (
            "A horse bars the general's file while a chariot or soldier checks from the side.",
            "马控制将的上下出路，车（兵）从侧面将军。",
        ),
        (
            "A chariot or soldier gives check along the general's rank, and an attacking "
            "horse covers a flight point on the general's file (in front of or behind it).",
            "车或兵沿将所在的横线将军，进攻方的马控制将所在直线上的出路（前方或后方）。",
        ),
    ),
    _p(
        "facing_general",
        "白脸将",
        "Facing general",
        (
            "The attacker's own general guards an escape across the open file (对面笑).",
            "己方将帅隔空控制对方将的出路（又称对面笑）。",
        ),
        (
            "At least one flight point of the general is covered by the attacker's general "
            "along an open file (the generals may not face each other) and by no other "
            "attacking piece. Also called 对面笑; we use the one name for both.",
            "将的至少一个出路只由进攻方的将（帅）沿空直线控制（将帅不能照面），没有其他进攻子控制。"
            "又称对面笑，本站两名合一。",
        ),
    ),
    _p(
        "double_chariot",
        "双车错",
        "Double chariots",
        (
            "Two chariots on neighbouring lines: one checks, the other holds the next line.",
            "双车在相邻的两条线上交替，一车将军，一车封线。",
        ),
        (
            "A chariot gives check, and another attacking chariot on the parallel line next "
            "to the checking line covers at least one flight point.",
            "一车将军，另一车位于与将军线相邻的平行线上，并控制将的至少一个出路。",
        ),
    ),
    _p(
        "heart_sacrifice",
        "大刀剜心",
        "Knife to the heart",
        (
            "A chariot is given up on the palace centre; the piece that takes it blocks the "
            "general.",
            "车在九宫中心（中士的位置）弃掉，对方吃车后自堵将路，随即成杀。",
        ),
        (
            "In the line an attacking chariot moves onto the centre of the defender's palace "
            "(dx = 0, dy = 1), typically taking the central advisor, and the defender's next "
            "move takes it there; the line ends in mate. When the chariot cannot be taken "
            "there, it is 大胆穿心.",
            "着法中进攻方的车走到防守方九宫中心（dx = 0，dy = 1），通常是吃掉中士，防守方下一步"
            "在该点吃掉它，最终成杀。车在那里吃不掉的，是大胆穿心。",
        ),
    ),
    _p(
        "heart_pierce",
        "大胆穿心",
        "Piercing the heart",
        (
            "A chariot takes the central advisor and cannot be taken back: the heart is pierced.",
            "车砍中士，对方无法还吃，直插九宫中心，随即成杀。",
        ),
        (
            "In the line an attacking chariot takes the defender's advisor on the centre of the "
            "defender's palace (dx = 0, dy = 1), and no legal move of the defender's next turn "
            "takes the chariot there (or the capture mates at once); the line ends in mate. "
            "When the chariot is taken there, it is 大刀剜心.",
            "着法中进攻方的车吃掉防守方九宫中心（dx = 0，dy = 1）的士，防守方接下来没有任何合法"
            "着法能在该点吃掉它（或吃士即成杀），最终成杀。车在那里被吃掉的，是大刀剜心。",
        ),
    ),
    _p(
        "cannon_grind",
        "炮碾丹砂",
        "Cannon grinds the cinnabar",
        (
            "A cannon uses the enemy general itself as its screen and takes the defenders beside "
            "it, from one side and then the other, until another piece mates.",
            "炮以对方的将为炮架，左右翻打将两旁的士象等棋子，剥去防守，再配合他子成杀。",
        ),
        (
            "In the line an attacking cannon captures at least once with the defending general "
            "as its screen: the cannon, the general and the piece taken stand on one rank or "
            "file, and the general is the only piece between the cannon and the piece it takes. "
            "The line ends in mate.",
            "着法中进攻方的炮至少有一次以防守方的将为炮架吃子：炮、将和被吃的子在同一条横线或"
            "直线上，炮和被吃的子之间只有将这一个子。最终成杀。",
        ),
    ),
    _p(
        "heaven_earth_cannon",
        "天地炮",
        "Heaven-and-earth cannons",
        (
            "One cannon on the centre file, the other on the back rank.",
            "一炮镇中路，一炮沉底线，上下夹攻。",
        ),
        (
            "One attacking cannon stands on the centre file and another on the defender's "
            "back rank (dy = 0); at least one of the two gives check and each of them gives "
            "check or covers a flight point.",
            "进攻方一炮在中路，另一炮在防守方底线（dy = 0）；其中至少一炮将军，"
            "且两炮各自将军或控制将的出路。",
        ),
    ),
    _p(
        "golden_hook",
        "金钩炮",
        "Golden hook cannon",
        (
            "A cannon checks along the general's back rank while a soldier bars the way up its "
            "file: the cannon's rank and the soldier's hold make a hook.",
            "炮沉底线横将，兵（卒）封住将向上的去路，炮和兵连成钩形，将无路可走。",
        ),
        (
            "The defender's general stands on its back rank (dy = 0); an attacking cannon gives "
            "check along that rank; the general's flight point straight in front of it "
            "(its own file, dy = 1) is covered by an attacking soldier. No attacking chariot "
            "gives check: a chariot checking beside the cannon is 夹车炮 or the chariot's mate.",
            "防守方的将在底线上（dy = 0）；进攻方的炮沿底线横向将军；将正前方的出路（同一直线，"
            "dy = 1）由进攻方的兵控制。进攻方的车不将军：车和炮一起将军是夹车炮或车的杀法。",
        ),
    ),
    _p(
        "cross_cannons",
        "十字炮",
        "Cross cannons",
        (
            "Two cannons cross at the general: one on its file, the other on its rank.",
            "双炮交叉成十字：一炮在将所在的直线，一炮在将所在的横线，纵横夹击。",
        ),
        (
            "One attacking cannon stands on the general's file and another on its rank; at "
            "least one of the two gives check and each of them gives check or covers a flight "
            "point. A general on its home point (the centre file of its back rank) is left to "
            "天地炮.",
            "进攻方一炮在将所在的直线上，另一炮在将所在的横线上；其中至少一炮将军，且两炮各自将军"
            "或控制将的出路。将在原位（底线中点）时，这是天地炮，不算十字炮。",
        ),
    ),
    _p(
        "chariot_cannon",
        "夹车炮",
        "Cannon behind the chariot",
        (
            "A chariot checks with a cannon right behind it on the same line.",
            "车在前将军，炮在车后同线助攻。",
        ),
        (
            "A chariot gives check, and an attacking cannon stands behind it on the same "
            "line, with nothing between the cannon and the chariot.",
            "车将军，进攻方的炮在车后同一直线上，炮与车之间没有棋子。",
        ),
    ),
    _p(
        "two_ghosts",
        "二鬼拍门",
        "Two Ghosts Knocking at the Door",
        (
            "Two soldiers knock on both sides of the palace.",
            "双兵（卒）分居九宫两肋，逼宫成杀。",
        ),
        (
            "Two attacking soldiers stand inside the defender's palace, one on each of its "
            "side files (dx = -1 and dx = +1).",
            "进攻方两个兵分别位于防守方九宫的左右两条肋线上（dx = −1 与 dx = +1），且都在九宫内。",
        ),
    ),
    _p(
        "sea_bottom_moon",
        "海底捞月",
        "Scooping the Moon from the Sea Bottom",
        (
            "A chariot checks from behind the general, from the bottom of its own palace.",
            "车从将的后方（底线方向）将军。",
        ),
        (
            "A chariot gives check along the general's file from behind it: the chariot is "
            "nearer the defender's back rank than the general.",
            "车沿将所在的直线将军，且车比将更靠近防守方的底线。",
        ),
    ),
    _p(
        "two_horses",
        "双马饮泉",
        "Two horses drink at the spring",
        (
            "One horse checks while the other guards the general's way out.",
            "一马将军，另一马控制将的出路。",
        ),
        (
            "A horse gives check and another attacking horse gives check too or covers at "
            "least one flight point.",
            "一马将军，进攻方的另一匹马也将军或控制将的至少一个出路。",
        ),
    ),
    _p(
        "spring_horse",
        "拔簧马",
        "Spring horse",
        (
            "A horse jumps out with check and uncovers a chariot's or cannon's line.",
            "马跳出将军，同时让出车（炮）的线路。",
        ),
        (
            "The attacker's last move is a horse move that gives check, and a line through the "
            "point it left now lets an attacking chariot, cannon or missile check the general "
            "or cover one of its flight points. Also called 弹簧马.",
            "进攻方最后一步是马将军，并且马离开的点让出一条线，使进攻方的车、炮或导弹将军或控制"
            "将的出路。又称弹簧马。",
        ),
    ),
    _p(
        "empty_head_cannon",
        "空头炮",
        "Empty-head cannon",
        (
            "A cannon faces the general down the centre file with nothing between: no defender "
            "may step onto that file, and another piece mates.",
            "炮在中路与将对面，中间空无一子：对方任何棋子都不能走到这条线上，另由他子成杀。",
        ),
        (
            "The general stands on the centre file and an attacking cannon stands on that file "
            "with at least one point between them and every point between empty; the cannon "
            "does not check and is no other piece's screen (the front cannon of 重炮 is not an "
            "empty head), but it is part of the mate: with the cannon taken off the board the "
            "defender would have a legal move.",
            "将在中路（中线）上，进攻方的炮也在这条线上，两者之间至少隔一个点且全部空着；炮不将军，"
            "也不给别的子当炮架（重炮的前炮不是空头炮），但它是杀局的一部分：把这只炮拿掉，防守方"
            "就有合法着法可走。",
        ),
    ),
    _p(
        "buddha_home",
        "送佛归殿",
        "Escorting the Buddha home",
        (
            "A soldier's checks drive a general that has climbed its palace back down to its "
            "back rank, where it is mated.",
            "将已离开底线，兵步步将军把它赶回底线（原位），在那里成杀。",
        ),
        (
            "The defender's general starts the line off its back rank; at least once it steps "
            "back towards its back rank in answer to a check by an attacking soldier; it is "
            "mated on its back rank, with an attacking soldier checking or covering one of its "
            "flight points.",
            "着法开始时防守方的将不在底线上；着法中至少有一次，进攻方的兵将军，将只好向底线退回；"
            "将最后在底线上被将死，且进攻方的兵正在将军或控制将的出路。",
        ),
    ),
    _p(
        "minister_presses",
        "臣压君",
        "The minister presses the sovereign",
        (
            "The general's own advisor or elephant sits on its head, so it cannot step forward, "
            "and a chariot checks it along its rank.",
            "将的头上被自己的士或象压住，不能向前走，车在横线上将军成杀。",
        ),
        (
            "An attacking chariot checks the general along its rank; the flight point right in "
            "front of the general (on its file, one rank further from its back rank) holds the "
            "defender's own advisor or elephant, and were that point empty no attacking piece "
            "would take the general there: its own piece alone shuts it in.",
            "进攻方的车沿横线将军；将的正前方（同一直线上、离底线远一步）的出路上站着防守方自己的"
            "士或象，而且那个点即使空着，进攻方也没有子能在那里吃将：困住将的正是它自己的子。",
        ),
    ),
    _p(
        "white_horse",
        "白马现蹄",
        "White horse shows its hoof",
        (
            "The general has climbed off its back rank, and a horse that has got behind it, onto "
            "that back rank, gives the mating check.",
            "将已离开底线，马绕到将的身后，站在对方底线上将军成杀。",
        ),
        (
            "The defender's general is mated off its back rank, and an attacking horse standing "
            "on the defender's back rank is one of the pieces that check it.",
            "防守方的将不在底线上时被将死，并且将军的子中有一匹站在防守方底线上的进攻方的马。",
        ),
    ),
    _p(
        "smothered",
        "闷杀",
        "Smothered mate",
        (
            "Every point the general could step to is blocked by its own pieces (窒息).",
            "将的所有出路都被自己的棋子堵死（窒息）。",
        ),
        (
            "Every flight point of the general is occupied by one of the defender's own pieces.",
            "将的每一个出路上都站着防守方自己的棋子。",
        ),
    ),
    _p(
        "double_check",
        "双将",
        "Double check",
        (
            "Two pieces check at once: no block or capture answers both.",
            "两子同时将军，垫将或吃子都无法同时解除。",
        ),
        (
            "Two or more attacking pieces give check in the final position.",
            "最终局面中有两个或更多进攻方的棋子同时将军。",
        ),
    ),
    # -- feidan
    _p(
        "missile_strike",
        "导弹入宫",
        "Missile strike",
        (
            "The last move sends a missile into the palace: dead general at once.",
            "最后一步导弹入宫将军，将无处可躲，当即死将。",
        ),
        (
            "The final position is a dead general, and the missile that checks from inside "
            "the defender's palace arrived there with the attacker's last move.",
            "最终局面为死将，且在防守方九宫内将军的导弹正是进攻方最后一步走进去的。",
        ),
        "feidan",
    ),
    _p(
        "dead_general_net",
        "死将网",
        "Dead-general net",
        (
            "A missile in the palace, and other pieces close the general's every exit.",
            "导弹入宫将军，其他子力织网封死将的出路。",
        ),
        (
            "The final position is a dead general, and at least two attacking pieces other "
            "than the checking missile(s) in the palace cover the general's flight points.",
            "最终局面为死将，并且除宫内将军的导弹以外，至少有两个进攻方的棋子控制将的出路。",
        ),
        "feidan",
    ),
    _p(
        "sealed_palace",
        "封宫死将",
        "Sealed palace",
        (
            "A missile alone does it: the general's own pieces seal every other exit.",
            "导弹独力成杀，其余出路被将自己的棋子封住。",
        ),
        (
            "The final position is a dead general, and no attacking piece other than the "
            "checking missile(s) in the palace covers any of the general's flight points.",
            "最终局面为死将，除宫内将军的导弹以外，没有任何进攻方的棋子控制将的出路。",
        ),
        "feidan",
    ),
    _p(
        "fighter_missile",
        "机弹联攻",
        "Fighter and missile",
        (
            "A missile checks while a fighter guards the general's escape.",
            "导弹将军，战机配合封锁出路。",
        ),
        (
            "A missile gives check, and an attacking fighter gives check too or covers at "
            "least one flight point.",
            "导弹将军，进攻方的战机也将军或控制将的至少一个出路。",
        ),
        "feidan",
    ),
    _p(
        "fighter_mate",
        "战机将杀",
        "Fighter mate",
        (
            "The fighter itself gives the mating check.",
            "由战机直接将军成杀。",
        ),
        (
            "A fighter gives check in the final position.",
            "最终局面中有战机在将军。",
        ),
        "feidan",
    ),
    _p(
        "collision_opens",
        "碰炸开线",
        "Collision opens the line",
        (
            "A collision blows a blocker away and opens a line onto the general.",
            "碰炸清除挡路的棋子，打开通向将的线路。",
        ),
        (
            "The attacker's last move is a collision (both pieces vanish; or a missile "
            "destroys itself on its base), and the point it emptied lies between the general and a chariot, cannon or missile that "
            "now gives check along that line.",
            "进攻方最后一步是碰炸（双方同归于尽，或导弹在基地自毁），被清空的点位于将与正在沿该线将军的车、炮或导弹之间。",
        ),
        "feidan",
    ),
    _p(
        "missile_mate",
        "导弹将杀",
        "Missile checkmate",
        (
            "A missile checks and it is an ordinary checkmate, not a dead general.",
            "导弹将军成杀（普通将死，而非死将）。",
        ),
        (
            "The final position is a checkmate (not a dead general) and a missile is among "
            "the checking pieces.",
            "最终局面是将死（不是死将），且将军的棋子中有导弹。",
        ),
        "feidan",
    ),
    # -- xinban
    _p(
        "defection_check",
        "策反将军",
        "Defection with check",
        (
            "The mating capture makes a piece defect, and the new piece gives check.",
            "最后一步吃子策反，变过来的棋子当即将军。",
        ),
        (
            "The attacker's last move is a capture that makes a turncoat defect, and the "
            "defected piece (on the point the captor left) gives check.",
            "进攻方最后一步吃掉对方的策反子，使它倒戈，倒戈的棋子（在吃子方原来的位置）将军。",
        ),
        "xinban",
    ),
    _p(
        "defector_mate",
        "降将立功",
        "The defector mates",
        (
            "A piece won over earlier in the line gives the mating check.",
            "先前策反过来的棋子最后将军成杀。",
        ),
        (
            "A piece that defected to the attacker before the attacker's last move gives "
            "check in the final position.",
            "在进攻方最后一步之前策反过来的棋子，在最终局面中将军。",
        ),
        "xinban",
    ),
    _p(
        "defection_screen",
        "反间炮架",
        "Defector as screen",
        (
            "A defected piece serves as the screen of the mating cannon.",
            "策反过来的棋子充当将军炮的炮架。",
        ),
        (
            "A cannon gives check and its screen is a piece that defected to the attacker "
            "in the line.",
            "炮将军，其炮架是着法中策反过来的棋子。",
        ),
        "xinban",
    ),
    _p(
        "defection_cover",
        "反间封门",
        "Defector on guard",
        (
            "A defected piece does not check but shuts one of the general's exits.",
            "策反过来的棋子不将军，却封住将的出路。",
        ),
        (
            "A piece that defected to the attacker in the line covers at least one flight "
            "point of the general without giving check.",
            "着法中策反过来的棋子不将军，但控制将的至少一个出路。",
        ),
        "xinban",
    ),
    _p(
        "double_defection",
        "连环策反",
        "Chain of defections",
        (
            "Two or more captures in the line make pieces defect.",
            "着法中两次以上吃子策反。",
        ),
        (
            "At least two of the attacker's moves in the line are captures that make a "
            "turncoat defect.",
            "着法中进攻方至少有两步吃掉对方的策反子，使它倒戈。",
        ),
        "xinban",
    ),
)

_DETECTORS: dict[str, Detector] = {
    "horse_cannon": _horse_cannon,
    "double_cannon": _double_cannon,
    "smothered_palace": _smothered_palace,
    "iron_bolt": _iron_bolt,
    "trough_horse": _trough_horse,
    "fishing_horse": _fishing_horse,
    "corner_horse": _corner_horse,
    "eight_corner_horse": _eight_corner_horse,
    "high_fishing_horse": _high_fishing_horse,
    "side_tiger": _side_tiger,
    "facing_general": _facing_general,
    "double_chariot": _double_chariot,
    "heart_sacrifice": _heart_sacrifice,
    "heart_pierce": _heart_pierce,
    "cannon_grind": _cannon_grind,
    "heaven_earth_cannon": _heaven_earth_cannon,
    "golden_hook": _golden_hook,
    "cross_cannons": _cross_cannons,
    "chariot_cannon": _chariot_cannon,
    "two_ghosts": _two_ghosts,
    "sea_bottom_moon": _sea_bottom_moon,
    "two_horses": _two_horses,
    "spring_horse": _spring_horse,
    "empty_head_cannon": _empty_head_cannon,
    "buddha_home": _buddha_home,
    "minister_presses": _minister_presses,
    "white_horse": _white_horse,
    "smothered": _smothered,
    "double_check": _double_check,
    "missile_strike": _missile_strike,
    "dead_general_net": _dead_general_net,
    "sealed_palace": _sealed_palace,
    "fighter_missile": _fighter_missile,
    "fighter_mate": _fighter_mate,
    "collision_opens": _collision_opens,
    "missile_mate": _missile_mate,
    "defection_check": _defection_check,
    "defector_mate": _defector_mate,
    "defection_screen": _defection_screen,
    "defection_cover": _defection_cover,
    "double_defection": _double_defection,
}
CODES: tuple[str, ...] = tuple(p.code for p in PATTERNS)
BY_CODE: dict[str, Pattern] = {p.code: p for p in PATTERNS}


def find_pattern(code: str) -> Pattern | None:
    return BY_CODE.get(code)


def detect(variant: str, fen: str, line: Sequence[str]) -> list[str]:
    """The codes of the patterns the mate that ``line`` ends in is an example of, in catalogue
    order. Raises ``EngineError`` (``InvalidFenError``, ``InvalidMoveError``,
    ``IllegalMoveError``, or ``patterns.not_mate`` / ``patterns.attacker_mated``)."""
    mate = read_mate(variant, fen, line)
    name = mate.pos.variant.name
    return [p.code for p in PATTERNS if name in p.variants and _DETECTORS[p.code](mate)]
