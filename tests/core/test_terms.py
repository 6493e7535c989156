"""One word for one thing, across everything a learner reads: lessons, templates, message
catalogues, the words tables, the puzzle themes, the scripts' texts.

Words once used that the site has given up, with the word that replaced them:

* 新规子 → 策反子: the lessons call the turncoat pieces 策反子, and so does every other text;
* 闲着 → 冷着: a quiet key move is a 冷着 (a 闲着 is a waiting move, something else);
* 长杀 → 多步杀: 长杀 reads like 长将 (perpetual check);
* 无子可动 / 无子可走 → 无着可走: stalemate (困毙) is having no legal move, not having no
  piece left to move;
* English names a native speaker would not use: immortal's pointing soldier → Immortal Points
  the Way (仙人指路), Moon from the sea bottom → Scooping the Moon from the Sea Bottom (海底捞月),
  Two ghosts at the door → Two Ghosts Knocking at the Door (二鬼拍门), surprise move → quiet move
  (冷着, a move that does not give check: 不将之着);
* New-rules Xiangqi → New-version Xiangqi: one English name for 新版中国象棋 (a side plays
  "the new rules", as the source says 新规, but the variant is not named after them);
* New-version Xiangqi's turncoats: together they are 策反子, one of them is named by its look
  (红底车, 黑底马 …, as docs/rules.md names them); captured by the right piece it 被策反 and
  倒戈 (changes sides). Given up: the bare 底车 / 底马 / 底炮 / 底子 (in traditional xiangqi 底
  is the last rank: 底兵, the opening 卒底炮, and a 底车 is a chariot standing there), 反水 (slang)
  and 反正 (a return to one's own side: the other way round).
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.patterns import PATTERNS
from puzzles.themes import CATALOGUE
from tutorials.curriculum import read_lessons

ROOT = Path(__file__).resolve().parents[2]
GIVEN_UP = {
    "新规子": "策反子",
    "闲着": "冷着",
    "长杀": "多步杀",
    "无子可动": "无着可走",
    "无子可走": "无着可走",
    "反水": "倒戈",
    "反正": "倒戈",
}
# 底车 / 底马 / 底炮 / 底子 not part of a piece's name (红底车, 黑底马) or of the traditional
# opening 卒底炮 (兵底炮 as Red plays it).
BARE_BOTTOM = re.compile(r"(?<![红黑卒兵])底[车马炮子]")
NEW_RULES = re.compile(r"new-rules", re.IGNORECASE)
ENGLISH_GIVEN_UP = re.compile(
    r"immortal's pointing soldier|(?<!scooping the )moon from the sea bottom"
    r"|two ghosts at the door|surprise move",
    re.IGNORECASE,
)
# A Chinese name and the English one said beside it.
ENGLISH_NAMES = {
    "仙人指路": "Immortal Points the Way",
    "海底捞月": "Scooping the Moon from the Sea Bottom",
    "二鬼拍门": "Two Ghosts Knocking at the Door",
    "空头炮": "Empty-head cannon",
    "炮碾丹砂": "Cannon grinds the cinnabar",
    "金钩炮": "Golden hook cannon",
    "十字炮": "Cross cannons",
    "送佛归殿": "Escorting the Buddha home",
    "臣压君": "The minister presses the sovereign",
    "白马现蹄": "White horse shows its hoof",
}
# Where a learner's text is written: source, templates, catalogues, lesson files, scripts.
SUFFIXES = {".py", ".html", ".po", ".toml", ".js", ".txt", ".json"}
SKIP = {".venv", "node_modules", "build", "tests", "docs", "bench", ".git", "__pycache__"}


def user_facing_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.suffix in SUFFIXES and path.is_file() and not parts & SKIP:
            found.append(path)
    return found


def test_the_given_up_words_appear_in_no_text_a_learner_reads() -> None:
    files = user_facing_files()
    assert any(p.name == "themes.py" for p in files) and any(p.suffix == ".po" for p in files)
    assert any(p.suffix == ".toml" for p in files) and any(p.suffix == ".html" for p in files)
    problems = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for old, new in GIVEN_UP.items():
            if old in text:
                problems.append(f"{path.relative_to(ROOT)}: {old} (say {new})")
        for found in BARE_BOTTOM.finditer(text):
            problems.append(f"{path.relative_to(ROOT)}: {found.group()} (say 策反子 or 红底车 …)")
        for found in NEW_RULES.finditer(text):
            problems.append(f"{path.relative_to(ROOT)}: {found.group()} (New-version Xiangqi)")
        for found in ENGLISH_GIVEN_UP.finditer(text):
            problems.append(f"{path.relative_to(ROOT)}: {found.group()}")
    assert problems == []


def test_the_turncoat_words_are_the_same_in_the_documentation() -> None:
    """docs/ says what the site says (docs/patterns.md is the catalogue's definitions)."""
    problems = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        problems += [f"{path.name}: {w}" for w in ("反水", "反正") if w in text]
        problems += [f"{path.name}: {m.group()}" for m in BARE_BOTTOM.finditer(text)]
        if re.search(r"new-rules xiangqi", text, re.IGNORECASE):
            problems.append(f"{path.name}: New-rules Xiangqi (New-version Xiangqi)")
        problems += [f"{path.name}: {m.group()}" for m in ENGLISH_GIVEN_UP.finditer(text)]
    assert problems == []


def test_the_theme_catalogue_and_the_lessons_use_the_chosen_words() -> None:
    """The loaded texts too (the puzzle themes are copied into the database from the
    catalogue, the lessons from their files)."""
    themes = {theme.slug: theme for theme in CATALOGUE}
    assert themes["quiet_move"].name_zh == "冷着"
    assert "策反子" in themes["defection"].description_zh
    assert "无着可走" in themes["stalemate"].description_zh
    texts = loaded_texts("zh")
    assert [(old, t) for t in texts for old in GIVEN_UP if old in t] == []
    assert [t for t in texts if BARE_BOTTOM.search(t)] == []
    xinban = [t for t in texts if "策反子" in t]
    assert xinban and [t for t in texts if "倒戈" in t]


def loaded_texts(language: str) -> list[str]:
    """Every loaded text in one language (``zh`` or ``en``): the puzzle themes, the kill
    patterns, the lessons."""
    between = " " if language == "en" else ""
    texts = [
        getattr(t, f"name_{language}") + between + getattr(t, f"description_{language}")
        for t in CATALOGUE
    ]
    texts += [
        getattr(pattern, f"{part}_{language}")
        for pattern in PATTERNS
        for part in ("definition", "summary")
    ]
    for lesson in read_lessons():
        in_language = [lesson.title, lesson.summary, *lesson.rulings]
        for step in lesson.steps:
            in_language += [
                text
                for text in (step.instruction, step.hint, step.success, step.ruling)
                if text is not None
            ]
            in_language += [*step.wrong.values(), *step.right.values()]
        texts += [getattr(text, language) for text in in_language]
    return texts


def english_texts() -> list[str]:
    return loaded_texts("en")


def test_new_version_xiangqi_has_one_english_name() -> None:
    """The loaded English texts name 新版中国象棋 New-version Xiangqi, never New-rules."""
    texts = english_texts()
    assert [t for t in texts if NEW_RULES.search(t)] == []
    assert any("New-version Xiangqi" in t for t in texts)


def test_named_openings_patterns_and_themes_have_the_english_names_players_use() -> None:
    patterns = {pattern.code: pattern for pattern in PATTERNS}
    assert patterns["two_ghosts"].en == "Two Ghosts Knocking at the Door"
    assert patterns["sea_bottom_moon"].en == "Scooping the Moon from the Sea Bottom"
    quiet = next(theme for theme in CATALOGUE if theme.slug == "quiet_move")
    assert quiet.name_en == "Quiet move" and "quiet move" in quiet.description_en
    assert "不将之着（冷着）" in quiet.description_zh
    texts = english_texts()
    assert [t for t in texts if ENGLISH_GIVEN_UP.search(t)] == []
    for chinese, english in ENGLISH_NAMES.items():
        beside = [t for t in texts if chinese in t]
        assert beside and [t for t in beside if english not in t] == [], chinese
