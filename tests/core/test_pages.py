"""The home and analysis pages, the language switch, and that every link leads somewhere."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def page_json(html: str) -> dict[str, object]:
    match = re.search(
        r'<script id="analysis-page" type="application/json">(.*?)</script>', html, re.S
    )
    assert match, "the analysis page embeds its settings"
    return json.loads(match.group(1))


def test_home_page_is_chinese_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    assert "分析棋盘" in html
    for variant in ("xiangqi", "feidan", "xinban"):
        assert f'data-variant="{variant}"' in html


def test_language_switch_turns_the_site_english(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "Analysis board" in html
    assert "Missile Xiangqi" in html
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert "中国飞弹象棋" in client.get("/").content.decode()


def test_browser_language_is_honoured(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="en">' in html


def test_every_link_on_the_main_pages_leads_somewhere(client: Client) -> None:
    seen: set[str] = set()
    for page in ("/", "/analysis/", "/accounts/login/", "/accounts/signup/"):
        html = client.get(page).content.decode()
        for href in re.findall(r'href="(/[^"#]*)"', html):
            if href in seen:
                continue
            seen.add(href)
            response = client.get(href)
            login_first = response.status_code == 302 and response["Location"].startswith(
                "/accounts/login/"
            )
            assert response.status_code == 200 or login_first, (
                f"{page} links to {href}, which answers {response.status_code}"
            )
    assert "/analysis/" in {h.split("?")[0] for h in seen}


def test_analysis_page_restores_a_shared_position(client: Client) -> None:
    response = client.get("/analysis/?variant=feidan&moves=i2f2,i9h7&fen=")
    assert response.status_code == 200
    page = page_json(response.content.decode())
    assert page["variant"] == "feidan"
    assert page["moves"] == ["i2f2", "i9h7"]
    assert page["fen"] is None
    assert page["api"] == {
        "positions": "/api/positions/",
        "variants": "/api/variants/",
        "engine": "/api/games/analysis/",
    }


def test_analysis_page_falls_back_to_xiangqi_for_an_unknown_variant(client: Client) -> None:
    page = page_json(client.get("/analysis/?variant=chess").content.decode())
    assert page["variant"] == "xiangqi"


def test_analysis_page_labels_are_translated(client: Client) -> None:
    page = page_json(client.get("/analysis/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    labels = page["labels"]
    assert isinstance(labels, dict)
    assert labels["terminations"]["checkmate"] == "Checkmate"
    page = page_json(client.get("/analysis/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode())
    assert page["labels"]["terminations"]["checkmate"] == "将死"
    assert page["labels"]["terminations"]["dead_general"] == "死将"


def test_the_analysis_page_passes_over_a_ply_that_is_no_number(client: Client) -> None:
    """A ply of "²" (a digit to str.isdigit(), no number to int()) was a server error."""
    for ply, shown in (("²", None), ("1", 1), ("x", None)):
        answer = client.get("/analysis/", {"moves": "h2e2,h9g7", "ply": ply})
        assert answer.status_code == 200
        assert page_json(answer.content.decode())["ply"] == shown
