"""Cards for any game: the game-over summary and a chat's leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.core.game import GameState, Outcome, best_moves
from bot.core.words import and_list
from bot.games import GAMES
from bot.games.wordgame import WordState
from renderers.toolkit import (
    DEFAULT,
    NAME_MIN,
    Theme,
    draw_star,
    fit_text,
    new_canvas,
    player_name,
    player_names,
    rounded_box,
    signed,
    text,
    text_width,
    to_png,
    told_apart,
)
from renderers.wordgame import move_text

__all__ = [
    "TOP",
    "LeaderRow",
    "SoloRow",
    "finishing_order",
    "render_game_over",
    "render_leaderboard",
]

TOP = 10  # rows a leaderboard shows before the asking player's own row


def _title(game_key: str) -> str:
    game = GAMES.get(game_key)
    return game.title if game is not None else game_key.title()


def finishing_order(state: GameState) -> list[int]:
    """Return the seats of a finished game, best first.

    Winners, then those who played to the end (a resigner ranks below them, whatever its
    score), then by score.
    """
    place = GAMES[state.game_key].ranking(state)
    return sorted(range(state.players), key=lambda seat: (place[seat], seat))


def _headline(outcome: Outcome, names: Sequence[str]) -> str:
    """Say who won; of a game played alone (nobody to beat), the score."""
    if len(names) == 1:
        return f"{names[0]} scored {outcome.scores[0]}"
    winners = [names[seat] for seat in outcome.winners]
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    if len(winners) > 2:  # three or four names would be cut to letters; the rows name them
        return f"A tie: {len(winners)} players share the win"
    return "A tie: " + and_list(winners) if winners else "Nobody wins"


def _ending(outcome: Outcome, seat: int | None, names: Sequence[str]) -> str:
    """Say why the game ended, naming the player who ended it where one did."""
    who = names[seat] if seat is not None else "A player"
    endings = {
        "out": f"{who} played their last tile.",
        "passes": "The game ended after a run of passes.",
        "resign": f"{who} resigned.",
        "timeout": f"{who} ran out of time.",
    }
    return endings.get(outcome.reason, f"The game ended: {outcome.ending}.")


def _adjustment(state: GameState, seat: int) -> str:
    """Say how the tiles left on the racks changed a word-game score at the end."""
    if not isinstance(state, WordState) or seat >= len(state.adjustments):
        return ""
    delta = state.adjustments[seat]
    if delta > 0:
        return f"includes +{delta} for the tiles left on the other racks"
    if delta < 0:
        return f"includes −{-delta} for the tiles left on the rack"
    return ""


# --- game over ---------------------------------------------------------------------------------

ROW = 64
ROW_GAP = 10


def render_game_over(
    state: GameState, *, names: Sequence[str], ender: int | None = None, theme: Theme = DEFAULT
) -> bytes:
    """Return the PNG of a finished game: winner(s), final scores, best move, why it ended.

    `ender` is the seat whose move ended the game, as the chat names it (bots that resigned in
    turn after the last person left are not it); by default the last move's.

    Raises:
        ValueError: if the game is not over or `names` does not have one name per seat.
    """
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over yet")
    if len(names) != state.players:
        raise ValueError(f"need {state.players} names, got {len(names)}")
    names = player_names(names)
    pad, width = theme.padding, theme.width
    scores = outcome.scores
    order = finishing_order(state)
    best = best_moves(state.history)
    # A game whose moves score nothing as they are played (Rummikub, Numfeud) has no best move.
    scoring = GAMES[state.game_key].scores_as_played
    height = 200 + len(order) * (ROW + ROW_GAP) + (20 + 116 if scoring else 0) + pad + 4
    image = new_canvas(width, height, theme)
    draw = ImageDraw.Draw(image)

    # Title, headline, reason.
    text(
        draw,
        (width / 2, pad + 18),
        f"{_title(state.game_key)} · game over".upper(),
        size=19,
        fill=theme.text_muted,
        bold=True,
    )
    headline = fit_text(
        _headline(outcome, names), size=44, max_width=width - 2 * pad - 120, bold=True
    )
    y = pad + 86
    text(draw, (width / 2, y), headline, size=44, fill=theme.text, bold=True)
    half = text_width(headline, size=44, bold=True) / 2
    for side in (-1, 1):
        draw_star(image, (width / 2 + side * (half + 36), y - 2), 20, fill=theme.gold)
    if ender is None and state.history:
        ender = state.history[-1].seat
    ending = fit_text(_ending(outcome, ender, names), size=22, max_width=width - 2 * pad)
    text(draw, (width / 2, y + 56), ending, size=22, fill=theme.text_muted)

    # Final scores, winners first.
    y = 200
    for place, seat in enumerate(order):
        won = seat in outcome.winners and len(names) > 1  # alone, nobody is beaten
        box = (pad, y, width - pad, y + ROW)
        rounded_box(
            image, box, radius=theme.panel_radius, fill=theme.panel_active if won else theme.panel
        )
        if won:
            rounded_box(image, (pad, y, pad + 8, y + ROW), radius=4, fill=theme.gold)
            draw_star(image, (pad + 44, y + ROW / 2), 15, fill=theme.gold)
        else:
            text(
                draw,
                (pad + 44, y + ROW / 2),
                str(place + 1),
                size=24,
                fill=theme.text_muted,
                bold=True,
            )
        text(
            draw,
            (width - pad - 22, y + ROW / 2),
            signed(scores[seat]),
            size=34,
            fill=theme.text,
            bold=True,
            anchor="rm",
        )
        name = fit_text(names[seat], size=28, max_width=width - 2 * pad - 300, bold=True)
        note = _adjustment(state, seat)
        name_y = y + ROW / 2 - (10 if note else 0)
        text(draw, (pad + 80, name_y), name, size=28, fill=theme.text, bold=True, anchor="lm")
        if note:
            text(draw, (pad + 80, name_y + 26), note, size=16, fill=theme.text_muted, anchor="lm")
        y += ROW + ROW_GAP

    if not scoring:
        return to_png(image)
    # Best move of the game.
    y += 20
    box = (pad, y, width - pad, y + 116)
    rounded_box(image, box, radius=theme.panel_radius, fill=theme.panel)
    title = "BEST MOVES" if len(best) > 1 else "BEST MOVE"
    text(draw, (pad + 24, y + 26), title, size=17, fill=theme.accent, bold=True, anchor="lm")
    if not best:
        text(
            draw,
            (pad + 24, y + 66),
            "No move scored in this game.",
            size=24,
            fill=theme.text,
            anchor="lm",
        )
    else:
        score = f"{best[0][0].score}"
        text(
            draw,
            (width - pad - 24, y + 62),
            score,
            size=44,
            fill=theme.gold,
            bold=True,
            anchor="rm",
        )
        room = width - 2 * pad - 48 - text_width(score, size=44, bold=True) - 24
        # What the chat reads (NMBR 9: "8 at L10 0 on level 3"), not only the notation; moves
        # that tie all, as the chat's "Best moves (+31): …" (the line fits by names first).
        said = "; ".join(
            f"{and_list(names[s] for s in seats)} · "
            + (
                move_text(record, state.board, state.size)
                if isinstance(state, WordState)
                else record.shown
            )
            for record, seats in best[:3]
        )
        # Who made the move is the point of the line: the moves' ends are cut before the names.
        line = fit_text(said, size=28, max_width=room, bold=True, name_min=NAME_MIN)
        text(draw, (pad + 24, y + 60), line, size=28, fill=theme.text, bold=True, anchor="lm")
        if words := [word for record, _ in best[:3] for word in record.words]:
            shown = fit_text("Words: " + ", ".join(words), size=19, max_width=room)
            text(draw, (pad + 24, y + 94), shown, size=19, fill=theme.text_muted, anchor="lm")
        text(
            draw, (width - pad - 24, y + 96), "points", size=17, fill=theme.text_muted, anchor="rm"
        )
    return to_png(image)


# --- leaderboard -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard (the service maps storage rows to it; `mine`: the asker's)."""

    rank: int
    name: str
    games: int
    wins: int
    points: int
    mine: bool = False

    @property
    def values(self) -> tuple[int, ...]:
        """Return the numbers of the row's columns (`_COLUMNS`)."""
        return (self.games, self.wins, self.points)


