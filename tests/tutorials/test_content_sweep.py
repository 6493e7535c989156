"""Every step of every lesson, swept through the real HTTP API in both languages.

* Every authored wrong answer (``wrong`` in a lesson file) comes back with its own words, not a
  generic one, in Chinese and in English.
* Of the moves the board lets a learner try (the legal moves and the pattern moves the page
  offers as destinations), at the start of each step and on the way through its solution, one
  of each kind of answer the referee gives them (refused for each reason, played to each
  outcome and message) is sent over HTTP in both languages and answers 200 or 400 with a
  specific reason: never a server error. The referee itself answers every one of them in the
  process (the last two points below). Every kind of point of
  a question's board is answered (every point through the referee); a setup's starting
  placement, its example and halves the board cannot make are judged and explained.
* Every line of moves that completes a step is told what happened: the success text it gets
  names only pieces that took part, points that were moved from or to, and moves that were
  played (tutorials/curriculum/audit.py states the rule).
* The texts name only what the board shows (no "stars" where the board draws green circles),
  pieces said to stand on a point stand there, and the moves and side an instruction asks for
  are the step's.
* Every move the lesson page lets a learner try (each of their pieces onto any point, whatever
  its pattern: the page offers them all) gets a specific answer: the authored words, else why
  it is illegal, else, for a legal move that is not wanted, the move named in Chinese notation
  and what the step wants. The referee is asked for every piece onto every point at each
  position on the way through a step; over HTTP, a representative set (each piece onto every
  point near it, on its file and rank, and its jumps) at each step's start.
* Below the HTTP sweep, the referee answers every legal and pattern move two moves deep.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest
from django.test import Client

from engine import Move, Position
from tutorials.curriculum import COURSES, Lesson, Step, StepRefused, read_lessons
from tutorials.curriculum.audit import (
    completions,
    description_problems,
    named_chinese_moves,
    what_happened,
)
from tutorials.curriculum.referees.moves import MoveRun, success_text
from tutorials.curriculum.referees.points import answer_point, point_answers
from tutorials.curriculum.schema import MOVE_GOALS
from tutorials.curriculum.solve import shortest_solution
from words.explain import Explanation
from words.texts import Text

LESSONS = read_lessons()
LANGUAGES = {"zh": "zh-hans", "en": "en"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def clients() -> dict[str, Client]:
    out = {}
    for key, code in LANGUAGES.items():
        client = Client(raise_request_exception=False)  # a server error is reported, not raised
        client.cookies["django_language"] = code
        out[key] = client
    return out


def lesson_page(client: Client, slug: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/api/learn/lessons/{slug}/")
    assert response.status_code == 200, response.content[:300]
    return {s["key"]: s for s in response.json()["steps"]}


def post(client: Client, lesson: Lesson, step: Step, kind: str, body: dict[str, Any]) -> Any:
    return client.post(
        f"/api/learn/lessons/{lesson.slug}/steps/{step.key}/{kind}/",
        body,
        content_type="application/json",
    )


def explained(response: Any, language: str, where: str) -> list[str]:
    """Problems with one answer: it must be 200, or 400 with a clear reason in both languages."""
    if response.status_code == 400:
        error = response.json().get("error") or {}
        extra = error.get("extra") or {}
        message = error.get("message") or ""
        if not message.strip():
            return [f"{where}: 400 without a message"]
        if "zh" in extra:  # a refused move: the reason in both languages, and its code
            problems = []
            if not (extra.get("code") and extra["zh"].strip() and extra["en"].strip()):
                problems.append(f"{where}: 400 without a code and both languages: {extra}")
            if message != extra[language]:
                problems.append(f"{where}: the message is not in the reader's language")
            if not CJK.search(extra["zh"]) or extra["zh"] == extra["en"]:
                problems.append(f"{where}: the Chinese reason is missing: {extra}")
            if extra.get("code") == "illegal":
                problems.append(f"{where}: refused with the generic reason: {message}")
            return problems
        return [f"{where}: 400 that is not a refused move: {error}"]
    if response.status_code != 200:
        return [f"{where}: answered {response.status_code}: {response.content[:300]!r}"]
    message = response.json().get("message")
    if message is not None:
        text = message.get("text") or ""
        if not text.strip() or not message.get("code"):
            return [f"{where}: an empty message: {message}"]
        if language == "zh" and not CJK.search(text):
            return [f"{where}: the message is not in Chinese: {text}"]
    return []


def move_prefixes(step: Step) -> list[list[str]]:
    """Where the learner can stand in a step: its start, each position on the way through a
    shortest solution and through the scripted lines."""
    prefixes: list[list[str]] = [[]]
    solution = shortest_solution(step, step.par) or []
    if step.goal.kind == "endgame":
        # Every try asks the computer for a reply: the start, the middle and the last move of
        # the engine's own line.
        prefixes += [solution[:i] for i in sorted({len(solution) // 2, len(solution) - 1} - {0})]
    else:
        prefixes += [solution[:i] for i in range(1, len(solution))]
    prefixes += [key.split() for key in step.replies]
    unique: dict[str, list[str]] = {}
    for prefix in prefixes:
        unique.setdefault(" ".join(prefix), prefix)
    return list(unique.values())


def points_of(step: Step) -> list[str]:
    width = Position.from_fen(step.variant, step.fen).variant.width
    return [f"{'abcdefghijk'[f]}{r}" for f in range(width) for r in range(10)]


# ---------------------------------------------------------------------------------------------
# Authored wrong answers


def _wrong_answers(lesson: Lesson, by_language: dict[str, Client]) -> list[str]:
    problems: list[str] = []
    for step in lesson.steps:
        for key, text in step.wrong.items():
            where = f"{lesson.slug} step {step.key} wrong.{key}"
            if step.goal.kind == "point":
                for language, client in by_language.items():
                    page = lesson_page(client, lesson.slug)[step.key]
                    body = {
                        "point": key,
                        **({"moment": page["moment"]} if page.get("moment") else {}),
                    }
                    response = post(client, lesson, step, "answer", body)
                    if response.status_code != 200:
                        problems.append(f"{where} ({language}): answered {response.status_code}")
                        continue
                    data = response.json()
                    if data["correct"]:
                        problems.append(f"{where} ({language}): judged right")
                    elif data["message"]["text"] != text.get(language):
                        problems.append(f"{where} ({language}): got {data['message']['text']!r}")
                continue
            if step.goal.kind == "write":
                written = Position.from_fen(step.variant, step.fen).chinese(Move.from_iccs(key))
                for language, client in by_language.items():
                    data = post(client, lesson, step, "write", {"text": written}).json()
                    if data.get("correct") is not False or data["message"]["text"] != text.get(
                        language
                    ):
                        problems.append(f"{where} ({language}): {written} answered {data}")
                continue
            if step.goal.kind not in MOVE_GOALS:
                problems.append(f"{where}: a {step.goal.kind} step has no wrong answers")
                continue
            prefix = next(
                (
                    p
                    for p in move_prefixes(step)
                    if key in _offered(by_language["zh"], lesson, step, p)
                ),
                None,
            )
            if prefix is None:
                problems.append(f"{where}: the board never offers this move")
                continue
            for language, client in by_language.items():
                response = post(client, lesson, step, "moves", {"moves": [*prefix, key]})
                # A move the rules forbid is refused: 400, or 200 with ``legal: false``.
                illegal = response.status_code == 200 and response.json().get("legal") is False
                if response.status_code == 400 or illegal:
                    error = response.json()["error"]
                    got = Text(error["extra"].get("zh", ""), error["extra"].get("en", ""))
                    if error["message"] != text.get(language) or got != text:
                        problems.append(f"{where} ({language}): refused with {error['message']!r}")
                elif response.status_code == 200:
                    data = response.json()
                    message = (data.get("message") or {}).get("text")
                    if data["status"] == "complete" or message != text.get(language):
                        problems.append(f"{where} ({language}): {data['status']}, {message!r}")
                else:
                    problems.append(f"{where} ({language}): answered {response.status_code}")
    return problems


def every_try(pos: Position) -> list[str]:
    """What the lesson page offers: each of the side to move's pieces onto every other point
    (one of its own pieces included: a drop there is sent too)."""
    width = pos.variant.width
    points = [f"{'abcdefghijk'[f]}{r}" for f in range(width) for r in range(10)]
    red = pos.turn == "red"
    own = [p for p, letter in pos.pieces().items() if letter[-1].isupper() == red]
    return [a + b for a in own for b in points if a != b]


def near_tries(pos: Position) -> set[str]:
    """A representative set of ``every_try``: each piece onto every point two or fewer points
    away, every point of its file and rank, and the jumps of the horse and the fighter."""
    width = pos.variant.width
    red = pos.turn == "red"
    out: set[str] = set()
    for origin, letter in pos.pieces().items():
        if letter[-1].isupper() != red:
            continue
        f, r = "abcdefghijk".index(origin[0]), int(origin[1])
        for x in range(width):
            for y in range(10):
                dx, dy = abs(x - f), abs(y - r)
                if (x, y) != (f, r) and (
                    max(dx, dy) <= 2 or dx == 0 or dy == 0 or sorted((dx, dy)) == [1, 3]
                ):
                    out.add(f"{origin}{'abcdefghijk'[x]}{y}")
    return out


def _offered(client: Client, lesson: Lesson, step: Step, prefix: list[str]) -> set[str]:
    """Moves the page lets the learner try after ``prefix``: the legal moves, the pattern
    moves and, at the start, the representative set of every piece onto any point."""
    if not prefix:
        data = lesson_page(client, lesson.slug)[step.key]
        if step.goal.kind in MOVE_GOALS:
            near = near_tries(Position.from_fen(step.variant, step.fen))
            return set(data["legal"]) | set(data["tries"]) | near
    else:
        response = post(client, lesson, step, "moves", {"moves": prefix})
        assert response.status_code == 200, (lesson.slug, step.key, prefix, response.content[:300])
        data = response.json()
        if data["status"] != "playing":
            return set()
    return set(data["legal"]) | set(data["tries"])


# ---------------------------------------------------------------------------------------------
# Every try answers


def answer_kind(step: Step, run: MoveRun, move: str) -> tuple[object, ...]:
    """The kind of answer the referee gives ``move`` after ``run``, as the API would write it:
    refused for which reason, or played, with which outcome and message, authored or not."""
    child = run.copy()
    try:
        child.play(move)
    except StepRefused as refused:
        return ("refused", refused.explanation.code, move in step.wrong)
    except Exception as error:  # noqa: BLE001 - sent over HTTP, where it is the finding
        return ("error", type(error).__name__)
    message = child.message
    code = message.code if message is not None else None
    return (child.status, code, move in step.wrong, move in step.right)


def _tries(lesson: Lesson, by_language: dict[str, Client]) -> list[str]:
    """Over HTTP, at each position on a step's way, one try of each kind of answer (as the
    referee in the process answers every offered try: ``answer_kind``) in both languages: what
    the web adds to the referee (the replay, the record, the serialisers, the reader's
    language) varies by the kind of answer, not by the move. Every try itself is answered in
    the process, by ``test_every_piece_onto_every_point_gets_a_specific_answer`` and
    ``test_the_referee_answers_every_try_two_moves_deep``."""
    problems: list[str] = []
    for step in lesson.steps:
        where = f"{lesson.slug} step {step.key}"
        if step.goal.kind in MOVE_GOALS:
            for prefix in move_prefixes(step):
                run = MoveRun(step)
                for move in prefix:
                    run.play(move)
                kinds: dict[tuple[object, ...], str] = {}
                for move in sorted(_offered(by_language["zh"], lesson, step, prefix)):
                    kinds.setdefault(answer_kind(step, run, move), move)
                for move in kinds.values():
                    for language, client in by_language.items():
                        response = post(client, lesson, step, "moves", {"moves": [*prefix, move]})
                        problems += explained(
                            response, language, f"{where} {' '.join([*prefix, move])}"
                        )
        elif step.goal.kind == "point":
            problems += _point_sweep(lesson, step, by_language)
        elif step.goal.kind == "write":
            problems += _write_sweep(lesson, step, by_language)
        else:
            problems += _setup_sweep(lesson, step, by_language)
    return problems


def written_forms(chinese: str) -> set[str]:
    """Other writings of a move that the engine reads as the same move: the other numerals,
    traditional characters."""
    forms = {
        chinese.translate(str.maketrans("一二三四五六七八九", "123456789")),
        chinese.translate(str.maketrans("123456789", "一二三四五六七八九")),
        chinese.translate(str.maketrans("车马炮帅将进", "車馬砲帥將進")),
    }
    return forms - {chinese}


def written_tries(step: Step) -> dict[str, bool]:
    """What a learner may write on a write step, and whether it is right: every legal move in
    the site's writing, the accepted ones in other writings too, and texts that name no legal
    move (a piece's file with a tail it cannot make, ICCS, a name alone, nonsense)."""
    pos = Position.from_fen(step.variant, step.fen)
    tries: dict[str, bool] = {}
    for move in pos.legal_moves:
        written = pos.chinese(move)
        right = move.iccs() in step.goal.accept
        tries[written] = right
        if right:
            tries.update(dict.fromkeys(written_forms(written), True))
    for move in pos.legal_moves:
        written = pos.chinese(move)
        for tail in ("进九", "退九", "平一", "进四"):
            tries.setdefault(written[:-2] + tail, False)
    tries.update({"h2e2": False, "车": False, "炮炮炮进": False, "马二进": False})
    return tries


def _write_sweep(lesson: Lesson, step: Step, by_language: dict[str, Client]) -> list[str]:
    """Every writing of a write step is answered in both languages: right for the accepted
    moves however written, else a specific reason (a legal move is named)."""
    where = f"{lesson.slug} step {step.key}"
    problems: list[str] = []
    names = list(by_language)
    for count, (text, right) in enumerate(sorted(written_tries(step).items())):
        language = names[count % 2]
        response = post(by_language[language], lesson, step, "write", {"text": text})
        problems += explained(response, language, f"{where} write {text}")
        if response.status_code == 200 and response.json()["correct"] != right:
            problems.append(f"{where} write {text}: judged {response.json()['correct']}")
    for language, client in by_language.items():
        response = post(client, lesson, step, "write", {"text": "  "})
        problems += explained(response, language, f"{where} write blank")
    return problems


def _setup_sweep(lesson: Lesson, step: Step, by_language: dict[str, Client]) -> list[str]:
    """The starting placement (wrong), the example (right), and halves the board cannot make but
    a client can send: empty, a missing missile, a letter that is no piece. Each violation is
    told in both languages, as many distinct sentences in Chinese as in English."""
    where = f"{lesson.slug} step {step.key} setup"
    start = dict(step.goal.placement or {})
    missing = {p: v for p, v in start.items() if v != "M"}
    placements = {
        "start": (start, False),
        "example": (dict(step.goal.example or {}), True),
        "empty": ({}, False),
        "no missiles": (missing, False),
        "unknown letter": ({**start, "a0": "X"}, False),
    }
    problems = []
    for name, (placement, valid) in placements.items():
        texts: dict[str, list[str]] = {}
        for language, client in by_language.items():
            response = post(client, lesson, step, "setup", {"placement": placement})
            problems += explained(response, language, f"{where} {name}")
            if response.status_code != 200:
                continue
            data = response.json()
            if data["valid"] != valid:
                problems.append(f"{where} {name}: valid={data['valid']}")
            texts[language] = [v["text"] for v in data["violations"]]
            if language == "zh" and not all(CJK.search(t) for t in texts["zh"]):
                problems.append(f"{where} {name}: not in Chinese: {texts['zh']}")
        if len(texts) == 2 and len(set(texts["zh"])) != len(set(texts["en"])):
            problems.append(f"{where} {name}: Chinese {texts['zh']} does not match {texts['en']}")
    return problems


def _point_sweep(lesson: Lesson, step: Step, by_language: dict[str, Client]) -> list[str]:
    """Every point of a question's board is answered by the referee in both languages; over
    HTTP, every kind of point: the answers, the authored wrong ones, a plain wrong one and one
    off the board."""
    where = f"{lesson.slug} step {step.key}"
    problems = []
    moments = {
        language: lesson_page(client, lesson.slug)[step.key].get("moment")
        for language, client in by_language.items()
    }
    moment = moments["en"]
    when = datetime.fromisoformat(moment) if moment else None
    answers = point_answers(step, when)
    for point in points_of(step):
        state = answer_point(step, point, when)
        if not (state.message.text.zh.strip() and state.message.text.en.strip()):
            problems.append(f"{where} point {point}: an empty message")
        if state.correct != (point in answers):
            problems.append(f"{where} point {point}: judged {state.correct}")
    plain = next(p for p in points_of(step) if p not in answers and p not in step.wrong)
    for point in [*answers, *step.wrong, plain, "z9"]:
        for language, client in by_language.items():
            body = {"point": point, **({"moment": moments[language]} if moments[language] else {})}
            response = post(client, lesson, step, "answer", body)
            problems += explained(response, language, f"{where} point {point}")
            if response.status_code == 200 and response.json()["correct"] != (point in answers):
                problems.append(f"{where} point {point}: judged {response.json()['correct']}")
    return problems


# ---------------------------------------------------------------------------------------------
# Success texts tell what happened


def _successes(lesson: Lesson, by_language: dict[str, Client]) -> list[str]:
    problems: list[str] = []
    for step in lesson.steps:
        where = f"{lesson.slug} step {step.key}"
        if step.goal.kind == "point" and step.success is not None and not step.goal.answer_from:
            for answer in step.goal.answers:
                for language, client in by_language.items():
                    data = post(client, lesson, step, "answer", {"point": answer}).json()
                    if not data["correct"] or data["message"]["text"] != step.success.get(language):
                        problems.append(f"{where} point {answer} ({language}): {data}")
            continue
        if step.goal.kind not in MOVE_GOALS or step.success is None and not step.right:
            continue  # "well done" names nothing
        depth = step.par + 1 if step.opponent == "none" else step.par
        runs = completions(step, depth)
        if not runs:
            problems.append(f"{where}: no line completes it within {depth} moves")
        # Over HTTP, one line for each move that completes the step (the first line found);
        # the lesson data test checks every line found through the referee itself.
        chosen: dict[str, list[str]] = {}
        for run in runs:
            chosen.setdefault(run.moves[-1], run.moves)
        for moves in chosen.values():
            answers: dict[str, dict[str, Any]] = {}
            for language, client in by_language.items():
                response = post(client, lesson, step, "moves", {"moves": moves})
                data = response.json()
                if response.status_code != 200 or data["status"] != "complete":
                    problems.append(f"{where} {' '.join(moves)} ({language}): {data}")
                    break
                answers[language] = data
            if len(answers) < 2:
                continue
            shown = Text(answers["zh"]["message"]["text"], answers["en"]["message"]["text"])
            if shown != success_text(step, moves):
                problems.append(f"{where} {' '.join(moves)}: shown {shown}")
            data = answers["en"]
            happened = what_happened(
                step.variant,
                step.fen,
                [(p["iccs"], p["chinese"], p["fen"]) for p in data["plies"]],
                ended=data["termination"] is not None,
            )
            problems += [
                f"{where} {' '.join(moves)}: {p}" for p in description_problems(shown, happened)
            ]
    return problems


# ---------------------------------------------------------------------------------------------
# The sweeps, one course at a time (the lessons are loaded once per course)

SWEEPS = {
    "wrong_answers_get_their_own_words": _wrong_answers,
    "tries_answer_without_a_server_error": _tries,
    "success_texts_describe_what_happened": _successes,
}


# The longest sweeps are cut into parts of a course's lessons (every part-th lesson), so that
# parallel test processes share them: the tries of the traditional course alone took 8 minutes.
PARTS = {("tries_answer_without_a_server_error", "xiangqi"): 4}
# ... and so is the traditional course's every-point sweep below (200 s in one test).
POINT_PARTS = {"xiangqi": 3}
SWEEP_PARTS = [
    (sweep, course, part)
    for sweep in SWEEPS
    for course in COURSES
    for part in range(PARTS.get((sweep, course), 1))
]


@pytest.mark.parametrize(("sweep", "course", "part"), SWEEP_PARTS)
def test_every_step(sweep: str, course: str, part: int, lessons: None, settings: Any) -> None:
    # The sweep tries every move of every step, far more than a learner's pace: the lesson
    # throttle (tested in tests/security) would stop it.
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "lesson_steps": "1000000/min"}
    # Thousands of requests by two visitors: their sessions are read from the cache and written
    # through to the database, as the site keeps them where it has a shared cache (the answers
    # are what is swept, not the session store).
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    by_language = clients()
    problems: list[str] = []
    parts = PARTS.get((sweep, course), 1)
    in_course = [lesson for lesson in LESSONS if lesson.course == course]
    for lesson in in_course[part::parts]:
        problems += SWEEPS[sweep](lesson, by_language)
    assert problems == []


