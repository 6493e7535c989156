from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A registered player. Kept as our own model so that fields can be added later."""

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # not in the stubs
        swappable = "AUTH_USER_MODEL"
