"""The word-game computer players: levels, determinism, legality and the no-placement case."""

from __future__ import annotations

import random
from dataclasses import replace
from statistics import mean

import pytest

from bot.ai import LEVELS, PLAYERS, choose_move
from bot.ai.wordgen import best_candidate, generate_moves
from bot.ai.wordplayers import EASY_MAX_LETTERS, TAKE_BUDGET, pick, take_budget
from bot.core.game import Pass
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import Place, Swap, WordState

from .minis import MINI7, random_position


def rigged(state: WordState, seat: int, rack: str) -> WordState:
    """Return `state` with `seat`'s rack replaced (the bag is left alone)."""
    racks = tuple(rack if s == seat else r for s, r in enumerate(state.racks))
    return replace(state, racks=racks)


def self_play(level: str, seed: int, plies: int) -> tuple[WordState, list[int]]:
    """Let `level` play both seats of a seeded Webfeud game; return it and its placement scores."""
    state = WEBFEUD.new_game(2, seed=seed, options={})
    scores = []
    for _ in range(plies):
        if state.outcome is not None:
            break
        seat = state.to_move
        move = choose_move(state, seat, level, seed)
        if isinstance(move, Place):
            scores.append(state.evaluate(move, seat).score)
        state = state.apply(seat, move)  # refuses an illegal move
    return state, scores


@pytest.fixture(scope="module")
def games() -> dict[str, list[int]]:
    """Placement scores of each level over three short seeded self-play games."""
    return {
        level: [score for seed in (1, 2, 3) for score in self_play(level, seed, 12)[1]]
        for level in LEVELS
    }


def test_levels_and_registry() -> None:
    """The levels run weakest first and Webfeud has a player."""
    assert LEVELS == ("easy", "medium", "hard")
    assert "webfeud" in PLAYERS


def test_stronger_levels_score_more(games: dict[str, list[int]]) -> None:
    """Over the same seeded games hard averages more than medium, and medium more than easy."""
    easy, medium, hard = (mean(games[level]) for level in LEVELS)
    assert hard >= medium >= easy
    assert hard > easy * 1.5


def test_every_level_places_words_in_self_play(games: dict[str, list[int]]) -> None:
    """Every level keeps laying words (each was legal: apply accepted it)."""
    for level in LEVELS:
        assert len(games[level]) >= 30


def test_hard_plays_the_best_scoring_placement() -> None:
    """Hard picks the top-scoring candidate, ties broken deterministically."""
    state = WEBFEUD.new_game(2, seed=7, options={})
    for _ in range(6):
        seat = state.to_move
        best = best_candidate(generate_moves(state, seat))
        assert best is not None
        assert choose_move(state, seat, "hard", 99) == best.move
        state = state.apply(seat, best.move)


@pytest.mark.parametrize("level", LEVELS)
def test_choice_is_deterministic_for_a_seed(level: str) -> None:
    """The same state, seat, level and seed always give the same move."""
    state = random_position(MINI7, 9)
    moves = {str(choose_move_any(state, level, 5)) for _ in range(3)}
    assert len(moves) == 1


def choose_move_any(state: WordState, level: str, seed: int) -> object:
    """Choose through the level pickers for a mini variant (not in the game registry)."""
    rng = random.Random(f"{seed}:{state.turn}:{state.to_move}")
    choice = pick(generate_moves(state, state.to_move), level, rng, state.variant.rack_size)
    return choice.move if choice else None


def test_medium_varies_with_the_seed_and_stays_below_hard() -> None:
    """Different seeds make medium choose different good moves, never above hard's score."""
    state = rigged(WEBFEUD.new_game(2, seed=4, options={}), 0, "RSTLNEA")
    best = best_candidate(generate_moves(state, 0))
    assert best is not None
    moves = {choose_move(state, 0, "medium", seed) for seed in range(8)}
    assert len(moves) > 1
    for move in moves:
        assert isinstance(move, Place)
        assert state.evaluate(move, 0).score <= best.score


def test_easy_plays_short_words_without_blanks() -> None:
    """Easy lays no blank and no word over five letters while it has such a choice."""
    for seed in range(5):
        state = rigged(WEBFEUD.new_game(2, seed=seed, options={}), 0, "AERSTI?")
        move = choose_move(state, 0, "easy", seed)
        assert isinstance(move, Place)
        assert move.word.isupper()
        assert len(move.word) <= EASY_MAX_LETTERS


def test_medium_keeps_its_blank_for_a_bingo() -> None:
    """Medium spends a blank only on a full-rack play."""
    for seed in range(5):
        state = rigged(WEBFEUD.new_game(2, seed=seed, options={}), 0, "OTSEDI?")
        move = choose_move(state, 0, "medium", seed)
        assert isinstance(move, Place)
        assert move.word.isupper() or len(move.word) >= 7


def test_blank_is_used_when_nothing_else_is_legal() -> None:
    """With only a blank and an unplayable letter, even easy plays the blank."""
    state = rigged(WEBFEUD.new_game(2, seed=5, options={}), 0, "Q?")
    for level in LEVELS:
        move = choose_move(state, 0, level, 1)
        assert isinstance(move, Place)
        state.evaluate(move, 0)
        assert any(ch.islower() for ch in move.word)


@pytest.mark.parametrize("level", LEVELS)
def test_no_placement_swaps_the_whole_rack_when_the_bag_allows(level: str) -> None:
    """A rack with no placement is swapped whole while the bag holds enough tiles."""
    state = rigged(WEBFEUD.new_game(2, seed=6, options={}), 0, "VVVVVVV")
    assert generate_moves(state, 0) == []
    move = choose_move(state, 0, level, 3)
    assert move == Swap("VVVVVVV")
    state.apply(0, move)


@pytest.mark.parametrize("level", LEVELS)
def test_no_placement_passes_when_the_bag_is_too_small(level: str) -> None:
    """A rack with no placement passes when the bag is too small to swap."""
    state = rigged(WEBFEUD.new_game(2, seed=6, options={}), 0, "VVVVVVV")
    state = replace(state, bag=state.bag[:3])
    move = choose_move(state, 0, level, 3)
    assert move == Pass()
    state.apply(0, move)


def test_unknown_level_or_game_is_refused() -> None:
    """An unknown level or a game without a player raises ValueError."""
    state = WEBFEUD.new_game(2, seed=1, options={})
    with pytest.raises(ValueError, match="level"):
        choose_move(state, 0, "expert", 1)
    with pytest.raises(ValueError, match="mini7"):
        choose_move(random_position(MINI7, 1), 0, "hard", 1)


def test_two_blanks_halve_the_removals_a_level_tries() -> None:
    """Two blanks multiply the words each removal tries: half as many removals, never none."""
    assert take_budget("hard", "INLOAEE") == TAKE_BUDGET["hard"] == 16
    assert take_budget("hard", "INLO?AE") == 16  # one blank: as usual
    assert take_budget("hard", "INLO??E") == 8
    assert take_budget("medium", "??") == 4
    assert take_budget("easy", "??") == 1
