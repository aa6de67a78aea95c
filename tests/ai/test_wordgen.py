"""The word-game move generator: exhaustive against a brute force, and on the real board."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.ai.wordgen import Candidate, best_candidate, candidate_order, generate_moves
from bot.core.game import Pass
from bot.core.grid import Anchor
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import EMPTY, Place, Variant, WordState

from .brute import arrangements, brute_force, fill
from .minis import MINI7, MINI8, MINI9, MINIS, TINY, mini_game, random_position

POSITIONS_PER_VARIANT = 70  # three variants: 210 random positions in all


def as_found(candidates: list[Candidate]) -> dict[tuple[tuple[int, str], ...], tuple[str, int]]:
    """Key the generator's output like the brute force's: new tiles -> (notation, score).

    It also checks each candidate's blank and tile counts against its new tiles.
    """
    for c in candidates:
        assert c.tile_count == len(c.placed)
        assert c.blanks == c.tiles.count("?")
    found = {c.placed: (str(c.move), c.score) for c in candidates}
    assert len(found) == len(candidates), "a placement was generated twice"
    return found


def rigged(state: WordState, seat: int, rack: str) -> WordState:
    """Return `state` with `seat`'s rack replaced (the bag is left alone)."""
    racks = tuple(rack if s == seat else r for s, r in enumerate(state.racks))
    return replace(state, racks=racks)


def with_board(state: WordState, words: list[tuple[Anchor, str]]) -> WordState:
    """Return `state` with words written straight onto the board (no rules, no racks)."""
    size = state.size
    board = list(state.board)
    for anchor, word in words:
        for k, ch in enumerate(word):
            row, col = anchor.step(k)
            board[row * size + col] = ch
    return replace(state, board="".join(board))


# --- exhaustive: the generator finds exactly what the brute force finds --------------------------


@pytest.mark.parametrize("variant", MINIS, ids=lambda v: v.key)
def test_generator_equals_brute_force_on_random_positions(variant: Variant) -> None:
    """On random small-board positions each legal placement is generated once, rightly scored."""
    checked = 0
    for seed in range(POSITIONS_PER_VARIANT):
        state = random_position(variant, seed)
        seat = state.to_move
        expected = brute_force(state, seat)
        assert as_found(generate_moves(state, seat)) == expected, (seed, state.racks[seat])
        checked += 1
    assert checked == POSITIONS_PER_VARIANT


def test_random_positions_cover_blanks_edges_and_busy_boards() -> None:
    """The random positions include one- and two-blank racks, edge words and full-rack plays."""
    blank_racks = set()
    edge_words = bingos = 0
    for variant in MINIS:
        for seed in range(POSITIONS_PER_VARIANT):
            state = random_position(variant, seed)
            seat = state.to_move
            blank_racks.add(state.racks[seat].count("?"))
            for c in generate_moves(state, seat):
                end = (c.col if c.across else c.row) + len(c.word)
                edge_words += end == state.size or (c.col if c.across else c.row) == 0
                bingos += len(c.placed) == variant.rack_size
    assert {0, 1, 2} <= blank_racks
    assert edge_words > 100
    assert bingos > 10


def test_brute_force_filter_keeps_what_writing_every_arrangement_keeps() -> None:
    """The brute force's word-driven lexicon filter equals writing each arrangement in turn."""
    words = set(TINY)
    for pattern in ("...", "A..", ".T.", "..S.", "R...", "....."):
        holes = [k for k, ch in enumerate(pattern) if ch == EMPTY]
        tiles = arrangements("ET?S", len(holes))
        literal = set()
        for filling in tiles:
            template = list(pattern)
            for k, ch in zip(holes, filling, strict=True):
                template[k] = ch
            if "".join(template).upper() in words:
                literal.add("".join(template))
        same_length = [w for w in words if len(w) == len(pattern)]
        assert set(fill(pattern, holes, tiles, same_length)) == literal


def test_brute_force_sees_a_bug_in_the_generator_output() -> None:
    """The oracle is sharp: dropping one generated placement makes the comparison fail."""
    state = random_position(MINI7, 5)
    seat = state.to_move
    found = as_found(generate_moves(state, seat))
    assert found == brute_force(state, seat)
    found.pop(next(iter(found)))
    assert found != brute_force(state, seat)


# --- special cases ------------------------------------------------------------------------------


def test_first_move_may_use_any_of_four_start_squares() -> None:
    """With four start squares every first word covers one, and each square gets words."""
    state = rigged(mini_game(MINI8, 1), 0, "TEAS")
    candidates = generate_moves(state, 0)
    starts = MINI8.start_cells
    assert all(c.cells & starts for c in candidates)
    for square in starts:
        assert any(square in c.cells for c in candidates)
    assert as_found(candidates) == brute_force(state, 0)


