"""SmartFeud's computer players: take moves against a brute force, full games, simulate."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.__main__ import main
from bot.ai import LEVELS, choose_move
from bot.ai.wordgen import Removal, best_candidate, generate_take_moves, take_options
from bot.core.errors import RuleError
from bot.games.smartfeud import SMARTFEUD
from bot.games.wordgame import BLANK, EMPTY, Place, WordState

from .brute import brute_force
from .minis import MINI8, random_position

# MINI8 (8×8, four centre squares, 4-tile racks) with SmartFeud's taking switched on.
TAKE8 = replace(MINI8, key="take8", take=True, take_bingo=40)
POSITIONS = 25


def take_position(seed: int) -> WordState:
    """Return a random MINI8 position, played as SmartFeud's variant of it."""
    return replace(random_position(MINI8, seed), variant=TAKE8)


def brute_takes(state: WordState, seat: int, removal: Removal) -> dict[object, tuple[str, int]]:
    """Return every legal placement that takes `removal` first: new tiles -> (notation, score).

    The brute force enumerates placements on the board without the tile, with the tile added to
    the rack; the engine's own `evaluate` with the take then decides each one.
    """
    cell = removal.cell
    board = state.board[:cell] + EMPTY + state.board[cell + 1 :]
    racks = tuple(r + removal.tile if s == seat else r for s, r in enumerate(state.racks))
    lifted = replace(state, board=board, racks=racks)
    out = {}
    for notation, _ in brute_force(lifted, seat).values():
        anchor_text, word = notation.split()
        base = SMARTFEUD.parse_move(f"{anchor_text} {word}")
        assert isinstance(base, Place)
        move = Place(base.anchor, base.word, divmod(cell, state.size))
        try:
            ev = state.evaluate(move, seat)
        except RuleError:
            continue
        out[ev.placed] = (str(move), ev.score)
    return out


def test_take_moves_equal_a_brute_force_on_small_boards() -> None:
    """For every take `take_options` keeps, the generator finds exactly the legal placements."""
    checked = takes = 0
    for seed in range(POSITIONS):
        state = take_position(seed)
        if state.outcome is not None:
            continue
        seat = state.to_move
        for removal in take_options(state, seat):
            found = {
                c.placed: (str(c.move), c.score)
                for c in generate_take_moves(state, seat, [removal])
            }
            assert found == brute_takes(state, seat, removal), (seed, removal)
            checked += 1
            takes += len(found)
    assert checked > 40
    assert takes > 100


def test_take_options_keep_only_removals_that_leave_valid_words() -> None:
    """Every kept removal leaves valid words; every dropped one leaves a broken word."""
    for seed in range(POSITIONS):
        state = take_position(seed)
        kept = {r.cell for r in take_options(state, state.to_move)}
        for cell, ch in enumerate(state.board):
            if ch == EMPTY:
                continue
            board = state.board[:cell] + EMPTY + state.board[cell + 1 :]
            lines = _lines_beside(board, state.size, cell)
            assert (cell in kept) == all(line.upper() in state.lexicon for line in lines)


def _lines_beside(board: str, size: int, cell: int) -> list[str]:
    """Return the runs of 2+ tiles that touch `cell` (independent of the code under test)."""
    out = []
    row, col = divmod(cell, size)
    for dr, dc in ((0, 1), (1, 0)):
        for sign in (-1, 1):
            letters = []
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < size and 0 <= c < size and board[r * size + c] != EMPTY:
                letters.append(board[r * size + c])
                r, c = r + sign * dr, c + sign * dc
            if len(letters) > 1:
                out.append("".join(letters if sign > 0 else letters[::-1]))
    return out


def test_every_take_candidate_is_legal_on_the_real_board() -> None:
    """Mid-game SmartFeud: each take candidate is accepted by evaluate with the same score."""
    state = SMARTFEUD.new_game(3, seed=5, options={})
    for _ in range(9):
        state = state.apply(state.to_move, choose_move(state, state.to_move, "hard", 2))
    seat = state.to_move
    candidates = generate_take_moves(state, seat, take_options(state, seat))
    assert candidates
    for c in candidates:
        ev = state.evaluate(c.move, seat)
        assert ev.score == c.score, str(c.move)
        assert ev.taken is not None
        code = ev.taken[1] if ev.taken[1].isupper() else BLANK
        assert code in ev.rack_tiles
    best = best_candidate(candidates)
    assert best is not None
    assert " take " in str(best.move)


@pytest.mark.parametrize("players", [2, 3])
def test_every_level_plays_full_games(players: int) -> None:
    """The levels finish 2- and 3-player games with the invariants kept (4: test_smartfeud)."""
    levels = LEVELS[3 - players :]
    state = SMARTFEUD.new_game(players, seed=players, options={})
    for _ in range(500):
        if state.outcome is not None:
            break
        seat = state.to_move
        state = state.apply(seat, choose_move(state, seat, levels[seat], 3))
        state.check_invariants()
    assert state.outcome is not None


def test_hard_scores_more_than_easy() -> None:
    """Over the first 12 moves of two seeded games (each starting once) hard outscores easy."""
    hard = easy = 0
    for seed in range(2):
        state = SMARTFEUD.new_game(2, seed=seed, options={})
        levels = ("hard", "easy") if seed % 2 else ("easy", "hard")
        for _ in range(12):
            if state.outcome is not None:
                break
            seat = state.to_move
            state = state.apply(seat, choose_move(state, seat, levels[seat], seed))
        hard += state.scores[levels.index("hard")]
        easy += state.scores[levels.index("easy")]
    assert hard > easy


def test_simulate_plays_smartfeud(capsys: pytest.CaptureFixture[str]) -> None:
    """`feudbot simulate --game smartfeud` plays complete 3-player games, invariants checked."""
    args = ["simulate", "--game", "smartfeud", "--games", "1", "--seed", "3"]
    assert main([*args, "--players", "hard,medium,easy"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 1
    for record in records:
        assert record["game"] == "smartfeud"
        assert len(record["scores"]) == 3
        assert record["reason"] in {"out", "passes", "resign"}
        assert record["winners"]
        assert any(" take " in move["move"] for move in record["moves"])
