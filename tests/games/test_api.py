"""The games API through HTTP on the real database: a game in every variant and start, moves
checked by the engine, refused moves explained and changing nothing, the endings a player
decides (resign, attack-power claim, agreement at one board), takebacks only where allowed,
secret and plum-blossom setups, my games, replay, and a visitor's games kept on sign-up."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine import Position, combine_secret_setups, plum_blossom, random_secret_half
from games.models import Game
from games.services import SETUPS_BY_VARIANT, secret_half_random
from tests.games.conftest import error_code, post

pytestmark = pytest.mark.django_db


def _set_start(game_id: int, fen: str) -> None:
    """Give a test game a start position of its own (the site starts only named starts)."""
    Game.objects.filter(pk=game_id).update(start_fen=fen, moves=[])


FEIDAN_START = Position.start("feidan")


def standard_half(color: str) -> dict[str, str]:
    """A side's pieces where the open feidan start has them: a legal secret half."""
    return {
        point: letter
        for point, letter in FEIDAN_START.pieces().items()
        if letter.isupper() == (color == "red")
    }


@pytest.mark.parametrize(
    ("variant", "setup"),
    [(variant, setup) for variant, setups in SETUPS_BY_VARIANT.items() for setup in setups],
)
@pytest.mark.parametrize("mode", ["computer", "local"])
def test_a_game_starts_in_every_variant_and_start(
    client: Client, new_game: Any, variant: str, setup: str, mode: str
) -> None:
    game = new_game(client, variant=variant, setup=setup, mode=mode)
    assert game["variant"] == variant and game["setup"] == setup and game["mode"] == mode
    if setup in ("five_soldiers", "middle_soldier"):
        assert game["status"] == "setting_up"
        assert game["setup_info"]["pending"] == "red"
        assert "halves" not in game["setup_info"]  # nothing secret is shown
        assert game["legal_moves"] == []
        return
    assert game["status"] == "playing" and game["turn"] == "red"
    if setup == "plum_blossom":
        info = game["setup_info"]["plum_blossom"]
        expected = plum_blossom(datetime.fromisoformat(info["moment"]))
        assert game["start_fen"] == expected.fen
        assert info["hexagram"] == expected.hexagram and info["number"] == expected.number
    else:
        name = setup if variant == "xinban" else None
        assert game["start_fen"] == Position.start(variant, name).fen()
    assert len(game["legal_moves"]) > 0
    assert set(game["legal_moves"]) <= set(game["board_moves"])


def test_a_random_side_is_drawn_from_the_games_seed(client: Client, new_game: Any) -> None:
    ids = [new_game(client, side="random", level=1)["id"] for _ in range(24)]
    games = list(Game.objects.filter(pk__in=ids))
    # both sides come up (all 24 alike: one chance in eight million) ...
    assert {g.human_side for g in games} == {"red", "black"}
    # ... and the side is the seed's, so a game replays with the side it had
    for g in games:
        assert g.human_side == random.Random(g.seed).choice(("red", "black"))
        assert g.computer_side == ("black" if g.human_side == "red" else "red")


def test_moves_are_played_and_recorded_for_replay(client: Client, new_game: Any, move: Any) -> None:
    game = new_game(client, mode="local")
    gid = game["id"]
    for text in ("h2e2", "马8进7", "h0g2"):
        response = move(client, gid, text)
        assert response.status_code == 200, response.content
    game = response.json()
    assert [m["iccs"] for m in game["moves"]] == ["h2e2", "h9g7", "h0g2"]
    assert [m["chinese"] for m in game["moves"]] == ["炮二平五", "马8进7", "马二进三"]
    replay = Position.start("xiangqi")
    for entry in game["moves"]:
        replay.push_iccs(entry["iccs"])
        assert entry["fen"] == replay.fen()
    assert game["fen"] == replay.fen() and game["turn"] == "black"
    detail = client.get(f"/api/games/{gid}/").json()
    assert detail["moves"] == game["moves"]


def test_an_illegal_move_is_explained_as_in_the_lessons(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client)["id"]
    response = move(client, gid, "a3b3")  # a soldier steps sideways before the river
    # trying a move is not a fault of the request: an answer, with the reason
    assert response.status_code == 200 and response.json()["legal"] is False
    extra = response.json()["error"]["extra"]
    assert extra["code"] == "illegal_move" and extra["reason"] == "soldier_sideways"
    assert "river" in extra["explanation"]["en"] and "过河" in extra["explanation"]["zh"]
    assert client.get(f"/api/games/{gid}/").json()["plies"] == 0


