from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A registered player. Kept as our own model so that fields can be added later."""

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # not in the stubs
        swappable = "AUTH_USER_MODEL"


class ResetMailFailure(models.Model):
    """A password-reset mail that never went: the mail server refused it for good, or had not
    taken it after the last try (``accounts.reset_mail``). For the operator, in the admin; the
    address is masked (``m***@example.com``), and the asker saw the same page as for a mail
    sent."""

    address = models.CharField(max_length=254)
    error = models.CharField(max_length=300)
    tries = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.address}: {self.error}"
