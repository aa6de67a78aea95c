"""Images of the crossword word games (Webfeud, SmartFeud): the board and a rack.

The board image goes to group chats, so it is drawn from a `PublicBoard`: a snapshot of what
everybody may see, which holds no rack and no bag contents (only the bag's size). Nothing here
assumes a board size or a single start square. In SmartFeud the board rings the square the last
move took its tile from, and the rack has an extra slot for a tile taken from the board (on the
starter's first turn it holds the extra blank).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from bot.core.errors import GameError
from bot.core.game import MoveRecord, Outcome
from bot.core.grid import parse_anchor
from bot.core.words import and_list, plural
from bot.games.wordgame import (
    BLANK,
    EMPTY,
    L2,
    L3,
    PREMIUM_NAMES,
    START,
    W2,
    W3,
    WordState,
    taken_cell,
)
from renderers.toolkit import (
    DEFAULT,
    Grid,
    PlayerBadge,
    Theme,
    draw_coordinates,
    draw_header,
    draw_star,
    ended_caption,
    fit_text,
    header_height,
    new_canvas,
    player_name,
    player_names,
    rounded_box,
    text,
    text_width,
    tile_sprite,
    to_png,
    win_caption,
    wrap_parts,
)

__all__ = [
    "GAME_COLOURS",
    "PublicBoard",
    "game_theme",
    "move_text",
    "public_board",
    "render_board",
    "render_rack",
]

# Colours a game's rule document gives its board, over the shared theme. SmartFeud's: "Green:
# two times letter value / Blue: three times letter value / Pink: two times word value / Red:
# three times word value"; Webfeud's centre cell "is marked with a green star".
GAME_COLOURS: Mapping[str, Mapping[str, Any]] = {  # Theme field -> "#rrggbb"
    "smartfeud": {"l2": "#278442", "l3": "#3a78ae", "w2": "#c74287", "w3": "#c2413b"},
    "webfeud": {"star": "#5fd068"},
}


def game_theme(game_key: str, theme: Theme) -> Theme:
    """Return `theme` with the board colours the game's rules name."""
    return replace(theme, **GAME_COLOURS.get(game_key, {}))


@dataclass(frozen=True, slots=True)
class PublicBoard:
    """What every player and onlooker may see of a word game: never a rack or the bag's order."""

    title: str
    size: int
    layout: str
    board: str
    values: Mapping[str, int]
    scores: tuple[int, ...]
    to_move: int | None  # None once the game is over
    bag: int  # tiles left in the bag
    history: tuple[MoveRecord, ...]
    outcome: Outcome | None
    left: tuple[str, ...] = ()  # per seat: "" playing, else why it left (SmartFeud)
    quits: tuple[bool, ...] = ()  # per seat: conditionally quit (SmartFeud)

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return len(self.scores)


def public_board(state: WordState) -> PublicBoard:
    """Return the public part of `state`: the board renderer sees nothing else."""
    return PublicBoard(
        title=state.variant.title,
        size=state.size,
        layout=state.layout,
        board=state.board,
        values=state.variant.values,
        scores=state.scores,
        to_move=None if state.outcome else state.to_move,
        bag=len(state.bag),
        history=state.history,
        outcome=state.outcome,
        left=state.left if state.variant.play_on else (),
        quits=state.quits if state.variant.play_on else (),
    )


# --- geometry ----------------------------------------------------------------------------------


def _grid(size: int, theme: Theme, top: int) -> Grid:
    """Fit a `size` × `size` grid, with its coordinate gutter, into the theme's width."""
    cell = (theme.width - 2 * theme.padding - theme.gutter) // size
    used = theme.gutter + cell * size
    left = (theme.width - used) // 2 + theme.gutter
    return Grid(left=left, top=top + theme.gutter, cell=cell, rows=size, cols=size)


def _cell_colour(code: str, theme: Theme) -> str:
    """Return the colour of an empty cell with premium `code`."""
    colours = {L2: theme.l2, L3: theme.l3, W2: theme.w2, W3: theme.w3, START: theme.start}
    return colours.get(code, theme.cell)