def test_the_parts_of_a_sweep_cover_every_lesson_once() -> None:
    cuts = [(course, parts) for (sweep, course), parts in PARTS.items() if sweep in SWEEPS]
    assert len(cuts) == len(PARTS)
    for course, parts in [*cuts, *POINT_PARTS.items()]:
        assert course in COURSES
        in_course = [lesson.slug for lesson in LESSONS if lesson.course == course]
        covered = [slug for part in range(parts) for slug in in_course[part::parts]]
        assert sorted(covered) == sorted(in_course)


# ---------------------------------------------------------------------------------------------
# Texts and the board


def _texts(step: Step) -> list[Text]:
    return [
        t
        for t in (
            step.instruction,
            step.hint,
            step.success,
            step.ruling,
            *step.wrong.values(),
            *step.right.values(),
        )
        if t is not None
    ]


def test_texts_name_only_marks_the_board_draws() -> None:
    """The board draws a step's targets as green circles (no stars); marks are yellow circles
    and arrows blue."""
    problems = []
    for lesson in LESSONS:
        for step in lesson.steps:
            for text in _texts(step):
                where = f"{lesson.slug} step {step.key}: {text.en}"
                if re.search(r"\bstars?\b", text.en, re.IGNORECASE) or "星" in text.zh:
                    problems.append(f"{where}: stars, but the board draws circles")
                green = "circled in green" in text.en or "绿圈" in text.zh
                if green and not step.goal.targets:
                    problems.append(f"{where}: green circles, but the step has no targets")
                if green and ("circled in green" in text.en) != ("绿圈" in text.zh):
                    problems.append(f"{where}: only one language speaks of the green circles")
                if "top of this lesson" in text.en or "本课开头" in text.zh:
                    problems.append(f"{where}: the lesson's notes are under its steps, not on top")
                if re.search(r"\byellow\b", text.en) and not step.marks:
                    problems.append(f"{where}: yellow marks, but the step has none")
                if re.search(r"\barrows?\b", text.en) and not step.arrows:
                    problems.append(f"{where}: arrows, but the step has none")
    assert problems == []