@dataclass(frozen=True, slots=True)
class SoloRow:
    """One player's best score in a game played alone (`mine`: the asking player's own)."""

    rank: int
    name: str
    games: int
    best: int
    mine: bool = False

    @property
    def values(self) -> tuple[int, ...]:
        """Return the numbers of the row's columns (`_SOLO_COLUMNS`)."""
        return (self.games, self.best)


LINE = 54
SOLO_GAP = 16 + 56  # the rule above the solo records and their header line
_MEDALS = {1: "gold", 2: "silver", 3: "bronze"}
_MEDAL_COLOURS = {"gold": "#f5c542", "silver": "#c4ccd8", "bronze": "#cd8a4e"}
# Right edges of the number columns, from the right margin.
_COLUMNS = (("Games", 270), ("Wins", 150), ("Points", 24))
_SOLO_COLUMNS = (("Games", 150), ("Best", 24))


# The rank column: centred between the "mine" accent bar (7 px) and the name (at 80 px).
RANK_X = 41
RANK_ROOM = 58  # the widest a rank is drawn, clear of both
NAME_END = 330  # the names end this far from the right margin: the number columns' room
COLUMN_GAP = 12  # the least space between a number and what stands left of it


def _fitting_size(content: str, room: float, size: int, *, bold: bool = True) -> int:
    """Return the font size that fits `content` ("12345") in `room`: `size`, smaller if need be."""
    while size > 10 and text_width(content, size=size, bold=bold) > room:
        size -= 1
    return size