@functools.lru_cache(maxsize=16)
def _board_layer(layout: str, size: int, theme: Theme) -> Image.Image:
    """Return the empty board (frame, coloured cells, labels, stars, coordinates), cached."""
    grid = _grid(size, theme, top=0)
    frame = 4
    height = grid.bottom + frame
    layer = new_canvas(theme.width, height, theme)
    draw = ImageDraw.Draw(layer)
    rounded_box(
        layer,
        (grid.left - frame, grid.top - frame, grid.right + frame, grid.bottom + frame),
        radius=theme.radius + 2,
        fill=theme.board_frame,
    )
    inset = theme.cell_gap
    label_size = max(10, round(grid.cell * 0.34))
    for i, code in enumerate(layout):
        row, col = divmod(i, size)
        rounded_box(
            layer,
            grid.box(row, col, inset=inset),
            radius=theme.radius,
            fill=_cell_colour(code, theme),
        )
        if code in PREMIUM_NAMES:
            text(
                draw,
                grid.centre(row, col),
                PREMIUM_NAMES[code],
                size=label_size,
                fill=theme.premium_text,
                bold=True,
            )
        elif code == START:
            draw_star(layer, grid.centre(row, col), round(grid.cell * 0.3), fill=theme.star)
    draw_coordinates(draw, grid, theme)
    return layer


def _tile(
    letter: str, value: int | None, size: int, theme: Theme, *, blank: bool, last: bool
) -> Image.Image:
    """Return the sprite of a tile on the board or a rack."""
    if blank:
        face, edge = (
            (theme.last_blank_tile, theme.last_blank_edge)
            if last
            else (theme.blank_tile, theme.blank_edge)
        )
        ink = theme.blank_text
    else:
        face, edge = (theme.last_tile, theme.last_edge) if last else (theme.tile, theme.tile_edge)
        ink = theme.tile_text
    return tile_sprite(letter, value, size, face=face, edge=edge, ink=ink, radius=theme.radius)


# --- the header --------------------------------------------------------------------------------


BLANK_MARK = "₀"  # after a blank's letter in a move's text, as the board shows its value 0


def move_text(record: MoveRecord, board: str, size: int) -> str:
    """Return a placement's notation as the images write it: "H4 PINNUL₀AE".

    Letters are upper case and a blank's letter is followed by ₀, as the board draws a blank:
    its letter in upper case with the value 0. The typed notation will not do: in the font a
    blank's lower-case "l" looks like an upper-case "I", and a word typed all in lower case is
    not all blanks. What is a blank is read from the board (from the case where it has no tile).
    """
    parts = record.text.split()
    if len(parts) < 2 or not record.cells:
        return record.text
    try:
        anchor = parse_anchor(parts[0])
    except GameError:
        return record.text
    letters = []
    for k, ch in enumerate(parts[1]):
        row, col = (anchor.row, anchor.col + k) if anchor.across else (anchor.row + k, anchor.col)
        tile = board[row * size + col] if 0 <= row < size and 0 <= col < size else EMPTY
        blank = tile.islower() if tile != EMPTY else ch.islower()
        letters.append(ch.upper() + (BLANK_MARK if blank else ""))
    return " ".join([parts[0], "".join(letters), *parts[2:]])


def _describe(record: MoveRecord, names: Sequence[str], pub: PublicBoard) -> str:
    """Say what a move did, for the status line: "Ann played 8H QUIZ for 52"."""
    name = names[record.seat]
    if record.cells:
        return f"{name} played {move_text(record, pub.board, pub.size)} for {record.score}"
    if record.text == "pass":
        return f"{name} passed"
    return f"{name} {record.text}"


# Why a seat left a game that goes on without it (SmartFeud).
_LEFT = {"resign": "resigned", "passes": "out: 3 passes", "timeout": "timed out"}


def _badges(pub: PublicBoard, names: Sequence[str], viewer: int | None) -> list[PlayerBadge]:
    last_seat = pub.history[-1].seat if pub.history else None
    badges = []
    for seat, (name, score) in enumerate(zip(names, pub.scores, strict=True)):
        captions = []
        winner = False
        if pub.left and pub.left[seat]:
            captions.append(_LEFT.get(pub.left[seat], "left"))
        elif pub.quits and pub.quits[seat] and pub.outcome is None:
            captions.append("quits")
        if pub.outcome is None:
            if seat == pub.to_move:
                captions.append("to move")
        else:
            winner = seat in pub.outcome.winners
            if winner:
                captions.append(win_caption(pub.outcome.winners, seat))
            gone = bool(pub.left and pub.left[seat])  # its caption says so already
            ended = ended_caption(pub.outcome.reason, seat, last_seat)
            if ended and not gone:
                captions.append(ended)
        if seat == viewer:
            captions.insert(0, "you")
        badges.append(
            PlayerBadge(
                name=name,
                score=score,
                caption=" · ".join(captions),
                active=seat == pub.to_move,
                winner=winner,
            )
        )
    return badges