def test_single_tile_making_two_words_is_listed_once_across() -> None:
    """A lone tile that makes an across and a down word appears once, in across notation."""
    state = rigged(mini_game(MINI7, 2), 0, "EO")
    # TO across from B4, TA down from D2: a tile on D4 makes TO? across and TA? down.
    state = with_board(state, [(Anchor(3, 1, True), "TO"), (Anchor(1, 3, False), "TA")])
    candidates = generate_moves(state, 0)
    assert as_found(candidates) == brute_force(state, 0)
    on_d4 = {str(c.move) for c in candidates if c.placed in (((24, "E"),), ((24, "O"),))}
    assert on_d4 == {"4B TOE", "4B TOO"}  # not D2 TAE, D2 TAO
    for c in candidates:
        if len(c.placed) == 1:
            row, col = divmod(c.placed[0][0], state.size)
            beside = [state.cell(row, x) for x in (col - 1, col + 1) if 0 <= x < state.size]
            assert c.across == any(ch != EMPTY for ch in beside)


def test_blank_next_to_board_blank_keeps_cases() -> None:
    """Board blanks are written in lower case and a rack blank becomes a lower-case letter."""
    state = rigged(mini_game(MINI7, 3), 0, "?")
    state = with_board(state, [(Anchor(3, 2, True), "tO")])  # a blank T on the board
    found = as_found(generate_moves(state, 0))
    assert found == brute_force(state, 0)
    assert "4C tOe" in {notation for notation, _ in found.values()}


def test_no_rack_no_candidates() -> None:
    """An empty rack has no placement."""
    state = rigged(mini_game(MINI9, 4), 0, "")
    assert generate_moves(state, 0) == []


def test_candidate_reports_tiles_cells_and_blanks() -> None:
    """A candidate derives its move, new cells, rack tiles and blank count from its board."""
    state = with_board(mini_game(MINI7, 5), [(Anchor(3, 2, True), "AT")])
    candidate = Candidate(4, 3, 1, True, "rATs", 2, 2, state.board)
    assert candidate.move == Place(Anchor(3, 1, True), "rATs")
    assert candidate.placed == ((22, "r"), (25, "s"))
    assert candidate.cells == frozenset({22, 25})
    assert candidate.tiles == "??"
    assert candidate.blanks == 2
    assert str(candidate) == "4B rATs (4)"


def test_best_candidate_breaks_ties_the_same_way() -> None:
    """The best candidate is the top score; ties go to fewer blanks, then the notation."""
    board = EMPTY * 49
    plain = Candidate(10, 3, 3, True, "AT", 0, 2, board)
    blank = Candidate(10, 3, 2, True, "aT", 1, 2, board)
    down = Candidate(10, 3, 3, False, "AT", 0, 2, board)
    low = Candidate(3, 0, 0, True, "AT", 0, 2, board)
    assert best_candidate([low, blank, down, plain]) == plain
    assert best_candidate([]) is None
    assert sorted([low, blank, down, plain], key=candidate_order) == [plain, down, blank, low]


# --- the real board with the full lexicon ------------------------------------------------------


def test_opening_on_webfeud_finds_known_moves() -> None:
    """The opening rack QUIZE?? finds QUIZ through H8 and blank words, scored as evaluate does."""
    state = rigged(WEBFEUD.new_game(2, seed=1, options={}), 0, "QUIZE??")
    candidates = generate_moves(state, 0)
    found = {str(c.move): c.score for c in candidates}
    assert found["8E QUIZ"] == 23
    assert found["H8 QUIZ"] == 23
    assert found["8H QUIz"] == 13
    assert "8H QUIZzEs" in found  # a blank Z and a blank S: QUIZZES, all seven tiles
    assert found["8H QUIZzEs"] == state.evaluate(Place(Anchor(7, 7, True), "QUIZzEs"), 0).score
    for c in candidates[::5]:
        ev = state.evaluate(c.move, 0)
        assert (ev.score, ev.placed) == (c.score, c.placed)


def play_hard(state: WordState, plies: int) -> WordState:
    """Play the best placement (or pass) for both seats for `plies` turns."""
    for _ in range(plies):
        seat = state.to_move
        best = best_candidate(generate_moves(state, seat))
        state = state.apply(seat, best.move if best else Pass())
    return state


def test_every_candidate_is_legal_mid_game_on_webfeud() -> None:
    """Mid-game on Webfeud, every candidate is accepted by evaluate with the same score."""
    for seed, rack in ((11, None), (12, "RETAIN?"), (13, "??QUEST")):
        state = play_hard(WEBFEUD.new_game(2, seed=seed, options={}), 12)
        seat = state.to_move
        if rack is not None:
            state = rigged(state, seat, rack)
        candidates = generate_moves(state, seat)
        assert len(candidates) > 100
        for c in candidates:
            ev = state.evaluate(c.move, seat)
            assert (ev.score, ev.placed) == (c.score, c.placed), str(c)


def test_known_moves_through_board_letters_on_webfeud() -> None:
    """After QUIZ on 8H, QUIZZES extends it and ZA hangs from its Z, scored as evaluate does."""
    state = with_board(WEBFEUD.new_game(2, seed=2, options={}), [(Anchor(7, 7, True), "QUIZ")])
    state = rigged(state, 0, "ZESAB?T")
    found = {str(c.move): c.score for c in generate_moves(state, 0)}
    for notation in ("8H QUIZZES", "8H QUIZzES", "K8 ZA", "K8 Za"):
        move = WEBFEUD.parse_move(notation)
        assert isinstance(move, Place)
        assert found[notation] == state.evaluate(move, 0).score, notation
    assert "8H QUIZZEd" in found  # the blank as the D
    assert "8H QUIZZED" not in found  # there is no D tile on the rack
