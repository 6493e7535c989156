"""Mining runs through a real Celery worker (tests/conftest.py): the chunks go to the ``mining``
queue, each is recorded done with its puzzles, the command prints the run's progress, and the
same run started again skips its finished chunks and still writes their puzzles."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from puzzles.bankfile import read_bank
from puzzles.models import MiningChunk

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


def mine_games_71_to_72(bank: Path) -> str:
    """Two chunks of one game each: a drawn game with no puzzle, and game 73 (index 72), whose
    winner mates in 3 at ply 106."""
    return run(
        "mine_puzzles", "--variant", "xiangqi", "--strategy", "master", "--first", "71",
        "--games", "2", "--chunks", "2", "--count", "10", "--max-moves", "7",
        "--max-one-movers", "1", "--run", "two-games", "--celery", "--output", str(bank),
    )  # fmt: skip


def test_mining_chunks_run_on_their_own_queue() -> None:
    route = settings.CELERY_TASK_ROUTES["puzzles.mine_chunk"]
    assert route["queue"] == settings.CELERY_MINING_QUEUE != settings.CELERY_PROVING_QUEUE
    assert settings.CELERY_MINING_QUEUE in [q.name for q in settings.CELERY_TASK_QUEUES]


def test_a_run_records_its_chunks_and_started_again_skips_the_finished_ones(
    celery_worker: Any, tmp_path: Path
) -> None:
    bank = tmp_path / "bank.json"
    output = mine_games_71_to_72(bank)
    assert "Sent 2 mining chunks" in output and "2/2 chunks done" in output
    chunks = list(MiningChunk.objects.filter(run="two-games").order_by("first"))
    assert [(c.first, c.games, c.status, c.found) for c in chunks] == [
        (71, 1, "done", 0),
        (72, 1, "done", 1),
    ]
    assert chunks[1].stats["games"] == 1 and chunks[1].stats["kept"] == 1
    assert chunks[1].entries[0]["source_game"] == "ccpd:73" and chunks[1].seconds > 0
    assert [(e["source_game"], e["ply"]) for e in read_bank(bank)] == [("ccpd:73", 106)]
    finished = [c.finished_at for c in chunks]

    bank.unlink()
    again = mine_games_71_to_72(bank)
    assert "2 chunk(s) already done, skipped" in again and "Sent" not in again
    assert [
        c.finished_at for c in MiningChunk.objects.filter(run="two-games").order_by("first")
    ] == finished
    assert [(e["source_game"], e["ply"]) for e in read_bank(bank)] == [("ccpd:73", 106)]

    status = run("mine_puzzles", "--status", "two-games")
    assert status.startswith("two-games: 2/2 chunks done (0 running, 0 failed), 2 games, 1 puzzles")


@pytest.mark.django_db
def test_collect_writes_the_puzzles_of_the_chunks_done_so_far_and_mines_no_more(
    tmp_path: Path,
) -> None:
    from puzzles.mining import Chunk
    from puzzles.services.mining import mining_chunk_run, mining_run_plan

    args = ["--variant", "xiangqi", "--strategy", "master", "--first", "71", "--games", "2",
            "--chunks", "2", "--count", "10", "--max-moves", "7", "--max-one-movers", "1",
            "--run", "half-done"]  # fmt: skip
    chunks = [
        Chunk(variant="xiangqi", strategy="master", seed=1 + i, count=5, max_moves=7,
              first=71 + i, games=1)
        for i in range(2)
    ]  # fmt: skip
    mining_run_plan(run="half-done", chunks=chunks)
    mining_chunk_run(run="half-done", chunk=chunks[1])  # game 73 only: its mate in 3

    bank = tmp_path / "bank.json"
    output = run("mine_puzzles", *args, "--collect", "--output", str(bank))
    assert "1 chunk(s) already done, skipped" in output
    assert "1 chunk(s) not done, left for another time" in output
    assert [(e["source_game"], e["ply"]) for e in read_bank(bank)] == [("ccpd:73", 106)]
    statuses = dict(MiningChunk.objects.filter(run="half-done").values_list("first", "status"))
    assert statuses[71] != "done" and statuses[72] == "done"

    with pytest.raises(Exception, match="--collect needs --run"):
        run("mine_puzzles", *args[:-2], "--collect", "--output", str(bank))
