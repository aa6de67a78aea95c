"""`feudbot simulate`: complete bot games, invariants checked, one JSON object per game."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest

from bot.__main__ import main
from bot.core.errors import InvariantError
from bot.games.webfeud import WEBFEUD
from bot.simulate import run_simulation


def simulate(*args: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    """Run the CLI in-process and parse its JSON lines."""
    assert main(["simulate", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_simulate_plays_complete_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Two hard-vs-easy games end with scores, winners and a move list that adds up."""
    records = simulate(
        "--game",
        "webfeud",
        "--games",
        "2",
        "--seed",
        "5",
        "--players",
        "hard,easy",
        capsys=capsys,
    )
    assert len(records) == 2
    for record in records:
        assert record["reason"] in {"out", "passes"}
        moves = record["moves"]
        assert isinstance(moves, list)
        assert moves
        scores = record["scores"]
        assert isinstance(scores, list)
        assert len(scores) == 2
        best = max(scores)
        assert record["winners"] == [i for i, s in enumerate(scores) if s == best]


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed plays the same game."""
    first = simulate("--games", "1", "--seed", "9", "--players", "medium,easy", capsys=capsys)
    second = simulate("--games", "1", "--seed", "9", "--players", "medium,easy", capsys=capsys)
    assert first == second


def test_simulate_refuses_unknown_game_and_level() -> None:
    """Unknown games and levels exit 2 with a message naming the choices."""
    out = io.StringIO()
    assert run_simulation(game="chess", games=1, seed=0, players=["hard"], out=out) == 2
    assert "webfeud" in out.getvalue()
    out = io.StringIO()
    assert run_simulation(game="webfeud", games=1, seed=0, players=["god", "easy"], out=out) == 2
    assert "hard" in out.getvalue()


def test_invariant_check_catches_a_lost_tile_and_a_wrong_score() -> None:
    """check_invariants fails when a tile vanishes or a score does not add up."""
    state = WEBFEUD.new_game(2, seed=1, options={})
    state.check_invariants()
    with pytest.raises(InvariantError):
        replace(state, bag=state.bag[1:]).check_invariants()
    with pytest.raises(InvariantError):
        replace(state, scores=(5, 0)).check_invariants()
