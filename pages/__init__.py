"""The pages that show several apps at once: the home page (the variants, today's puzzles, the
lesson to go on with) and the profile (puzzle ratings and lesson progress). They sit above the
apps they show and below only ``config``; see docs/architecture.md. No models, no API: each view
reads through the apps' selectors.
"""
