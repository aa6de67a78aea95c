"""Positions for the renderer tests: scripted games on a small lexicon, and simulated games.

The suite runs with --import-mode=importlib, so the positions are handed out as fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core.game import Pass
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import Place, Swap, WordState
from bot.lexicon import Lexicon

NAMES = ("Alice", "Zoë from the pub")
WORDS = ("QUIZ", "HOUSE", "TALE", "STALE", "HAND", "SEND")

# Racks are dealt from the front of the bag, then each move draws in turn.
MIDGAME_BAG = "QUIZATE" + "HO?SEND" + "RSLN" + "AIRT" + "ODE" + "GMPWBCYKFVXJ" + "AEIOUAEIOU"
MIDGAME_MOVES = ("8H QUIZ", "I6 HOUSE", "10F TALE", "6I HaND", "L3 SEND")


def lexicon() -> Lexicon:
    """Return the tiny lexicon the scripted games use."""
    return Lexicon.from_words(WORDS)


def play(state: WordState, *moves: str) -> WordState:
    """Play `moves` in turn order and return the final state."""
    for text in moves:
        state = state.apply(state.to_move, WEBFEUD.parse_move(text))
    return state


def empty_game() -> WordState:
    """Return a freshly dealt game (the scripted bag)."""
    return WEBFEUD.new_game(2, seed=1, options={}, lexicon=lexicon(), bag=MIDGAME_BAG)


def midgame(moves: int = 5) -> WordState:
    """Return the scripted game after `moves` moves (the 4th lays a blank as the A of HAND)."""
    return play(empty_game(), *MIDGAME_MOVES[:moves])


def game_over_out() -> WordState:
    """Return a short game that Alice ends by playing her last tile with the bag empty."""
    bag = "QUIZATL" + "HOSEDNR" + "S"
    state = WEBFEUD.new_game(2, seed=1, options={}, lexicon=lexicon(), bag=bag)
    return play(state, "8H QUIZ", "I6 HOUSE", "10E STALE")


# --- simulated games ---------------------------------------------------------------------------


LEVELS = (("hard", "easy"), ("medium", "medium"), ("easy", "hard"))


def _fallback(state: WordState, seat: int) -> Place | Swap | Pass:
    """Return the top-scoring placement, else a swap of the whole rack, else a pass."""
    from bot.ai.wordgen import best_candidate, generate_moves

    best = best_candidate(generate_moves(state, seat))
    if best is not None:
        return best.move
    if len(state.bag) >= state.variant.swap_min_bag:
        return Swap(state.racks[seat])
    return Pass()


def simulated_game(seed: int, *, max_moves: int = 80) -> Iterator[WordState]:
    """Yield every state of a game on the full English lexicon between computer players.

    The players are `bot.ai.choose_move` at the levels of `LEVELS` (by seed), or a greedy
    fallback when the AI package does not offer it.
    """
    try:
        from bot.ai import choose_move
    except ImportError:
        choose_move = None
    levels = LEVELS[seed % len(LEVELS)]
    state = WEBFEUD.new_game(2, seed=seed, options={})
    yield state
    for _ in range(max_moves):
        if state.outcome is not None:
            return
        seat = state.to_move
        if choose_move is not None:
            move = choose_move(state, seat, levels[seat], seed * 1000 + state.turn)
        else:
            move = _fallback(state, seat)
        state = state.apply(seat, move)
        yield state


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def names() -> tuple[str, str]:
    """The two players' display names."""
    return NAMES


@pytest.fixture
def fresh() -> WordState:
    """A freshly dealt scripted game."""
    return empty_game()


@pytest.fixture
def middle() -> WordState:
    """The scripted game after five moves: a blank on the board, SEND just played."""
    return midgame()


@pytest.fixture
def blank_last() -> WordState:
    """The scripted game just after a move that laid a blank."""
    return midgame(4)


@pytest.fixture
def before_blank() -> WordState:
    """The scripted game after three moves: Zoë to move, with a blank on her rack."""
    return midgame(3)


@pytest.fixture
def finished() -> WordState:
    """A scripted game Alice ended by going out."""
    return game_over_out()


@pytest.fixture(scope="session")
def simulated() -> list[list[WordState]]:
    """Every state of three simulated games on the full lexicon."""
    return [list(simulated_game(seed)) for seed in (1, 2, 3)]
