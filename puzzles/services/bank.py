"""The shipped puzzle bank: publishing a proved puzzle, and loading ``puzzles/data/bank.json``.

The bank file is written by ``manage.py mine_puzzles`` / ``manage.py prove_classics`` (slow,
run by hand) and read here quickly: each entry carries its proof, so loading proves nothing.
Loading is idempotent: entries are matched by their key and updated in place. A puzzle's named
kill patterns are recomputed from its main line on every load (``entry_themes``), so a change
in the engine's pattern detectors re-tags the whole bank.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from puzzles import proving
from puzzles.bankfile import BANK_PATH, entry_themes, read_bank
from puzzles.models import Goal, Puzzle, PuzzleTheme
from puzzles.tactics import TACTICS_PATH, tactic_themes
from puzzles.tactics_bank import read_tactics
from puzzles.themes import CATALOGUE, cap_themes, derive_themes

# A first guess at a puzzle's rating, by its length; solving moves it from there.
BASE_RATING_BY_LENGTH = {1: 900.0, 2: 1250.0, 3: 1500.0, 4: 1700.0, 5: 1850.0}
SHIPPED_DEVIATION = 250.0
AUTHORED_DEVIATION = 350.0


def initial_rating(*, moves_to_win: int, themes: list[str]) -> float:
    rating = BASE_RATING_BY_LENGTH.get(moves_to_win, 1950.0 + 50.0 * (moves_to_win - 6))
    if "quiet_move" in themes:
        rating += 150.0
    if "sacrifice" in themes:
        rating += 100.0
    if "checks_only" in themes and moves_to_win > 1:
        rating -= 100.0
    return rating


def theme_catalogue_sync() -> dict[str, PuzzleTheme]:
    """Make the theme table match the catalogue; return the themes by slug."""
    themes = {}
    for order, info in enumerate(CATALOGUE):
        theme, _ = PuzzleTheme.objects.update_or_create(
            slug=info.slug,
            defaults={
                "name_en": info.name_en,
                "name_zh": info.name_zh,
                "description_en": info.description_en,
                "description_zh": info.description_zh,
                "order": order,
            },
        )
        themes[info.slug] = theme
    return themes


def puzzle_publish(*, puzzle: Puzzle, result: proving.ProofResult) -> Puzzle:
    """Publish a puzzle that the prover found sound and unique (caller holds the row lock)."""
    if not result.sound or result.proof is None:
        raise ValueError(f"only a sound and unique puzzle is published, not {result.status}")
    slugs = derive_themes(
        variant=puzzle.variant,
        fen=puzzle.fen,
        goal=puzzle.goal,
        moves_to_win=puzzle.moves_to_win,
        main_line=result.main_line,
        mode=result.mode,
    )
    if puzzle.source == Puzzle.Source.AUTHORED:
        slugs.append("user_made")
    themes = theme_catalogue_sync()
    puzzle.proof = result.proof
    puzzle.proof_mode = result.mode
    puzzle.status = Puzzle.Status.PUBLISHED
    puzzle.rejection_reason = ""
    puzzle.rejection = {}
    puzzle.published_at = timezone.now()
    if puzzle.plays == 0:
        puzzle.rating = initial_rating(moves_to_win=puzzle.moves_to_win, themes=slugs)
        puzzle.rating_deviation = AUTHORED_DEVIATION
    puzzle.save()
    puzzle.themes.set([themes[slug] for slug in cap_themes(slugs) if slug in themes])
    return puzzle


# Why a shipped puzzle that has left the bank file is no longer offered.
RETIRED_REASON = "no longer in the shipped bank"


def _entry_slugs(entry: dict[str, Any]) -> list[str]:
    """A bank entry's themes as the engine finds them today: a mate's kill patterns from its
    main line, a tactics puzzle's tactics from its line."""
    if entry["goal"] == Goal.MATERIAL:
        return tactic_themes(entry)
    return entry_themes(entry)


def bank_load(path: Path = BANK_PATH, tactics_path: Path | None = None) -> dict[str, int]:
    """Put the shipped bank (the proved puzzles, and the tactics puzzles of ``tactics_path``)
    into the database; returns counts (added, updated, retired, total). The shipped tactics
    file goes with the shipped bank; a bank file elsewhere stands alone unless given one. A
    shipped puzzle that has left the files (e.g. one whose position no game can reach,
    docs/rules.md §3.5) is retired: rejected with its reason, kept for the attempts made on
    it."""
    if tactics_path is None and path == BANK_PATH:
        tactics_path = TACTICS_PATH
    entries = read_bank(path) + (read_tactics(tactics_path) if tactics_path else [])
    themes = theme_catalogue_sync()
    slugs_of = {entry["key"]: _entry_slugs(entry) for entry in entries}
    added = updated = 0
    with transaction.atomic():
        existing = {
            p.source_key: p
            for p in Puzzle.objects.filter(source_key__in=[e["key"] for e in entries])
        }
        now = timezone.now()
        new = []
        for entry in entries:
            fields = {
                "variant": entry["variant"],
                "fen": entry["fen"],
                "goal": entry["goal"],
                "moves_to_win": entry["moves_to_win"],
                "proof": entry["proof"],
                "proof_mode": entry.get("mode", proving.FULL),
                "title": entry.get("title", ""),
                "collection": entry.get("collection", ""),
                "source": entry.get("source", Puzzle.Source.MINED),
                "source_game": entry.get("source_game", ""),
                "source_ply": entry.get("ply"),
                "source_info": entry.get("game") or {},
            }
            puzzle = existing.get(entry["key"])
            if puzzle is None:
                new.append(
                    Puzzle(
                        source_key=entry["key"],
                        status=Puzzle.Status.PUBLISHED,
                        published_at=now,
                        rating=entry.get("rating")
                        or initial_rating(
                            moves_to_win=entry["moves_to_win"], themes=slugs_of[entry["key"]]
                        ),
                        rating_deviation=SHIPPED_DEVIATION,
                        **fields,
                    )
                )
            else:
                if puzzle.plays == 0 and entry.get("rating") is not None:
                    # Never tried: its starting rating is still the bank's guess.
                    fields["rating"] = entry["rating"]
                if not any(getattr(puzzle, name) != value for name, value in fields.items()):
                    continue
                for name, value in fields.items():
                    setattr(puzzle, name, value)
                puzzle.status = Puzzle.Status.PUBLISHED
                puzzle.save()
                updated += 1
        created = Puzzle.objects.bulk_create(new, batch_size=200)
        added = len(created)
        by_key = {
            p.source_key: p
            for p in Puzzle.objects.filter(source_key__in=[e["key"] for e in entries])
        }
        through = Puzzle.themes.through
        through.objects.filter(puzzle__in=by_key.values()).delete()
        through.objects.bulk_create(
            [
                through(puzzle_id=by_key[entry["key"]].pk, puzzletheme_id=themes[slug].pk)
                for entry in entries
                for slug in cap_themes(slugs_of[entry["key"]])
                if slug in themes
            ],
            batch_size=500,
        )
        retired = (
            Puzzle.objects.filter(
                source__in=[Puzzle.Source.MINED, Puzzle.Source.CLASSIC, Puzzle.Source.GAME],
                source_key__isnull=False,
                status=Puzzle.Status.PUBLISHED,
            )
            .exclude(source_key__in=[e["key"] for e in entries])
            .update(
                status=Puzzle.Status.REJECTED,
                rejection_reason=RETIRED_REASON,
                rejection={"kind": "retired"},
            )
        )
    return {"added": added, "updated": updated, "retired": retired, "total": len(entries)}
