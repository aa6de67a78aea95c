"""Shared by test folders that reuse another folder's fakes and fixtures."""

from __future__ import annotations

import importlib.util
import sys
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
