"""NMBR 9 images: the displays seen from above, for the group and for each player.

A square shows the tile on top of it. Levels are told apart twice, so colour is not needed: by
shade (the table's level 0 pale, every level above darker and warmer) and by a level number,
white on a dark badge in a square of the tile beside the number's, so the two never meet and
the badge stays clear of the tile's edges and outline at every size the squares are drawn.
Each tile carries its number; thick lines separate tiles. Column letters and row numbers name
the squares as `/place` does. The group image (`render_board`)
shows every display side by side with the scores and is drawn from `state.view(viewer)`, so a
placement of the current round shows only to its own player until the round is over. A player's
private image (`render_rack`) shows their own display with this round's tile in its four turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.core.words import and_list
from bot.games.nmbr9 import ROTATIONS, SHAPE, SIZE, Nmbr9State
from renderers.toolkit import (
    COLUMN_LETTERS,
    DEFAULT,
    Grid,
    PlayerBadge,
    Theme,
    draw_header,
    fit_text,
    header_height,
    new_canvas,
    player_name,
    player_names,
    rounded_box,
    text,
    to_png,
    win_caption,
)

__all__ = [
    "LEVEL_SHADES",
    "badge_size",
    "board_layout",
    "rack_layout",
    "render_board",
    "render_rack",
    "top_view",
]

# Level 0 (the table) pale; each level up darker and warmer. Ink: dark on pale, white on dark.
LEVEL_SHADES = ("#efe6cf", "#f2c76b", "#e8913f", "#bf5334", "#8e3b5e", "#5b3a84", "#2f3f8f")
LEVEL_INKS = ("#2b2118", "#2b2118", "#2b2118", "#ffffff", "#ffffff", "#ffffff", "#ffffff")
EDGE = "#151a23"  # the line between two tiles
FRESH = "#4fc3f7"  # the outline of each display's newest tile
BADGE, BADGE_INK = "#151a23", "#ffffff"  # a tile's level number: white on a dark badge
BOARD_CELL = 30  # pixels per square on the group image
RACK_CELL = 34  # … on a player's own image
MARGIN = 1  # empty squares shown around a display (group image)
RACK_MARGIN = 2  # … around a player's own display: room to plan
MIN_SPAN = 8  # the smallest number of rows and columns a display shows
PANEL_GAP = 16
LABEL = 26  # room for the coordinates left of and above a grid


@dataclass(frozen=True, slots=True)
class Square:
    """What is seen from above on one square: the top tile's index, number and level."""

    tile: int
    number: int
    level: int


def top_view(entries: Sequence[Sequence[int] | None]) -> dict[tuple[int, int], Square]:
    """Return (row, col) -> the top tile, for a display of ``[number, row, col, rot, level]``."""
    seen: dict[tuple[int, int], Square] = {}
    order = sorted(
        (entry[4], k, entry) for k, entry in enumerate(entries) if entry is not None
    )  # lower levels first, so higher tiles cover them
    for level, k, (number, row, col, rotation, _) in order:
        for dr, dc in SHAPE[number, rotation].cells:
            seen[row + dr, col + dc] = Square(k, number, level)
    return seen


def _window(squares: Mapping[tuple[int, int], Square], margin: int) -> tuple[int, int, int, int]:
    """Return the rows and columns (first, count) to show: the display plus a margin."""
    if squares:
        rows = [r for r, _ in squares]
        cols = [c for _, c in squares]
        top, bottom = min(rows) - margin, max(rows) + margin
        left, right = min(cols) - margin, max(cols) + margin
    else:
        mid = SIZE // 2
        top, bottom, left, right = mid - 4, mid + 3, mid - 4, mid + 3
    top, bottom = _at_least(top, bottom)
    left, right = _at_least(left, right)
    top, left = max(0, top), max(0, left)
    bottom, right = min(SIZE - 1, bottom), min(SIZE - 1, right)
    return top, bottom - top + 1, left, right - left + 1


def _at_least(first: int, last: int) -> tuple[int, int]:
    """Widen a span of squares evenly to at least MIN_SPAN squares."""
    grow = MIN_SPAN - (last - first + 1)
    if grow <= 0:
        return first, last
    return first - grow // 2, last + grow - grow // 2