def _result(outcome: Outcome, names: Sequence[str]) -> str:
    """Say who won: "game over: Ann won by 30", "game over: Ann and Bob tie"."""
    winners = outcome.winners
    if len(winners) != 1:
        shared = and_list(names[seat] for seat in winners)
        return f"game over: {shared} tie" if winners else "game over"
    best = outcome.scores[winners[0]]
    others = [score for seat, score in enumerate(outcome.scores) if seat != winners[0]]
    margin = best - max(others) if others else best
    won = f"{names[winners[0]]} won"
    return f"game over: {won} by {margin}" if margin > 0 else f"game over: {won}"


def _status(pub: PublicBoard, names: Sequence[str]) -> str:
    parts = [pub.title]
    if pub.outcome is not None:
        # The result replaces the bag; a resignation or timeout is in that player's panel.
        parts.append(_result(pub.outcome, names))
        if pub.history and pub.history[-1].cells:
            parts.append("last: " + _describe(pub.history[-1], names, pub))
        return " · ".join(parts)
    parts.append(f"{plural(pub.bag, 'tile')} in the bag" if pub.bag else "the bag is empty")
    if pub.history:
        parts.append("last: " + _describe(pub.history[-1], names, pub))
    elif pub.to_move is not None:
        star = "the star" if pub.layout.count(START) == 1 else "a star"
        parts.append(f"{names[pub.to_move]} starts on {star}")
    return " · ".join(parts)


# --- the board ---------------------------------------------------------------------------------


