"""NMBR 9 images: registered, deterministic, levels shaded and numbered, round moves private."""

from __future__ import annotations

import io

from PIL import Image

from bot.ai.nmbr9 import choose_nmbr9_move
from bot.games.nmbr9 import NMBR9, Nmbr9State, Place, parse_nmbr9_move
from renderers import board_png, rack_png
from renderers.nmbr9 import (
    BADGE,
    FRESH,
    LEVEL_SHADES,
    Square,
    _badge_square,
    _badges,
    _label_square,
    _levels,
    _status,
    badge_size,
    board_layout,
    rack_layout,
    render_board,
    render_rack,
    top_view,
)
from renderers.toolkit import Grid
from tests.games.test_nmbr9 import nine_block

NAMES = ["alice", "bob", "carol"]


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def close(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(abs(x - y) <= 12 for x, y in zip(a, b, strict=True))


def played(players: int, rounds: int, seed: int = 5, *, alike: bool = False) -> Nmbr9State:
    """Play `rounds` by the medium bot; `alike`: every seat copies seat 0 (a tie)."""
    state = NMBR9.new_game(players, seed=seed, options={})
    for _ in range(rounds):
        first = choose_nmbr9_move(state, 0, "medium", 1)
        for seat in range(players):
            move = first if alike else choose_nmbr9_move(state, seat, "medium", 1)
            state = state.apply(seat, move)
    return state


def test_board_and_rack_are_registered_and_deterministic() -> None:
    """board_png/rack_png find the NMBR 9 renderers; the same state gives the same bytes."""
    state = played(3, 6)
    one = board_png(state, names=NAMES)
    assert one.startswith(b"\x89PNG")
    assert one == board_png(state, names=NAMES)
    assert len(one) < 400 * 1024
    assert rack_png(state, 1, name="bob") == rack_png(state, 1, name="bob")
    for players in (1, 2, 4):  # empty displays, one to four panels
        fresh = NMBR9.new_game(players, seed=1, options={})
        assert board_png(fresh, names=[f"p{k}" for k in range(players)]).startswith(b"\x89PNG")


def test_the_group_image_hides_the_tiles_of_the_round_being_played() -> None:
    """Two different placements of alice's current tile give the same group image."""
    state = played(3, 5)
    moves = state.displays[0].fits(state.card)
    first = state.apply(0, parse_nmbr9_move(_notation(moves[0])))
    second = state.apply(0, parse_nmbr9_move(_notation(moves[-1])))
    assert render_board(first, names=NAMES) == render_board(second, names=NAMES)
    # … but alice's own image shows hers.
    assert render_rack(first, 0, name="alice") != render_rack(second, 0, name="alice")
    # Once the round is over everybody sees it.
    for seat in (1, 2):
        move = parse_nmbr9_move(str(choose_nmbr9_move(state, seat, "easy", 1)))
        first, second = first.apply(seat, move), second.apply(seat, move)
    assert render_board(first, names=NAMES) != render_board(second, names=NAMES)


def _notation(fit) -> str:
    return f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[fit.col]}{fit.row + 1} {fit.rotation}"


def test_a_higher_tile_covers_the_one_below_from_above() -> None:
    """The top view shows the highest tile of each square, with its number and level."""
    state = nine_block(5).apply(0, parse_nmbr9_move("A1 0"))  # a 5 on level 1 over both 9s
    squares = top_view(state.view(0)["displays"][0])
    assert squares[0, 0].number == 5
    assert squares[0, 0].level == 1
    assert squares[3, 3].number == 9  # D4: the turned 9, uncovered
    assert squares[3, 3].level == 0


def test_the_legend_lists_only_the_levels_with_tiles() -> None:
    """All tiles on the table: only "level 0"; a tile on level 1 adds level 1, nothing more."""
    flat = nine_block(5)
    assert _levels(flat.view(0)["displays"]) == [0]
    stacked = flat.apply(0, parse_nmbr9_move("A1 0"))
    assert _levels(stacked.view(0)["displays"]) == [0, 1]
    assert _levels([[]]) == [0]  # nothing placed yet: the table alone
    assert render_rack(flat, 0, name="alice").startswith(b"\x89PNG")


def test_levels_are_shaded_on_a_players_own_image() -> None:
    """A level-1 square has the level-1 shade, a table square the level-0 shade."""
    state = nine_block(5).apply(0, parse_nmbr9_move("A1 0"))
    grid, window, _ = rack_layout(state, 0)
    top, _, left, _ = window
    picture = image(render_rack(state, 0, name="alice"))

    def colour_at(row: int, col: int) -> tuple[int, int, int]:
        _, _, x1, y1 = grid.box(row - top, col - left)
        return picture.getpixel((x1 - 5, y1 - 5))  # a corner away from the labels

    assert close(colour_at(0, 1), rgb(LEVEL_SHADES[1]))  # B1: the 5 on level 1
    assert close(colour_at(3, 3), rgb(LEVEL_SHADES[0]))  # D4: the 9 on the table
    assert not close(rgb(LEVEL_SHADES[0]), rgb(LEVEL_SHADES[1]))