def _shade(level: int) -> tuple[str, str]:
    k = min(level, len(LEVEL_SHADES) - 1)
    return LEVEL_SHADES[k], LEVEL_INKS[k]


def _label_square(squares: Mapping[tuple[int, int], Square], tile: int) -> tuple[int, int] | None:
    """Return the visible square of a tile nearest its visible centre (None if covered)."""
    mine = [rc for rc, sq in squares.items() if sq.tile == tile]
    if not mine:
        return None
    cr = sum(r for r, _ in mine) / len(mine)
    cc = sum(c for _, c in mine) / len(mine)
    return min(mine, key=lambda rc: ((rc[0] - cr) ** 2 + (rc[1] - cc) ** 2, rc))


def _draw_display(
    image: Image.Image,
    grid: Grid,
    window: tuple[int, int, int, int],
    squares: Mapping[tuple[int, int], Square],
    fresh: int | None,
    theme: Theme,
) -> None:
    """Draw one display in `grid` (which spans `window`): squares, edges, numbers, levels."""
    draw = ImageDraw.Draw(image)
    top, rows, left, cols = window
    size = max(11, min(15, grid.cell // 2))
    for k in range(cols):
        x = grid.left + k * grid.cell + grid.cell / 2
        label = COLUMN_LETTERS[left + k]
        text(draw, (x, grid.top - LABEL / 2), label, size=size, fill=theme.coordinate, bold=True)
    for k in range(rows):
        y = grid.top + k * grid.cell + grid.cell / 2
        label = str(top + k + 1)
        text(draw, (grid.left - LABEL / 2, y), label, size=size, fill=theme.coordinate, bold=True)
    rounded_box(
        image,
        (grid.left - 3, grid.top - 3, grid.right + 3, grid.bottom + 3),
        radius=theme.radius,
        fill=theme.board_frame,
    )
    for r in range(rows):
        for c in range(cols):
            square = squares.get((top + r, left + c))
            x0, y0, x1, y1 = grid.box(r, c)
            if square is None:
                draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), fill=theme.cell)
            else:
                draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=_shade(square.level)[0])
    # Thick lines wherever two squares show different tiles (or a tile meets the table).
    for r in range(rows):
        for c in range(cols):
            here = squares.get((top + r, left + c))
            x0, y0, x1, y1 = grid.box(r, c)
            for dr, dc, line in (
                (-1, 0, (x0, y0, x1 - 1, y0)),
                (1, 0, (x0, y1 - 1, x1 - 1, y1 - 1)),
                (0, -1, (x0, y0, x0, y1 - 1)),
                (0, 1, (x1 - 1, y0, x1 - 1, y1 - 1)),
            ):
                there = squares.get((top + r + dr, left + c + dc))
                if here is None or (there is not None and there.tile == here.tile):
                    continue
                colour = FRESH if here.tile == fresh else EDGE
                draw.line(line, fill=colour, width=3 if here.tile == fresh else 2)
    tiles = {sq.tile: sq for sq in squares.values()}
    for tile, square in sorted(tiles.items()):
        spot = _label_square(squares, tile)
        if spot is None or not (top <= spot[0] < top + rows and left <= spot[1] < left + cols):
            continue
        ink = _shade(square.level)[1]
        x, y = grid.centre(spot[0] - top, spot[1] - left)
        badge = _badge_square(squares, tile, spot) if square.level else None
        if square.level and badge is None:
            # The number's square is all that shows of the tile: the two share it, the number
            # top left and the badge in the bottom-right corner.
            _, _, x1, y1 = grid.box(spot[0] - top, spot[1] - left)
            small = round(grid.cell * 0.45)
            text(
                draw,
                (x - grid.cell * 0.2, y - grid.cell * 0.18),
                str(square.number),
                size=small,
                fill=ink,
                bold=True,
            )
            _draw_badge(image, (x1 - 2 - small / 2, y1 - 2 - small / 2), small, square.level)
            continue
        big = round(grid.cell * 0.72)
        text(draw, (x, y + 1), str(square.number), size=big, fill=ink, bold=True)
        if badge is not None and top <= badge[0] < top + rows and left <= badge[1] < left + cols:
            centre = grid.centre(badge[0] - top, badge[1] - left)
            _draw_badge(image, centre, badge_size(grid.cell), square.level)


