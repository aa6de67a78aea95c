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


def refusal(game="webfeud", games=1, players=("hard", "easy")) -> str:
    """Run a simulation that must be refused; return its one line of stderr (stdout stays empty)."""
    out, err = io.StringIO(), io.StringIO()
    assert run_simulation(game=game, games=games, seed=0, players=players, out=out, err=err) == 2
    assert out.getvalue() == ""  # the JSON stream holds games only
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    return lines[0]


def test_simulate_refuses_unknown_game_and_level() -> None:
    """Unknown games and levels exit 2 with a message on stderr naming the choices."""
    assert "webfeud" in refusal(game="chess", players=["hard"])
    assert "hard" in refusal(players=["god", "easy"])


def test_simulate_refuses_a_player_count_the_game_does_not_take() -> None:
    """One level for Webfeud (2 players), five for NMBR 9 (1 to 4): refused, counts named."""
    assert refusal(players=["hard"]) == (
        "feudbot simulate: webfeud takes 2 players, and --players hard names 1; "
        "name one level a seat, e.g. --players hard,easy"
    )
    assert "nmbr9 takes 1 to 4 players" in refusal(game="nmbr9", players=["hard"] * 5)


@pytest.mark.parametrize("games", [0, -3])
def test_simulate_refuses_fewer_than_one_game(games) -> None:
    """`--games -3` used to print nothing and exit 0."""
    assert refusal(games=games) == f"feudbot simulate: --games {games}: play at least 1 game"


def test_simulate_refusals_go_to_stderr_from_the_command_line(capsys) -> None:
    """`feudbot simulate --players hard`: status 2, stdout empty, one line on stderr."""
    assert main(["simulate", "--players", "hard"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("feudbot simulate: webfeud takes 2 players")


def test_invariant_check_catches_a_lost_tile_and_a_wrong_score() -> None:
    """check_invariants fails when a tile vanishes or a score does not add up."""
    state = WEBFEUD.new_game(2, seed=1, options={})
    state.check_invariants()
    with pytest.raises(InvariantError):
        replace(state, bag=state.bag[1:]).check_invariants()
    with pytest.raises(InvariantError):
        replace(state, scores=(5, 0)).check_invariants()
