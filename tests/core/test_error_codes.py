"""Every error the site refuses a request with is said by a code, in the reader's language.

The source of every app is read: an ``ApplicationError`` (or a subclass) built from a literal
message instead of ``.coded(code, ...)`` / ``.from_engine(error)`` fails, and so does a code
that ``core.messages`` cannot say in both languages. Through the API, the puzzle attempt flow
and the games API answer a reader of Chinese with no English sentence.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from core.messages import APP_EN, APP_ZH, ENGINE_ZH
from engine.errors import MESSAGES as ENGINE_EN
from tests.puzzles.conftest import make_puzzle  # noqa: F401 - a fixture
from tests.puzzles.test_api import open_attempt, play
from tests.puzzles.test_solving import a_wrong_first_move

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted(p.parent.name for p in ROOT.glob("*/apps.py"))
# A call allowed to pass a literal message: the line carries this comment, saying why.
ALLOWED = "# literal error message:"
# Helpers that raise a coded error for a short name, by file: the code is the prefix and the name.
PREFIXED = {"games/services.py": {"_refuse": "game."}}
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,']+[A-Za-z]{2,}){2,}")  # three English words


def _sources() -> list[Path]:
    files = []
    for app in APPS:
        files += [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]
    return sorted(files)


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """``ApplicationError`` and every class that derives from it, by name."""
    names = {"ApplicationError"}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def literal_constructions(source: str, classes: set[str]) -> list[int]:
    """Lines where one of ``classes`` is built directly (not by ``.coded``/``.from_engine``)."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        called = isinstance(node, ast.Call) and _name(node.func) in classes
        if called and ALLOWED not in lines[node.lineno - 1]:
            found.append(node.lineno)
    return found


def codes_used(source: str, prefixed: dict[str, str] | None = None) -> list[tuple[int, str]]:
    """Every code named in ``.coded("code", ...)`` and in the ``prefixed`` helpers."""
    prefixed = prefixed or {}
    used = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        name = _name(node.func)
        if isinstance(node.func, ast.Attribute) and name == "coded":
            used.append((node.lineno, first.value))
        elif name in prefixed:
            used.append((node.lineno, prefixed[name] + first.value))
    return used


@pytest.fixture(scope="module")
def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text()) for path in _sources()}


def test_the_scan_reads_every_app() -> None:
    assert {"accounts", "core", "games", "puzzles", "tutorials"} <= set(APPS)


def test_the_scan_finds_a_literal_message() -> None:
    bad = 'raise ApplicationError("the level is 1 to 8", {"field": "level"})\n'
    subclass = "class Full(ApplicationError):\n    pass\n\nraise Full(f'{n} waiting')\n"
    assert literal_constructions(bad, {"ApplicationError"}) == [1]
    assert literal_constructions(subclass, {"ApplicationError", "Full"}) == [4]
    allowed = f'raise ApplicationError("x")  {ALLOWED} a test of the scan\n'
    assert literal_constructions(allowed, {"ApplicationError"}) == []
    good = 'raise ApplicationError.coded("game.bad_level", {"low": 1}, {"field": "level"})\n'
    assert literal_constructions(good, {"ApplicationError"}) == []
    assert codes_used(good) == [(1, "game.bad_level")]
    helper = 'raise _refuse("game_over")\n'
    assert codes_used(helper, {"_refuse": "game."}) == [(1, "game.game_over")]
    assert codes_used(helper) == []


def test_no_error_is_built_from_a_literal_message(trees: dict[Path, ast.Module]) -> None:
    classes = _error_classes(trees)
    assert "ProvingQueueFullError" in classes  # subclasses are found too
    found = []
    for path in trees:
        if path == ROOT / "core" / "exceptions.py":
            continue  # the class itself builds its message from the code
        for line in literal_constructions(path.read_text(), classes):
            found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, f"use ApplicationError.coded(code, params, extra) or .from_engine: {found}"


