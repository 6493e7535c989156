"""Static files as WhiteNoise serves them, compressed once per content.

``collectstatic`` with WhiteNoise's manifest storage writes every file twice (its own name and
its hashed name) and compresses both with Brotli and gzip at their highest levels: about 50 s of
one core for the API documentation's bundles and source maps, on every start of the site
(``scripts/run``) and every deployment, although those files never change. The compressor here
keeps what it made under the digest of the bytes it compressed, in the process and in a folder
(``STATIC_COMPRESS_CACHE``, by default ``~/.cache/xiangqi-school/static``; ``off`` keeps none),
the way pip keeps its downloads: the same bytes are compressed once, then copied. The output is
the same bytes as WhiteNoise's own (its compressors are deterministic).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

# A kept compression not used for this long is removed when static files are next collected.
KEEP_UNUSED_SECONDS = 30 * 24 * 3600


def cache_dir() -> Path | None:
    """Where compressed files are kept, by the digest of their source; None when turned off."""
    setting = os.environ.get("STATIC_COMPRESS_CACHE", "")
    if setting.lower() in ("off", "0", "no"):
        return None
    if setting:
        return Path(setting)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "xiangqi-school" / "static"


class RememberingCompressor(Compressor):
    """WhiteNoise's compressor, which compresses the same bytes only once."""

    def __init__(self, *args: Any, folder: Path | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder = folder
        self.made: dict[str, bytes] = {}
        # WhiteNoise compresses in threads, a file's two names at once: the second waits for
        # the first instead of compressing the same bytes beside it.
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()

    def compress_brotli(self, data: bytes) -> bytes:
        return self._remembered("br", data, Compressor.compress_brotli)

    def compress_gzip(self, data: bytes) -> bytes:
        return self._remembered("gz", data, Compressor.compress_gzip)

    def _remembered(self, encoding: str, data: bytes, compress: Callable[[bytes], bytes]) -> bytes:
        key = f"{hashlib.sha256(data).hexdigest()}.{encoding}"
        with self.guard:
            lock = self.locks.setdefault(key, threading.Lock())
        with lock:
            return self._made(key, data, compress)

    def _made(self, key: str, data: bytes, compress: Callable[[bytes], bytes]) -> bytes:
        found = self.made.get(key)
        if found is not None:
            return found
        kept = self.folder / key if self.folder is not None else None
        if kept is not None:
            try:
                found = kept.read_bytes()
                os.utime(kept)  # used: kept for another KEEP_UNUSED_SECONDS
            except OSError:
                found = None
        if found is None:
            found = compress(data)
            if kept is not None:
                _write_at_once(kept, found)
        self.made[key] = found
        return found


def _write_at_once(path: Path, data: bytes) -> None:
    """Write ``path`` so that no reader ever sees half of it (another collectstatic may be
    reading the same folder); a folder that cannot be written keeps nothing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, staging = tempfile.mkstemp(prefix=".part-", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(staging, path)
    except OSError:
        return


def prune(folder: Path, *, now: float | None = None) -> int:
    """Remove the kept compressions not used for KEEP_UNUSED_SECONDS; how many were removed."""
    cutoff = (time.time() if now is None else now) - KEEP_UNUSED_SECONDS
    removed = 0
    for path in folder.glob("*.*"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


class CompressedStaticFiles(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage with the remembering compressor."""

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return RememberingCompressor(folder=cache_dir(), **kwargs)

    def compress_files(self, paths: Any) -> Iterator[tuple[str, str]]:
        yield from super().compress_files(paths)
        folder = cache_dir()
        if folder is not None and folder.is_dir():
            prune(folder)
