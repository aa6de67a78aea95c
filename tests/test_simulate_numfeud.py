"""`feudbot simulate --game numfeud`: complete bot games with Numfeud's invariants."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main


@pytest.mark.parametrize("players", ["hard,easy", "medium,hard"])
def test_simulate_numfeud_plays_complete_games(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games end by a documented rule; the final scores are the ranking points of that rule."""
    args = ["simulate", "--game", "numfeud", "--games", "2", "--seed", "3", "--players", players]
    assert main(args) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["reason"] in {"out", "full", "blocked"}
        scores = record["scores"]
        if record["reason"] == "full":
            assert sorted(scores) == [-50, 50]
        if record["reason"] == "out":
            assert sum(scores) == 0
        assert all(move["score"] == 0 for move in record["moves"])