def test_a_move_that_leaves_the_general_in_check_is_explained(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, mode="local")["id"]
    # the red chariot on e1 stands between its general and a black chariot
    _set_start(gid, "3k5/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1")
    response = move(client, gid, "e1d1")
    assert response.status_code == 200 and response.json()["legal"] is False
    extra = response.json()["error"]["extra"]
    assert extra["code"] == "illegal_move" and extra["reason"] == "exposes_general"


@pytest.mark.parametrize("forged", ["z9z9", "hello", "e0", "炮十平五", "a0a0"])
def test_a_forged_move_is_refused(client: Client, new_game: Any, move: Any, forged: str) -> None:
    gid = new_game(client)["id"]
    response = move(client, gid, forged)
    assert response.status_code == 400  # a move in no notation is a fault of the request
    assert error_code(response) == "invalid_move"
    assert Game.objects.get(pk=gid).moves == []


def test_a_move_for_the_wrong_side_is_refused(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, side="red")["id"]
    response = move(client, gid, "h7e7")  # a black cannon
    assert response.status_code == 200 and error_code(response) == "wrong_side"
    assert response.json()["legal"] is False
    assert Game.objects.get(pk=gid).moves == []


def test_a_move_on_the_computers_turn_is_refused(client: Client, new_game: Any, move: Any) -> None:
    game = new_game(client, side="black")  # the computer has Red and moves first
    assert game["thinking"] is True and game["legal_moves"] == []
    for text in ("h2e2", "h7e7"):
        response = move(client, game["id"], text)
        assert response.status_code == 400 and error_code(response) == "computer_to_move"
    assert Game.objects.get(pk=game["id"]).moves == []


def test_someone_elses_game_is_refused(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client)["id"]
    other = Client()
    assert other.get(f"/api/games/{gid}/").status_code == 404
    assert other.get(f"/play/{gid}/").status_code == 404
    for path, body in (
        ("moves/", {"move": "h2e2"}),
        ("resign/", {}),
        ("takeback/", {}),
        ("claim/", {}),
        ("draw/", {}),
        ("setup/", {"placement": standard_half("red")}),
        ("share/", {}),
    ):
        assert post(other, f"/api/games/{gid}/{path}", body).status_code == 404, path
    assert Game.objects.get(pk=gid).status == "playing" and Game.objects.get(pk=gid).moves == []


def test_a_stale_board_is_refused(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, mode="local")["id"]
    assert move(client, gid, "h2e2", ply=0).status_code == 200
    response = move(client, gid, "h7e7", ply=0)
    assert response.status_code == 400 and error_code(response) == "out_of_date"


def test_resigning_ends_the_game_and_no_move_follows(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, side="red")["id"]
    game = post(client, f"/api/games/{gid}/resign/").json()
    assert game["status"] == "finished" and game["termination"] == "resignation"
    assert game["winner"] == "black" and game["result"] == "0-1" and game["ended_by"] == "red"
    assert "resigned" in game["ending"]["en"] and "认输" in game["ending"]["zh"]
    response = move(client, gid, "h2e2")
    assert response.status_code == 400 and error_code(response) == "game_over"
    assert error_code(post(client, f"/api/games/{gid}/resign/")) == "game_over"


def test_at_one_board_the_side_to_move_resigns(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, mode="local")["id"]
    move(client, gid, "h2e2")
    game = post(client, f"/api/games/{gid}/resign/").json()
    assert game["winner"] == "red" and game["ended_by"] == "black"


def test_at_one_board_a_draw_is_agreed(client: Client, new_game: Any) -> None:
    gid = new_game(client, mode="local")["id"]
    game = post(client, f"/api/games/{gid}/draw/").json()
    assert game["termination"] == "agreement" and game["result"] == "1/2-1/2"


def test_takeback_only_at_levels_1_to_3(client: Client, new_game: Any, move: Any) -> None:
    for level in range(1, 9):
        game = new_game(client, level=level)
        gid = game["id"]
        assert game["takeback_allowed"] is (level <= 3)
        assert move(client, gid, "h2e2").status_code == 200
        response = post(client, f"/api/games/{gid}/takeback/")
        if level <= 3:
            # the computer is still thinking: only the player's move comes back
            assert response.status_code == 200, response.content
            assert response.json()["plies"] == 0 and response.json()["turn"] == "red"
        else:
            assert response.status_code == 400 and error_code(response) == "takeback_level"
            assert Game.objects.get(pk=gid).ply == 1