_EN_KIND = {
    "general": "K",
    "advisor": "A",
    "elephant": "B",
    "horse": "N",
    "chariot": "R",
    "cannon": "C",
    "soldier": "P",
    "fighter": "F",
    "missile": "M",
}
_ON_POINT = re.compile(
    r"\b(red |black )?(turncoat )?(general|advisor|elephant|horse|chariot|cannon|soldier|fighter"
    r"|missile) (?:stands )?on ([a-k][0-9])\b",
    re.IGNORECASE,
)


def test_pieces_said_to_stand_on_a_point_stand_there() -> None:
    problems = []
    for lesson in LESSONS:
        for step in lesson.steps:
            if step.goal.kind == "setup" or step.goal.answer_from:
                continue
            pieces = Position.from_fen(step.variant, step.fen).pieces()
            for text in (step.instruction, step.hint):
                if text is None:
                    continue
                for colour, turncoat, name, point in _ON_POINT.findall(text.en):
                    letter = pieces.get(point.lower())
                    where = f"{lesson.slug} step {step.key}: {name} on {point}"
                    if letter is None or letter[-1].upper() != _EN_KIND[name.lower()]:
                        problems.append(f"{where}, but {point} holds {letter}")
                    elif colour and (letter[-1].isupper()) != (colour.strip().lower() == "red"):
                        problems.append(f"{where}: the colour is wrong")
                    elif turncoat and not letter.startswith("+"):
                        problems.append(f"{where}: not a turncoat")
                    zh_point = point.lower()
                    if zh_point not in text.zh:
                        problems.append(f"{where}: the Chinese text does not name {point}")
    assert problems == []


