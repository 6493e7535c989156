"""The lessons' JSON API: the course map, a lesson, and one endpoint per kind of answer.

Progress is always the requester's own (their account, or their anonymous visitor id); no
endpoint takes a user, and input with fields an endpoint does not know is refused, so a client
cannot claim stars or write someone else's record.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils import timezone
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import Owner
from core.api_helpers import (
    SizedDictField,
    operation,
    post_operation,
    request_body,
)
from core.exceptions import ApplicationError
from tutorials.models import Step as StepRow
from tutorials.selectors import (
    continue_lesson,
    course_map,
    learner_get,
    lesson_get,
    lesson_step_get,
    lesson_view,
    text,
)
from tutorials.services import (
    Recorded,
    step_moves_play,
    step_point_answer,
    step_setup_submit,
    step_write_answer,
)
from words.explain import Explanation


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not declare (a client cannot send stars, users, ...)."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise ApplicationError.coded(
                "lesson.unknown_fields",
                {"names": ", ".join(unknown)},
                {"code": "unknown_fields", "fields": unknown},
            )
        return attrs


class MessageSerializer(serializers.Serializer):
    code = serializers.CharField()
    text = serializers.CharField(help_text="in the request's language")


class ProgressSerializer(serializers.Serializer):
    stars = serializers.IntegerField(allow_null=True, help_text="earned by this attempt")
    best_stars = serializers.IntegerField(help_text="the learner's best on this step")
    best_moves = serializers.IntegerField(allow_null=True)
    mistakes = serializers.IntegerField()


def _message(explanation: Explanation | None) -> dict[str, str] | None:
    if explanation is None:
        return None
    return {"code": explanation.code, "text": explanation.text.get(get_language())}


def _progress(recorded: Recorded) -> dict[str, Any]:
    return {
        "stars": recorded.stars,
        "best_stars": recorded.best_stars,
        "best_moves": recorded.best_moves,
        "mistakes": recorded.mistakes,
    }


class LessonCardSerializer(serializers.Serializer):
    slug = serializers.CharField(source="lesson.slug")
    title = serializers.SerializerMethodField()
    url = serializers.CharField()
    steps = serializers.IntegerField()
    done = serializers.IntegerField()
    stars = serializers.IntegerField()
    max_stars = serializers.IntegerField()
    complete = serializers.BooleanField()
    next_step = serializers.CharField(allow_null=True)

    def get_title(self, card: Any) -> str:
        return text({"zh": card.lesson.title_zh, "en": card.lesson.title_en})


class CourseSerializer(serializers.Serializer):
    course = serializers.CharField()
    title = serializers.CharField()
    steps = serializers.IntegerField()
    done = serializers.IntegerField()
    stars = serializers.IntegerField()
    lessons = LessonCardSerializer(many=True)


class ContinueSerializer(serializers.Serializer):
    lesson_slug = serializers.CharField()
    lesson_title = serializers.CharField()
    course = serializers.CharField()
    course_title = serializers.CharField()
    step_key = serializers.CharField(allow_null=True)
    step_number = serializers.IntegerField()
    steps = serializers.IntegerField()
    url = serializers.CharField()


class CourseListApi(APIView):
    """The three courses with their lessons, the requester's progress in each, and where to
    continue."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LearnCourses"

        courses = CourseSerializer(many=True)
        continue_at = ContinueSerializer(allow_null=True)

    @operation("learn_courses", OutputSerializer, errors=(400,))
    def get(self, request: Request) -> Response:
        if set(request.query_params) & {"user", "user_id", "visitor", "visitor_id"}:
            raise ApplicationError.coded(
                "lesson.not_your_progress", extra={"code": "not_your_progress"}
            )
        learner = learner_get(request)
        data = {
            "courses": course_map(learner=learner),
            "continue_at": continue_lesson(learner=learner),
        }
        return Response(self.OutputSerializer(data).data)


