"""The compiled engine's build cache (scripts/build_engine.py): a checkout of the same sources
copies the kept build in instead of compiling again; other sources never get it."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build_engine() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_engine", ROOT / "scripts" / "build_engine.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_build(folder: Path, stamp_name: str, stamp: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "engine").mkdir()
    (folder / "engine" / "marker.txt").write_text("built")
    (folder / stamp_name).write_text(stamp + "\n")
    return folder


def test_a_kept_build_of_the_same_sources_is_copied_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGINE_BUILD_CACHE", str(tmp_path / "cache"))
    build = _build_engine()
    native = build._load_native()
    made = _fake_build(tmp_path / "made", native.STAMP_NAME, "abc")
    build.to_cache(native, "abc", made)
    assert (tmp_path / "cache" / "abc" / "engine" / "marker.txt").read_text() == "built"

    target = tmp_path / "checkout" / "build" / "native"
    # from_cache answers whether the copied build is current for *these* sources: "abc" is not
    # the digest of the real sources, so the copy is made but not trusted.
    assert build.from_cache(native, "abc", target) is False
    assert (target / "engine" / "marker.txt").read_text() == "built"
    # a digest with nothing kept copies nothing
    shutil.rmtree(target)
    assert build.from_cache(native, "other", target) is False
    assert not target.exists()


def test_the_cache_keeps_only_the_newest_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGINE_BUILD_CACHE", str(tmp_path / "cache"))
    build = _build_engine()
    native = build._load_native()
    for n in range(build.CACHE_KEEP + 2):
        made = _fake_build(tmp_path / f"made{n}", native.STAMP_NAME, f"s{n}")
        build.to_cache(native, f"s{n}", made)
    assert len(list((tmp_path / "cache").iterdir())) == build.CACHE_KEEP


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGINE_BUILD_CACHE", "off")
    assert _build_engine().cache_dir() is None