def test_nothing_to_take_back(client: Client, new_game: Any) -> None:
    gid = new_game(client, level=1)["id"]
    response = post(client, f"/api/games/{gid}/takeback/")
    assert response.status_code == 400 and error_code(response) == "takeback_nothing"


def test_a_takeback_at_one_board_undoes_one_ply(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, mode="local")["id"]
    move(client, gid, "h2e2")
    move(client, gid, "h7e7")
    game = post(client, f"/api/games/{gid}/takeback/").json()
    assert [m["iccs"] for m in game["moves"]] == ["h2e2"] and game["turn"] == "black"


ATTACK_POWER_FEN = "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1"  # red soldier (2) against ...


def test_an_attack_power_claim_when_the_rule_allows_it(client: Client, new_game: Any) -> None:
    gid = new_game(client, variant="xinban", setup="new", side="red")["id"]
    _set_start(gid, ATTACK_POWER_FEN.replace("4k4", "n3k4"))  # a black horse (4): red is weaker
    game = client.get(f"/api/games/{gid}/").json()
    assert game["attack_power"] == {"red": 2, "black": 4} and game["can_claim_draw"] is False
    response = post(client, f"/api/games/{gid}/claim/")
    assert response.status_code == 400 and error_code(response) == "claim_not_allowed"
    _set_start(gid, "4k4/9/9/9/p3P4/9/9/9/9/3K5 w - - 0 1")  # a black soldier (2): equal
    game = client.get(f"/api/games/{gid}/").json()
    assert game["attack_power"] == {"red": 2, "black": 2} and game["can_claim_draw"] is True
    game = post(client, f"/api/games/{gid}/claim/").json()
    assert game["termination"] == "attack_power" and game["result"] == "1/2-1/2"
    assert game["ended_by"] == "red" and "attack power" in game["ending"]["en"]


def test_no_attack_power_claim_outside_xinban(client: Client, new_game: Any) -> None:
    gid = new_game(client, variant="xiangqi")["id"]
    response = post(client, f"/api/games/{gid}/claim/")
    assert response.status_code == 400 and error_code(response) == "claim_no_attack_power"


ENDINGS_FEN = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"


@pytest.mark.parametrize(
    ("last", "termination", "words"),
    [("b0b9", "checkmate", ("Checkmate", "将死")), ("a8f8", "stalemate", ("Stalemate", "困毙"))],
)
def test_mate_and_stalemate_are_announced_with_their_rule(
    client: Client, new_game: Any, move: Any, last: str, termination: str, words: Any
) -> None:
    gid = new_game(client, mode="local")["id"]
    _set_start(gid, ENDINGS_FEN)
    game = move(client, gid, last).json()
    assert game["status"] == "finished" and game["termination"] == termination
    assert game["winner"] == "red" and game["result"] == "1-0"
    assert words[0] in game["ending"]["en"] and words[1] in game["ending"]["zh"]
    assert error_code(move(client, gid, "e9e8")) == "game_over"


def test_perpetual_check_is_announced_and_names_the_checker(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, mode="local")["id"]
    _set_start(gid, "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1")
    cycle = ["i0i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9", "i8i9"]
    game: dict[str, Any] = {}
    for text in cycle:
        assert game.get("status") in (None, "playing")
        game = move(client, gid, text).json()
    assert game["termination"] == "perpetual_check" and game["winner"] == "black"
    assert "Red gave check with every move" in game["ending"]["en"]
    assert "长将" in game["ending"]["zh"] and "红方" in game["ending"]["zh"]


def test_secret_setup_refuses_a_bad_half_and_explains_each_fault(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, variant="feidan", setup="five_soldiers", side="red")["id"]
    half = standard_half("red")
    half["f4"] = half.pop("f0")  # the general leaves the palace
    half["b4"] = half.pop("b3")  # a soldier leaves its start point
    del half["a0"]  # a missile is missing
    response = post(client, f"/api/games/{gid}/setup/", {"placement": half})
    assert response.status_code == 400 and error_code(response) == "illegal_setup"
    faults = response.json()["error"]["extra"]["violations"]
    codes = {f["code"] for f in faults}
    assert {"general_outside_palace", "soldier_not_on_start_point", "wrong_piece_count"} <= codes
    assert all(f["text"]["zh"] and f["text"]["en"] for f in faults)
    assert any("九宫" in f["text"]["zh"] for f in faults)
    game = Game.objects.get(pk=gid)
    assert game.status == "setting_up" and game.setup_info["halves"] == {}


