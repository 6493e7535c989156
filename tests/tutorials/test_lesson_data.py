"""Every step of every lesson file, proved with the engine: the goal can be reached, in exactly
the stated par, through the same referee the server uses. No database needed."""

from __future__ import annotations

import re
from typing import cast

import pytest

from engine import Move, Position
from engine.setups import SECRET_METHODS, SecretMethod
from tutorials.curriculum import COURSES, Lesson, Step, read_lessons
from tutorials.curriculum.audit import completing_runs
from tutorials.curriculum.solve import shortest_solution, verify_step
from words.texts import Text

LESSONS = read_lessons()
STEPS = [(lesson, step) for lesson in LESSONS for step in lesson.steps]


@pytest.mark.parametrize(
    ("lesson", "step"), STEPS, ids=[f"{lesson.slug}-{step.key}" for lesson, step in STEPS]
)
def test_step_is_solvable_in_par(lesson, step) -> None:
    assert verify_step(step) == []


@pytest.mark.parametrize(
    ("lesson", "step"),
    [(lesson, step) for lesson, step in STEPS if step.goal.kind not in ("point", "setup", "write")],
    ids=[
        f"{lesson.slug}-{step.key}"
        for lesson, step in STEPS
        if step.goal.kind not in ("point", "setup", "write")
    ],
)
def test_par_is_not_beaten(lesson, step) -> None:
    """No shorter way exists: the stars are measured against a true minimum."""
    if step.par > 1:
        assert shortest_solution(step, step.par - 1) is None


# What the curriculum must cover: (course, slug) of every lesson the site promises.
REQUIRED = {
    "xiangqi": [
        "xiangqi-board",
        "xiangqi-general",
        "xiangqi-advisor",
        "xiangqi-elephant",
        "xiangqi-horse",
        "xiangqi-chariot",
        "xiangqi-cannon",
        "xiangqi-soldier",
        "xiangqi-capture",
        "xiangqi-check",
        "xiangqi-checkmate",
        "xiangqi-stalemate",
        "xiangqi-repetition",
    ],
    "feidan": [
        "feidan-board",
        "feidan-fighter",
        "feidan-missile",
        "feidan-collision",
        "feidan-base",
        "feidan-dead-general",
        "feidan-setups",
    ],
    "xinban": [
        "xinban-pieces",
        "xinban-defection",
        "xinban-defected-piece",
        "xinban-fallback",
        "xinban-mixed",
        "xinban-repetition",
        "xinban-attack-power",
    ],
}


def test_every_promised_lesson_exists_in_its_course() -> None:
    by_course = {
        course: [lesson.slug for lesson in LESSONS if lesson.course == course] for course in COURSES
    }
    for course, slugs in REQUIRED.items():
        assert set(slugs) <= set(by_course[course]), course


def test_every_lesson_has_at_least_five_steps() -> None:
    short = {lesson.slug: len(lesson.steps) for lesson in LESSONS if len(lesson.steps) < 5}
    assert short == {}


def test_the_course_is_as_long_as_a_beginners_book() -> None:
    """At least 100 lessons and 560 steps in all (the coach's measure of a course that teaches
    what a beginner-to-intermediate book does), and every course has its share."""
    assert len(LESSONS) >= 100
    assert sum(len(lesson.steps) for lesson in LESSONS) >= 560
    per_course = {course: 0 for course in COURSES}
    for lesson in LESSONS:
        per_course[lesson.course] += 1
    assert min(per_course.values()) >= 20, per_course


def test_lessons_are_in_order_within_each_course() -> None:
    for course in COURSES:
        orders = [lesson.order for lesson in LESSONS if lesson.course == course]
        assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_every_text_is_in_both_languages() -> None:
    for lesson in LESSONS:
        texts = [lesson.title, lesson.summary, *lesson.rulings]
        for step in lesson.steps:
            texts += [
                step.instruction,
                step.hint,
                step.ruling,
                step.success,
                *step.wrong.values(),
                *step.right.values(),
            ]
        for text in filter(None, texts):
            assert text.zh.strip() and text.en.strip(), lesson.slug
            # Chinese text has Chinese in it; the English side is not a copy of it.
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text.zh), (lesson.slug, text)
            assert text.zh != text.en


