"""The words the whole site uses, in Chinese and English: one sentence in both languages
(``texts.Text``), the names of pieces and sides (``texts``), every way a game can end
(``endings``), and why a move cannot be played (``explain``).

Pure Python on top of the engine: nothing here imports Django or any of the site's apps, so the
core, the lessons, the puzzles and the games all say things the same way. See
docs/architecture.md for the floors of the code base.
"""