def test_the_setup_check_explains_without_storing(client: Client) -> None:
    half = standard_half("black")
    half["a5"] = half.pop("a9")  # a missile out of its base
    answer = post(
        client,
        "/api/games/setup/check/",
        {"method": "middle_soldier", "color": "black", "placement": half},
    ).json()
    assert answer["legal"] is False
    assert [v["code"] for v in answer["violations"]] == ["missile_not_in_base"]
    assert "导弹基地" in answer["violations"][0]["text"]["zh"]
    legal = post(
        client,
        "/api/games/setup/check/",
        {"method": "middle_soldier", "color": "black", "placement": standard_half("black")},
    ).json()
    assert legal == {"legal": True, "violations": []}


def test_two_spellings_of_one_point_are_refused_and_nothing_is_lost(
    client: Client, new_game: Any
) -> None:
    """``"f１"`` (a full-width digit) beside ``f1`` once passed the check and the submit, and
    the reveal kept one of the two pieces: here the red general was lost."""
    for method in ("five_soldiers", "middle_soldier"):
        gid = new_game(client, variant="feidan", setup=method, side="red")["id"]
        half = standard_half("red")
        half["f1"] = half.pop("e0")  # an advisor on f1 ...
        half["f\uff11"] = half.pop("f0")  # ... and the general "on f1" too
        check = post(
            client,
            "/api/games/setup/check/",
            {"method": method, "color": "red", "placement": half},
        ).json()
        assert check["legal"] is False
        assert {"point": "f\uff11", "code": "unknown_point"} in [
            {"point": v["point"], "code": v["code"]} for v in check["violations"]
        ]
        response = post(client, f"/api/games/{gid}/setup/", {"placement": half})
        assert response.status_code == 400 and error_code(response) == "illegal_setup"
        # Upper and lower case name one point: two pieces on it, refused as well.
        cased = standard_half("red")
        cased["F1"] = cased.pop("e0")
        cased["f1"] = cased.pop("g0")
        response = post(client, f"/api/games/{gid}/setup/", {"placement": cased})
        assert response.status_code == 400 and error_code(response) == "illegal_setup"
        faults = response.json()["error"]["extra"]["violations"]
        assert "two_pieces_one_point" in {f["code"] for f in faults}
        game = Game.objects.get(pk=gid)
        assert game.status == "setting_up" and game.setup_info["halves"] == {}


def test_the_computer_s_secret_half_cannot_be_computed_by_the_player(
    client: Client, new_game: Any
) -> None:
    """The computer's half was drawn from ``Random(f"{seed}:{round}")`` and the API answered
    the seed: a player could compute it before arranging their own."""
    method = "five_soldiers"
    game = new_game(client, variant="feidan", setup=method, side="red")
    gid = game["id"]
    assert "seed" not in game
    seed = 1_234_567_891  # a number no page shows by chance
    Game.objects.filter(pk=gid).update(seed=seed)
    for page in (client.get(f"/api/games/{gid}/"), client.get(game["url"])):
        assert page.status_code == 200
        assert str(seed) not in page.content.decode()
    played = post(client, f"/api/games/{gid}/setup/", {"placement": standard_half("red")})
    drawn = played.json()["setup_info"]["halves"]["black"]
    assert "seed" not in played.json()
    predicted = random_secret_half("black", method, random.Random(f"{seed}:0"))
    assert drawn != predicted
    assert drawn == random_secret_half(
        "black", method, secret_half_random(seed=seed, round_number=0)
    )


def _void_seed(method: str, mine: dict[str, str]) -> int:
    """A seed whose first computer half makes a void reveal against ``mine`` and whose second
    does not (the computer's halves are drawn from the game's seed, the round and the site's
    secret key)."""
    for seed in range(5000):
        first = random_secret_half("black", method, secret_half_random(seed=seed, round_number=0))  # type: ignore[arg-type]
        second = random_secret_half("black", method, secret_half_random(seed=seed, round_number=1))  # type: ignore[arg-type]
        if (
            combine_secret_setups(mine, first, method).void  # type: ignore[arg-type]
            and not combine_secret_setups(mine, second, method).void  # type: ignore[arg-type]
        ):
            return seed
    raise AssertionError("no seed found")


