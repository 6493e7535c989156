"""Puzzle themes: the catalogue, and how a puzzle's themes follow from its proof.

Themes are derived, never typed by hand: from the goal, the length, and the main line of the
proof replayed on the engine (what each attacker move does, what the final position is). The
named kill patterns (马后炮, 死将网, …) are themes too: their slugs, names and descriptions come
from the engine's catalogue (``engine.patterns``), and a mate's patterns are what
``engine.patterns.detect`` reads from its main line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import EngineError, Move, Position
from engine.patterns import PATTERNS, detect
from engine.rules import CHASE_VALUE
from engine.tactics import TACTICS
from engine.variants import (
    BLACK,
    CANNON,
    FIGHTER,
    LETTER_OF_TYPE,
    MISSILE,
    TYPE_MASK,
    VARIANTS,
    Variant,
)

# Piece values used to tell a sacrifice: the chase values of docs/rules.md §8.3 by FEN letter,
# and the general above everything.
VALUE = {LETTER_OF_TYPE[kind]: value for kind, value in CHASE_VALUE.items()} | {"k": 100.0}


@dataclass(frozen=True)
class ThemeInfo:
    slug: str
    name_en: str
    name_zh: str
    description_en: str
    description_zh: str


CATALOGUE: tuple[ThemeInfo, ...] = (
    ThemeInfo("mate_in_1", "Mate in 1", "一步杀", "Checkmate in one move.", "一步将死对方。"),
    ThemeInfo("mate_in_2", "Mate in 2", "两步杀", "Checkmate in two moves.", "两步将死对方。"),
    ThemeInfo("mate_in_3", "Mate in 3", "三步杀", "Checkmate in three moves.", "三步将死对方。"),
    ThemeInfo("mate_in_4", "Mate in 4", "四步杀", "Checkmate in four moves.", "四步将死对方。"),
    ThemeInfo("mate_in_5", "Mate in 5", "五步杀", "Checkmate in five moves.", "五步将死对方。"),
    ThemeInfo(
        "long_mate", "Long mate", "多步杀", "Checkmate in six moves or more.", "六步以上的杀局。"
    ),
    ThemeInfo(
        "dead_general",
        "Dead general",
        "死将",
        "A missile checks inside the palace and the general cannot step away.",
        "导弹入宫将军，将（帅）无处可躲。",
    ),
    ThemeInfo(
        "stalemate",
        "Stalemate",
        "困毙",
        "The defender is left without a legal move (a win in xiangqi).",
        "对方无着可走，困毙取胜。",
    ),
    ThemeInfo(
        "defection",
        "Defection",
        "策反",
        "A captured turncoat piece changes sides: it joins the attack, or, taken by the "
        "defender, blocks its own general.",
        "吃掉策反子使其倒戈：倒戈的棋子加入进攻，或被防守方吃后反堵自己的将。",
    ),
    ThemeInfo(
        "missile_collision",
        "Missile collision",
        "导弹碰炸",
        "A missile and the piece it meets are both blown off the board.",
        "导弹与目标同归于尽。",
    ),
    ThemeInfo(
        "missile",
        "Missile attack",
        "导弹进攻",
        "A missile moves in the solution.",
        "解法中使用导弹。",
    ),
    ThemeInfo(
        "fighter",
        "Fighter",
        "战机",
        "A fighter flies in the solution.",
        "解法中使用战机。",
    ),
    ThemeInfo(
        "cannon_screen",
        "Cannon screen",
        "炮架",
        "The final check is given by a cannon over a screen.",
        "最后由炮隔子将军。",
    ),
    ThemeInfo(
        "sacrifice",
        "Sacrifice",
        "弃子",
        "The attacker gives up material on the way.",
        "进攻方在过程中弃子。",
    ),
    ThemeInfo(
        "checks_only",
        "Checks all the way",
        "连将杀",
        "Every attacking move gives check.",
        "每一步都将军。",
    ),
    ThemeInfo(
        "quiet_move",
        "Quiet move",
        "冷着",
        "The first move is a quiet move: it neither checks nor captures.",
        "第一步是不将之着（冷着），也不吃子。",
    ),
    ThemeInfo(
        "classic",
        "Classical problem",
        "古谱",
        "A composed problem from the classical collections.",
        "出自古代棋谱的排局。",
    ),
    ThemeInfo(
        "user_made",
        "User-made",
        "网友原创",
        "Composed by a user of this site and proved by the engine.",
        "本站用户创作，经引擎证明。",
    ),
)
# A tactics puzzle's label, and the tactics a line that wins material shows (engine.tactics;
# the sacrifice, the double check, the defection and the missile collision are already themes
# above and among the patterns).
TACTIC_THEMES: tuple[ThemeInfo, ...] = (
    ThemeInfo(
        "material",
        "Win material",
        "得子",
        "Win material with the only move that does it.",
        "走出唯一能得子的着法。",
    ),
    *(
        ThemeInfo(t.code, t.en, t.zh, t.summary_en, t.summary_zh)
        for t in TACTICS
        if t.code not in ("sacrifice", "double_check", "defection", "missile_collision")
    ),
)
TACTIC_SLUGS = frozenset(t.code for t in TACTICS)
CATALOGUE = CATALOGUE + TACTIC_THEMES
# The named kill patterns, one theme each, after the themes above.
PATTERN_THEMES: tuple[ThemeInfo, ...] = tuple(
    ThemeInfo(p.code, p.en, p.zh, p.summary_en, p.summary_zh) for p in PATTERNS
)
PATTERN_SLUGS = frozenset(theme.slug for theme in PATTERN_THEMES)
CATALOGUE = CATALOGUE + PATTERN_THEMES
SLUGS = frozenset(theme.slug for theme in CATALOGUE)
ORDER = {theme.slug: index for index, theme in enumerate(CATALOGUE)}

# A puzzle names at most MAX_TEACHING themes that teach something, the most important first
# (docs/puzzles.md, "How many themes a puzzle names"). The labels are not counted: the length
# (mate in N), the ending (dead general, stalemate) and where it comes from (classic,
# user-made) describe the puzzle and are always kept, so the filters by them stay whole.
MAX_TEACHING = 3
LABELS = frozenset(
    {"mate_in_1", "mate_in_2", "mate_in_3", "mate_in_4", "mate_in_5", "long_mate"}
    | {"dead_general", "stalemate", "classic", "user_made", "material"}
)
# Patterns that show in many mates whatever their idea (a general covering a flight point,
# every flight point blocked, two checking pieces): they teach less than the named patterns.
_BROAD_PATTERNS = ("facing_general", "smothered", "double_check")
# The order of importance of the themes that teach: the variant's own rules the mate turns
# on, then the named kill patterns (catalogue order), then the way the line is played, then
# the broad patterns, and last what any such mate shows (the pieces used, a cannon's check,
# checks all the way).
IMPORTANCE: tuple[str, ...] = (
    # The tactics of a line that wins material (a mate never has them; the sacrifice and the
    # double check keep their places below): the ideas first, the broad ones (a trapped or an
    # unprotected piece) last.
    "discovered_check",
    "fork",
    "pin",
    "discovered_attack",
    "deflection",
    "decoy",
    "interference",
    "remove_defender",
    "trapped_piece",
    "hanging_piece",
    "defection",
    "missile_collision",
    *(p.code for p in PATTERNS if p.code not in _BROAD_PATTERNS),
    "sacrifice",
    "quiet_move",
    *_BROAD_PATTERNS,
    "fighter",
    "missile",
    "cannon_screen",
    "checks_only",
)
_RANK = {slug: index for index, slug in enumerate(IMPORTANCE)}


def cap_themes(slugs: Iterable[str]) -> list[str]:
    """``slugs`` with every label and the ``MAX_TEACHING`` most important teaching themes, in
    catalogue order."""
    unique = dict.fromkeys(slugs)
    teaching = sorted((s for s in unique if s not in LABELS), key=lambda s: _RANK.get(s, 999))
    kept = [s for s in unique if s in LABELS] + teaching[:MAX_TEACHING]
    return sorted(kept, key=lambda slug: ORDER.get(slug, 999))


def _occurs(slug: str, variant: Variant) -> bool:
    """Whether a puzzle of ``variant`` can have the theme: the themes of the variants' own
    pieces and rules (missiles, fighters, collisions, the dead general, defection) follow the
    engine's rules of the variant, a kill pattern its catalogue; every other theme is common."""
    if slug == "missile":
        return MISSILE in variant.piece_types
    if slug == "missile_collision":
        return bool(variant.colliding_types)
    if slug == "fighter":
        return FIGHTER in variant.piece_types
    if slug == "dead_general":
        return bool(variant.dead_general_types)
    if slug == "defection":
        return bool(variant.defection)
    pattern = next((p for p in PATTERNS if p.code == slug), None)
    if pattern is not None:
        return variant.name in pattern.variants
    return True


