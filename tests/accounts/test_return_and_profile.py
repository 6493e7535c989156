"""After sign-up or log-in the learner goes back to the page they came from (a ``next`` off
this site is refused), and the profile shows ratings per variant, lesson progress per course
and the way to the dashboard."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from puzzles.models import PuzzleRating

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"
OFF_SITE = [
    "https://elsewhere.example/",
    "//elsewhere.example/path",
    "http://testserver.elsewhere.example/",
    "javascript:alert(1)",
    "https:///elsewhere.example/",
]


@pytest.fixture
def lessons(db: None) -> None:
    from tutorials.services import lessons_load

    lessons_load()


def header_link(page: str, name: str) -> str:
    found = re.search(rf'href="(/accounts/{name}/[^"]*)"', page)
    assert found, name
    return found.group(1).replace("&amp;", "&")


def test_the_header_links_carry_the_page_to_come_back_to(client: Client) -> None:
    page = client.get("/puzzles/?variant=feidan").content.decode()
    assert header_link(page, "login") == "/accounts/login/?next=/puzzles/%3Fvariant%3Dfeidan"
    assert header_link(page, "signup") == "/accounts/signup/?next=/puzzles/%3Fvariant%3Dfeidan"


def test_log_in_goes_back_to_the_page(client: Client) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    form = client.get("/accounts/login/?next=/puzzles/%3Fvariant%3Dfeidan").content.decode()
    assert 'name="next" value="/puzzles/?variant=feidan"' in form
    assert "/accounts/signup/?next=/puzzles/%3Fvariant%3Dfeidan" in form  # kept on the way
    response = client.post(
        "/accounts/login/",
        {"username": "hong", "password": PASSWORD, "next": "/puzzles/?variant=feidan"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/puzzles/?variant=feidan"


def test_sign_up_goes_back_to_the_page(client: Client) -> None:
    form = client.get("/accounts/signup/?next=/learn/xiangqi-horse/").content.decode()
    assert 'name="next" value="/learn/xiangqi-horse/"' in form
    data = {"username": "ming", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", {**data, "next": "/learn/xiangqi-horse/"})
    assert response["Location"] == "/learn/xiangqi-horse/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_log_in_refuses_a_next_off_this_site(client: Client, target: str) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    page = client.get("/accounts/login/", {"next": target}).content.decode()
    form = page[page.index('class="form-page"') :]
    assert "elsewhere.example" not in form and "javascript:" not in form
    response = client.post(
        "/accounts/login/", {"username": "hong", "password": PASSWORD, "next": target}
    )
    assert response["Location"] == "/accounts/profile/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_sign_up_refuses_a_next_off_this_site(client: Client, target: str) -> None:
    page = client.get("/accounts/signup/", {"next": target}).content.decode()
    form = page[page.index('class="form-page"') :]
    assert "elsewhere.example" not in form and "javascript:" not in form
    data = {"username": "ming", "password1": PASSWORD, "password2": PASSWORD, "next": target}
    assert client.post("/accounts/signup/", data)["Location"] == "/accounts/profile/"


def test_the_profile_shows_ratings_lessons_and_the_dashboard(client: Client, lessons: None) -> None:
    # As a visitor: complete the first step of the horse lesson, then sign up.
    answer = client.post(
        "/api/learn/lessons/xiangqi-horse/steps/1/moves/",
        {"moves": ["b0c2"]},
        content_type="application/json",
    )
    assert answer.json()["status"] == "complete"
    data = {"username": "ming", "password1": PASSWORD, "password2": PASSWORD}
    client.post("/accounts/signup/", data)
    user = User.objects.get(username="ming")
    PuzzleRating.objects.create(user=user, variant="feidan", rating=1612.4, games=7)

    client.cookies["django_language"] = "en"
    page = client.get("/accounts/profile/").content.decode()
    ratings = page[page.index('data-testid="profile-ratings"') :]
    feidan = ratings[ratings.index('data-variant="feidan"') :]
    assert "1612" in feidan[:400] and "7 rated puzzles" in feidan[:400]
    xiangqi = ratings[ratings.index('data-variant="xiangqi"') :]
    assert "No rated puzzle yet." in xiangqi[:400]
    lessons_part = page[page.index('data-testid="profile-lessons"') :]
    course = re.search(r'data-course="xiangqi" data-done="(\d+)" data-steps="(\d+)"', lessons_part)
    assert course and course.group(1) == "1" and int(course.group(2)) > 1
    assert re.search(r'data-course="feidan" data-done="0"', lessons_part)
    assert 'href="/puzzles/dashboard/"' in page


def test_the_profile_is_in_chinese_too(client: Client, lessons: None) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for words in ("谜题等级分", "还没有计分的谜题", "已完成步骤", "谜题统计"):
        assert words in page, words
