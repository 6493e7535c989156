"""The puzzles JSON API, one module per concern: ``solving`` (themes, lists, one puzzle, the
next and the daily puzzles, playing an attempt), ``dashboard`` and ``authoring``; the shared
serializers are in ``serializers``. ``puzzles/api_urls.py`` routes the views of each module.
One view per operation: each parses, calls one service or selector, and serialises."""