def test_a_finished_game_draws_every_display_with_the_winner() -> None:
    """The last board of a game renders; the rack of a finished game too."""
    state = played(2, 20, seed=2)
    assert state.outcome is not None
    assert image(board_png(state, names=NAMES[:2])).width >= 900
    assert rack_png(state, 0, name="alice").startswith(b"\x89PNG")
    assert _status(state.view(None), NAMES[:2]).endswith(
        "rounds — " + (" and ".join(NAMES[s] for s in state.outcome.winners)) + " won"
    )
    assert _status(state.view(None), NAMES[:2]).startswith("NMBR 9 · game over after 20 rounds")
    solo = played(1, 20, seed=2)
    score = solo.view(None)["scores"][0]
    assert (
        _status(solo.view(None), NAMES[:1])
        == f"NMBR 9 · game over after 20 rounds — alice scored {score}"
    )
    # Alone, nobody is beaten: no "winner" badge, only the score.
    [badge] = _badges(solo.view(0), NAMES[:1], 0)
    assert (badge.caption, badge.winner) == ("you", False)


def test_a_resigned_seat_is_labelled_and_the_resignation_ends_the_status_line() -> None:
    """A resigned player's badge says so (never "to place"); the game over line names why."""
    state = played(3, 2).apply(1, parse_nmbr9_move("resign"))
    view = state.view(None)
    captions = [badge.caption for badge in _badges(view, NAMES, None)]
    assert captions == ["to place", "resigned", "to place"]
    assert (
        _status(view, NAMES) == "NMBR 9 · round 3 of 20 · the card is 6 · to place: alice and carol"
    )
    fresh = played(3, 2)
    assert _status(fresh.view(None), NAMES).endswith("the card is 6 · to place: everyone")
    first = fresh.apply(1, choose_nmbr9_move(fresh, 1, "easy", 1))
    assert _status(first.view(None), NAMES).endswith("the card is 6 · to place: alice and carol")
    over = state.apply(2, parse_nmbr9_move("resign"))
    assert _status(over.view(None), NAMES) == "NMBR 9 · game over by resignation — alice won"
    assert [b.caption for b in _badges(over.view(0), NAMES, 0)][:2] == ["you · winner", "resigned"]
    assert board_png(over, names=NAMES).startswith(b"\x89PNG")


def test_wide_displays_side_by_side_keep_the_phone_width() -> None:
    """Four displays each grown as wide as the table allows: the squares shrink, the image
    stays as wide as every other (it grew past 900 pixels).
    """
    state = NMBR9.new_game(4, seed=5, options={})
    for _ in range(9):
        for seat in range(4):
            number = state.deck[state.round]
            fits = [f for f in state.display(seat).fits(number) if f.level == 0]
            # The first tile at the left edge, then each one as far right as it goes.
            widest = max(fits, key=lambda f: -f.col if state.round == 0 else f.col)
            state = state.apply(seat, Place(widest.row, widest.col, widest.rotation))
    assert image(board_png(state, names=["a", "b", "c", "d"])).width == 900


def test_a_display_spread_wide_keeps_its_own_image_phone_wide() -> None:
    """A player's own display as wide as the table: its squares shrink as on /board, and the
    image stays 900 pixels wide with the whole grid inside the margins (it grew to 950).
    """
    state = NMBR9.new_game(1, seed=5, options={})
    for move in ("A11 90", "E12 0", "H12 0", "K12 0", "N12 0", "Q12 0", "T12 90", "X12 180"):
        state = state.apply(0, parse_nmbr9_move(move))
    grid, window, width = rack_layout(state, 0)
    picture = image(render_rack(state, 0, name="alice"))
    assert window[3] == 26  # columns A–Z
    assert picture.width == width == 900
    assert grid.cell < 34
    assert grid.left - 26 >= 20  # the row numbers' room inside the left margin
    assert grid.right <= 900 - 20
    # The rightmost square of the display is drawn in the level-0 shade, inside the image.
    row, col = max(top_view(state.view(0)["displays"][0]), key=lambda rc: (rc[1], rc[0]))
    assert col == 24  # column Y (Z is the margin)
    top, _, left, _ = window
    _, _, x1, y1 = grid.box(row - top, col - left)
    assert close(picture.getpixel((x1 - 5, y1 - 5)), rgb(LEVEL_SHADES[0]))