def test_a_void_reveal_is_set_up_again_and_then_played(client: Client, new_game: Any) -> None:
    method = "middle_soldier"
    mine = standard_half("red")
    # the red general on e1 with the e-file open: a black general on e7-e9 may face it
    mine["e1"] = mine.pop("f0")
    mine["d4"] = mine.pop("d3")
    mine["g4"] = mine.pop("h3")
    gid = new_game(client, variant="feidan", setup=method, side="red")["id"]
    seed = _void_seed(method, mine)
    Game.objects.filter(pk=gid).update(seed=seed)

    game = post(client, f"/api/games/{gid}/setup/", {"placement": mine}).json()
    assert game["status"] == "setting_up"
    void = game["setup_info"]["void_reveals"]
    assert len(void) == 1 and void[0]["reasons"] and "重新布局" in void[0]["text"]["zh"]
    assert game["setup_info"]["round"] == 1 and "halves" not in game["setup_info"]

    game = post(client, f"/api/games/{gid}/setup/", {"placement": mine}).json()
    assert game["status"] == "playing" and game["setup_info"]["revealed"] is True
    start = Position.from_fen("feidan", game["start_fen"]).pieces()
    assert {p: v for p, v in start.items() if v.isupper()} == mine
    drawn = random_secret_half("black", method, secret_half_random(seed=seed, round_number=1))
    assert {p: v for p, v in start.items() if v.islower()} == drawn
    assert game["setup_info"]["halves"]["black"] == drawn
    assert len(game["legal_moves"]) > 0


def test_a_void_reveal_at_one_board_is_set_up_again_by_both_players(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, variant="feidan", setup="middle_soldier", mode="local")["id"]
    red, black = standard_half("red"), standard_half("black")
    red["e1"] = red.pop("f0")  # the two generals on the open e-file: they face each other
    black["e8"] = black.pop("f9")
    post(client, f"/api/games/{gid}/setup/", {"placement": red})
    game = post(client, f"/api/games/{gid}/setup/", {"placement": black}).json()
    assert game["status"] == "setting_up" and game["setup_info"]["pending"] == "red"
    void = game["setup_info"]["void_reveals"]
    assert void[0]["reasons"] == ["generals_facing"]
    # no computer at this board: the sentence does not speak of one
    assert "电脑" not in void[0]["text"]["zh"] and "computer" not in void[0]["text"]["en"]
    assert "双方重新布局" in void[0]["text"]["zh"]


def test_the_computers_half_is_never_shown_before_the_reveal(client: Client, new_game: Any) -> None:
    gid = new_game(client, variant="feidan", setup="five_soldiers", side="black")["id"]
    body = client.get(f"/api/games/{gid}/").content.decode()
    page = client.get(f"/play/{gid}/").content.decode()
    assert "halves" not in body and '"halves"' not in page
    assert client.get(f"/api/games/{gid}/").json()["setup_info"]["pending"] == "black"


def test_two_players_set_up_in_turn_at_one_board(client: Client, new_game: Any) -> None:
    gid = new_game(client, variant="feidan", setup="five_soldiers", mode="local")["id"]
    game = post(client, f"/api/games/{gid}/setup/", {"placement": standard_half("red")}).json()
    assert game["status"] == "setting_up" and game["setup_info"]["pending"] == "black"
    assert "halves" not in game["setup_info"]
    game = post(client, f"/api/games/{gid}/setup/", {"placement": standard_half("black")}).json()
    assert game["status"] == "playing"
    assert game["start_fen"] == Position.start("feidan").fen()
    response = post(client, f"/api/games/{gid}/setup/", {"placement": standard_half("red")})
    assert response.status_code == 400 and error_code(response) == "not_setting_up"


def test_a_move_before_the_setup_is_refused(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, variant="feidan", setup="five_soldiers")["id"]
    response = move(client, gid, "i2f2")
    assert response.status_code == 400 and error_code(response) == "setting_up"


