"""The playing engine's identity check writes its answers and finds a
difference from a file written before (a tiny run: one position, two levels)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--variants", "xiangqi", "--levels", "1,2", "--one", "1"]


def run(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bench/play_identity.py", *ARGS, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_same_build_is_identical_and_a_changed_answer_is_not(tmp_path: Path) -> None:
    first = tmp_path / "first.jsonl"
    written = run("--out", str(first))
    assert written.returncode == 0, written.stderr
    lines = first.read_text().splitlines()
    answers = [json.loads(line) for line in lines]
    assert [a.get("level") for a in answers] == [1, 2, None]
    assert all(a["nodes"] <= 1_000 for a in answers[:2])
    again = run("--against", str(first))
    assert again.returncode == 0 and "identical" in again.stdout
    changed = dict(answers[1], nodes=answers[1]["nodes"] + 1)
    first.write_text("\n".join([lines[0], json.dumps(changed), lines[2]]) + "\n")
    differs = run("--against", str(first))
    assert differs.returncode == 1
    assert "1 answers differ" in differs.stdout
