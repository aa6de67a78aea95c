"""The words that go with a picture for a screen reader (`picture_alt`): Discord's alt text."""

from __future__ import annotations

from dataclasses import replace

from bot.core.game import Outcome
from bot.games import GAMES
from bot.service import picture_alt

NAMES = ("ann", "bob")


def test_a_board_says_the_game_who_moves_and_the_scores():
    state = GAMES["webfeud"].new_game(2, seed=1, options={})
    mover = NAMES[state.to_move]
    assert picture_alt("board", state, NAMES, None) == (
        f"Webfeud board: {mover} to move; scores: ann 0, bob 0"
    )


def test_a_game_scored_at_the_end_shows_no_scores_until_then_and_the_winner_after():
    gdef = GAMES["rummikub"]
    state = gdef.new_game(2, seed=1, options={})
    assert picture_alt("board", state, NAMES, None) == "Rummikub board: ann to move"
    over = state.apply(0, gdef.parse_move("resign"))
    assert over.outcome is not None
    scores = ", ".join(f"{n} {p}" for n, p in zip(NAMES, over.outcome.scores, strict=True))
    assert picture_alt("game over", over, NAMES, 0) == (
        f"Rummikub game over: bob wins; scores: {scores}"
    )


def test_a_rack_picture_names_its_owner_and_never_its_tiles():
    state = GAMES["webfeud"].new_game(2, seed=1, options={})
    seat = state.to_move
    alt = picture_alt("rack", state, NAMES, seat)
    assert alt == f"Webfeud: the rack of {NAMES[seat]}, your turn"
    assert picture_alt("rack", state, NAMES, 1 - seat) == f"Webfeud: the rack of {NAMES[1 - seat]}"


def test_an_nmbr9_players_picture_is_their_display():
    state = GAMES["nmbr9"].new_game(2, seed=1, options={})
    assert picture_alt("rack", state, NAMES, 1) == "NMBR 9: the display of bob, your turn"


def test_a_game_nobody_won_says_so():
    """Equal racks in a blocked Numfeud game: no winner (before, the alt text read " wins")."""
    state = GAMES["numfeud"].new_game(2, seed=1, options={})
    over = replace(state, outcome=Outcome((-12, -12), (), "blocked"), scores=(-12, -12))
    assert picture_alt("game over", over, NAMES, None) == (
        "Numfeud game over: nobody wins; scores: ann -12, bob -12"
    )
