"""`feudbot bench` runs the bench scripts and gathers their headline figures (times not judged)."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.games import GAMES


def test_bench_collects_the_figures_of_a_script(capsys: pytest.CaptureFixture[str]) -> None:
    """One script: its figures (every game's board) come back as a table and as JSON."""
    assert main(["bench", "--only", "render"]) == 0
    out = capsys.readouterr().out
    table, _, data = out.partition("\n\n")
    assert table.startswith("| figure | value |")
    rows = json.loads(data)
    names = {row["figure"] for row in rows}
    for key in GAMES:
        assert {f"render {key} board (late game)", f"PNG size {key} board (late game)"} <= names
    assert all(row["script"] == "bench_render.py" for row in rows)
    assert all(row["value"] > 0 for row in rows)
    assert len(table.splitlines()) == len(rows) + 2


def test_bench_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "nosuch"]) == 2
    assert "unknown benchmark 'nosuch'" in capsys.readouterr().out
