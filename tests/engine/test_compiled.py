"""The compiled engine (``scripts/setup`` builds it with mypyc when a C
compiler is present) and the plain Python sources give the same answers.

``engine_digest.py`` runs the same workload (perft files, rules vectors,
random games, proofs) in two fresh interpreters, one on the compiled
modules and one with ``ENGINE_PURE=1``, and the two JSON documents must be
equal. The whole suite can also be run on the plain sources:
``ENGINE_PURE=1 scripts/test tests/engine``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import Position, _native

ROOT = Path(__file__).resolve().parents[2]
DIGEST = Path(__file__).parent / "engine_digest.py"


def _compiled_modules() -> list[object]:
    return [
        importlib.import_module(name.removesuffix(".py").replace("/", "."))
        for name in _native.MODULES
    ]


def _run_digest(pure: bool) -> dict[str, object]:
    env = {**os.environ, "ENGINE_PURE": "1" if pure else "0"}
    result = subprocess.run(
        [sys.executable, str(DIGEST)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_this_run_uses_the_mode_it_was_asked_for() -> None:
    files = [str(getattr(m, "__file__", "")) for m in _compiled_modules()]
    if _native.wants_pure():
        assert not engine.COMPILED
        assert all(f.endswith(".py") for f in files), files
    elif (_native.BUILD_DIR / _native.STAMP_NAME).exists():
        # scripts/test runs scripts/setup first, so a build present is current
        assert engine.COMPILED, "build/native is out of date: run scripts/setup"
        assert all(f.endswith(".so") and str(_native.BUILD_DIR) in f for f in files), files
    else:
        pytest.skip("no compiled engine here (no C compiler): plain Python only")


def test_copy_copies_every_field() -> None:
    pos = Position.start("xiangqi")
    for iccs in ("h2e2", "h9g7", "c3c4"):
        pos.push_iccs(iccs)
    pos.legal_moves  # noqa: B018 - fills the cache copy() must not share
    twin = pos.copy()
    if hasattr(pos, "__dict__"):  # the plain class: every attribute, by name
        fields = vars(pos)
        assert set(vars(twin)) == set(fields)
        for name, value in fields.items():
            if name != "_legal":
                assert getattr(twin, name) == value, name
    assert twin.fen() == pos.fen() and twin.hash == pos.hash
    assert twin.move_stack == pos.move_stack
    assert sorted(m.iccs() for m in twin.legal_moves) == sorted(m.iccs() for m in pos.legal_moves)
    twin.pop()
    assert twin.ply_count() == pos.ply_count() - 1 and pos.board != twin.board


def test_compiled_and_plain_engines_agree() -> None:
    if not (_native.BUILD_DIR / _native.STAMP_NAME).exists() or _native.wants_pure():
        pytest.skip("no compiled engine in this run")
    compiled = _run_digest(pure=False)
    plain = _run_digest(pure=True)
    assert compiled["compiled"] is True
    assert plain["compiled"] is False
    assert compiled["digest"] == plain["digest"]


def test_a_non_string_fen_is_an_invalid_fen_in_both_modes() -> None:
    # a compiled function rejects a wrongly typed argument with TypeError
    # unless it is declared ``object`` and checked by the engine itself
    from engine import InvalidFenError, InvalidMoveError

    with pytest.raises(InvalidFenError):
        Position.from_fen("xiangqi", None)  # type: ignore[arg-type]
    pos = Position.start()
    with pytest.raises(InvalidMoveError):
        pos.parse_move(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        pos.square(None)  # type: ignore[arg-type]
