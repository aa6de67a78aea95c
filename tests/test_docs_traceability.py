"""Rules are traceable: every test a rule document names exists, so no row points at nothing.

A document names tests as ``PREFIX::test_name`` (its opening paragraph maps each prefix to a
test file: "`tests/games/test_nmbr9.py` (`N::` below)") or as ``tests/….py::test_name``.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs" / "rules").glob("*.md"))
PREFIX = re.compile(r"`(tests/[\w/]+\.py)`\s*\(`(\w+)::`")
BY_PREFIX = re.compile(r"`(\w+)::(test_\w+)")
BY_PATH = re.compile(r"(tests/[\w/]+\.py)::(test_\w+)")


@cache
def defined_in(path: Path) -> frozenset[str]:
    """Return the names of the test functions defined in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    )


def named_tests(doc: Path) -> list[tuple[str, Path, str]]:
    """Return (as written, file, test) for every test the document names."""
    text = " ".join(doc.read_text(encoding="utf-8").split())  # prefixes may wrap lines
    files = {prefix: ROOT / path for path, prefix in reversed(PREFIX.findall(text))}
    named = [
        (f"{p}::{t}", files.get(p, ROOT / f"<no file for {p}::>"), t)
        for p, t in BY_PREFIX.findall(text)
    ]
    named += [(f"{path}::{t}", ROOT / path, t) for path, t in BY_PATH.findall(text)]
    return named


@pytest.mark.parametrize("doc", DOCS, ids=[doc.stem for doc in DOCS])
def test_every_test_a_rule_document_names_exists(doc: Path) -> None:
    """Each ``N::test_…`` of docs/rules/<game>.md is a test function of the file N stands for."""
    named = named_tests(doc)
    assert len(named) >= 30, f"{doc.name} names only {len(named)} tests"
    missing = [
        written
        for written, path, test in named
        if not path.is_file() or test not in defined_in(path)
    ]
    assert missing == [], f"{doc.name} names tests that do not exist: {missing}"


USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CITED = re.compile(r"`(?:[\w/]*test_\w+\.py)?::(test_\w+)`|`(test_\w+)`")


@cache
def every_test() -> frozenset[str]:
    """Return the names of every test function of the suite."""
    return frozenset().union(*(defined_in(path) for path in ROOT.glob("tests/**/test_*.py")))


@pytest.mark.parametrize("doc", USER_DOCS, ids=[doc.stem for doc in USER_DOCS])
def test_every_test_a_user_document_cites_exists(doc: Path) -> None:
    """The docs for players and admins cite tests by name (`::test_…`): each is in the suite."""
    text = doc.read_text(encoding="utf-8")
    cited = {a or b for a, b in CITED.findall(text)}
    named_paths = [(ROOT / path, test) for path, test in BY_PATH.findall(text)]
    missing = sorted(cited - every_test())
    missing += [f"{p.relative_to(ROOT)}::{t}" for p, t in named_paths if t not in defined_in(p)]
    assert missing == [], f"{doc.name} cites tests that do not exist: {missing}"
