"""Every start a board or a game begins from has one name in both languages (core.starts), and
the game model, the play pages (new game, the game's heading, my games) and the analysis board
all say that name."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from core.starts import START_DESCRIPTIONS, START_NAMES
from engine import VARIANTS
from games.models import Game
from tests.games.conftest import post

pytestmark = pytest.mark.django_db

LANGUAGES = (("en", "en"), ("zh-hans", "zh"))


def page_data(html: str, script_id: str) -> Any:
    found = re.search(rf'<script id="{script_id}" type="application/json">(.*?)</script>', html)
    assert found, script_id
    return json.loads(found.group(1))


def test_every_start_has_one_name_in_both_languages() -> None:
    engine_starts = {name for v in VARIANTS.values() for name, _fen in v.starts}
    assert set(START_NAMES) == set(Game.Setup.values) | engine_starts
    for text in START_NAMES.values():
        assert text.zh and text.en and text.zh != text.en


def test_the_model_and_the_pages_say_the_same_name(client: Client, new_game: Any) -> None:
    plum = new_game(client, variant="feidan", setup="plum_blossom")["id"]
    mixed = new_game(client, variant="xinban", setup="red-new", mode="local")["id"]
    post(client, f"/api/games/{plum}/resign/")
    for language, key in LANGUAGES:
        with translation.override(language):
            choices = {value: str(label) for value, label in Game.Setup.choices}
        assert choices == {k: START_NAMES[k].get(key) for k in Game.Setup.values}

        client.cookies["django_language"] = language
        analysis = page_data(client.get("/analysis/").content.decode(), "analysis-page")
        assert analysis["labels"]["starts"] == {k: t.get(key) for k, t in START_NAMES.items()}

        play = page_data(client.get("/play/").content.decode(), "play-page")
        for variant in play["variants"]:
            for setup in variant["setups"]:
                assert setup["label"] == START_NAMES[setup["name"]].get(key)
                if variant["name"] == "feidan":  # its four ways, each explained
                    assert setup["description"] == START_DESCRIPTIONS[setup["name"]].get(key)

        for gid, setup in ((plum, "plum_blossom"), (mixed, "red-new")):
            heading = client.get(f"/play/{gid}/").content.decode()
            meta = re.search(r'<span class="[^"]*game-meta[^"]*">(.*?)</span>', heading, re.S)
            assert meta and meta.group(1).strip().startswith(START_NAMES[setup].get(key) + " ·")
        mine = client.get("/play/games/").content.decode()
        assert START_NAMES["plum_blossom"].get(key) in mine
        assert START_NAMES["red-new"].get(key) in mine