def test_a_defection_is_recorded(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, variant="xinban", setup="new", mode="local")["id"]
    game = move(client, gid, "h2h9").json()  # the cannon takes the turncoat horse
    entry = game["moves"][0]
    assert entry["effect"] == "defection" and entry["defected"] == "N"
    assert Position.from_fen("xinban", game["fen"]).piece_at("h2") == "N"


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "chess"},
        {"variant": "xiangqi", "setup": "plum_blossom"},
        {"variant": "feidan", "setup": "new"},
        {"variant": "xiangqi", "level": 9},
        {"variant": "xiangqi", "level": 0},
        {"variant": "xiangqi", "side": "green"},
        {"variant": "xiangqi", "clock_minutes": -1},
    ],
)
def test_bad_game_options_are_refused(client: Client, body: dict[str, Any]) -> None:
    response = post(client, "/api/games/", body)
    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_my_games_list_and_page(client: Client, new_game: Any) -> None:
    first = new_game(client)["id"]
    second = new_game(client, variant="feidan", mode="local")["id"]
    post(client, f"/api/games/{first}/resign/")
    listed = client.get("/api/games/").json()
    assert [g["id"] for g in listed] == [second, first]
    assert listed[1]["termination"] == "resignation"
    page = client.get("/play/games/").content.decode()
    assert f"/play/{first}/" in page and f"/play/{second}/" in page
    assert Client().get("/api/games/").json() == []


MATE_IN_ONE_FOR_RED = "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1"  # i0i9 mates


def test_a_finished_game_says_who_won_from_the_players_side(
    client: Client, new_game: Any, move: Any
) -> None:
    won = new_game(client, side="red", level=1)["id"]
    _set_start(won, MATE_IN_ONE_FOR_RED)
    game = move(client, won, "i0i9").json()
    assert game["termination"] == "checkmate" and game["outcome"] == "won"
    assert game["headline"] == {"zh": "你赢了——将死", "en": "You won — checkmate"}
    lost = new_game(client, side="black", level=1)["id"]
    game = post(client, f"/api/games/{lost}/resign/").json()
    assert game["outcome"] == "lost"
    assert game["headline"] == {"zh": "你输了——你认输了", "en": "You lost — you resigned"}
    # at one board there is no "you": the side that won
    local = new_game(client, mode="local")["id"]
    game = post(client, f"/api/games/{local}/resign/", {"color": "red"}).json()
    assert game["outcome"] == "black_won"
    assert game["headline"] == {"zh": "黑方胜——红方认输", "en": "Black won — Red resigned"}
    playing = new_game(client)
    assert playing["outcome"] is None and playing["headline"] is None
    listed = {g["id"]: g["outcome"] for g in client.get("/api/games/").json()}
    assert listed == {won: "won", lost: "lost", local: "black_won", playing["id"]: None}
    # my games says it the same way, in the reader's language
    for language, said in (
        ("en", ["You won — checkmate", "You lost — you resigned"]),
        ("zh-hans", ["你赢了——将死", "你输了——你认输了"]),
    ):
        client.cookies["django_language"] = language
        page = client.get("/play/games/").content.decode()
        assert all(text in page for text in said), page
        assert "1-0 ·" not in page and "0-1 ·" not in page


def test_the_play_pages_render_in_both_languages(client: Client, new_game: Any) -> None:
    gid = new_game(client)["id"]
    for language, word in (("en", "Start the game"), ("zh-hans", "开始对局")):
        client.cookies["django_language"] = language
        assert word in client.get("/play/").content.decode()
        assert client.get(f"/play/{gid}/").status_code == 200
        assert client.get("/play/games/").status_code == 200


def test_a_visitors_games_move_to_the_account_on_sign_up(client: Client, new_game: Any) -> None:
    gid = new_game(client)["id"]
    password = "a-long-test-password-7"
    response = client.post(
        "/accounts/signup/", {"username": "lin", "password1": password, "password2": password}
    )
    assert response.status_code == 302
    game = Game.objects.get(pk=gid)
    assert game.user is not None and game.user.username == "lin" and game.visitor_id is None
    assert [g["id"] for g in client.get("/api/games/").json()] == [gid]
    assert client.get(f"/api/games/{gid}/").status_code == 200


def test_creating_games_is_throttled(client: Client, new_game: Any, settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "games": "2/hour"}
    new_game(client)
    new_game(client)
    response = post(client, "/api/games/", {"variant": "xiangqi", "level": 1})
    assert response.status_code == 429 and Game.objects.count() == 2


def test_moves_are_throttled(client: Client, new_game: Any, move: Any, settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "game_moves": "2/min"}
    gid = new_game(client, mode="local")["id"]
    assert move(client, gid, "h2e2").status_code == 200
    assert move(client, gid, "h7e7").status_code == 200
    assert move(client, gid, "h0g2").status_code == 429
    assert Game.objects.get(pk=gid).ply == 2


