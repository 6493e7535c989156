from django.contrib import admin

from tutorials.models import Lesson, Step, StepProgress


class StepInline(admin.TabularInline):
    model = Step
    fields = ("index", "key", "goal", "par")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("index",)


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    """Lessons come from the files in tutorials/lessons/; edit those, then run load_lessons."""

    list_display = ("slug", "course", "order", "title_en", "is_active", "updated_at")
    list_filter = ("course", "is_active")
    search_fields = ("slug", "title_en", "title_zh")
    readonly_fields = ("content_hash", "source", "created_at", "updated_at")
    inlines = [StepInline]


@admin.register(StepProgress)
class StepProgressAdmin(admin.ModelAdmin):
    list_display = ("step", "user", "visitor_id", "stars", "best_moves", "mistakes", "completed_at")
    list_filter = ("stars", "step__lesson__course")
    list_select_related = ("step__lesson", "user")
    raw_id_fields = ("user", "step")
