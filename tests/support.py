"""Shared by test folders: another folder's fakes and fixtures, a clean environment."""

from __future__ import annotations

import importlib.util
import os
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

from bot.core.words import FSI, PDI


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


def rtl_outside_isolates(text: str) -> str:
    """Return the right-to-left letters of `text` that stand outside a bidi isolate.

    Such a letter takes the neutral characters and numbers next to it into its run ("alice 12,
    דוד 9" shows "9 דוד"), or makes a line that starts with it read right to left whole.
    """
    depth, outside = 0, []
    for ch in text:
        if ch == FSI:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        elif depth == 0 and unicodedata.bidirectional(ch) in ("R", "AL"):
            outside.append(ch)
    return "".join(outside)