def test_a_clock_runs_out_and_the_game_is_lost_on_time(
    client: Client, new_game: Any, move: Any
) -> None:
    game = new_game(client, mode="local", clock_minutes=1, clock_increment=2)
    gid = game["id"]
    assert game["clock"]["red_ms"] == 60_000 and game["clock"]["running"] is None
    assert move(client, gid, "h2e2").status_code == 200
    stored = Game.objects.get(pk=gid)
    assert stored.red_clock_ms == 62_000  # the first ply is free; the increment comes after it
    # Black's minute is spent: the next look at the game ends it on time
    Game.objects.filter(pk=gid).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    game = client.get(f"/api/games/{gid}/").json()
    assert game["status"] == "finished" and game["termination"] == "timeout"
    assert game["winner"] == "red" and game["ended_by"] == "black"
    assert "ran out of time" in game["ending"]["en"] and "超时" in game["ending"]["zh"]


def test_a_move_after_the_flag_falls_is_not_played(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, mode="local", clock_minutes=1)["id"]
    move(client, gid, "h2e2")
    Game.objects.filter(pk=gid).update(turn_started_at=timezone.now() - timedelta(seconds=90))
    game = move(client, gid, "h7e7").json()
    assert game["termination"] == "timeout" and game["plies"] == 1 and game["winner"] == "red"


@pytest.mark.parametrize("mode", ["computer", "local"])
def test_no_clock_runs_before_the_first_move(
    client: Client, new_game: Any, move: Any, mode: str
) -> None:
    """A 1-minute game opened two minutes ago and not yet begun: the first move is played,
    with the whole minute left; only then does the other side's clock run."""
    game = new_game(client, mode=mode, clock_minutes=1)
    gid = game["id"]
    assert game["clock"]["running"] is None and game["clock"]["red_ms"] == 60_000
    long_ago = timezone.now() - timedelta(minutes=2)
    Game.objects.filter(pk=gid).update(created_at=long_ago)
    Game.objects.filter(pk=gid, turn_started_at__isnull=False).update(turn_started_at=long_ago)
    assert client.get(f"/api/games/{gid}/").json()["status"] == "playing"
    played = move(client, gid, "h2e2").json()
    assert played["status"] == "playing" and played["plies"] == 1
    assert played["clock"]["red_ms"] == 60_000
    # at one board Black's clock runs now; against the computer, once its search starts
    assert played["clock"]["running"] == ("black" if mode == "local" else None)


def test_a_chinese_move_and_an_illegal_chinese_move(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, mode="local")["id"]
    assert move(client, gid, "炮二平五").json()["moves"][0]["iccs"] == "h2e2"
    response = move(client, gid, "车1进5")  # the black soldier on a6 is in the chariot's way
    assert response.status_code == 200 and error_code(response) == "illegal_move"
    extra = response.json()["error"]["extra"]
    assert extra["reason"] == "path_blocked" and "a6" in extra["explanation"]["en"]
    assert Game.objects.get(pk=gid).ply == 1


def test_every_ending_of_the_engine_has_its_sentence() -> None:
    from engine.rules import TERMINATIONS
    from words.endings import GAME_ENDS, ending_sentence

    for termination in (*TERMINATIONS, *GAME_ENDS):
        for winner in ("red", "black", None):
            text = ending_sentence(termination, winner, claimant="red")
            assert text.zh and text.en and "{" not in text.zh + text.en


def test_the_puzzle_editor_opens_a_games_position(client: Client, django_user_model: Any) -> None:
    client.force_login(django_user_model.objects.create_user(username="author", password="x"))
    fen = Position.start("xinban").fen()
    page = client.get("/puzzles/create/", {"variant": "xinban", "fen": fen}).content.decode()
    assert '"initial": {"variant": "xinban", "fen": "' + fen + '"}' in page
    bad = client.get("/puzzles/create/", {"variant": "xinban", "fen": "not a fen"})
    assert '"initial": null' in bad.content.decode()


def test_a_visitor_is_told_that_making_a_puzzle_needs_an_account(
    client: Client, new_game: Any, django_user_model: Any
) -> None:
    client.cookies["django_language"] = "en"
    gid = new_game(client, mode="local")["id"]
    note = "Making a puzzle needs an account"
    assert note in client.get(f"/play/{gid}/").content.decode()
    user = django_user_model.objects.create_user(username="author", password="x")
    client.force_login(user)
    Game.objects.filter(pk=gid).update(user=user, visitor_id=None)
    page = client.get(f"/play/{gid}/")
    assert page.status_code == 200 and note not in page.content.decode()


