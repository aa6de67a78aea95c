"""Shared by test folders: another folder's fakes and fixtures, a clean environment."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType


def load_module(name: str, path: object) -> ModuleType:
    """Import a file under a name of its own, once (a second load would make new classes)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, str(path))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ROOT = Path(__file__).resolve().parents[1]


def clean_env(**extra: str) -> dict[str, str]:
    """The process environment without our settings (and no .env: runs are in tmp_path)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FEUDBOT_", "DISCORD_", "TELEGRAM_"))
    }
    return {**env, "PYTHONPATH": str(ROOT), **extra}
