"""Password hashing: Argon2id with the parameters OWASP recommends for a web log-in.

Django's default Argon2 parameters (100 MiB, 8 lanes, 2 passes) cost about 380 ms of CPU per
check; on a two-core web server a few dozen simultaneous log-ins then hold every core for
seconds. OWASP's Password Storage Cheat Sheet recommends Argon2id with 19 MiB of memory,
2 passes and 1 lane as the baseline, which costs about 45 ms here and keeps the memory
hardness that makes guessing on GPUs expensive. Hashes made with other parameters are
rehashed with these at the next log-in (Django's ``must_update``).
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idPasswordHasher(Argon2PasswordHasher):
    """Argon2id, 19 MiB, 2 passes, 1 lane; stored as ``argon2$argon2id$...`` like Django's."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
