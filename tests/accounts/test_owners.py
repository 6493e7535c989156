"""One owner concept for every app: a user's row has ``visitor_id`` NULL, a visitor's row has
``user`` NULL, and signing up hands a visitor's puzzles, lessons and games to the account."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, models, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Q
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.models import User
from accounts.owners import (
    Owner,
    OwnerScopedModel,
    owner_check,
    owner_filter,
    owner_for_request,
    owner_of_row_q,
    owner_unique,
)
from accounts.visitors import VISITOR_SESSION_KEY
from games.models import Game
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleReplay, PuzzleRun
from tutorials.models import Lesson, Step, StepProgress

PASSWORD = "a-long-pass-phrase-42"
FEN = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"


def make_puzzle() -> Puzzle:
    return Puzzle.objects.create(variant="xiangqi", fen=FEN, moves_to_win=1)


def make_step() -> Step:
    lesson = Lesson.objects.create(
        slug="owners-lesson", course="xiangqi", order=1, title_zh="课", title_en="Lesson",
        summary_zh="", summary_en="", source="test", content_hash="x",
    )  # fmt: skip
    return Step.objects.create(lesson=lesson, key="1", index=0, goal="moves", data={})


def make_game(**owner: Any) -> Game:
    return Game.objects.create(variant="xiangqi", mode=Game.Mode.LOCAL, **owner)


def refused(model: Any, **fields: Any) -> bool:
    try:
        with transaction.atomic():
            model.objects.create(**fields)
    except IntegrityError:
        return True
    return False


def test_an_owner_is_a_user_or_a_visitor_never_both_or_neither() -> None:
    user = User(pk=7, username="lin")
    with pytest.raises(ValueError):
        Owner()
    with pytest.raises(ValueError):
        Owner(user=user, visitor_id="v1")
    with pytest.raises(ValueError):
        Owner(visitor_id="")
    assert Owner(user=user).fields() == {"user": user, "visitor_id": None}
    assert Owner(visitor_id="v1").fields() == {"user": None, "visitor_id": "v1"}


def test_every_model_with_a_visitor_column_is_owner_scoped_with_the_one_owner_check() -> None:
    owned = [
        model
        for model in apps.get_models()
        if any(field.name == "visitor_id" for field in model._meta.get_fields())
    ]
    assert {m.__name__ for m in owned} == {
        "EngineAnalysis",
        "Game",
        "GameAnalysis",
        "GameReview",
        "MissedMate",
        "PuzzleAttempt",
        "PuzzleReplay",
        "PuzzleRun",
        "PuzzleRunMet",
        "StepProgress",
    }
    one_owner = owner_check("any").condition
    for model in owned:
        assert issubclass(model, OwnerScopedModel), model
        checks = [
            c
            for c in model._meta.constraints
            if isinstance(c, models.CheckConstraint) and c.condition == one_owner
        ]
        assert len(checks) == 1, model


def test_owner_unique_is_the_users_constraint_and_the_visitors() -> None:
    users, visitors = owner_unique("open_per_{owner}", "puzzle", when={"state": "started"})
    assert (users.name, users.fields) == ("open_per_user", ("user", "puzzle"))
    assert users.condition == Q(user__isnull=False, state="started")
    assert (visitors.name, visitors.fields) == ("open_per_visitor", ("visitor_id", "puzzle"))
    assert visitors.condition == Q(user__isnull=True, state="started")
    _, by_column = owner_unique("{owner}_step", "step", visitor_when={"visitor_id__isnull": False})
    assert by_column.condition == Q(visitor_id__isnull=False)


@pytest.mark.django_db
def test_every_app_stores_a_users_row_with_no_visitor_id() -> None:
    user = User.objects.create_user(username="lin", password=PASSWORD)
    puzzle, step = make_puzzle(), make_step()
    now = timezone.now()
    for model, fields in (
        (PuzzleAttempt, {"puzzle": puzzle}),
        (StepProgress, {"step": step}),
        (Game, {"variant": "xiangqi", "mode": Game.Mode.LOCAL}),
        (PuzzleRun, {"mode": "storm", "variant": "xiangqi", "day": now.date(), "started_at": now}),
    ):
        assert refused(model, **fields, user=user, visitor_id="")  # the old convention
        assert refused(model, **fields, user=user, visitor_id="v1")  # two owners
        assert refused(model, **fields)  # no owner
        mine = model.objects.create(**fields, **Owner(user=user).fields())
        theirs = model.objects.create(**fields, **Owner(visitor_id="v1").fields())
        assert mine.visitor_id is None and theirs.user_id is None
        assert list(model.objects.filter(Owner(user=user).q())) == [mine]
        assert list(model.objects.filter(Owner(visitor_id="v1").q())) == [theirs]
        assert list(model.objects.filter(owner_of_row_q(theirs))) == [theirs]
        assert not model.objects.filter(owner_filter(None)).exists()
        assert Owner(user=user).owns(mine) and not Owner(user=user).owns(theirs)
        assert Owner(visitor_id="v1").owns(theirs) and not Owner(visitor_id="v2").owns(theirs)


@pytest.mark.django_db
def test_the_owner_of_a_request() -> None:
    factory = RequestFactory()
    request = factory.get("/")
    request.session = {}  # type: ignore[assignment]
    assert owner_for_request(request, create=False) is None
    assert request.session == {}  # asking without create writes nothing
    owner = owner_for_request(request)
    assert owner is not None and owner.visitor_id == request.session[VISITOR_SESSION_KEY]
    request.user = User.objects.create_user(username="lin", password=PASSWORD)
    assert owner_for_request(request) == Owner(user=request.user)


@pytest.mark.django_db
def test_sign_up_hands_puzzles_lessons_and_games_to_the_account(client: Client) -> None:
    session = client.session
    session[VISITOR_SESSION_KEY] = "v-sign-up"
    session.save()
    visitor = Owner(visitor_id="v-sign-up").fields()
    puzzle, step = make_puzzle(), make_step()
    attempt = PuzzleAttempt.objects.create(puzzle=puzzle, **visitor)
    replay = PuzzleReplay.objects.create(puzzle=puzzle, due_at="2026-01-01T00:00Z", **visitor)
    progress = StepProgress.objects.create(step=step, **visitor)
    game = make_game(**visitor)
    other = make_game(visitor_id="someone-else")

    response = client.post(
        "/accounts/signup/",
        {"username": "ming", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = User.objects.get(username="ming")
    for row in (attempt, replay, progress, game):
        row.refresh_from_db()
        assert (row.user_id, row.visitor_id) == (user.pk, None), row
    other.refresh_from_db()
    assert (other.user_id, other.visitor_id) == (None, "someone-else")


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_blank_visitor_ids_of_users_into_null() -> None:
    """Rows written under the old convention (a user's row with ``visitor_id=""``) keep their
    owner through the migration, and going back restores the blank."""
    before = [("puzzles", "0002_attempts_played_on_the_server"), ("games", "0001_initial")]
    after = [
        ("puzzles", "0003_visitor_id_null_for_users"),
        ("games", "0002_visitor_id_null_for_users"),
    ]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        user = old.get_model("accounts", "User").objects.create(username="lin")
        puzzle = old.get_model("puzzles", "Puzzle").objects.create(
            variant="xiangqi", fen=FEN, moves_to_win=1, slug="owners01"
        )
        attempt_model = old.get_model("puzzles", "PuzzleAttempt")
        replay_model = old.get_model("puzzles", "PuzzleReplay")
        game_model = old.get_model("games", "Game")
        attempt = attempt_model.objects.create(puzzle_id=puzzle.pk, user_id=user.pk, visitor_id="")
        visitors = attempt_model.objects.create(puzzle_id=puzzle.pk, visitor_id="v1")
        replay = replay_model.objects.create(
            puzzle_id=puzzle.pk, user_id=user.pk, visitor_id="", due_at="2026-01-01T00:00Z"
        )
        game = game_model.objects.create(
            variant="xiangqi", mode="local", user_id=user.pk, visitor_id=""
        )

        executor = MigrationExecutor(connection)
        executor.migrate(after)
        new = executor.loader.project_state(after).apps
        new_attempts = new.get_model("puzzles", "PuzzleAttempt").objects
        assert new_attempts.get(pk=attempt.pk).visitor_id is None
        assert new_attempts.get(pk=visitors.pk).visitor_id == "v1"
        assert new.get_model("puzzles", "PuzzleReplay").objects.get(pk=replay.pk).visitor_id is None
        assert new.get_model("games", "Game").objects.get(pk=game.pk).visitor_id is None

        executor = MigrationExecutor(connection)
        executor.migrate(before)
        assert attempt_model.objects.get(pk=attempt.pk).visitor_id == ""
        assert game_model.objects.get(pk=game.pk).visitor_id == ""
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