# ---------------------------------------------------------------------------------------------
# Deeper than the HTTP sweep: the referee itself, from every position two moves in


def _referee_sweep(step: Step, depth: int) -> list[str]:
    """Every legal and pattern move from every position reached within ``depth`` learner moves
    is either played or refused with a specific reason in both languages; every message is an
    explanation with both languages."""
    problems: list[str] = []
    frontier = [MoveRun(step)]
    seen: set[str] = set()
    for _ in range(depth):
        following = []
        for run in frontier:
            state = run.state()
            for move in sorted(set(state.legal) | set(state.tries)):
                child = run.copy()
                where = f"step {step.key} {' '.join([*run.moves, move])}"
                try:
                    child.play(move)
                except StepRefused as refused:
                    reason = refused.explanation
                    if not isinstance(reason, Explanation) or not isinstance(reason.text, Text):
                        problems.append(f"{where}: refused with {reason!r}")
                    elif reason.code == "illegal" and move not in step.wrong:
                        problems.append(f"{where}: refused with the generic reason")
                    elif not (CJK.search(reason.text.zh) and reason.text.en.strip()):
                        problems.append(f"{where}: the reason is not in both languages")
                    continue
                except Exception as error:  # noqa: BLE001 - any other error is the finding
                    problems.append(f"{where}: {type(error).__name__}: {error}")
                    continue
                message = child.message
                if message is not None and not (
                    isinstance(message, Explanation)
                    and isinstance(message.text, Text)
                    and CJK.search(message.text.zh)
                    and message.text.en.strip()
                ):
                    problems.append(f"{where}: the message is {message!r}")
                key = child.pos.fen() + " ".join(child.collected)
                if child.status == "playing" and key not in seen:
                    seen.add(key)
                    following.append(child)
        frontier = following
    return problems


