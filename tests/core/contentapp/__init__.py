"""A tiny app used only by the tests of ``load_content``: it ships a content loader."""
