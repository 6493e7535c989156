"""The named kill patterns in the product: the patterns page (every pattern with its example,
its puzzles per variant and a way to practise it), the trainer's filter on a pattern, the
dashboard's rates per pattern, and a puzzle that names its patterns only once the try is over."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine import Position
from engine.patterns import PATTERNS, detect
from puzzles.bankfile import read_bank
from puzzles.patterns import pattern_examples
from puzzles.selectors import pattern_counts
from puzzles.services import puzzle_attempt_score
from tests.puzzles.conftest import MakePuzzle
from tests.puzzles.positions import MATE_IN_1, MATE_IN_2
from tests.puzzles.test_api import leaks, open_attempt, play, play_out, post

pytestmark = pytest.mark.django_db

# 马后炮 in one: h2e2, the cannon checks over its own horse.
HORSE_CANNON_IN_1 = "4k4/9/4N4/9/9/9/9/7C1/9/3K5 w - - 0 1"
# 导弹入宫 and 死将网 in one: c7f7.
DEAD_GENERAL_IN_1 = "5k5/11/2M8/11/11/11/11/11/4R1R4/4K6 w - - 0 1"


def section(page: str, code: str) -> str:
    start = page.index(f'<article class="pattern-card" id="{code}"')
    return page[start : page.index("</article>", start)]


def test_every_example_is_a_mate_of_its_pattern_from_the_bank_where_it_has_one() -> None:
    examples = pattern_examples()
    assert list(examples) == [p.code for p in PATTERNS]
    bank = {entry["key"]: entry for entry in read_bank()}
    for pattern in PATTERNS:
        example = examples[pattern.code]
        assert example.variant in pattern.variants
        assert pattern.code in detect(example.variant, example.fen, example.line)
        final = Position.from_fen(example.variant, example.final_fen)
        assert final.status() in ("checkmate", "dead_general"), pattern.code
        has_one = [e for e in bank.values() if pattern.code in e["themes"]]
        if example.source == "bank":
            entry = bank[example.key]
            assert (entry["fen"], tuple(entry["main_line"])) == (example.fen, example.line)
        else:
            assert example.source == "composed" and not has_one, pattern.code


def test_the_patterns_page_lists_every_pattern_with_its_puzzles(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    make_puzzle(HORSE_CANNON_IN_1, moves_to_win=1)
    make_puzzle(DEAD_GENERAL_IN_1, variant="feidan", goal="dead_general", moves_to_win=1)
    make_puzzle(HORSE_CANNON_IN_1, moves_to_win=1, status="draft")  # not counted
    assert pattern_counts() == {
        "horse_cannon": {"xiangqi": 1},
        "missile_strike": {"feidan": 1},
        "dead_general_net": {"feidan": 1},
    }
    response = client.get("/puzzles/patterns/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    families = re.findall(r'<section class="pattern-family" id="family-(\w+)"', page)
    assert families == ["traditional", "feidan", "xinban"]
    listed = re.findall(r'<article class="pattern-card" id="(\w+)"', page)
    assert listed == [p.code for p in PATTERNS]
    for pattern in PATTERNS:
        card = section(page, pattern.code)
        assert pattern.en in card and pattern.zh in card
        assert pattern.summary_en in card.replace("&#x27;", "'")
        assert pattern.definition_en in card.replace("&#x27;", "'")
        example = pattern_examples()[pattern.code]
        assert f'data-fen="{example.final_fen}"' in card  # the example mate, drawn
        counted = dict(re.findall(r'<li data-variant="(\w+)" data-published="(\d+)"', card))
        assert list(counted) == list(pattern.variants)
    horse = section(page, "horse_cannon")
    assert 'data-variant="xiangqi" data-published="1"' in horse
    assert 'data-variant="xinban" data-published="0"' in horse
    assert "1 puzzle" in horse
    assert 'href="/puzzles/?variant=xiangqi&amp;themes=horse_cannon"' in horse
    assert "themes=horse_cannon" not in horse.replace("variant=xiangqi&amp;themes", "")
    # a pattern with no puzzle is listed all the same, without a way to practise it
    iron = section(page, "iron_bolt")
    assert 'data-published="0"' in iron and "practise-link" not in iron
    assert "no puzzle yet" in iron
    strike = section(page, "missile_strike")
    assert 'href="/puzzles/?variant=feidan&amp;themes=missile_strike"' in strike
    # in Chinese: the Chinese name first, the English one beside it
    zh = client.get("/puzzles/patterns/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    horse_zh = section(zh, "horse_cannon")
    assert re.search(r"马后炮</a> <span [^>]*lang=\"en\">Horse-and-cannon mate</span>", horse_zh)
    assert "炮以己方的马为炮架将军。" in horse_zh and "练习这个杀法" in horse_zh


def test_each_pattern_with_a_lesson_links_to_it(client: Client, db: None) -> None:
    from tutorials.curriculum import read_lessons
    from tutorials.services import lessons_load

    lessons_load()
    # A pattern's own lesson wins over a tactics lesson that practises the same theme.
    taught = {
        step.practise_theme: lesson
        for lesson in sorted(read_lessons(), key=lambda lesson: "-pattern-" in lesson.slug)
        for step in lesson.steps
        if step.practise_theme
    }
    assert len(taught) >= 20
    assert taught["double_check"].slug == "xiangqi-pattern-double-check"
    for language, chinese in (("en", False), ("zh-hans", True)):
        page = client.get("/puzzles/patterns/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for pattern in PATTERNS:
            card = section(page, pattern.code)
            lesson = taught.get(pattern.code)
            if lesson is None:
                assert "pattern-lesson" not in card, pattern.code
                continue
            title = lesson.title.get("zh" if chinese else "en")
            link = f'href="/learn/{lesson.slug}/" data-testid="lesson-{pattern.code}"'
            assert link in card, pattern.code
            assert f'title="{title}"' in card.replace("&#x27;", "'"), (pattern.code, title)
            assert ("在课程中学习" if chinese else "Learn it in its lesson") in card


def test_the_puzzle_pages_link_to_the_patterns(client: Client, db: None) -> None:
    for path in ("/puzzles/", "/puzzles/dashboard/", "/puzzles/daily/"):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'href="/puzzles/patterns/"' in page, path


def test_the_trainer_lists_the_patterns_apart_and_opens_on_one(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    make_puzzle()  # mate in 2, no named pattern
    horse = make_puzzle(HORSE_CANNON_IN_1, moves_to_win=1)
    page = client.get("/puzzles/?variant=xiangqi&themes=horse_cannon", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    themes = text[text.index('class="theme-filter"') : text.index("theme-filter-patterns")]
    patterns = text[text.index("theme-filter-patterns") :]
    patterns = patterns[: patterns.index("</fieldset>")]
    assert "Kill patterns" in patterns and 'href="/puzzles/patterns/"' in patterns
    assert 'value="horse_cannon" checked' in patterns
    # offered in the variants that have puzzles with it
    assert re.search(r'data-variants="xiangqi"><input [^>]*value="horse_cannon"', patterns)
    assert 'value="horse_cannon"' not in themes and 'value="mate_in_1"' in themes
    assert 'value="iron_bolt"' not in patterns  # no puzzle has it
    data = page.context["page"]
    assert data["themes"] == ["horse_cannon"] and data["variant"] == "xiangqi"
    # the trainer asks for the next puzzle with the pattern: only puzzles that have it
    for _ in range(3):
        nxt = client.get("/api/puzzles/next/?variant=xiangqi&themes=horse_cannon")
        assert nxt.json()["id"] == horse.pk
    listed = client.get("/api/puzzles/?themes=horse_cannon").json()
    assert [p["id"] for p in listed["results"]] == [horse.pk]
    assert client.get("/api/puzzles/next/?variant=xiangqi&themes=iron_bolt").status_code == 404
    zh = client.get("/puzzles/?themes=horse_cannon", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "杀法" in zh.content.decode() and "马后炮" in zh.content.decode()


def test_the_patterns_filter_stays_bounded(client: Client, db: None) -> None:
    every = ",".join(p.code for p in PATTERNS)
    assert client.get("/api/puzzles/", {"themes": every}).status_code == 200
    refused = client.get("/api/puzzles/", {"themes": every + ",horse_cannons"})
    assert refused.status_code == 400
    page = client.get("/puzzles/", {"themes": "horse_cannon,nope,horse_cannon"})
    assert page.context["page"]["themes"] == ["horse_cannon"]


def test_a_puzzle_names_its_patterns_only_once_the_try_is_over(make_puzzle: MakePuzzle) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    puzzle = make_puzzle(HORSE_CANNON_IN_1, moves_to_win=1)
    before = client.get(f"/api/puzzles/{puzzle.pk}/").json()
    # no theme at all before the try is over: they give the idea away
    assert before["patterns"] is None and before["themes"] is None and not leaks(before, puzzle)
    nxt = client.get("/api/puzzles/next/?variant=xiangqi").json()
    assert nxt["patterns"] is None and not leaks(nxt, puzzle)
    assert not leaks(client.get("/api/puzzles/").json(), puzzle)
    attempt = open_attempt(client, puzzle)
    assert attempt["patterns"] is None
    solved = play(client, puzzle, attempt, "h2e2").json()
    assert solved["verdict"] == "solved"
    named = [{"code": "horse_cannon", "name": "Horse-and-cannon mate",
              "url": "/puzzles/patterns/#horse_cannon"}]  # fmt: skip
    assert solved["attempt"]["patterns"] == named
    after = client.get(f"/api/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert after["patterns"] == named and "horse_cannon" in after["themes"]
    zh = client.get(f"/api/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert zh["patterns"][0]["name"] == "马后炮"
    # someone else has not tried it
    other = Client().get(f"/api/puzzles/{puzzle.pk}/").json()
    assert other["patterns"] is None and other["themes"] is None


def test_a_failed_or_given_up_try_names_the_patterns_too(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    puzzle = make_puzzle(DEAD_GENERAL_IN_1, variant="feidan", goal="dead_general", moves_to_win=1)
    attempt = open_attempt(client, puzzle)
    shown = post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
    codes = [p["code"] for p in shown.json()["patterns"]]
    assert codes == ["missile_strike", "dead_general_net"]
    wrong_client = Client()
    attempt = open_attempt(wrong_client, puzzle)
    wrong = next(m for m in attempt["legal_moves"] if m != "c7f7")
    judged = play(wrong_client, puzzle, attempt, wrong).json()
    assert judged["verdict"] == "wrong" and judged["attempt"]["solution"] is None
    assert [p["code"] for p in judged["attempt"]["patterns"]] == codes
    # a puzzle without a named pattern names none
    plain = make_puzzle(MATE_IN_2)
    assert play_out(Client(), plain)["attempt"]["patterns"] == []


def test_the_dashboard_shows_success_per_pattern(client: Client, make_puzzle: MakePuzzle) -> None:
    horse = make_puzzle(HORSE_CANNON_IN_1, moves_to_win=1)
    one = make_puzzle(MATE_IN_1, moves_to_win=1)  # 白脸将 (facing_general)
    for puzzle in (horse, one):
        attempt = open_attempt(client, puzzle)
        if puzzle is horse:
            play(client, puzzle, attempt, "h2e2")
        else:
            post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
        puzzle_attempt_score(attempt_id=attempt["id"])
    page = client.get("/puzzles/dashboard/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = page[page.index('data-testid="pattern-stats"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r'<tr data-pattern="(\w+)"><td><a href="([^"]+)">([^<]+)</a></td>'
                      r"<td>(\d+)</td><td>(\d+)</td>", table)  # fmt: skip
    assert rows == [
        ("horse_cannon", "/puzzles/patterns/#horse_cannon", "Horse-and-cannon mate", "1", "1"),
        ("facing_general", "/puzzles/patterns/#facing_general", "Facing general", "1", "0"),
    ]
    themes = page[page.index('data-testid="theme-stats"') :]
    themes = themes[: themes.index("</table>")]
    assert "Horse-and-cannon" not in themes and "Mate in 1" in themes


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ["Streak", "Storm", "Patterns", "Masters"]),
        ("zh-hans", ["解题连胜", "解题风暴", "杀法", "名局"]),
    ],
)
def test_the_header_and_home_page_lead_to_the_runs_patterns_and_masters(
    client: Client, db: None, language: str, words: list[str]
) -> None:
    wanted = ["/puzzles/streak/", "/puzzles/storm/", "/puzzles/patterns/", "/play/masters/"]
    for path in ("/", "/learn/", "/puzzles/"):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        header = page[page.index('<nav class="site-nav"') : page.index("</nav>")]
        links = dict(re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', header))
        assert [links.get(url) for url in wanted] == words, (path, links)
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    cards = home[home.index('data-testid="practise-cards"') :]
    cards = cards[: cards.index("</section>")]
    assert re.findall(r'<a href="([^"]+)">', cards) == wanted