def test_every_goal_kind_is_used() -> None:
    kinds = {step.goal.kind for _lesson, step in STEPS}
    assert kinds == {
        "reach",
        "capture",
        "check",
        "mate",
        "stalemate",
        "dead_general",
        "move",
        "outcome",
        "endgame",
        "setup",
        "point",
        "write",
    }


def test_lessons_that_teach_a_ruling_say_so() -> None:
    """The lessons built on the Rulings of docs/rules.md state them ("on this site")."""
    must = {
        "feidan-board",
        "feidan-base",
        "feidan-dead-general",
        "feidan-setups",
        "xinban-defected-piece",
        "xinban-fallback",
        "xiangqi-repetition",
        "xinban-repetition",
        "xinban-attack-power",
    }
    # where the site's reading goes beyond the source, the lesson also says what the source says
    # (docs/rules.md §8: the source lets a player demand a variation; it is silent on equal totals)
    beyond_the_source = {"xinban-repetition", "xinban-attack-power"}
    for lesson in LESSONS:
        if lesson.slug in must:
            notes = list(lesson.rulings) + [s.ruling for s in lesson.steps if s.ruling]
            assert notes, lesson.slug
            assert all("本站规定" in n.zh and "On this site" in n.en for n in notes), lesson.slug
        if lesson.slug in beyond_the_source:
            assert any("原文" in n.zh and "the source" in n.en for n in lesson.rulings), lesson.slug


MATES = [(lesson, step) for lesson, step in STEPS if step.goal.kind in ("mate", "dead_general")]


@pytest.mark.parametrize(
    ("lesson", "step"), MATES, ids=[f"{lesson.slug}-{step.key}" for lesson, step in MATES]
)
def test_the_puzzle_prover_agrees(lesson, step) -> None:
    """The engine's prover finds the same forced win in exactly par moves; where the opponent's
    replies are scripted, the first move of the script is the only key (any other first move
    would leave the script, so it must not win as well)."""
    from engine import Position
    from engine.solver import solve

    proof = solve(Position.from_fen(step.variant, step.fen), step.goal.kind, step.par)
    if step.opponent == "scripted":
        assert proof.status == "sound_unique", proof.reason
        first = next(key for key in step.replies if " " not in key)
        assert proof.key_moves == (first,)
    else:
        assert proof.status in ("sound_unique", "cooked"), proof.reason
        assert proof.moves_to_win == step.par


def test_the_curriculum_needs_no_django() -> None:
    import subprocess
    import sys

    code = "import sys, tutorials.curriculum; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


_ZH_NUMBER = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_NUMBER |= {"十": 10, "十五": 15, "十六": 16, "二十": 20}
_EN_NUMBER = {"two": 2, "five": 5, "eight": 8, "fifteen": 15, "sixteen": 16, "twenty": 20}


def free_pieces(method: SecretMethod, half: dict[str, str]) -> int:
    """How many pieces of a legal secret half the engine lets stand anywhere on the own half:
    the pieces of every kind that may be moved to each empty point of the half."""
    from engine.setups import validate_secret_half

    empty = [f"{f}{r}" for f in "abcdefghijk" for r in range(5) if f"{f}{r}" not in half]
    free = 0
    for kind in sorted(set(half.values())):
        origin = next(p for p, letter in half.items() if letter == kind)
        rest = {p: letter for p, letter in half.items() if p != origin}
        if all(not validate_secret_half("red", rest | {to: kind}, method) for to in empty):
            free += sum(1 for letter in half.values() if letter == kind)
    return free


def test_the_setup_lessons_count_the_free_pieces_as_the_engine_does() -> None:
    """ "The other eight pieces anywhere on the own half": the number a setup step states is the
    number of pieces the engine lets stand anywhere (the general, advisors, elephants and
    missiles have their points, and the soldiers their method's)."""
    checked = 0
    for lesson, step in STEPS:
        goal = step.goal
        if goal.kind != "setup":
            continue
        zh = re.search(r"其余([二两三四五六七八九十]+)个", step.instruction.zh)
        en = re.search(r"\bother (\w+) pieces\b", step.instruction.en)
        if not (zh or en):
            continue
        assert goal.method in SECRET_METHODS
        expected = free_pieces(cast(SecretMethod, goal.method), dict(goal.example or {}))
        assert zh and en, f"{lesson.slug} {step.key}: the count is stated in one language only"
        assert _ZH_NUMBER[zh.group(1)] == expected, (lesson.slug, step.key, zh.group(0))
        assert _EN_NUMBER[en.group(1)] == expected, (lesson.slug, step.key, en.group(0))
        checked += 1
    assert checked, "the secret-setup lesson states how many pieces are free"


