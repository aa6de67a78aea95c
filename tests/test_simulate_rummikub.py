"""`feudbot simulate --game rummikub`: complete bot games, invariants checked after every move."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.__main__ import main
from bot.core.errors import InvariantError
from bot.games.rummikub import RUMMIKUB
from bot.simulate import play_game

pytestmark = pytest.mark.timeout(120)


def test_simulate_plays_complete_rummikub_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Four bots of every level play two games to the end; scores follow the scoring rule."""
    args = [
        "--game",
        "rummikub",
        "--games",
        "2",
        "--seed",
        "1",
        "--players",
        "easy,medium,hard,hard",
    ]
    assert main(["simulate", *args]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["reason"] in {"out", "pool"}
        scores, winners = record["scores"], record["winners"]
        assert len(scores) == 4
        assert winners
        losers = [s for seat, s in enumerate(scores) if seat not in winners]
        assert all(s <= 0 for s in losers)
        assert all(scores[w] == -sum(losers) for w in winners)
        assert any(move["move"].endswith("done") for move in record["moves"])


def test_simulate_is_reproducible_for_rummikub() -> None:
    """The same seed plays the same Rummikub game."""
    assert play_game("rummikub", 3, ["easy", "hard"]) == play_game("rummikub", 3, ["easy", "hard"])


def test_rummikub_invariants_catch_a_lost_tile_and_a_wrong_score() -> None:
    """check_invariants fails when a tile leaves the pool unaccounted or a score appears early."""
    state = RUMMIKUB.new_game(2, seed=1, options={})
    state.check_invariants()
    with pytest.raises(InvariantError):
        replace(state, pool=state.pool[1:]).check_invariants()
    with pytest.raises(InvariantError):
        replace(state, scores=(5, 0)).check_invariants()