class LessonDetailApi(APIView):
    """One lesson: its steps (position, instruction, goal, par, marked points, the legal moves
    at the start) and the requester's stars on each. Answers are not included."""

    @operation("learn_lesson", OpenApiTypes.OBJECT, errors=(400,))
    def get(self, request: Request, slug: str) -> Response:
        lesson = lesson_get(slug=slug)
        return Response(
            lesson_view(lesson=lesson, learner=learner_get(request), moment=timezone.now())
        )


Body = dict[str, Any]  # the checked answer
Played = tuple[dict[str, Any], Recorded]  # the answer's fields, and the learner's record


class StepAnswerView(APIView):
    """The shape of every answer to a step: the checked answer (``InputSerializer``), the step
    it answers and the learner (given a visitor id if new); ``play`` calls the step's service
    and gives the answer's fields besides ``progress``, the learner's record after it."""

    InputSerializer: ClassVar[type[serializers.Serializer]]
    OutputSerializer: ClassVar[type[serializers.Serializer]]

    def play(self, *, learner: Owner, step: StepRow, answer: Body) -> Played:
        raise NotImplementedError

    def post(self, request: Request, slug: str, key: str) -> Response:
        answer = request_body(self.InputSerializer, request)
        step = lesson_step_get(slug=slug, key=key)
        learner = learner_get(request, create=True)
        assert learner is not None
        data, recorded = self.play(learner=learner, step=step, answer=answer)
        return Response(self.OutputSerializer({**data, "progress": _progress(recorded)}).data)


class PlySerializer(serializers.Serializer):
    iccs = serializers.CharField()
    chinese = serializers.CharField()
    by = serializers.ChoiceField(choices=["learner", "opponent"])
    effect = serializers.CharField()
    fen = serializers.CharField(help_text="the position after this ply")


@post_operation("learn_step_moves", errors=(400,), illegal=True)
class StepMovesApi(StepAnswerView):
    """Play a move step: send every move made so far (ICCS), from the step's start.

    The server replays them with the step's scripted replies and answers with the position,
    whether the goal is met (``complete``), missed (``failed``: start the step again) or still
    open (``playing``), and the stars when it is complete. A move the rules do not allow is an
    answer (200) with ``legal: false`` and the reason in ``error`` (``extra.code``: horse_leg,
    elephant_eye, cannon_screens, general_missile, generals_facing, check_not_allowed, ...),
    in both languages; a move that cannot be read or comes after the end answers 400.
    """

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "LearnStepMovesInput"

        moves = serializers.ListField(child=serializers.CharField(max_length=8), max_length=200)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LearnStepMoves"

        status = serializers.ChoiceField(choices=["playing", "complete", "failed"])
        fen = serializers.CharField()
        moves_used = serializers.IntegerField()
        par = serializers.IntegerField()
        plies = PlySerializer(many=True)
        last_move = serializers.CharField(allow_null=True)
        check = serializers.CharField(allow_null=True)
        collected = serializers.ListField(child=serializers.CharField())
        remaining = serializers.ListField(child=serializers.CharField())
        message = MessageSerializer(allow_null=True)
        termination = serializers.CharField(allow_null=True)
        winner = serializers.CharField(allow_null=True)
        legal = serializers.ListField(child=serializers.CharField())
        tries = serializers.ListField(child=serializers.CharField())
        threat = serializers.CharField(
            allow_null=True,
            help_text="a step failed for a piece left hanging: the opponent's free capture (ICCS)",
        )
        progress = ProgressSerializer()

    def play(self, *, learner: Owner, step: StepRow, answer: Body) -> Played:
        attempt = step_moves_play(learner=learner, step=step, moves=answer["moves"])
        state = attempt.state
        data = {
            "status": state.status,
            "fen": state.fen,
            "moves_used": state.moves_used,
            "par": step.par,
            "plies": [vars(p) for p in state.plies],
            "last_move": state.last_move,
            "check": state.check,
            "collected": state.collected,
            "remaining": state.remaining,
            "message": _message(state.message),
            "termination": state.termination,
            "winner": state.winner,
            "legal": state.legal,
            "tries": state.tries,
            "threat": state.threat,
        }
        return data, attempt.recorded