def test_every_instruction_ends_by_saying_what_to_do() -> None:
    """A question the board cannot take as an answer ("What is it in Chinese notation?" on a
    step answered by a move) is caught: every instruction ends with what the learner does on
    the board (click a point, play a move, arrange the pieces), in both languages; a question
    comes before it."""
    problems = []
    for lesson, step in STEPS:
        for language, words in (("zh", step.instruction.zh), ("en", step.instruction.en)):
            if words.rstrip().rstrip("”\"')）").endswith(("?", "？")):
                problems.append(f"{lesson.slug} {step.key} ({language}): ends with a question")
    assert problems == []


def test_the_board_lesson_has_the_learner_play_every_part_of_chinese_notation() -> None:
    """Chinese notation is taught whole, by moves the learner plays and the engine writes: 平 with
    the file arrived on, 进 of a straight-moving piece (the number counts points), 进 of a
    slantwise one (the number is the file arrived on), and 前/后 and 中 for pieces that share a
    file."""
    from engine import Move, Position

    played = []
    for lesson, step in STEPS:
        if lesson.slug == "xiangqi-board" and step.goal.kind == "move":
            pos = Position.from_fen(step.variant, step.fen)
            played += [pos.chinese(Move.from_iccs(m)) for m in step.goal.accept]
    parts = {
        "平": lambda m: "平" in m,
        "straight 进": lambda m: m[0] in "车炮兵卒帅将" and "进" in m,
        "slantwise 进": lambda m: m[0] in "马相象仕士" and "进" in m,
        "前/后": lambda m: m[0] in "前后",
        "中": lambda m: m[0] == "中",
    }
    missing = [name for name, found in parts.items() if not any(map(found, played))]
    assert missing == [], played


# Words of the feidan and xinban rules that traditional xiangqi does not have.
VARIANT_ONLY_ZH = (
    "碰炸",
    "导弹",
    "战机",
    "死将",
    "阻航",
    "基地",
    "自毁",
    "策反",
    "变子",
    "红底",
    "黑底",
    "新规",
    "进攻能力",
    "强制变着",
    "梅花易数",
    "明布",
    "暗布",
    "兵守门",
)
VARIANT_ONLY_EN = re.compile(
    r"\b(?:collisions?|collides?|missiles?|fighters?|dead general|grounded|missile base"
    r"|self-destructs?|turncoats?|defect(?:s|ed|ion)?|new rules|attack power|forced variation"
    r"|plum-blossom|secret setups?|guard the gate)\b",
    re.IGNORECASE,
)


def lesson_texts(lesson: Lesson) -> list[Text]:
    texts: list[Text | None] = [lesson.title, lesson.summary, *lesson.rulings]
    for step in lesson.steps:
        texts += [step.instruction, step.hint, step.ruling, step.success]
        texts += [*step.wrong.values(), *step.right.values()]
    return [t for t in texts if t is not None]


def test_the_traditional_course_speaks_only_of_traditional_rules() -> None:
    """A traditional-xiangqi lesson does not borrow the words of the other variants (碰炸, a
    feidan collision, once slipped into the move limit of the repetition lesson)."""
    assert VARIANT_ONLY_EN.search("no capture or collision") and "碰炸" in VARIANT_ONLY_ZH
    problems = []
    for lesson in LESSONS:
        if lesson.course != "xiangqi":
            continue
        for text in lesson_texts(lesson):
            problems += [
                f"{lesson.slug}: {w} in {text.zh}" for w in VARIANT_ONLY_ZH if w in text.zh
            ]
            problems += [
                f"{lesson.slug}: {m.group(0)} in {text.en}"
                for m in VARIANT_ONLY_EN.finditer(text.en)
            ]
    assert problems == []