def _level_badge(
    picture: Image.Image, grid: Grid, window: tuple[int, int, int, int], entries, tile: int
) -> None:
    """Check a tile's level number: on a dark badge in a square of the tile other than its
    number's, clear of the square's edges (and so of the newest tile's outline), its digit
    light and at least 7 pixels tall.
    """
    top, _, left, _ = window
    squares = top_view(entries)
    spot = _label_square(squares, tile)
    badge = _badge_square(squares, tile, spot)
    assert spot is not None
    assert badge is not None
    assert badge != spot

    def pixels(square: tuple[int, int], inset: int) -> dict[tuple[int, int], tuple[int, ...]]:
        x0, y0, x1, y1 = grid.box(square[0] - top, square[1] - left, inset=inset)
        return {(x, y): picture.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)}

    # Nothing of the badge on the number's square.
    assert not [xy for xy, p in pixels(spot, 3).items() if close(p, rgb(BADGE))]
    inside = pixels(badge, 0)
    dark = [xy for xy, p in inside.items() if close(p, rgb(BADGE))]
    white = [xy for xy, p in inside.items() if min(p) >= 200]  # the digit, anti-aliased
    side = badge_size(grid.cell)
    assert len(dark) >= side * side // 2  # a solid badge, not a few letter strokes
    x0, y0, x1, y1 = grid.box(badge[0] - top, badge[1] - left)
    for x, y in dark:  # 2 pixels clear of every side: the edges and the outline run there
        assert x0 + 2 <= x < x1 - 2
        assert y0 + 2 <= y < y1 - 2
    assert not [xy for xy in dark if abs(xy[0] - (x0 + x1) / 2) > side / 2 + 1]
    assert not [xy for xy, p in pixels(badge, 2).items() if close(p, rgb(FRESH))]
    assert white
    assert max(y for _, y in white) - min(y for _, y in white) + 1 >= 7


def test_the_level_number_reads_on_a_players_own_display() -> None:
    """On a player's own image the 5 on level 1 (their newest tile, outlined) has its level
    number on a badge of its own square, beside the number's, white on dark (it was a 9-pixel
    "L1" in the number's corner, dark on orange).
    """
    state = nine_block(5).apply(0, parse_nmbr9_move("A1 0"))
    grid, window, _ = rack_layout(state, 0)
    entries = state.view(0)["displays"][0]
    picture = image(render_rack(state, 0, name="alice"))
    _level_badge(picture, grid, window, entries, len(entries) - 1)


def test_the_level_number_reads_on_the_smallest_group_display() -> None:
    """Four displays spread as wide as the table shrink /board's squares the most; a newest
    tile on level 1 still shows its level number on a badge clear of the blue outline.
    """
    state = NMBR9.new_game(4, seed=5, options={})
    while True:
        for seat in range(4):
            number = state.deck[state.round]
            fits = state.display(seat).fits(number)
            if state.round < 9:  # first as wide as the table, then up a level where a tile can
                fits = [f for f in fits if f.level == 0]
                best = max(fits, key=lambda f: -f.col if state.round == 0 else f.col)
            else:
                best = max(fits, key=lambda f: (f.level, f.col))
            state = state.apply(seat, Place(best.row, best.col, best.rotation))
        if state.displays[0] and state.view(None)["displays"][0][-1][4] >= 1:
            break
    grids, windows, width, _ = board_layout(state)
    assert width == 900
    assert grids[0].cell <= 16  # the smallest squares /board draws
    picture = image(render_board(state, names=["a", "b", "c", "d"]))
    entries = state.view(None)["displays"][0]
    _level_badge(picture, grids[0], windows[0], entries, len(entries) - 1)


def test_a_level_badge_fits_every_square_size_drawn() -> None:
    """From /board's smallest squares to a player's own: at least 11 pixels, 2 clear each side."""
    for cell in range(15, 35):
        assert 11 <= badge_size(cell) <= cell - 4


def test_a_tile_cut_in_pieces_shows_its_level_on_the_numbers_piece() -> None:
    """A tile above may cut one below in two: the level badge goes on the piece that shows the
    number, never on a piece apart (where it read as a lone level with no number); with only the
    number's square left of that piece, the two share it (None).
    """
    below, above = Square(0, 4, 1), Square(1, 0, 2)
    cut = {(5, 5): below, (5, 6): above, (5, 7): below, (6, 7): below}
    assert _badge_square(cut, 0, (5, 5)) is None
    assert _badge_square(cut, 0, (5, 7)) == (6, 7)
    cut[4, 5] = below
    assert _badge_square(cut, 0, (5, 5)) == (4, 5)
