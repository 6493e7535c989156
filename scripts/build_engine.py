"""Compile the engine's hot modules with mypyc into build/native/.

Run by ``scripts/setup``; safe to run again: it does nothing when the build
was made from the current sources (``--force`` rebuilds anyway). Without a C
compiler it says so and exits 0: the engine then runs as plain Python.

Each finished build is also kept in a cache outside the checkout, under the
digest of its sources and Python (``ENGINE_BUILD_CACHE``, by default
``~/.cache/xiangqi-school/engine``; ``off`` keeps none), the way pip keeps its
downloads: another checkout of the same sources (a second clone, CI's fresh
clone) copies that build in instead of compiling for two minutes again.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load_native() -> ModuleType:
    # engine/_native.py without importing the engine package itself
    spec = importlib.util.spec_from_file_location("_engine_native", ROOT / "engine" / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def have_compiler() -> bool:
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    cc = os.environ.get("CC", cc).split()[0]
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(cc) is not None and include.exists()


CACHE_KEEP = 3  # builds kept in the cache, newest first


def cache_dir() -> Path | None:
    """Where finished builds are kept, one folder per source digest; None when turned off."""
    setting = os.environ.get("ENGINE_BUILD_CACHE", "")
    if setting.lower() in ("off", "0", "no"):
        return None
    if setting:
        return Path(setting)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "xiangqi-school" / "engine"


def _install(source: Path, build_dir: Path) -> None:
    """Swap a finished build in at once; a half-copied directory is never used."""
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".native-", dir=build_dir.parent))
    try:
        shutil.copytree(source, staging / "lib")
        if build_dir.exists():
            shutil.rmtree(build_dir)
        (staging / "lib").rename(build_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def from_cache(native: ModuleType, stamp: str, build_dir: Path) -> bool:
    """Copy the cached build of these exact sources in, when there is one."""
    cache = cache_dir()
    if cache is None:
        return False
    cached = cache / stamp
    try:
        if (cached / native.STAMP_NAME).read_text().strip() != stamp:
            return False
        _install(cached, build_dir)
        copied = (build_dir / native.STAMP_NAME).read_text().strip()
    except OSError:
        return False
    return bool(copied == native.source_stamp())


def to_cache(native: ModuleType, stamp: str, build_dir: Path) -> None:
    """Keep a copy of the finished build (best effort: a cache that cannot be written is
    skipped), and only the newest few."""
    cache = cache_dir()
    if cache is None:
        return
    try:
        cache.mkdir(parents=True, exist_ok=True)
        if not (cache / stamp).exists():
            staging = Path(tempfile.mkdtemp(prefix=".new-", dir=cache))
            shutil.copytree(build_dir, staging / "build")
            (staging / "build").rename(cache / stamp)
            shutil.rmtree(staging, ignore_errors=True)
        kept = sorted(
            (p for p in cache.iterdir() if p.is_dir() and not p.name.startswith(".")),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        for old in kept[CACHE_KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        print(f"  (the build was not cached: {exc})")


def main() -> int:
    native = _load_native()
    force = "--force" in sys.argv
    build_dir: Path = native.BUILD_DIR
    if not force and native.build_is_current():
        print(f"compiled engine is up to date ({build_dir.relative_to(ROOT)})")
        return 0
    if not force and from_cache(native, native.source_stamp(), build_dir):
        print(f"compiled engine copied from the build cache ({cache_dir()})")
        return 0
    if not have_compiler():
        print("no C compiler (or Python headers) found: the engine runs as plain Python")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]
    except ImportError as exc:
        print(f"mypyc is not installed ({exc}): the engine runs as plain Python")
        return 0

    start = time.monotonic()
    stamp = native.source_stamp()
    modules = list(native.MODULES)
    print(f"compiling {len(modules)} engine modules with mypyc: {' '.join(modules)}")
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="engine-build-") as tmp:
        staging = Path(tmp) / "lib"
        print("  type-checking and generating C …", flush=True)
        # the engine's own settings, not pyproject.toml's (whose plugins need the test extras)
        options = ["--config-file", str(native.CONFIG_FILE)]
        extensions = mypycify([*options, *modules], opt_level="3", target_dir=str(Path(tmp) / "c"))
        dist = Distribution({"name": "engine-native", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(staging)
        cmd.build_temp = str(Path(tmp) / "obj")
        cmd.parallel = os.cpu_count() or 1
        cmd.ensure_finalized()
        print(f"  compiling C with {len(extensions)} extension(s) …", flush=True)
        cmd.run()
        (staging / native.STAMP_NAME).write_text(stamp + "\n")
        # swap the finished build in at once; a half-built directory is never used
        if build_dir.exists():
            shutil.rmtree(build_dir)
        build_dir.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), str(build_dir))
    to_cache(native, stamp, build_dir)
    print(
        f"compiled engine built in {time.monotonic() - start:.1f} s ({build_dir.relative_to(ROOT)})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