def test_the_repetition_lesson_says_what_a_chase_is() -> None:
    """Perpetual chase loses, so the lesson says what a chase (捉) is, as docs/rules.md §8 does: a new
    attack on an unprotected piece or a more valuable one, generals and soldiers exempt."""
    lesson = next(lesson for lesson in LESSONS if lesson.slug == "xiangqi-repetition")
    chase = next(s for s in lesson.steps if s.goal.termination == "perpetual_chase")
    for words, needed in (
        (chase.instruction.zh, ("捉", "没有保护", "价值高", "将帅", "兵卒")),
        (chase.instruction.en, ("chases", "unprotected", "worth more", "general", "soldier")),
    ):
        assert all(word in words for word in needed), words


def test_the_openings_lesson_tells_the_cannon_openings_by_the_side_of_the_board() -> None:
    """After 炮二平五 Black's 炮8平5 is 顺炮 and 炮2平5 is 列炮: the cannons come from the same
    side of the board (the h-file: Red's right but Black's left, as each side counts its files
    from its own right) or from opposite sides. Both are taught, each named for where its two
    cannons come from, and no text puts both cannons on "each player's right"."""
    lesson = next(lesson for lesson in LESSONS if lesson.slug == "xiangqi-openings")
    taught = {}
    for step in lesson.steps:
        pos = Position.from_fen(step.variant, step.fen)
        accept = step.goal.accept
        if step.learner != "black" or len(accept) != 1 or pos.pieces().get(accept[0][:2]) != "c":
            continue
        if accept[0][2:] != "e7" or pos.pieces().get("e2") != "C":
            continue
        red_from = next(f for f in "bh" if pos.pieces().get(f"{f}2") != "C")
        name = "顺炮" if accept[0][0] == red_from else "列炮"
        assert step.success is not None and name in step.success.zh and name in step.success.en
        assert pos.chinese(Move.from_iccs(accept[0])) in step.instruction.zh
        taught[name] = step.key
    assert set(taught) == {"顺炮", "列炮"}
    for text in lesson_texts(lesson):
        assert "各自的右边" not in text.zh and "each player's right" not in text.en


def test_no_game_in_a_lesson_is_won_or_lost_with_bare_generals() -> None:
    """A step that ends its game with a winner (a forced variation, a perpetual check) starts
    with more on the board than the two generals: a game of bare generals is no game to lose
    (the forced-variation step of New-version Xiangqi once was one)."""
    bare = []
    for lesson, step in STEPS:
        if step.goal.kind != "outcome" or step.goal.winner not in ("red", "black"):
            continue
        pieces = Position.from_fen(step.variant, step.fen).pieces().values()
        if all(piece[-1].upper() == "K" for piece in pieces):
            bare.append(f"{lesson.slug}-{step.key}")
    assert bare == []


def mate_patterns(variant: str, fen: str) -> set[str]:
    """The named mates a mated position shows (9-file board; the mated side is to move):
    卧槽马, a checking horse in the trough (the point two files from the palace centre on the
    rank next to the back rank, c8/g8 against Black); 八角马, a horse on the palace corner
    diagonally opposite a general that stands on a corner; 白脸将, a way out of the palace that
    is shut only because the generals would face each other."""
    from engine import Position

    pos = Position.from_fen(variant, fen)
    pieces = pos.pieces()
    black_mated = pos.turn == "black"
    mated = pos.king(pos.turn)
    attacker_king = pos.king("red" if black_mated else "black")
    if mated is None or attacker_king is None:
        return set()
    horse = "N" if black_mated else "n"
    back, next_rank = ("9", "8") if black_mated else ("0", "1")
    found = set()
    checkers = set(pos.checkers())
    if any(pieces.get(p) == horse for p in checkers & {f"c{next_rank}", f"g{next_rank}"}):
        found.add("卧槽马")
    far_rank = "7" if black_mated else "2"
    opposite = {f"d{back}": f"f{far_rank}", f"f{back}": f"d{far_rank}"}
    if pieces.get(opposite.get(mated, "")) == horse:
        found.add("八角马")
    # a palace point next to the general, free of its own pieces, on the attacking general's
    # open file
    file, rank = mated[0], int(mated[1])
    for f, r in ((chr(ord(file) - 1), rank), (chr(ord(file) + 1), rank)):
        point = f"{f}{r}"
        if f not in "def" or (point in pieces and pieces[point].islower() == black_mated):
            continue
        if f == attacker_king[0]:
            low, high = sorted((r, int(attacker_king[1])))
            between = [f"{f}{x}" for x in range(low + 1, high)]
            if not any(p in pieces for p in between):
                found.add("白脸将")
    return found