def _draw_board(
    pub: PublicBoard,
    names: Sequence[str],
    viewer: int | None,
    last_move: bool,
    theme: Theme,
) -> Image.Image:
    """Compose the board image from public facts only."""
    top = header_height(theme, pub.players)
    layer = _board_layer(pub.layout, pub.size, theme)
    image = new_canvas(theme.width, top + layer.height + theme.padding, theme)
    draw_header(image, _badges(pub, names, viewer), _status(pub, names), theme)
    image.paste(layer, (0, top))

    grid = _grid(pub.size, theme, top=top)
    inset = theme.cell_gap
    tile_size = grid.cell - 2 * inset
    highlight = set(pub.history[-1].cells) if last_move and pub.history else set()
    for i, ch in enumerate(pub.board):
        if ch == EMPTY:
            continue
        row, col = divmod(i, pub.size)
        blank = ch.islower()
        value = 0 if blank else pub.values.get(ch, 0)
        sprite = _tile(ch.upper(), value, tile_size, theme, blank=blank, last=i in highlight)
        left, upper, _, _ = grid.box(row, col, inset=inset)
        image.paste(sprite, (left, upper), sprite)
    taken = taken_cell(pub.history[-1], pub.size) if last_move and pub.history else None
    if taken is not None:
        # The square the last move took its tile from: a ring, over any tile laid there again.
        row, col = divmod(taken, pub.size)
        x0, y0, x1, y1 = grid.box(row, col, inset=inset)
        ImageDraw.Draw(image).rounded_rectangle(
            (x0, y0, x1 - 1, y1 - 1),
            radius=theme.radius,
            outline=theme.accent,
            width=max(3, grid.cell // 12),
        )
    return image


def render_board(
    state: WordState,
    *,
    names: Sequence[str],
    viewer: int | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT,
) -> bytes:
    """Return the PNG of the board for a group chat: scores, turn, bag size, never a rack.

    Args:
        state: the position to draw.
        names: one display name per seat.
        viewer: a seat to label "you" (None: nobody).
        last_move: highlight the tiles of the last move.
        theme: colours and sizes.

    Raises:
        ValueError: if `names` does not have one name per seat.
    """
    if len(names) != state.players:
        raise ValueError(f"need {state.players} names, got {len(names)}")
    names = player_names(names)
    image = _draw_board(
        public_board(state), names, viewer, last_move, game_theme(state.game_key, theme)
    )
    return to_png(image)


# --- the rack ----------------------------------------------------------------------------------

RACK_TILE = 96
RACK_GAP = 14
SLOT_GAP = 28  # extra room before SmartFeud's slot for a taken tile
RACK_TRAY_PAD = 18  # the tray around the rack's tiles
FOOTER_LINE = 26  # the height of each further line of the rack's footer
TITLE_GAP = 24  # the least room between the rack's title and its score line


def _draw_slot(image: Image.Image, at: tuple[int, int], size: int, tile: str, theme: Theme) -> None:
    """Draw the slot for a taken tile: ringed, empty (labelled) or holding the extra blank."""
    x, y = at
    ImageDraw.Draw(image).rounded_rectangle(
        (x - 4, y - 4, x + size + 3, y + size + 3),
        radius=theme.radius + 2,
        outline=theme.accent,
        width=3,
    )
    if tile:
        sprite = _tile("", 0, size, theme, blank=True, last=False)
        image.paste(sprite, (x, y), sprite)
        return
    rounded_box(image, (x, y, x + size, y + size), radius=theme.radius, fill=theme.cell)
    draw = ImageDraw.Draw(image)
    text(draw, (x + size / 2, y + size / 2), "TAKE", size=max(12, size // 5), fill=theme.accent)


def render_rack(state: WordState, seat: int, *, name: str, theme: Theme = DEFAULT) -> bytes:
    """Return the PNG of `seat`'s private rack: its tiles with their values (for that player only).

    Raises:
        ValueError: if `seat` is not a seat of the game.
    """
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a game of {state.players}")
    name = player_name(name, seat)
    values = state.variant.values
    tiles = state.racks[seat]
    # SmartFeud: one more slot, for a tile taken from the board; on the starter's first turn
    # it holds the extra blank (dealt last, so it is the rack's last tile).
    has_slot = state.variant.take
    slot_tile = ""
    if has_slot and seat == 0 and state.bonus == "held" and tiles.endswith(BLANK):
        tiles, slot_tile = tiles[:-1], BLANK
    slots = max(state.variant.rack_size, len(tiles)) + has_slot
    extra = SLOT_GAP if has_slot else 0
    pad = theme.padding
    inside = theme.width - 2 * (pad + RACK_TRAY_PAD)  # the tray keeps the page's padding too
    row_width = slots * RACK_TILE + (slots - 1) * RACK_GAP + extra
    tile_size = (
        RACK_TILE if row_width <= inside else ((inside - extra - (slots - 1) * RACK_GAP) // slots)
    )
    row_width = slots * tile_size + (slots - 1) * RACK_GAP + extra
    title_h = 64
    bag = len(state.bag)
    facts = [f"{plural(bag, 'tile')} in the bag" if bag else "the bag is empty"]
    if BLANK in tiles:
        facts.append("a blank tile (0 points) plays as any letter")
    if slot_tile:
        facts.append("extra blank: play it this turn or lose it")
    elif has_slot:
        facts.append("last slot: a tile taken from the board")
    # The footer wraps between its facts (SmartFeud's three do not fit one line).
    footer = wrap_parts(facts, size=19, max_width=theme.width - 2 * pad)
    height = (
        pad + title_h + tile_size + 2 * RACK_TRAY_PAD + pad + 30 + FOOTER_LINE * (len(footer) - 1)
    )
    image = new_canvas(theme.width, height, theme)
    draw = ImageDraw.Draw(image)

    score = state.scores[seat]
    over = state.outcome is not None
    turn = "game over" if over else ("your turn" if state.to_move == seat else "not your turn")
    info = f"{score} points · {turn}"
    # The title gets what the score line leaves of the row, so the two never meet.
    room = theme.width - 2 * (pad + 4) - text_width(info, size=22, bold=True) - TITLE_GAP
    title = fit_text(f"{name} · your tiles", size=28, max_width=room, bold=True)
    text(
        draw,
        (pad + 4, pad + title_h / 2 - 6),
        title,
        size=28,
        fill=theme.text,
        bold=True,
        anchor="lm",
    )
    text(
        draw,
        (theme.width - pad - 4, pad + title_h / 2 - 6),
        info,
        size=22,
        fill=theme.accent if turn == "your turn" else theme.text_muted,
        bold=True,
        anchor="rm",
    )

    tray_top = pad + title_h
    left = (theme.width - row_width) // 2
    rounded_box(
        image,
        (
            left - RACK_TRAY_PAD,
            tray_top,
            left + row_width + RACK_TRAY_PAD,
            tray_top + tile_size + 2 * RACK_TRAY_PAD,
        ),
        radius=theme.panel_radius,
        fill=theme.panel,
    )
    y = tray_top + RACK_TRAY_PAD
    for k in range(slots):
        x = left + k * (tile_size + RACK_GAP)
        if has_slot and k == slots - 1:
            _draw_slot(image, (x + extra, y), tile_size, slot_tile, theme)
            continue
        if k >= len(tiles):
            rounded_box(
                image, (x, y, x + tile_size, y + tile_size), radius=theme.radius, fill=theme.cell
            )
            continue
        code = tiles[k]
        blank = code == BLANK
        sprite = _tile(
            "" if blank else code,
            0 if blank else values.get(code, 0),
            tile_size,
            theme,
            blank=blank,
            last=False,
        )
        image.paste(sprite, (x, y), sprite)

    first = height - pad - 12 - FOOTER_LINE * (len(footer) - 1)
    for k, line in enumerate(footer):
        y = first + k * FOOTER_LINE
        text(draw, (theme.width / 2, y), line, size=19, fill=theme.text_muted)
    return to_png(image)