# The variants each theme can occur in (``themes_of_variant`` reads it the other way).
THEME_VARIANTS: dict[str, frozenset[str]] = {
    theme.slug: frozenset(name for name, v in VARIANTS.items() if _occurs(theme.slug, v))
    for theme in CATALOGUE
}


def themes_of_variant(variant: str) -> frozenset[str]:
    """The slugs of the themes a puzzle of ``variant`` can have (none for an unknown one)."""
    return frozenset(slug for slug, names in THEME_VARIANTS.items() if variant in names)


def _letter(value: int) -> str:
    from engine.variants import LETTER_OF_TYPE

    return LETTER_OF_TYPE[value & TYPE_MASK]


def derive_themes(
    *,
    variant: str,
    fen: str,
    goal: str,
    moves_to_win: int,
    main_line: Sequence[str],
    mode: str = "full",
) -> list[str]:
    """The themes of a proved puzzle, from its main line (ICCS, attacker first)."""
    position = Position.from_fen(variant, fen)
    attacker_bit = position.side
    themes: set[str] = set()
    all_checks = True
    last_attacker_to: int | None = None
    last_attacker_value = 0.0
    for ply, text in enumerate(main_line):
        move = Move.from_iccs(text)
        m = position.encode(move)
        attacking = ply % 2 == 0
        piece = position.board[m >> 8]
        target = position.board[m & 255]
        _changes, kind = position.effects(m)
        if attacking:
            kind_type = piece & TYPE_MASK
            if kind == "defection":
                themes.add("defection")
            if kind in ("collision", "self_destruct") or (
                target and target & TYPE_MASK == MISSILE and kind == "cannon_takes_missile"
            ):
                themes.add("missile_collision")
            if kind_type == MISSILE:
                themes.add("missile")
            if kind_type == FIGHTER:
                themes.add("fighter")
            captured_value = VALUE[_letter(target)] if target else 0.0
            gives_check = _gives_check(position, move)
            if ply == 0 and not target and not gives_check:
                themes.add("quiet_move")
            position.push(move)
            if not gives_check:
                all_checks = False
            if ply + 1 == len(main_line) and position.status() == "checkmate":
                checkers = position.checkers()
                if any(position.board[position.square(p)] & TYPE_MASK == CANNON for p in checkers):
                    themes.add("cannon_screen")
            last_attacker_to = m & 255
            last_attacker_value = VALUE[_letter(piece)] - captured_value
        else:
            # The defender takes the piece that just moved, and it was worth more than it won.
            if (
                target
                and last_attacker_to is not None
                and (m & 255) == last_attacker_to
                and (target & BLACK) == attacker_bit
                and last_attacker_value >= 2.0
            ):
                themes.add("sacrifice")
            position.push(move)
    final = position.status()
    if final in ("dead_general", "checkmate"):
        themes.update(pattern_themes(variant=variant, fen=fen, main_line=main_line))
        if defender_defection_blocks(variant=variant, fen=fen, main_line=main_line):
            themes.add("defection")
    if final == "dead_general":
        themes.add("dead_general")
    elif final == "stalemate":
        themes.add("stalemate")
    elif final == "checkmate":
        themes.add(f"mate_in_{moves_to_win}" if moves_to_win <= 5 else "long_mate")
    if all_checks and main_line:
        themes.add("checks_only")
    if mode == "checks_only":
        themes.add("checks_only")
    return sorted(themes, key=lambda slug: ORDER.get(slug, 999))


