from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import ResetMailFailure, User

admin.site.register(User, UserAdmin)


@admin.register(ResetMailFailure)
class ResetMailFailureAdmin(admin.ModelAdmin):
    """The password-reset mails that never went, newest first (read only)."""

    list_display = ("created_at", "address", "error", "tries")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
