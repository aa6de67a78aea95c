"""Structure guards: the pure core stays pure, layers import only what they may."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ("bot/core", "bot/games", "bot/ai", "bot/lexicon")
FORBIDDEN_IN_PURE = {"discord", "telegram", "PIL", "sqlite3", "aiosqlite", "asyncio"}


def imported_modules(path: Path) -> set[str]:
    """Return the top-level names of every module `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def files_under(*folders: str) -> list[Path]:
    """Return the Python files below the given repository folders."""
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", files_under(*PURE), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_core_imports_no_framework_or_io(path: Path) -> None:
    """bot/core, bot/games, bot/ai and bot/lexicon import no chat, image, database or asyncio."""
    bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN_IN_PURE}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_guard_catches_a_forbidden_import(tmp_path: Path) -> None:
    """The import scanner sees `import asyncio` and `from PIL import Image`."""
    sample = tmp_path / "sample.py"
    sample.write_text("import asyncio\nfrom PIL import Image\nimport os.path\n")
    assert imported_modules(sample) == {"asyncio", "PIL", "os.path"}


@pytest.mark.parametrize("path", files_under("storage"), ids=lambda p: str(p.relative_to(ROOT)))
def test_storage_knows_games_only_as_json(path: Path) -> None:
    """storage/ never imports the bot package, chat libraries or PIL."""
    bad = {
        m
        for m in imported_modules(path)
        if m.split(".")[0] in {"bot", "discord", "telegram", "PIL", "renderers"}
    }
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", files_under("renderers"), ids=lambda p: str(p.relative_to(ROOT)))
def test_renderers_import_only_pil_and_the_pure_core(path: Path) -> None:
    """renderers/ import no chat library, no storage, no service."""
    bad = {
        m
        for m in imported_modules(path)
        if m.split(".")[0] in {"discord", "telegram", "aiosqlite", "sqlite3", "storage"}
        or m in {"bot.service", "bot.reminders"}
        or m.startswith("bot.adapters")
    }
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_adapters_do_not_import_each_other() -> None:
    """The Discord adapter never imports Telegram's and vice versa."""
    pairs = {
        "discord_bot.py": "bot.adapters.telegram_bot",
        "telegram_bot.py": "bot.adapters.discord_bot",
    }
    for name, other in pairs.items():
        path = ROOT / "bot" / "adapters" / name
        if path.exists():
            assert other not in imported_modules(path)