def defender_defection_blocks(*, variant: str, fen: str, main_line: Sequence[str]) -> bool:
    """Does the mate turn on the defender's own defection: a turncoat the defender took in the
    line changed sides onto the point its captor left, stayed there, and stands on a flight
    point of the mated general (the defender's capture walls its own general in)?"""
    try:
        position = Position.from_fen(variant, fen)
        attacker = position.side
        joined: set[int] = set()  # points of the pieces that defected to the defender
        for text in main_line:
            m = position.encode(Move.from_iccs(text))
            fr, to = m >> 8, m & 255
            mover = position.board[fr]
            _changes, kind = position.effects(m)
            moved = fr in joined
            joined.discard(fr)
            joined.discard(to)
            if moved and kind not in ("collision", "self_destruct"):
                joined.add(to)
            if kind == "defection" and mover & BLACK != attacker:
                joined.add(fr)
            position.push_code(m)
    except EngineError:
        return False
    if position.status() not in ("checkmate", "dead_general") or position.side == attacker:
        return False
    king = position.kings[position.side >> 5]
    width = position.width
    palace = position.g.palace[position.side >> 5]
    flights = {
        sq
        for sq in (king + width, king - width, king + 1, king - 1)
        if sq in palace and (abs(sq - king) == width or sq // width == king // width)
    }
    for sq in joined & flights:
        # the block counts when, without the defected piece, the general would get away
        pieces = position.pieces()
        del pieces[position.square_name(sq)]
        try:
            bare = Position.from_pieces(variant, pieces, turn=position.turn)
        except EngineError:
            continue
        if bare.status() not in ("checkmate", "dead_general"):
            return True
    return False


def pattern_themes(*, variant: str, fen: str, main_line: Sequence[str]) -> list[str]:
    """The named kill patterns of the mate the main line ends in (none when it ends otherwise:
    a stalemate, or a line cut short)."""
    try:
        return detect(variant, fen, main_line)
    except EngineError:
        return []


def retag_patterns(
    themes: Sequence[str], *, variant: str, fen: str, main_line: Sequence[str]
) -> list[str]:
    """``themes`` with the kill patterns recomputed from the main line (the other themes kept)."""
    kept = [slug for slug in themes if slug not in PATTERN_SLUGS]
    found = pattern_themes(variant=variant, fen=fen, main_line=main_line)
    return sorted(dict.fromkeys([*kept, *found]), key=lambda slug: ORDER.get(slug, 999))


def _gives_check(position: Position, move: Move) -> bool:
    position.push(move)
    try:
        return position.is_check()
    finally:
        position.pop()