def _specific(step: Step, run: MoveRun, move: str) -> list[str]:
    """Problems with the answer to one try: refused with the generic reason, a message in one
    language only, or a legal move turned down without naming it."""
    child = run.copy()
    where = f"step {step.key} {' '.join([*run.moves, move])}"
    authored = step.wrong.get(move)
    try:
        child.play(move)
    except StepRefused as refused:
        reason = refused.explanation
        if authored is not None and reason.text != authored:
            return [f"{where}: refused without its authored words"]
        if reason.code == "illegal" and authored is None:
            return [f"{where}: refused with the generic reason"]
        if not (CJK.search(reason.text.zh) and reason.text.en.strip()):
            return [f"{where}: the reason is not in both languages"]
        return []
    except Exception as error:  # noqa: BLE001 - any other error is the finding
        return [f"{where}: {type(error).__name__}: {error}"]
    message = child.message
    if child.status == "failed":
        if message is None or not (CJK.search(message.text.zh) and message.text.en.strip()):
            return [f"{where}: failed with the message {message!r}"]
        if authored is None and message.code == "not_this_move":
            chinese = child.plies[len(run.plies)].chinese
            if chinese not in message.text.zh or chinese not in message.text.en:
                return [f"{where}: turned down without naming {chinese}: {message.text.en}"]
    return []


