from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A registered player. Kept as our own model so that fields can be added later."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
