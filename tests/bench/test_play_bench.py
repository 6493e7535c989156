"""The playing engine's benchmark runs end to end with tiny settings (the
figures themselves are not checked here)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_play_bench_quick_run_prints_every_section() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "bench/play_bench.py",
            "--quick",
            "--sections",
            "speed,levels,strength,ladder,tactics,tune,cap,ablation",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for heading in (
        "## speed",
        "## time per move",
        "## top level",
        "## each level",
        "## tactics",
        "## tuning",
        "## top level at its own budget with the",
        "## the search's techniques",
    ):
        assert heading in out
    for variant in ("xiangqi", "feidan", "xinban"):
        assert variant in out
    assert "solved " in out


def _bench(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "bench/play_bench.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_recorded_games_are_not_played_again(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    quick = ("--quick", "--sections", "strength", "--variants", "xiangqi", "--record")
    first = _bench(*quick, str(record))
    lines = record.read_text().splitlines()
    assert len(lines) == 2  # one game against each opponent
    entry = json.loads(lines[0])
    assert entry["section"] == "strength"
    assert entry["players"][1] == ["random"]
    assert entry["result"] in (0.0, 0.5, 1.0)
    assert entry["plies"] > 0 and len(entry["digest"]) == 16
    again = _bench(*quick, str(record))
    assert record.read_text().splitlines() == lines  # nothing played twice
    assert again.count("1 from the record") == 2
    # the same tallies either way
    tallies = [
        [line.split("(")[0].split()[-1] for line in out.splitlines() if " vs " in line]
        for out in (first, again)
    ]
    assert tallies[0] == tallies[1]
    summary = _bench("--summary", str(record))
    assert "strength" in summary and "vs random" in summary and "vs greedy" in summary


def test_a_record_of_another_engine_version_is_played_again(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    quick = ("--quick", "--sections", "strength", "--variants", "xiangqi", "--record")
    _bench(*quick, str(record))
    stale = [
        json.dumps({**json.loads(line), "digest": "0" * 16, "code": "0" * 16})
        for line in record.read_text().splitlines()
    ]
    record.write_text("\n".join(stale) + "\n")
    out = _bench(*quick, str(record))
    assert "from the record" not in out
    assert len(record.read_text().splitlines()) == 4


def test_the_engine_digest_ignores_comments_but_not_code(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import play_bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    for source in (ROOT / "engine").rglob("*.py"):
        copy = tmp_path / source.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(source.read_text("utf-8"), "utf-8")
    before = play_bench.engine_digest(tmp_path)
    assert before == play_bench.engine_digest(ROOT)
    levels = tmp_path / "engine" / "play" / "__init__.py"
    text = levels.read_text("utf-8")
    levels.write_text(text.replace("LEVELS: Final", "# a comment\nLEVELS:  Final"), "utf-8")
    assert play_bench.engine_digest(tmp_path) == before
    levels.write_text(text.replace("nodes=160_000", "nodes=150_000"), "utf-8")
    assert play_bench.engine_digest(tmp_path) != before


def test_a_record_survives_a_change_of_code_that_keeps_the_behaviour(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    quick = ("--quick", "--sections", "strength", "--variants", "xiangqi", "--record")
    _bench(*quick, str(record))
    other_code = [
        json.dumps({**json.loads(line), "code": "f" * 16})
        for line in record.read_text().splitlines()
    ]
    record.write_text("\n".join(other_code) + "\n")
    out = _bench(*quick, str(record))
    assert "probing the engine's behaviour" in out  # the code is new to the record
    assert out.count("1 from the record") == 2  # but it plays as the recorded one
    assert len(record.read_text().splitlines()) == 2


def _play_bench():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import play_bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return play_bench


def test_the_behaviour_probe_sees_the_searches_not_only_the_tables() -> None:
    play_bench = _play_bench()
    from dataclasses import replace

    lines = list(play_bench.probe(0.01))
    assert lines == list(play_bench.probe(0.01))  # deterministic
    other = list(play_bench.probe(0.01, replace(play_bench.DEFAULT_WEIGHTS, tempo=300)))
    searches = [i for i, line in enumerate(lines) if line.startswith("[")]
    assert len(searches) == 3 * len(play_bench.PROBE_PLIES) * 8 * 2
    assert any(lines[i] != other[i] for i in searches)  # a weight moves some search
    assert play_bench.behaviour_digest(0.01) == play_bench.behaviour_digest(0.01)


def test_the_probe_written_to_a_file_is_what_the_digest_hashes(tmp_path: Path) -> None:
    play_bench = _play_bench()
    out = tmp_path / "probe.txt"
    _bench("--quick", "--probe", str(out))
    text = out.read_text("utf-8")
    assert text.splitlines() == list(play_bench.probe(0.01))
    parts = play_bench.probe_parts(0.01)
    assert list(parts) == ["rules", *(f"level {n}" for n in range(1, 9))]
    assert [line for line in text.splitlines() if not line.startswith("# ")] == [
        line for lines in parts.values() for line in lines
    ]
    printed = _bench("--quick", "--digest").splitlines()
    assert printed[0] == play_bench.behaviour_digest(0.01)
    assert printed[1:] == [f"  {n:8} {d}" for n, d in play_bench.part_digests(0.01).items()]


def test_a_change_of_one_level_changes_the_digest_of_its_games_only(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    play_bench = _play_bench()
    before = play_bench.part_digests(0.01)
    table = play_bench.LEVEL_TABLE
    monkeypatch.setitem(table, 8, replace(table[8], nodes=table[8].nodes * 2))
    after = play_bench.part_digests(0.01)
    assert [n for n in before if before[n] != after[n]] == ["level 8"]
    assert play_bench.combine(after, [6, 7]) == play_bench.combine(before, [7, 6])
    assert play_bench.combine(after, [8, 7]) != play_bench.combine(before, [8, 7])
    assert play_bench.combine(after, []) == play_bench.combine(before, [])  # peer against peer
    assert play_bench.spec_levels(("level", 8, 300)) == [8]
    assert play_bench.spec_levels(("random",)) == []


def test_a_record_of_other_levels_is_kept_when_one_level_changes(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    quick = ("--quick", "--sections", "ladder", "--record", str(record))
    _bench(*quick)
    entries = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["players"][0][1] for e in entries] == [2, 5, 8]
    # as if level 8's part of the probe had changed
    forged = [
        {**e, "parts": {**e["parts"], "level 8": "0" * 16}, "code": "0" * 16} for e in entries
    ]
    levels_7_8 = forged[2]["digest"]
    forged[2]["digest"] = "1" * 16
    record.write_text("".join(json.dumps(e) + "\n" for e in forged))
    out = _bench(*quick)
    assert out.count("1 from the record") == 2  # 2-1 and 5-4 kept, 8-7 played again
    last = json.loads(record.read_text().splitlines()[-1])
    assert last["players"][0][1] == 8 and last["digest"] == levels_7_8