@pytest.mark.parametrize(
    ("course", "part"),
    [(course, part) for course in COURSES for part in range(POINT_PARTS.get(course, 1))],
)
def test_every_piece_onto_every_point_gets_a_specific_answer(course: str, part: int) -> None:
    """The lesson page lets a learner drag any of their pieces onto any point: each such try,
    at the start of a step and at every position on the way through its solution and its
    scripted lines, is answered in words that fit it."""
    problems = []
    in_course = [lesson for lesson in LESSONS if lesson.course == course]
    for lesson in in_course[part :: POINT_PARTS.get(course, 1)]:
        for step in lesson.steps:
            if step.goal.kind not in MOVE_GOALS:
                continue
            for prefix in move_prefixes(step):
                run = MoveRun(step)
                for move in prefix:
                    run.play(move)
                if run.status != "playing":
                    continue
                for move in every_try(run.pos):
                    problems += [f"{lesson.slug} {p}" for p in _specific(step, run, move)]
    assert problems == []


@pytest.mark.parametrize("course", COURSES)
def test_the_referee_answers_every_try_two_moves_deep(course: str) -> None:
    problems = []
    for lesson in LESSONS:
        if lesson.course != course:
            continue
        for step in lesson.steps:
            if step.goal.kind in MOVE_GOALS:
                # against the computer each try is a search: one move deep
                depth = 1 if step.goal.kind == "endgame" else min(step.par, 2)
                problems += [f"{lesson.slug} {p}" for p in _referee_sweep(step, depth)]
    assert problems == []