def _leader_line(
    image: Image.Image,
    row: LeaderRow | SoloRow,
    shown: str,
    y: int,
    *,
    columns: Sequence[tuple[str, int]] = _COLUMNS,
    shade: bool,
    mine: bool,
    theme: Theme,
) -> None:
    """Draw one ranked row: its place (a medal for the first three), the name, its values."""
    rank = row.rank
    draw = ImageDraw.Draw(image)
    pad, width = theme.padding, theme.width
    if shade or mine:
        rounded_box(
            image,
            (pad, y, width - pad, y + LINE),
            radius=10,
            fill=theme.panel_active if mine else theme.panel,
        )
    if mine:
        rounded_box(image, (pad, y, pad + 7, y + LINE), radius=3, fill=theme.accent)
    centre = y + LINE / 2
    medal = _MEDALS.get(rank)
    if medal:
        colour = _MEDAL_COLOURS[medal]
        rounded_box(
            image,
            (pad + 24, round(centre) - 17, pad + 58, round(centre) + 17),
            radius=17,
            fill=colour,
        )
        text(draw, (pad + RANK_X, centre), str(rank), size=19, fill=theme.background, bold=True)
    else:
        size = _fitting_size(str(rank), RANK_ROOM, 21)
        text(draw, (pad + RANK_X, centre), str(rank), size=size, fill=theme.text_muted, bold=True)
    name = fit_text(shown, size=24, max_width=width - 2 * pad - 80 - NAME_END, bold=True)
    text(draw, (pad + 80, centre), name, size=24, fill=theme.text, bold=True, anchor="lm")
    lefts = (NAME_END, *(right for _, right in columns[:-1]))  # what stands left of each column
    for (_, right), left, value in zip(columns, lefts, row.values, strict=True):
        bold = right == columns[-1][1]
        shown_value = signed(value)  # a huge total is drawn smaller, clear of its neighbour
        size = _fitting_size(shown_value, left - right - COLUMN_GAP, 24, bold=bold)
        text(
            draw,
            (width - pad - right, centre),
            shown_value,
            size=size,
            fill=theme.text if bold else theme.text_muted,
            bold=bold,
            anchor="rm",
        )


