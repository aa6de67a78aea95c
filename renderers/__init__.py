"""Pillow images of the games: pure functions from a state to PNG bytes.

The service calls `board_png(state, ...)` and `rack_png(state, seat, ...)`, which pick the
renderer by `state.game_key` from a registry; a new game adds its own with `register`.
Imports only PIL, the standard library and the pure core (bot.core, bot.games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.game import GameState
from renderers.cards import LeaderRow, SoloRow, render_game_over, render_leaderboard
from renderers.nmbr9 import render_board as render_nmbr9_board
from renderers.nmbr9 import render_rack as render_nmbr9_rack
from renderers.numfeud import render_board as render_numfeud_board
from renderers.numfeud import render_rack as render_numfeud_rack
from renderers.numtiles import render_number_rack, render_table
from renderers.toolkit import DEFAULT, NAME_CHARS, Theme, player_name, player_names
from renderers.wordgame import render_board, render_rack

__all__ = [
    "DEFAULT",
    "NAME_CHARS",
    "BoardRenderer",
    "LeaderRow",
    "NoRenderer",
    "RackRenderer",
    "SoloRow",
    "Theme",
    "board_png",
    "game_over_png",
    "rack_png",
    "register",
    "render_board",
    "render_game_over",
    "render_leaderboard",
    "render_rack",
]

BoardRenderer = Callable[..., bytes]  # (state, *, names, viewer, last_move, theme) -> PNG
# A name in an image goes through `player_name` (drawable, never empty, at most `NAME_CHARS`
# characters); each renderer does it too, and doing it twice changes nothing.


def _short(names: Sequence[object]) -> list[str]:
    """Return the players' names as the images draw them (`player_names`)."""
    return player_names(names)


def _short_names(kw: dict[str, object], seat: int | None = None) -> dict[str, object]:
    """Return renderer keywords with the players' names as the images draw them."""
    out = dict(kw)
    if isinstance(names := kw.get("names"), Sequence) and not isinstance(names, str):
        out["names"] = _short(names)
    if isinstance(name := kw.get("name"), str):
        out["name"] = player_name(name, seat)
    return out


RackRenderer = Callable[..., bytes]  # (state, seat, *, name, theme) -> PNG

BOARDS: dict[str, BoardRenderer] = {}
RACKS: dict[str, RackRenderer] = {}


class NoRenderer(LookupError):
    """No image renderer is registered for this game."""


def register(game_key: str, *, board: BoardRenderer, rack: RackRenderer | None = None) -> None:
    """Register the board (and rack) renderers of a game."""
    BOARDS[game_key] = board
    if rack is not None:
        RACKS[game_key] = rack


register("webfeud", board=render_board, rack=render_rack)
register("smartfeud", board=render_board, rack=render_rack)
register("rummikub", board=render_table, rack=render_number_rack)
register("numfeud", board=render_numfeud_board, rack=render_numfeud_rack)
register("nmbr9", board=render_nmbr9_board, rack=render_nmbr9_rack)


def board_png(state: GameState, **kw: object) -> bytes:
    """Return the public board image of `state`, drawn by its game's renderer.

    Raises:
        NoRenderer: if the game has no board renderer.
    """
    renderer = BOARDS.get(state.game_key)
    if renderer is None:
        raise NoRenderer(f"no board image for {state.game_key!r}")
    return renderer(state, **_short_names(kw))


def rack_png(state: GameState, seat: int, **kw: object) -> bytes:
    """Return the private rack image of `seat`, drawn by its game's renderer.

    Raises:
        NoRenderer: if the game has no rack renderer.
    """
    renderer = RACKS.get(state.game_key)
    if renderer is None:
        raise NoRenderer(f"no rack image for {state.game_key!r}")
    return renderer(state, seat, **_short_names(kw, seat))


def game_over_png(
    state: GameState, *, names: Sequence[str], ender: int | None = None, theme: Theme = DEFAULT
) -> bytes:
    """Return the game-over card of a finished game (the same card for every game)."""
    return render_game_over(state, names=_short(names), ender=ender, theme=theme)