MATE_STEPS = [(lesson, step) for lesson, step in STEPS if step.goal.kind == "mate"]


@pytest.mark.parametrize(
    ("lesson", "step"), MATE_STEPS, ids=[f"{lesson.slug}-{step.key}" for lesson, step in MATE_STEPS]
)
def test_a_named_mate_shown_is_named(lesson: Lesson, step: Step) -> None:
    """Where a lesson's mate is one of the classical patterns (白脸将, 卧槽马, 八角马), the step
    names it in both languages (the English keeps the Chinese name beside its own)."""
    if lesson.course == "feidan":
        return  # an 11-file board: the patterns are read on the 9-file board
    run = next(completing_runs(step, step.par))
    patterns = mate_patterns(step.variant, run.pos.fen())
    texts = [t for t in (step.instruction, step.hint, step.success) if t is not None]
    for name in patterns:
        assert any(name in t.zh for t in texts), (name, step.key)
        assert any(name in t.en for t in texts), (name, step.key)


def test_written_mates_are_mates() -> None:
    """A write step that says its move checkmates: the prover finds the mate in one, and every
    accepted move is one."""
    from engine import Move, Position
    from tutorials.curriculum.solve import forced_win

    checked = 0
    for lesson, step in STEPS:
        if step.goal.kind != "write" or step.success is None:
            continue
        if "checkmate" not in step.success.en.lower() and "将死" not in step.success.zh:
            continue
        pos = Position.from_fen(step.variant, step.fen)
        assert forced_win(pos.copy(), 1, "checkmate"), f"{lesson.slug} step {step.key}"
        for iccs in step.goal.accept:
            after = pos.copy()
            after.push(Move.from_iccs(iccs))
            assert after.status() == "checkmate", f"{lesson.slug} step {step.key} {iccs}"
        checked += 1
    assert checked >= 1


def test_the_piece_values_lesson_teaches_trades_as_decisions_of_the_position() -> None:
    """The piece-values lesson once taught "take the cannon" in the middlegame and "take the
    horse" in the endgame, half a point apart, as if decisive. Its trade steps now each offer
    both trades, a horse for a cannon and a cannon for a horse, each taken back at once, and
    the position decides: the cannon is given in the endgame, kept in a full middlegame, and
    the texts call the values a guide, not a law."""
    lesson = next(lesson for lesson in LESSONS if lesson.slug == "xiangqi-piece-values")
    trades = {step.key: step for step in lesson.steps if step.key.startswith("trade-")}
    assert set(trades) == {"trade-open", "trade-endgame"}
    given = {}
    for key, step in trades.items():
        offered = {}
        for move in [*step.goal.accept, *step.wrong]:
            pos = Position.from_fen(step.variant, step.fen)
            taker, taken = pos.pieces()[move[:2]], pos.pieces().get(move[2:])
            pos.push_iccs(move)
            if taken is not None and any(m.iccs()[2:] == move[2:] for m in pos.legal_moves):
                offered[move] = (taker.upper(), taken.upper())
        assert sorted(offered.values()) == [("C", "N"), ("N", "C")], key
        (right,) = step.goal.accept
        given[key] = offered[right][0]
    assert given == {"trade-open": "N", "trade-endgame": "C"}
    pieces = {k: len(Position.from_fen(s.variant, s.fen).pieces()) for k, s in trades.items()}
    assert pieces["trade-open"] >= 30 > 12 >= pieces["trade-endgame"]
    success = trades["trade-endgame"].success
    assert success is not None
    assert "guide, not a law" in success.en and "只是经验，不是定律" in success.zh