def test_instructions_ask_for_the_moves_and_the_side_the_step_accepts() -> None:
    """ "Play 马8进7" is the accepted move, in both languages; "you play Black" is said exactly
    where the learner plays Black."""
    problems = []
    for lesson in LESSONS:
        for step in lesson.steps:
            text = step.instruction
            where = f"{lesson.slug} step {step.key}"
            black = bool(re.search(r"\byou play black\b", text.en, re.IGNORECASE))
            if black != ("你执黑" in text.zh) or black != (step.learner == "black"):
                problems.append(f"{where}: the side said does not match the learner's side")
            if step.goal.kind not in MOVE_GOALS or not step.goal.accept:
                continue
            pos = Position.from_fen(step.variant, step.fen)
            accepted = {pos.chinese(Move.from_iccs(m)) for m in step.goal.accept}
            for language, words in (("zh", text.zh), ("en", text.en)):
                for move in named_chinese_moves(words) - accepted:
                    problems.append(f"{where} ({language}): asks for {move}, accepts {accepted}")
    assert problems == []


def test_every_writing_of_a_write_step_is_judged_by_its_move() -> None:
    """Through the referee: every legal move of a write step, written as the site writes it, is
    right exactly when it is accepted; the accepted moves are right in other writings too; a
    wrong answer names the move it is or says why the text names none."""
    from core.messages import render
    from tutorials.curriculum import answer_written

    def say(code: str, params: Any) -> Text:
        return Text(render(code, params, "zh"), render(code, params, "en"))

    problems = []
    steps = [(lesson, step) for lesson in LESSONS for step in lesson.steps]
    for lesson, step in steps:
        if step.goal.kind != "write":
            continue
        pos = Position.from_fen(step.variant, step.fen)
        for text, right in written_tries(step).items():
            where = f"{lesson.slug} step {step.key} {text}"
            try:
                state = answer_written(step, text, say)
            except Exception as error:  # noqa: BLE001 - any error is the finding
                problems.append(f"{where}: {type(error).__name__}: {error}")
                continue
            if state.correct != right:
                problems.append(f"{where}: judged {state.correct}")
            message = state.message.text
            if not (CJK.search(message.zh) and message.en.strip() and message.zh != message.en):
                problems.append(f"{where}: {message}")
            named = pos.chinese(Move.from_iccs(state.move)) if state.move else ""
            authored = step.wrong.get(state.move or "") is not None
            if named and not right and not authored and named not in message.zh:
                problems.append(f"{where}: does not name the move: {message.zh}")
    assert problems == []