def badge_size(cell: int) -> int:
    """Return the side of a level badge on a square of `cell` pixels.

    At least 11 pixels (a 10-pixel digit), yet 2 pixels clear of each side of the square, where
    the lines between tiles and the newest tile's outline run.
    """
    return max(min(cell - 4, 11), round(cell * 0.7))


def _badge_square(
    squares: Mapping[tuple[int, int], Square], tile: int, spot: tuple[int, int]
) -> tuple[int, int] | None:
    """Return the square for a tile's level badge: another visible square of the tile.

    Only of the piece that shows the number (a tile above may cut a tile in pieces): one beside
    the number's `spot` if there is one (right, below, left, above), else the nearest; None if
    the number's square is all that shows of that piece.
    """
    row, col = spot
    beside = {(row, col + 1): 0, (row + 1, col): 1, (row, col - 1): 2, (row - 1, col): 3}
    piece, todo = {spot}, [spot]
    while todo:
        r, c = todo.pop()
        for rc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            square = squares.get(rc)
            if rc not in piece and square is not None and square.tile == tile:
                piece.add(rc)
                todo.append(rc)
    mine = sorted(piece - {spot})
    if not mine:
        return None
    return min(
        mine, key=lambda rc: (beside.get(rc, 4), (rc[0] - row) ** 2 + (rc[1] - col) ** 2, rc)
    )