@post_operation("learn_step_answer", errors=(400,))
class StepAnswerApi(StepAnswerView):
    """Answer a question step by a point (ICCS, e.g. ``e8``). A wrong point counts as a
    mistake until the step is done; stars: 3 at the first try, 2 at the second, then 1.
    ``moment`` is required for a board drawn from the moment it was shown (give back the
    ``moment`` the lesson sent)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "LearnStepAnswerInput"

        point = serializers.CharField(max_length=4)
        moment = serializers.DateTimeField(required=False, allow_null=True)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LearnStepAnswer"

        correct = serializers.BooleanField()
        message = MessageSerializer()
        answers = serializers.ListField(
            child=serializers.CharField(), help_text="the right points, once answered correctly"
        )
        progress = ProgressSerializer()

    def play(self, *, learner: Owner, step: StepRow, answer: Body) -> Played:
        attempt = step_point_answer(
            learner=learner, step=step, point=answer["point"], moment=answer.get("moment")
        )
        data = {
            "correct": attempt.state.correct,
            "message": _message(attempt.state.message),
            "answers": list(attempt.state.answers),
        }
        return data, attempt.recorded


@post_operation("learn_step_write", errors=(400,))
class StepWriteApi(StepAnswerView):
    """Answer a step by writing a move in Chinese notation (``text``: 炮二平五, 马8进7 …). The
    engine reads it against the step's position; any writing of an accepted move is right. A
    wrong one counts as a mistake until the step is done, and is explained: a text that cannot
    be read, a move its piece cannot make, or the legal move it names (``move``, ``chinese``)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "LearnStepWriteInput"

        text = serializers.CharField(max_length=64, allow_blank=True, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LearnStepWrite"

        correct = serializers.BooleanField()
        message = MessageSerializer()
        move = serializers.CharField(allow_null=True, help_text="the move the text names (ICCS)")
        chinese = serializers.CharField(allow_null=True, help_text="how the site writes it")
        progress = ProgressSerializer()

    def play(self, *, learner: Owner, step: StepRow, answer: Body) -> Played:
        attempt = step_write_answer(learner=learner, step=step, text=answer["text"])
        state = attempt.state
        data = {
            "correct": state.correct,
            "message": _message(state.message),
            "move": state.move,
            "chinese": state.chinese,
        }
        return data, attempt.recorded


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField()
    point = serializers.CharField(allow_null=True)
    text = serializers.CharField()


@post_operation("learn_step_setup", errors=(400,))
class StepSetupApi(StepAnswerView):
    """Submit a secret setup (Red's half) for a setup step: ``placement`` maps points to FEN
    letters (``{"a0": "M", "f0": "K", ...}``). Every broken rule comes back explained."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "LearnStepSetupInput"

        placement = SizedDictField(child=serializers.CharField(max_length=2), max_length=60)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LearnStepSetup"

        valid = serializers.BooleanField()
        message = MessageSerializer()
        violations = ViolationSerializer(many=True)
        fen = serializers.CharField(help_text="the revealed position, when there is a black half")
        progress = ProgressSerializer()

    def play(self, *, learner: Owner, step: StepRow, answer: Body) -> Played:
        attempt = step_setup_submit(learner=learner, step=step, placement=answer["placement"])
        state = attempt.state
        language = get_language()
        data = {
            "valid": state.valid,
            "message": _message(state.message),
            "violations": [
                {"code": v.code, "point": v.point, "text": v.text.get(language)}
                for v in state.violations
            ],
            "fen": state.fen,
        }
        return data, attempt.recorded


def _violation_point(explanation: Explanation) -> str | None:
    head = explanation.text.en.split(":", 1)[0].strip()
    return head if len(head) == 2 and head[0].isalpha() and head[1].isdigit() else None