def test_a_placement_of_other_things_is_refused_or_explained(client: Client) -> None:
    body = {"method": "five_soldiers", "color": "red"}
    for placement in ({"a0": 0}, {}, {"a0": ["M"]}):
        response = post(client, "/api/games/setup/check/", {**body, "placement": placement})
        assert response.status_code == 400, placement
    answer = post(
        client, "/api/games/setup/check/", {**body, "placement": {"z9": "K", "a0": "m", "b0": "Q"}}
    ).json()
    codes = {v["code"]: v["text"] for v in answer["violations"]}
    assert {"unknown_point", "wrong_color", "unknown_piece"} <= set(codes)
    assert "棋盘" in codes["unknown_point"]["zh"] and "对方" in codes["wrong_color"]["zh"]


@pytest.mark.parametrize(
    ("variant", "termination", "winner"),
    [("xiangqi", "repetition", None), ("xinban", "forced_variation", "red")],
)
def test_a_repetition_is_a_draw_or_a_forced_variation(
    client: Client, new_game: Any, move: Any, variant: str, termination: str, winner: Any
) -> None:
    setup = "new" if variant == "xinban" else "standard"
    gid = new_game(client, variant=variant, setup=setup, mode="local")["id"]
    _set_start(gid, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    shuffle = ["e0e1", "d9d8", "e1e0", "d8d9"] * 2  # the start comes back a third time
    game: dict[str, Any] = {}
    for text in shuffle:
        game = move(client, gid, text).json()
    assert game["termination"] == termination and game["winner"] == winner
    assert game["plies"] == 8
    if winner:
        assert "Black repeated the position" in game["ending"]["en"]
        assert "强制变着" in game["ending"]["zh"]


def test_the_natural_limit_is_a_draw(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, mode="local")["id"]
    _set_start(gid, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 119 60")
    game = move(client, gid, "e0e1").json()
    assert game["termination"] == "natural_limit" and game["result"] == "1/2-1/2"
    assert "120 plies" in game["ending"]["en"]


def test_another_users_game_is_refused(
    client: Client, new_game: Any, django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user(username="owner", password="x"))
    gid = new_game(client)["id"]
    other = Client()
    other.force_login(django_user_model.objects.create_user(username="other", password="x"))
    assert other.get(f"/api/games/{gid}/").status_code == 404
    assert post(other, f"/api/games/{gid}/moves/", {"move": "h2e2"}).status_code == 404
    assert other.get("/api/games/").json() == []
    assert Client().get(f"/api/games/{gid}/").status_code == 404  # nor to a visitor


def test_playing_black_with_a_secret_setup_the_computer_moves_first(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, variant="feidan", setup="middle_soldier", side="black")["id"]
    game: dict[str, Any] = {}
    for _ in range(20):  # a void reveal is set up again
        game = post(
            client, f"/api/games/{gid}/setup/", {"placement": standard_half("black")}
        ).json()
        if game["status"] == "playing":
            break
    assert game["status"] == "playing" and game["thinking"] is True
    assert game["computer_side"] == "red" and game["turn"] == "red"
    red = game["setup_info"]["halves"]["red"]
    assert post(
        client,
        "/api/games/setup/check/",
        {"method": "middle_soldier", "color": "red", "placement": red},
    ).json() == {"legal": True, "violations": []}
    assert Game.objects.get(pk=gid).computer_queued_at is not None


def test_a_dead_general_is_announced(client: Client, new_game: Any, move: Any) -> None:
    gid = new_game(client, variant="feidan", mode="local")["id"]
    _set_start(gid, "4k6/11/11/11/11/11/11/m10/11/4AKA4 b - - 0 1")
    game = move(client, gid, "a2f2").json()  # the missile enters Red's palace: no escape
    assert game["termination"] == "dead_general" and game["winner"] == "black"
    assert "Dead general" in game["ending"]["en"] and "死将" in game["ending"]["zh"]
    assert game["turn"] == "red" and game["check"] == "f0"


def test_perpetual_chase_is_announced_and_names_the_chaser(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = new_game(client, mode="local")["id"]
    _set_start(gid, "5k3/9/c8/9/9/9/9/9/1R7/4K4 w - - 0 1")  # the chariot chases the cannon
    game: dict[str, Any] = {}
    for text in ["b1a1", "a7b7", "a1b1", "b7a7"] * 2:
        game = move(client, gid, text).json()
    assert game["termination"] == "perpetual_chase" and game["winner"] == "black"
    assert "Red chased a piece with every move" in game["ending"]["en"]
