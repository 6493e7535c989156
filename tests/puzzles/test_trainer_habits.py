"""The trainer's habits through the API and the pages: a puzzle's themes are not sent before the player's
try is over (they give the idea away), the theme list follows the variant, and the next
puzzle says, in words, when it had to leave the difficulty's rating range or offer a puzzle
already tried; the dashboard draws the rating history of each variant."""

from __future__ import annotations

import datetime
import itertools
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.owners import Owner
from engine.variants import FEIDAN
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleTheme
from puzzles.selectors import NEXT_WINDOW, puzzle_next_pick
from puzzles.services import theme_catalogue_sync
from puzzles.themes import THEME_VARIANTS, themes_of_variant
from tests.puzzles.conftest import MakePuzzle
from tests.puzzles.positions import MATE_IN_1, MATE_IN_2_KEY

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def open_attempt(client: Client, puzzle: Puzzle) -> dict[str, Any]:
    opened = post(client, f"/api/puzzles/{puzzle.pk}/attempts/")
    assert opened.status_code in (200, 201), opened.content
    return dict(opened.json())


def themes_in(data: Any) -> list[Any]:
    """Every ``themes`` value anywhere in an answer."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "themes" in node:
                found.append(node["themes"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found


# --- 1. Themes only once the try is over ----------------------------------------------------


def test_no_answer_names_the_themes_before_the_try_is_over(make_puzzle: MakePuzzle) -> None:
    puzzle = make_puzzle()  # a mate in 2 with a quiet key
    # Proved among checks: saying so before the end gives "every move is a check" away.
    Puzzle.objects.filter(pk=puzzle.pk).update(proof_mode="checks_only")
    slugs = list(puzzle.themes.values_list("slug", flat=True))
    assert "quiet_move" in slugs
    client = Client()
    answers = [
        client.get(f"/api/puzzles/{puzzle.pk}/").json(),
        client.get("/api/puzzles/next/?variant=xiangqi").json(),
        client.get("/api/puzzles/").json(),
        client.get("/api/puzzles/daily/").json(),
    ]
    attempt = open_attempt(client, puzzle)
    answers.append(attempt)
    hint = post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": attempt["id"]})
    answers.append(hint.json())
    for answer in answers:
        assert all(value is None for value in themes_in(answer)), answer
        assert "quiet_move" not in json.dumps(answer)
        assert "checks_only" not in json.dumps(answer)
    # Giving up ends the try: the answer, the puzzle and the list now name them.
    shown = post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]}).json()
    assert shown["themes"] == slugs and shown["proof_mode"] == "checks_only"
    detail = client.get(f"/api/puzzles/{puzzle.pk}/").json()
    assert detail["themes"] == slugs and detail["proof_mode"] == "checks_only"
    assert client.get("/api/puzzles/").json()["results"][0]["themes"] == slugs
    # Someone else has not tried it.
    assert Client().get(f"/api/puzzles/{puzzle.pk}/").json()["themes"] is None
    assert Client().get(f"/api/puzzles/{puzzle.pk}/").json()["proof_mode"] is None
    assert Client().get("/api/puzzles/").json()["results"][0]["themes"] is None


def test_a_wrong_move_or_a_solve_shows_the_themes(make_puzzle: MakePuzzle) -> None:
    puzzle = make_puzzle()
    slugs = list(puzzle.themes.values_list("slug", flat=True))
    wrong, right = Client(), Client()
    attempt = open_attempt(wrong, puzzle)
    judged = post(
        wrong, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt["id"], "move": "e0e1"}
    ).json()
    assert judged["verdict"] == "wrong" and judged["attempt"]["themes"] == slugs
    assert wrong.get(f"/api/puzzles/{puzzle.pk}/").json()["themes"] == slugs
    attempt = open_attempt(right, puzzle)
    first = post(
        right, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt["id"], "move": MATE_IN_2_KEY}
    ).json()
    assert first["verdict"] == "continue" and first["attempt"]["themes"] is None


def test_an_author_sees_the_themes_of_a_puzzle_of_their_own(
    make_puzzle: MakePuzzle, make_user: Any
) -> None:
    author = make_user()
    puzzle = make_puzzle(author=author, source=Puzzle.Source.AUTHORED)
    client = Client()
    client.force_login(author)
    slugs = list(puzzle.themes.values_list("slug", flat=True))
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["themes"] == slugs
    mine = client.get("/api/puzzles/authored/")
    assert mine.status_code == 200, mine.content
    assert [p["themes"] for p in mine.json()] == [slugs]


# --- 2. The themes of the chosen variant ----------------------------------------------------


def test_the_themes_of_a_variant_are_those_its_pieces_and_rules_allow() -> None:
    assert {"fighter", "missile", "defection", "dead_general"}.isdisjoint(
        themes_of_variant("xiangqi")
    )
    assert {"fighter", "missile", "missile_collision", "dead_general"} <= themes_of_variant(
        "feidan"
    )
    assert "defection" not in themes_of_variant("feidan")
    assert "defection" in themes_of_variant("xinban") and "fighter" not in themes_of_variant(
        "xinban"
    )
    assert THEME_VARIANTS["horse_cannon"] == {"xiangqi", "feidan", "xinban"}
    assert THEME_VARIANTS["missile_mate"] == {"feidan"}
    assert themes_of_variant("nope") == frozenset()


def test_the_theme_list_follows_the_variant(client: Client, make_puzzle: MakePuzzle) -> None:
    make_puzzle()
    theme_catalogue_sync()
    everything = client.get("/api/puzzles/themes/").json()
    assert {"fighter", "defection"} <= {t["slug"] for t in everything}
    xiangqi = client.get("/api/puzzles/themes/?variant=xiangqi").json()
    slugs = {t["slug"] for t in xiangqi}
    assert slugs == set(themes_of_variant("xiangqi")) & set(
        PuzzleTheme.objects.values_list("slug", flat=True)
    )
    assert "fighter" not in slugs and "defection" not in slugs and "quiet_move" in slugs
    counted = {t["slug"]: t["published"] for t in xiangqi}
    assert counted["quiet_move"] == 1 and counted["sacrifice"] == 0
    feidan = {
        t["slug"]: t["published"] for t in client.get("/api/puzzles/themes/?variant=feidan").json()
    }
    assert "fighter" in feidan and "defection" not in feidan
    assert feidan["quiet_move"] == 0  # the xiangqi puzzle is not counted here
    zh = client.get("/api/puzzles/themes/?variant=feidan", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert "战机" in {t["name"] for t in zh}
    bad = client.get("/api/puzzles/themes/?variant=chess")
    assert bad.status_code == 400 and "variant" in bad.json()["error"]["extra"]["fields"]


def test_a_theme_foreign_to_the_variant_finds_no_puzzle(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    make_puzzle()
    assert client.get("/api/puzzles/next/?variant=xiangqi&themes=quiet_move").status_code == 200
    found = client.get("/api/puzzles/next/?variant=xiangqi&themes=quiet_move,fighter")
    assert found.status_code == 404


def test_the_trainer_page_offers_each_theme_in_its_variants(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    xiangqi = make_puzzle()
    # A feidan puzzle with the fighter theme (its proof borrowed: only its themes count here).
    feidan = Puzzle.objects.create(
        variant="feidan",
        fen=FEIDAN.default_start,
        goal="mate",
        moves_to_win=2,
        status="published",
        proof=xiangqi.proof,
    )
    theme_catalogue_sync()
    feidan.themes.set(PuzzleTheme.objects.filter(slug__in=["fighter", "quiet_move"]))
    page = client.get("/puzzles/?variant=xiangqi", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chips = page[page.index('data-testid="theme-filter"') : page.index("theme-filter-patterns")]
    assert 'data-variants="feidan"><input type="checkbox" name="theme" value="fighter"' not in chips
    assert (
        'data-variants="feidan" hidden><input type="checkbox" name="theme" value="fighter"' in chips
    )
    assert (
        'data-variants="feidan xiangqi"><input type="checkbox" name="theme" value="quiet_move"'
        in chips
    )
    shown = client.get("/puzzles/?variant=feidan").content.decode()
    assert 'data-variants="feidan"><input type="checkbox" name="theme" value="fighter"' in shown
    # a theme the variant cannot have is not kept from the address
    asked = client.get("/puzzles/?variant=xiangqi&themes=fighter,quiet_move")
    assert asked.context["page"]["themes"] == ["quiet_move"]


# --- 3. A relaxed filter is said -------------------------------------------------------------


def rated(puzzle: Puzzle, rating: float) -> Puzzle:
    Puzzle.objects.filter(pk=puzzle.pk).update(rating=rating)
    puzzle.refresh_from_db()
    return puzzle


def test_the_next_puzzle_says_when_it_left_the_rating_range(make_puzzle: MakePuzzle) -> None:
    low = rated(make_puzzle(MATE_IN_1, moves_to_win=1), 1400)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    # A visitor is rated 1500: "a little harder" asks for 1650..1950, and only 1400 is there.
    answer = client.get("/api/puzzles/next/?variant=xiangqi&difficulty=harder").json()
    assert answer["id"] == low.pk
    assert answer["rating_range"] == [1800 - NEXT_WINDOW, 1800 + NEXT_WINDOW]
    assert [r["code"] for r in answer["relaxed"]] == ["rating"]
    message = answer["relaxed"][0]["message"]
    assert "1650–1950" in message and "A little harder" in message and "1400" in message
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    chinese = zh.get("/api/puzzles/next/?variant=xiangqi&difficulty=harder").json()
    assert "1650–1950" in chinese["relaxed"][0]["message"]
    assert "难一些" in chinese["relaxed"][0]["message"]
    # At the player's level the same puzzle is 100 below: within the range, nothing is said.
    normal = client.get("/api/puzzles/next/?variant=xiangqi").json()
    assert normal["id"] == low.pk and normal["relaxed"] == []


def test_a_puzzle_in_the_range_comes_before_one_outside_it(make_puzzle: MakePuzzle) -> None:
    inside = rated(make_puzzle(), 1800)
    outside = rated(make_puzzle(MATE_IN_1, moves_to_win=1), 1450)
    player = Owner(visitor_id="visitor-range")
    for seed in range(12):
        pick = puzzle_next_pick(player=player, variant="xiangqi", difficulty="harder", seed=seed)
        assert pick is not None and pick.puzzle == inside and pick.relaxed == ()
    # Once the one in the range is seen, the other is offered, and that is said.
    pick = puzzle_next_pick(
        player=player, variant="xiangqi", difficulty="harder", exclude=[inside.pk]
    )
    assert pick is not None and pick.puzzle == outside and pick.relaxed == ("rating",)


def test_the_next_puzzle_says_when_it_offers_one_already_tried(
    make_puzzle: MakePuzzle, make_user: Any
) -> None:
    puzzle = make_puzzle()
    user = make_user()
    PuzzleRating.objects.create(user=user, variant="xiangqi", rating=float(puzzle.rating))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    fresh = client.get("/api/puzzles/next/?variant=xiangqi").json()
    assert fresh["id"] == puzzle.pk and fresh["relaxed"] == []
    attempt = open_attempt(client, puzzle)
    post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
    again = client.get("/api/puzzles/next/?variant=xiangqi").json()
    assert again["id"] == puzzle.pk
    assert [r["code"] for r in again["relaxed"]] == ["tried"]
    assert "tried every puzzle" in again["relaxed"][0]["message"]
    # The tried one's themes are shown: the try is over.
    assert again["themes"] == list(puzzle.themes.values_list("slug", flat=True))


# --- 5. The rating history chart -------------------------------------------------------------


def rated_history(user: Any, base: Puzzle, ratings: list[float], variant: str = "xiangqi") -> None:
    """Rated, scored attempts of ``user`` going from ``ratings[0]`` through the others, each at
    a puzzle of its own (only a first try is rated), an hour apart."""
    start = timezone.now() - datetime.timedelta(days=2)
    for index, (before, after) in enumerate(itertools.pairwise(ratings)):
        puzzle = Puzzle.objects.create(
            variant=variant,
            fen=base.fen,
            goal="mate",
            moves_to_win=2,
            status="published",
            proof=base.proof,
        )
        PuzzleAttempt.objects.create(
            user=user,
            puzzle=puzzle,
            first_try=True,
            rated=True,
            state="scored",
            result="solved" if after >= before else "failed",
            scored_at=start + datetime.timedelta(hours=index),
            user_rating_before=before,
            user_rating_after=after,
        )
    PuzzleRating.objects.create(
        user=user, variant=variant, rating=ratings[-1], games=len(ratings) - 1
    )


def test_the_dashboard_draws_the_rating_history_of_each_variant(
    make_puzzle: MakePuzzle, make_user: Any
) -> None:
    user = make_user()
    ratings = [1500.0, 1540.2, 1512.0, 1575.6, 1601.0]
    rated_history(user, make_puzzle(), ratings)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get("/puzzles/dashboard/").content.decode()
    chart = page[page.index('data-testid="rating-chart-xiangqi"') : page.index("</figure>")]
    assert 'data-points="5"' in chart and chart.count('<circle class="chart-point"') == 5
    assert [int(r) for r in re.findall(r'data-rating="(\d+)"', chart)] == [
        1500,
        1540,
        1512,
        1576,
        1601,
    ]
    assert "<title id=" in chart and "Puzzle rating over time: Xiangqi" in chart
    assert "5 ratings, from 1500 to 1601; lowest 1500, highest 1601." in chart
    table = chart[chart.index('data-testid="rating-table-xiangqi"') :]
    assert table.count("<tr>") == 6  # the head and one row a rating
    assert 'data-testid="rating-chart-feidan"' not in page  # no rated feidan puzzle
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    zh.force_login(user)
    chinese = zh.get("/puzzles/dashboard/").content.decode()
    assert "谜题等级分变化" in chinese and "共 5 个等级分" in chinese


def test_the_chart_keeps_the_last_ratings_and_a_flat_history_flat() -> None:
    from puzzles.dashboard import CHART_POINTS
    from puzzles.dashboard import rating_chart as _chart

    now = timezone.now()
    flat = _chart([(now, 1500.0), (now, 1500.0)], title="t")
    assert flat["count"] == 2 and flat["bottom"] == 1500 and flat["top"] == 1550
    assert flat["dots"][0]["y"] == flat["dots"][1]["y"] == flat["y_bottom"]
    long = _chart([(now, 1000.0 + i) for i in range(CHART_POINTS + 30)], title="t")
    assert long["count"] == CHART_POINTS and long["dots"][0]["rating"] == 1030
    assert _chart([], title="t") == {"count": 0}


def test_every_reason_a_try_is_not_rated_is_said_in_both_languages() -> None:
    """The trainer shows ``unrated_reason_text`` under a scored try that is not rated: each
    reason the server can give is a sentence of its own in English and in Chinese."""
    from django.utils import translation

    from puzzles.models import UnratedReason

    sentences: dict[str, set[str]] = {"en": set(), "zh-hans": set()}
    for reason in UnratedReason:
        for language in sentences:
            with translation.override(language):
                text = str(reason.label)
            sentences[language].add(text)
            if language == "zh-hans":
                assert re.search(r"[\u4e00-\u9fff]", text), (reason, text)
    assert all(len(found) == len(UnratedReason) for found in sentences.values()), sentences