def _draw_badge(image: Image.Image, centre: tuple[float, float], size: int, level: int) -> None:
    """Draw a tile's level number on a badge of `size` pixels centred on `centre`.

    White on near-black: it reads on every shade.
    """
    left, top = round(centre[0] - size / 2), round(centre[1] - size / 2)
    rounded_box(image, (left, top, left + size, top + size), radius=size // 3, fill=BADGE)
    digit = min(size, max(11, round(size * 0.78)))
    text(
        ImageDraw.Draw(image),
        (left + size / 2, top + size / 2),
        str(level),
        size=digit,
        fill=BADGE_INK,
        bold=True,
    )


def _legend(image: Image.Image, y: int, levels: Sequence[int], theme: Theme) -> int:
    """Draw the shades of `levels` with their multipliers; return the bottom y."""
    draw = ImageDraw.Draw(image)
    x = theme.padding
    for level in levels:
        fill, ink = _shade(level)
        rounded_box(image, (x, y, x + 26, y + 26), radius=4, fill=fill)
        if level:  # the badge as the tiles show it
            _draw_badge(image, (x + 13, y + 13), 18, level)
        else:
            text(draw, (x + 13, y + 13), str(level), size=14, fill=ink, bold=True)
        label = "level 0: table, ×0" if level == 0 else f"level {level}: ×{level}"
        text(draw, (x + 34, y + 13), label, size=15, fill=theme.text_muted, anchor="lm")
        x += 44 + round(7.5 * len(label))
    return y + 26


def _levels(displays: Sequence[Sequence[Sequence[int] | None]]) -> list[int]:
    """Return the levels the legend lists: those with tiles on them (the table, level 0, always)."""
    return sorted({0} | {e[4] for d in displays for e in d if e is not None})


def _fresh(entries: Sequence[Sequence[int] | None]) -> int | None:
    """Return the index of a display's newest tile (None before the first or after a skip)."""
    if not entries or entries[-1] is None:
        return None
    return len(entries) - 1


def _status(view: Mapping[str, Any], names: Sequence[str]) -> str:
    outcome = view.get("outcome")
    if outcome is not None:
        winners = and_list(names[s] for s in outcome["winners"])
        if len(outcome["winners"]) > 2:  # the panels name them; four names would push "won" out
            winners = f"{len(outcome['winners'])} players"  # "… — 4 players won"
        if outcome["reason"] == "resign":
            over = f"game over by resignation — {winners} won" if winners else "resigned"
        elif len(names) == 1:  # solo: a score, nobody beaten
            over = (
                f"game over after {view['rounds']} rounds — {names[0]} scored {view['scores'][0]}"
            )
        else:
            over = f"game over after {view['rounds']} rounds — {winners} won"
        return f"NMBR 9 · {over}"
    playing = len(names) - len(view.get("resigned", ()))
    waiting = and_list(names[s] for s in view["waiting_for"])
    if len(view["waiting_for"]) == playing >= 3:
        waiting = "everyone"  # the panels say it too; a list of four names may not fit
    return (
        f"NMBR 9 · round {view['round'] + 1} of {view['rounds']} · the card is {view['card']} · "
        f"to place: {waiting or 'nobody'}"
    )


def _badges(view: Mapping[str, Any], names: Sequence[str], viewer: int | None) -> list[PlayerBadge]:
    outcome = view.get("outcome")
    winners = tuple(outcome["winners"]) if outcome and len(names) > 1 else ()  # alone: no win
    resigned = set(view.get("resigned", ()))
    badges = []
    for seat, name in enumerate(names):
        if seat in resigned:
            caption = "resigned"
        elif outcome is not None:
            caption = win_caption(winners, seat)
        else:
            caption = "placed" if view["placed"][seat] else "to place"
        if seat == viewer:
            caption = f"you · {caption}" if caption else "you"
        active = outcome is None and seat not in resigned and not view["placed"][seat]
        badges.append(
            PlayerBadge(name, view["scores"][seat], caption, active=active, winner=seat in winners)
        )
    return badges


def render_board(
    state: Nmbr9State,
    *,
    names: Sequence[str],
    viewer: int | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT,
) -> bytes:
    """Return the PNG of every display side by side (two to a row) with the scores.

    Drawn from `state.view(viewer)`: with no viewer (the group), nobody's tile of the current
    round shows before the round is over.

    Raises:
        ValueError: if `names` does not have one name per seat.
    """
    if len(names) != state.players:
        raise ValueError(f"need {state.players} names, got {len(names)}")
    names = player_names(names)
    view = state.view(viewer)
    displays = view["displays"]
    views = [top_view(entries) for entries in displays]
    windows = [_window(squares, MARGIN) for squares in views]
    grids, width, legend_top = _arrange(windows, theme)
    image = new_canvas(width, legend_top + 26 + 2 * theme.padding - theme.padding // 2, theme)
    draw_header(image, _badges(view, names, viewer), _status(view, names), theme)
    draw = ImageDraw.Draw(image)
    for seat, grid in enumerate(grids):
        x, panel = grid.left - LABEL, grid.right - grid.left + LABEL
        title = fit_text(
            f"{names[seat]} — {view['scores'][seat]}", size=18, max_width=panel, bold=True
        )
        y = grid.top - LABEL - 30
        text(draw, (x + panel / 2, y + 12), title, size=18, fill=theme.text, bold=True)
        fresh = _fresh(displays[seat]) if last_move else None
        _draw_display(image, grid, windows[seat], views[seat], fresh, theme)
    _legend(image, legend_top, _levels(displays), theme)
    return to_png(image)


def board_layout(
    state: Nmbr9State, viewer: int | None = None, theme: Theme = DEFAULT
) -> tuple[list[Grid], list[tuple[int, int, int, int]], int, int]:
    """Return where `render_board` draws each display: grids, windows, image width, legend y."""
    displays = state.view(viewer)["displays"]
    windows = [_window(top_view(entries), MARGIN) for entries in displays]
    grids, width, legend_top = _arrange(windows, theme)
    return grids, windows, width, legend_top


def _arrange(
    windows: Sequence[tuple[int, int, int, int]], theme: Theme
) -> tuple[list[Grid], int, int]:
    """Return the grids of displays of these windows, two to a row; image width; legend y."""
    players = len(windows)
    per_row = 1 if players == 1 else 2
    rows_of = [list(range(k, min(k + per_row, players))) for k in range(0, players, per_row)]
    pad = theme.padding
    # Squares shrink when two wide displays would not fit side by side in the phone width.
    cell = min(
        BOARD_CELL,
        *(
            (theme.width - 2 * pad - PANEL_GAP * (len(row) - 1) - LABEL * len(row))
            // sum(windows[s][3] for s in row)
            for row in rows_of
        ),
    )
    widths = [LABEL + w[3] * cell for w in windows]
    heights = [LABEL + 30 + w[1] * cell for w in windows]
    content_width = max(sum(widths[s] for s in row) + PANEL_GAP * (len(row) - 1) for row in rows_of)
    width = max(theme.width, content_width + 2 * pad)
    grids: list[Grid] = []
    y = header_height(theme, players) + pad // 2
    for row in rows_of:
        used = sum(widths[s] for s in row) + PANEL_GAP * (len(row) - 1)
        x = (width - used) // 2
        for seat in row:
            _, rows, _, cols = windows[seat]
            grids.append(Grid(x + LABEL, y + 30 + LABEL, cell, rows, cols))
            x += widths[seat] + PANEL_GAP
        y += max(heights[s] for s in row) + PANEL_GAP
    return grids, width, y


def _draw_turns(image: Image.Image, number: int, x: int, y: int, theme: Theme) -> int:
    """Draw `number` in its four turns with their /place angle; return the bottom y.

    A small ring marks the box's top-left square: the cell that `/place` names.
    """
    draw = ImageDraw.Draw(image)
    mini = 16
    fill, ink = _shade(1)
    for rotation in ROTATIONS:
        shape = SHAPE[number, rotation]
        for dr, dc in shape.cells:
            x0, y0 = x + dc * mini, y + dr * mini
            draw.rectangle((x0, y0, x0 + mini - 2, y0 + mini - 2), fill=fill)
        draw.rectangle((x, y, x + mini - 2, y + mini - 2), outline=FRESH, width=2)
        label = f"/place … {rotation}"
        text(draw, (x, y + 4 * mini + 8), label, size=14, fill=theme.text_muted, anchor="lt")
        x += max(5 * mini, 4 * mini + 40)
    del ink
    return y + 4 * mini + 28


def rack_layout(
    state: Nmbr9State, seat: int, theme: Theme = DEFAULT
) -> tuple[Grid, tuple[int, int, int, int], int]:
    """Return where `render_rack` draws a seat's display: its grid, window and image width."""
    window = _window(top_view(state.view(seat)["displays"][seat]), RACK_MARGIN)
    _, rows, _, cols = window
    # Squares shrink when a display spread wide would not fit the phone width (as on /board).
    cell = min(RACK_CELL, (theme.width - 2 * theme.padding - LABEL) // cols)
    left = (theme.width - LABEL - cols * cell) // 2 + LABEL
    top = header_height(theme, 1) + LABEL + theme.padding // 2
    return Grid(left, top, cell, rows, cols), window, theme.width


def render_rack(state: Nmbr9State, seat: int, *, name: str, theme: Theme = DEFAULT) -> bytes:
    """Return the PNG of `seat`'s own display and this round's tile (for that player only).

    Raises:
        ValueError: if `seat` is not a seat of the game.
    """
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a game of {state.players}")
    name = player_name(name, seat)
    view = state.view(seat)
    entries = view["displays"][seat]
    squares = top_view(entries)
    grid, window, width = rack_layout(state, seat, theme)
    pad = theme.padding
    card = view["card"] if seat in view["waiting_for"] else None
    turns = 4 * 16 + 40 if card is not None else 0
    image = new_canvas(width, grid.bottom + turns + 26 + 3 * pad, theme)
    if view.get("outcome") is not None:
        status = f"Game over — your final score is {view['scores'][seat]}."
    elif card is not None:
        status = f"Round {view['round'] + 1} of {view['rounds']}: place your {card}."
    else:
        status = f"Round {view['round'] + 1} of {view['rounds']}: placed; waiting for the others."
    draw_header(image, [PlayerBadge(name, view["scores"][seat], "your display")], status, theme)
    _draw_display(image, grid, window, squares, _fresh(entries), theme)
    y = grid.bottom + pad
    if card is not None:
        y = _draw_turns(image, card, pad, y, theme)
    _legend(image, y + pad // 2, _levels([entries]), theme)
    return to_png(image)
