"""A classical problem is named to the reader in their language: the book by its name (not the
source's folder path "古谱篇/07《烂柯神机》"), the problem by its own name without the book's
verdict "红胜", its number said the reader's way; every classic of the bank's source file gets
such a name in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from puzzles.bankfile import CLASSICS_PATH
from puzzles.classics import COLLECTIONS, classic_title, collection_name
from puzzles.models import Puzzle
from tests.puzzles.conftest import MakePuzzle

CJK = re.compile(r"[\u4e00-\u9fff]")


def detail(puzzle: Puzzle, language: str) -> dict[str, str]:
    answer = Client().get(f"/api/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


@pytest.mark.django_db
def test_the_puzzle_api_names_a_classic_in_the_readers_language(make_puzzle: MakePuzzle) -> None:
    puzzle = make_puzzle(
        source=Puzzle.Source.CLASSIC, title="运实于虚 红胜", collection="古谱篇/07《烂柯神机》"
    )
    english, chinese = detail(puzzle, "en"), detail(puzzle, "zh-hans")
    assert (english["collection"], english["title"]) == ("Lanke Shenji", "运实于虚")
    assert (chinese["collection"], chinese["title"]) == ("《烂柯神机》", "运实于虚")

    numbered = make_puzzle(
        source=Puzzle.Source.CLASSIC, title="第七十四局 龙潭虎穴", collection="适情雅趣550局"
    )
    english, chinese = detail(numbered, "en"), detail(numbered, "zh-hans")
    assert english["title"] == "No. 74 龙潭虎穴"
    assert english["collection"] == "Shiqing Yaqu (550 problems)"
    assert (chinese["title"], chinese["collection"]) == ("第74局 龙潭虎穴", "《适情雅趣》")


@pytest.mark.django_db
def test_an_authors_title_is_kept_as_written(make_puzzle: MakePuzzle) -> None:
    puzzle = make_puzzle(source=Puzzle.Source.AUTHORED, title="第1局 我的题 红胜")
    assert detail(puzzle, "en")["title"] == "第1局 我的题 红胜"


def test_every_classic_of_the_source_is_named_in_both_languages() -> None:
    problems = json.loads(CLASSICS_PATH.read_text(encoding="utf-8"))["puzzles"]
    for problem in problems:
        assert problem["collection"] in COLLECTIONS, problem["collection"]
        for language in ("en", "zh-hans"):
            with translation.override(language):
                name = collection_name(problem["collection"])
                title = classic_title(problem["title"])
            assert "/" not in name and "篇" not in name, name
            assert "红胜" not in title, title
            if language == "en":
                assert not CJK.search(name), name
                assert not title.startswith("第"), title
            else:
                assert CJK.search(name), name
