#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    # A command's queries (migrations, imports) have no time limit; the server's have web's.
    serving = sys.argv[1:2] == ["runserver"]
    os.environ.setdefault("DATABASE_ROLE", "web" if serving else "command")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