def _column_heads(
    draw: ImageDraw.ImageDraw,
    y: float,
    first: str,
    columns: Sequence[tuple[str, int]],
    theme: Theme,
) -> None:
    """Draw a table's header line: "#", `first` over the names, the columns' labels."""
    pad, width = theme.padding, theme.width
    text(draw, (pad + RANK_X, y), "#", size=16, fill=theme.text_muted, bold=True)
    text(draw, (pad + 80, y), first, size=16, fill=theme.text_muted, bold=True, anchor="lm")
    for label, right in columns:
        text(
            draw,
            (width - pad - right, y),
            label.upper(),
            size=16,
            fill=theme.text_muted,
            bold=True,
            anchor="rm",
        )


def render_leaderboard(
    rows: Sequence[LeaderRow],
    *,
    title: str,
    viewer_row: LeaderRow | None = None,
    more: str = "",
    solo: Sequence[SoloRow] = (),
    theme: Theme = DEFAULT,
) -> bytes:
    """Return the PNG of a leaderboard: the top 10 places, then the asker's row if not among them.

    `rows` come best first; every row that shares one of the top places is drawn (eleven tied
    at #1 are eleven rows), the one with `mine` marked as the asker's — never another that
    merely shows the same name and record. `more` is the line under them that says how many
    more share those places when they were cut short ("… and 5 more sharing those places", as
    the text says it). `viewer_row` is the asking player's own row when it is not among `rows`
    (None: not ranked, or among them): drawn below a dotted line, marked. `solo` are the best
    personal records of games played alone, drawn apart below: they rank nobody against
    anybody, so they stand in a table of their own.
    """
    top = [row for row in rows if row.rank <= TOP]
    extra = viewer_row is not None and viewer_row not in top
    pad, width = theme.padding, theme.width
    body = max(1, len(top)) * LINE + (LINE if more else 0) + (LINE + 24 if extra else 0)
    records = (SOLO_GAP + len(solo) * LINE) if solo else 0
    height = pad + 60 + 40 + body + records + pad + 8
    image = new_canvas(width, height, theme)
    draw = ImageDraw.Draw(image)

    heading = fit_text(title, size=30, max_width=width - 2 * pad - 20, bold=True)
    text(draw, (pad + 4, pad + 28), heading, size=30, fill=theme.text, bold=True, anchor="lm")
    y = pad + 60
    _column_heads(draw, y + 20, "PLAYER", _COLUMNS, theme)
    y += 40
    if not top:
        text(
            draw,
            (width / 2, y + LINE / 2),
            "No games against others yet." if solo else "No finished games yet.",
            size=22,
            fill=theme.text_muted,
        )
    drawn = [*top, viewer_row] if extra and viewer_row is not None else top
    shown = told_apart([player_name(r.name, fallback=f"player #{r.rank}") for r in drawn])
    for k, row in enumerate(top):
        _leader_line(image, row, shown[k], y, shade=k % 2 == 0, mine=row.mine, theme=theme)
        y += LINE
    if more:
        line = fit_text(more, size=20, max_width=width - 2 * pad - 160)
        text(draw, (pad + 80, y + LINE / 2), line, size=20, fill=theme.text_muted, anchor="lm")
        y += LINE
    if extra and viewer_row is not None:
        y += 12
        for x in range(pad + 20, width - pad - 20, 16):
            draw.ellipse((x, y - 2, x + 4, y + 2), fill=theme.separator)
        y += 12
        _leader_line(image, viewer_row, shown[-1], y, shade=False, mine=True, theme=theme)
        y += LINE
    y = max(y, pad + 100 + LINE)  # below the "No … yet" line
    if solo:
        y += 16
        draw.line((pad + 8, y, width - pad - 8, y), fill=theme.separator, width=2)
        _column_heads(draw, y + 30, "SOLO RECORDS", _SOLO_COLUMNS, theme)
        y += SOLO_GAP - 16
        names = told_apart([player_name(r.name, fallback=f"player #{r.rank}") for r in solo])
        for k, record in enumerate(solo):
            _leader_line(
                image,
                record,
                names[k],
                y,
                columns=_SOLO_COLUMNS,
                shade=k % 2 == 0,
                mine=record.mine,
                theme=theme,
            )
            y += LINE
    return to_png(image)
