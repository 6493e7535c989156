"""Collected static files are compressed once per content (core/staticfiles.py): the same
bytes as WhiteNoise's own compressor, kept by digest and reused by the next collectstatic, and
the kept files are pruned when unused."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from whitenoise.compress import Compressor

from core import staticfiles
from core.staticfiles import RememberingCompressor, prune

SCRIPT = ("function board() { return 'the same line, again and again'; }\n" * 400).encode()


class Counting(RememberingCompressor):
    """Counts the compressions actually made (the rest came from memory or the folder)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.runs = 0

    def _made(self, key: str, data: bytes, compress: object) -> bytes:
        def counted(raw: bytes) -> bytes:
            self.runs += 1
            return compress(raw)  # type: ignore[operator, no-any-return]

        return super()._made(key, data, counted)


def written(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / "collected" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_the_compressed_files_are_whitenoises_own(tmp_path: Path) -> None:
    path = written(tmp_path, "board.js", SCRIPT)
    made = RememberingCompressor(quiet=True, folder=tmp_path / "kept").compress(str(path))
    assert sorted(Path(name).suffix for name in made) == [".br", ".gz"]
    assert Path(f"{path}.br").read_bytes() == Compressor.compress_brotli(SCRIPT)
    assert Path(f"{path}.gz").read_bytes() == Compressor.compress_gzip(SCRIPT)


def test_a_files_two_names_are_compressed_once(tmp_path: Path) -> None:
    compressor = Counting(quiet=True, folder=None)
    compressor.compress(str(written(tmp_path, "board.js", SCRIPT)))
    compressor.compress(str(written(tmp_path, "board.0a1b2c3d.js", SCRIPT)))
    assert compressor.runs == 2  # Brotli and gzip, once each
    assert Path(tmp_path / "collected" / "board.0a1b2c3d.js.br").read_bytes() == (
        Compressor.compress_brotli(SCRIPT)
    )


def test_the_next_collection_takes_the_kept_compressions(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    first = Counting(quiet=True, folder=kept)
    first.compress(str(written(tmp_path, "board.js", SCRIPT)))
    assert first.runs == 2
    assert len(list(kept.iterdir())) == 2
    second = Counting(quiet=True, folder=kept)
    second.compress(str(written(tmp_path, "again/board.js", SCRIPT)))
    assert second.runs == 0
    assert (tmp_path / "collected" / "again" / "board.js.gz").read_bytes() == (
        Compressor.compress_gzip(SCRIPT)
    )
    changed = Counting(quiet=True, folder=kept)
    changed.compress(str(written(tmp_path, "board.js", SCRIPT + b"// one more line\n")))
    assert changed.runs == 2  # other bytes: compressed again


def test_a_folder_that_cannot_be_written_keeps_nothing_and_still_compresses(
    tmp_path: Path,
) -> None:
    blocked = tmp_path / "a-file-not-a-folder"
    blocked.write_text("")
    compressor = Counting(quiet=True, folder=blocked / "kept")
    made = compressor.compress(str(written(tmp_path, "board.js", SCRIPT)))
    assert len(made) == 2 and compressor.runs == 2


def test_the_cache_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATIC_COMPRESS_CACHE", "off")
    assert staticfiles.cache_dir() is None
    monkeypatch.setenv("STATIC_COMPRESS_CACHE", str(tmp_path / "here"))
    assert staticfiles.cache_dir() == tmp_path / "here"
    monkeypatch.delenv("STATIC_COMPRESS_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert staticfiles.cache_dir() == tmp_path / "xdg" / "xiangqi-school" / "static"


def test_kept_compressions_unused_for_a_month_are_pruned(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    RememberingCompressor(quiet=True, folder=kept).compress(
        str(written(tmp_path, "board.js", SCRIPT))
    )
    old, recent = sorted(kept.iterdir())
    month_ago = time.time() - staticfiles.KEEP_UNUSED_SECONDS - 60
    os.utime(old, (month_ago, month_ago))
    assert prune(kept) == 1
    assert list(kept.iterdir()) == [recent]
    # a kept file that is used again is kept for another month
    os.utime(recent, (month_ago, month_ago))
    Counting(quiet=True, folder=kept).compress(str(written(tmp_path, "board.js", SCRIPT)))
    assert prune(kept) == 0