def test_every_code_raised_is_said_in_both_languages(trees: dict[Path, ast.Module]) -> None:
    used = {
        (f"{path.relative_to(ROOT)}:{line}", code)
        for path in trees
        for line, code in codes_used(path.read_text(), PREFIXED.get(str(path.relative_to(ROOT))))
    }
    assert len(used) > 40, "the scan finds the coded errors"
    missing = sorted(
        (where, code)
        for where, code in used
        if not (code in APP_EN and code in APP_ZH) and not (code in ENGINE_EN and code in ENGINE_ZH)
    )
    assert not missing, f"codes that core.messages cannot say in both languages: {missing}"


# -- through the API -------------------------------------------------------------------------


def _post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def assert_said_in_chinese(response: Any, code: str, *, illegal: bool = False) -> None:
    # a try the rules refuse is an answer (200, legal: false); any other refusal a 400
    if illegal:
        assert response.status_code == 200 and response.json()["legal"] is False
    else:
        assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    message = error["message"]
    assert CJK.search(message), message
    assert not ENGLISH_RUN.search(message), message


@pytest.mark.django_db
def test_the_puzzle_attempt_flow_refuses_in_chinese(make_puzzle: Any) -> None:  # noqa: F811
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    puzzle = make_puzzle()
    attempt = open_attempt(client, puzzle)
    assert_said_in_chinese(play(client, puzzle, attempt, "e3e4", ply=4), "solving.out_of_step")
    wrong = play(client, puzzle, attempt, a_wrong_first_move(puzzle))
    assert wrong.json()["verdict"] == "wrong"
    over = play(client, puzzle, attempt, a_wrong_first_move(puzzle))
    assert_said_in_chinese(over, "solving.attempt_over")
    assert over.json()["error"]["extra"]["code"] == "attempt_over"
    hint = _post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": attempt["id"]})
    assert_said_in_chinese(hint, "solving.attempt_over")
    # the same refusal in English for an English reader
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies = client.cookies  # the same visitor
    refused = play(english, puzzle, attempt, a_wrong_first_move(puzzle)).json()["error"]
    assert refused["message"] == "This attempt is over: open a new one to play again."


@pytest.mark.django_db
def test_the_games_api_refuses_in_chinese() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for body, code in (
        ({"variant": "xiangqi", "level": 2, "setup": "plum_blossom"}, "variant.unknown_start"),
        ({"variant": "xiangqi", "level": 0}, "input.too_small"),  # refused by the form
        ({"variant": "chess", "level": 2}, "input.not_a_choice"),
    ):
        assert_said_in_chinese(_post(client, "/api/games/", body), code)
    created = _post(client, "/api/games/", {"variant": "xiangqi", "level": 2, "side": "red"})
    assert created.status_code == 201, created.content
    moves = f"/api/games/{created.json()['id']}/moves/"
    assert_said_in_chinese(_post(client, moves, {"move": "h7e7"}), "game.wrong_side", illegal=True)
    assert_said_in_chinese(_post(client, moves, {"move": "hello"}), "game.invalid_move")
    explained = _post(client, moves, {"move": "a3b3"})
    assert_said_in_chinese(explained, "game.move_explained", illegal=True)
    assert "过河" in explained.json()["error"]["message"]
    assert_said_in_chinese(_post(client, moves, {"move": "h2e2", "ply": 3}), "game.out_of_date")
    local = _post(client, "/api/games/", {"variant": "xiangqi", "mode": "local"}).json()
    assert_said_in_chinese(
        _post(client, f"/api/games/{local['id']}/takeback/"), "game.takeback_nothing"
    )
    # an English reader gets the same refusal in English
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    body = {"variant": "xiangqi", "level": 2, "setup": "plum_blossom"}
    refused = _post(english, "/api/games/", body).json()["error"]
    assert refused["message"] == "Unknown start 'plum_blossom' for Xiangqi (known: standard)."
