from django.contrib import admin

from games.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "setup",
        "mode",
        "level",
        "human_side",
        "status",
        "result",
        "termination",
        "user",
        "created_at",
    )
    list_filter = ("variant", "mode", "status", "termination")
    search_fields = ("id", "user__username", "visitor_id")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")
