"""Images of the number-tile games (Rummikub now; Numfeud reuses the tiles): table and rack.

A number tile is drawn as an upright tile: its number big in its colour's ink, and under it a
mark that tells the colour without colour — a square for black (K), a circle for blue (B), a
triangle for yellow (Y), a diamond for red (R) — with the colour letter in the top corner.
A joker is a star with ``J``. `number_tile` is the sprite every number-tile image uses.

The table image goes to group chats, so it is drawn from `state.view(None)` (a spectator's view:
rack sizes only, never a rack). It numbers the melds as the notation does and, while a turn is
being drafted, marks every invalid meld (a red frame, the word INVALID and the problem) and
outlines the melds the draft changed.
"""

from __future__ import annotations

import functools
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.core.errors import GameError
from bot.core.game import GameState, Outcome
from bot.core.words import plural
from bot.games.numtiles import COLOUR_NAMES, JOKER, colour, is_joker, number, rack_value
from bot.games.rummikub import Line, Put, parse_rummikub_move
from renderers.toolkit import (
    DEFAULT,
    ENDED_BY,
    SUPERSAMPLE,
    PlayerBadge,
    Theme,
    draw_header,
    draw_star,
    ended_caption,
    fit_text,
    font,
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
    "INKS",
    "MeldBox",
    "TileInks",
    "colour_legend",
    "last_laid",
    "layout_melds",
    "number_tile",
    "render_number_rack",
    "render_table",
]


@dataclass(frozen=True, slots=True)
class TileInks:
    """The colours of number tiles and melds (the page colours come from `Theme`)."""

    black: str = "#1f2329"
    blue: str = "#1f5fbf"
    yellow: str = "#9c5d00"  # amber: readable on the ivory face
    red: str = "#c62828"
    joker: str = "#7b2fa8"
    face: str = "#fbf5e6"
    edge: str = "#c9b98f"
    fresh_face: str = "#fff0b3"  # tiles of a meld the draft changed
    fresh_edge: str = "#d9a521"
    invalid: str = "#f27371"
    changed: str = "#4fc3f7"
    meld_panel: str = "#2a3140"
    empty_panel: str = "#242a36"

    def ink(self, tile: str) -> str:
        """Return the ink of a tile: its colour, or the joker's."""
        if is_joker(tile):
            return self.joker
        return {"K": self.black, "B": self.blue, "Y": self.yellow, "R": self.red}[colour(tile)]


INKS = TileInks()


# --- one tile ----------------------------------------------------------------------------------


def _mark(
    draw: ImageDraw.ImageDraw, letter: str, centre: tuple[float, float], r: float, fill: str
) -> None:
    """Draw the shape that names a colour: K square, B circle, Y triangle, R diamond."""
    x, y = centre
    if letter == "K":
        draw.rectangle((x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85), fill=fill)
    elif letter == "B":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    elif letter == "Y":
        draw.polygon(
            [(x, y - r * 1.05), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)], fill=fill
        )
    else:
        draw.polygon([(x, y - r * 1.15), (x + r, y), (x, y + r * 1.15), (x - r, y)], fill=fill)


@functools.lru_cache(maxsize=512)
def number_tile(
    tile: str, width: int, height: int, *, inks: TileInks = INKS, fresh: bool = False
) -> Image.Image:
    """Return an RGBA sprite of a number tile (``R5``, ``K13``) or a joker (``J``).

    The number is big in its colour's ink, the colour's shape mark sits under it and the colour
    letter in the top-left corner, so colour-blind players and greyscale screens can tell the
    colours apart. `fresh` draws the highlighted face (tiles the draft moved). Cached.
    """
    s = SUPERSAMPLE
    face, edge = (inks.fresh_face, inks.fresh_edge) if fresh else (inks.face, inks.edge)
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = max(3, width // 7) * s
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=radius, fill=edge)
    depth = max(2, height // 16) * s
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1 - depth), radius=radius, fill=face)
    ink = inks.ink(tile)
    body = height - depth // s
    if not is_joker(tile):
        _mark(draw, colour(tile), (width * s / 2, body * s * 0.80), width * s * 0.11, ink)
    sprite = big.resize((width, height), Image.Resampling.LANCZOS)

    # Text and the star at final size (FreeType hints text for the size it is drawn at).
    draw = ImageDraw.Draw(sprite)
    corner = max(8, round(width * 0.24))
    if is_joker(tile):
        draw_star(sprite, (width / 2, body * 0.56), round(width * 0.34), fill=ink)
        draw.text(
            (width * 0.1, body * 0.05), "J", font=font(corner, bold=True), fill=ink, anchor="la"
        )
        return sprite
    value = str(number(tile))
    size = round(width * (0.50 if len(value) == 2 else 0.62))
    draw.text((width / 2, body * 0.42), value, font=font(size, bold=True), fill=ink, anchor="mm")
    draw.text(
        (width * 0.1, body * 0.04),
        colour(tile),
        font=font(corner, bold=True),
        fill=ink,
        anchor="la",
    )
    return sprite


# --- melds on a table --------------------------------------------------------------------------

TILE_W, TILE_H = 44, 60
TILE_GAP = 3
MELD_PAD = 8
LABEL_W = 34
ROW_GAP = 12
MELD_GAP = 12
PROBLEM_H = 22


@dataclass(frozen=True, slots=True)
class MeldBox:
    """Where one meld's panel sits: its box, and whether a problem line goes under it."""

    left: int
    top: int
    right: int
    bottom: int


def meld_width(tiles: int) -> int:
    """Return the width of a meld panel of `tiles` tiles (an empty meld keeps room for one)."""
    tiles = max(tiles, 1)
    return MELD_PAD + LABEL_W + tiles * TILE_W + (tiles - 1) * TILE_GAP + MELD_PAD


def layout_melds(lengths: Sequence[int], *, left: int, right: int, top: int) -> list[MeldBox]:
    """Lay meld panels out left to right in rows between `left` and `right`, from `top`."""
    height = TILE_H + 2 * MELD_PAD
    rows: list[list[int]] = [[]]
    x = left
    for k, length in enumerate(lengths):
        width = meld_width(length)
        if rows[-1] and x + width > right:
            rows.append([])
            x = left
        rows[-1].append(k)
        x += width + MELD_GAP
    y = top
    placed: dict[int, MeldBox] = {}
    for row in rows:
        x = left
        for k in row:
            width = meld_width(lengths[k])
            placed[k] = MeldBox(x, y, x + width, y + height)
            x += width + MELD_GAP
        y += height + ROW_GAP
    return [placed[k] for k in range(len(lengths))]


def _draw_meld(
    image: Image.Image,
    box: MeldBox,
    meld: Mapping[str, Any],
    theme: Theme,
    inks: TileInks,
    laid: frozenset[int] = frozenset(),
) -> None:
    """Draw one numbered meld: its panel (framed if invalid or changed), number and tiles.

    The tiles at the positions `laid` (the last turn's, from its player's rack) are highlighted.
    """
    draw = ImageDraw.Draw(image)
    tiles: list[str] = list(meld["tiles"])
    invalid = not meld["valid"]
    changed = bool(meld.get("changed"))
    frame = inks.invalid if invalid else inks.changed if changed else None
    if frame is not None:
        rounded_box(
            image,
            (box.left - 3, box.top - 3, box.right + 3, box.bottom + 3),
            radius=theme.radius + 5,
            fill=frame,
        )
    panel = inks.meld_panel if tiles else inks.empty_panel
    rounded_box(
        image, (box.left, box.top, box.right, box.bottom), radius=theme.radius + 2, fill=panel
    )
    middle = (box.top + box.bottom) / 2
    label = str(meld["number"])
    label_x = box.left + MELD_PAD + LABEL_W / 2 - 2
    text(
        draw,
        (label_x, middle - 8 if invalid else middle),
        label,
        size=22 if len(label) < 2 else 18,
        fill=inks.invalid if invalid else theme.accent if changed else theme.text,
        bold=True,
    )
    if invalid:  # not by colour alone: a cross under the number, clear of the tiles
        r, cy = 6, middle + 16
        draw.line((label_x - r, cy - r, label_x + r, cy + r), fill=inks.invalid, width=3)
        draw.line((label_x - r, cy + r, label_x + r, cy - r), fill=inks.invalid, width=3)
    x = box.left + MELD_PAD + LABEL_W
    y = box.top + MELD_PAD
    if not tiles:
        text(draw, (x + TILE_W / 2, middle), "empty", size=13, fill=theme.text_muted)
        return
    for k, tile in enumerate(tiles):
        sprite = number_tile(tile, TILE_W, TILE_H, inks=inks, fresh=changed or k in laid)
        image.paste(sprite, (x, y), sprite)
        x += TILE_W + TILE_GAP


PROBLEM_CHARS = 90  # a line of the invalid-meld notes; a longer reason wraps, never cut
PROBLEM_LINES = 8  # at most this many lines of notes; then "… and 12 more invalid melds"


def _problem_lines(melds: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return the notes of the invalid melds, wrapped so that each whole reason shows.

    ``INVALID meld 5 (R4): has only 1 tile``; a note longer than `PROBLEM_CHARS` goes on. The
    notes stop before `PROBLEM_LINES` lines with a count of the invalid melds not listed (their
    red frames still show), so a draft of many split melds keeps the image phone-sized.
    """
    notes = []
    for m in melds:
        if not m["valid"]:
            note = f"INVALID meld {m['number']} ({' '.join(m['tiles'])}): {m['problem']}"
            notes.append(textwrap.wrap(note, PROBLEM_CHARS, subsequent_indent="    "))
    lines: list[str] = []
    for k, wrapped in enumerate(notes):
        rest = len(notes) - k
        room = PROBLEM_LINES - len(lines) - (rest > 1)  # keep a line for the count
        if len(wrapped) > room:
            lines.append(f"… and {plural(rest, 'more invalid meld')}")
            break
        lines += wrapped
    return lines


# --- the table image ---------------------------------------------------------------------------


def _last_seat(view: Mapping[str, Any]) -> int | None:
    """Return the seat of the last move record (at the end, the one whose move ended the game)."""
    history = view.get("history") or []
    return int(history[-1]["seat"]) if history else None


def _result(outcome: Outcome, names: Sequence[str], last_seat: int | None) -> str:
    """Say who won and how it ended, as Numfeud's line does: "game over: ann wins (went out)".

    The words are the panels' (`ENDED_BY`), naming whose move it was but for the winner's own
    "went out": "game over: cy wins (bo resigned)".
    """
    how = ENDED_BY.get(outcome.reason, outcome.ending)
    if outcome.reason in ENDED_BY and outcome.reason != "out":
        how = f"{names[last_seat] if last_seat is not None else 'a player'} {how}"
    winners = [names[seat] for seat in outcome.winners]
    if not winners:
        return f"game over ({how})"
    won = "wins" if len(winners) == 1 else "share the win"
    return f"game over: {' and '.join(winners)} {won} ({how})"


def _status(view: Mapping[str, Any], names: Sequence[str], title: str) -> str:
    parts = [title]
    outcome = view.get("outcome")
    if outcome is not None:
        parts.append(_result(Outcome.from_json(outcome), names, _last_seat(view)))
        return " · ".join(parts)
    pool = int(view.get("pool", 0))
    parts.append(f"{plural(pool, 'tile')} in the pool" if pool else "the pool is empty")
    draft = view.get("draft") or []
    if draft:
        bad = sum(1 for meld in view["melds"] if not meld["valid"])
        steps = plural(len(draft), "step")
        parts.append(
            f"DRAFT, {steps}: {plural(bad, 'invalid meld')}"
            if bad
            else f"DRAFT, {steps}: valid"
            + ("" if view.get("ready", True) else ", not a turn yet")  # (an initial meld < 30)
        )
    elif view.get("last_round"):
        parts.append(f"last round: {plural(int(view.get('turns_left') or 0), 'turn')} left")
    history = view.get("history") or []
    if history and not draft:
        last = history[-1]
        parts.append(f"last: {names[last['seat']]} {_describe(last)}")
    return " · ".join(parts)


def _describe(record: Mapping[str, Any]) -> str:
    """Say what a move did: a finished turn by the tiles it laid from the rack ("laid K6 R7").

    Its steps ("10+K6; done") name melds by their numbers during the turn, which `done` closes
    up: the image shows the new numbers, so they would point at another meld.
    """
    text = str(record.get("text", ""))
    if text.endswith("; done") or text == "done":
        laid = [str(tile) for tile in record.get("words") or ()]
        if laid:
            return "laid " + " ".join(laid)
        return "played " + text.removesuffix("; done").removesuffix("done").strip()
    return text


def last_laid(view: Mapping[str, Any]) -> dict[int, frozenset[int]]:
    """Return meld index -> tile positions of the tiles the last turn laid from its rack.

    The record of a finished turn lists the tiles that left the rack (its ``words``) and its
    steps (its text). A new meld laid whole from the rack (``R6 R7 R8``) is found as a meld of
    exactly those tiles; any other laid tile is marked where it is the only copy on the table,
    or the only copy in a meld holding other laid tiles. The table before the turn is not kept,
    so a tile whose twin (two of each, two jokers) lies elsewhere may stay unmarked, and tiles
    moved between melds are not marked. Nothing is marked while a turn is being drafted.
    """
    history = view.get("history") or []
    if not history or view.get("draft"):
        return {}
    laid = Counter(history[-1].get("words") or ())
    melds = [list(meld["tiles"]) for meld in view["melds"]]
    marked: dict[int, set[int]] = {}
    try:
        move = parse_rummikub_move(str(history[-1].get("text", "")))
    except GameError:
        move = None
    steps = move.steps if isinstance(move, Line) else ()
    for step in steps:
        if not isinstance(step, Put) or step.target or any(m for m, _ in step.sources):
            continue
        whole = sorted(tile for _, tile in step.sources)
        if Counter(whole) - laid:
            continue
        for m in reversed(range(len(melds))):  # new melds are laid after the old ones
            if m not in marked and sorted(melds[m]) == whole:
                marked[m] = set(range(len(melds[m])))
                laid -= Counter(whole)
                break
    for tile, count in laid.items():
        spots = [
            (m, k)
            for m, meld in enumerate(melds)
            for k, code in enumerate(meld)
            if code == tile and k not in marked.get(m, ())
        ]
        if len(spots) > count:  # a twin is on the table: where other laid tiles went
            spots = [(m, k) for m, k in spots if m in marked]
        if len(spots) == count:
            for m, k in spots:
                marked.setdefault(m, set()).add(k)
    return {m: frozenset(ks) for m, ks in marked.items()}


def _empty_table(view: Mapping[str, Any]) -> str:
    """Say what an empty table means: the opening rule while it is to be laid, else nothing."""
    if view.get("outcome"):
        return "The table stayed empty: nobody laid a meld."
    return "The table is empty: the first melds must be worth 30 from one rack."


def _badges(view: Mapping[str, Any], names: Sequence[str], viewer: int | None) -> list[PlayerBadge]:
    outcome = Outcome.from_json(view["outcome"]) if view.get("outcome") else None
    last_seat = _last_seat(view)
    badges = []
    for seat, name in enumerate(names):
        captions = []
        if seat == viewer:
            captions.append("you")
        if outcome is None and seat == view.get("to_move"):
            captions.append("drafting" if view.get("draft") else "to move")
        if outcome is not None and seat in outcome.winners:
            captions.append(win_caption(outcome.winners, seat))
        if seat in view.get("left", ()):  # resigned, maybe while the others played on
            captions.append("resigned")
        elif outcome is not None and (ended := ended_caption(outcome.reason, seat, last_seat)):
            captions.append(ended)  # "went out", as every game's panels say it
        captions.append(plural(int(view["rack_sizes"][seat]), "tile"))
        if outcome is None and not view["opened"][seat] and seat not in view.get("left", ()):
            captions.append("not opened")
        badges.append(
            PlayerBadge(
                name=name,
                score=int(view["scores"][seat]),
                caption=" · ".join(captions),
                active=outcome is None and seat == view.get("to_move"),
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    return badges


def render_table(
    state: GameState,
    *,
    names: Sequence[str],
    viewer: int | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT,
    inks: TileInks = INKS,
    title: str = "Rummikub",
) -> bytes:
    """Return the PNG of the table for a group chat: numbered melds, drafts marked, no rack.

    Args:
        state: a number-tile game whose ``view(None)`` lists ``melds`` (number, tiles, valid,
            problem, changed), ``rack_sizes``, ``opened``, ``pool``, ``draft``.
        names: one display name per seat.
        viewer: a seat to label "you" (None: nobody).
        last_move: say what the last move was in the status line.
        theme: page colours and sizes.
        inks: tile and meld colours.
        title: the game's title for the status line.

    Raises:
        ValueError: if `names` does not have one name per seat.
    """
    if len(names) != state.players:
        raise ValueError(f"need {state.players} names, got {len(names)}")
    names = player_names(names)
    view = state.view(None)  # a spectator's view: never a rack
    if not last_move:
        view = {**view, "history": []}
    melds: list[Mapping[str, Any]] = list(view["melds"])
    pad = theme.padding
    top = header_height(theme, state.players) + 10
    boxes = layout_melds(
        [len(m["tiles"]) for m in melds],
        left=pad + 3,
        right=theme.width - pad - 3,
        top=top,
    )
    bottom = max((b.bottom for b in boxes), default=top + TILE_H + 2 * MELD_PAD) + 4
    problems = _problem_lines(melds)
    image = new_canvas(theme.width, bottom + len(problems) * PROBLEM_H + pad + 4, theme)
    draw_header(image, _badges(view, names, viewer), _status(view, names, title), theme)
    if not melds:
        text(
            ImageDraw.Draw(image),
            (theme.width / 2, top + (TILE_H + 2 * MELD_PAD) / 2),
            _empty_table(view),
            size=19,
            fill=theme.text_muted,
        )
    laid = last_laid(view)
    for m, (box, meld) in enumerate(zip(boxes, melds, strict=True)):
        _draw_meld(image, box, meld, theme, inks, laid.get(m, frozenset()))
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(problems):
        y = bottom + 6 + k * PROBLEM_H + PROBLEM_H / 2
        line = fit_text(line, size=16, max_width=theme.width - 2 * pad, bold=True)
        text(draw, (pad + 3, y), line, size=16, fill=inks.invalid, bold=True, anchor="lm")
    return to_png(image)


# --- the rack image ----------------------------------------------------------------------------

RACK_W, RACK_H = 56, 76
RACK_GAP = 8
RACK_ROW = 13


def render_number_rack(
    state: GameState,
    seat: int,
    *,
    name: str,
    theme: Theme = DEFAULT,
    inks: TileInks = INKS,
) -> bytes:
    """Return the PNG of `seat`'s private rack (for that player only), sorted, wrapped in rows.

    While `seat` drafts a turn, it shows what the draft leaves on the rack.

    Raises:
        ValueError: if `seat` is not a seat of the game.
    """
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a game of {state.players}")
    name = player_name(name, seat)
    view = state.view(seat)
    tiles: list[str] = list(state.rack(seat))
    pad = theme.padding
    per_row = RACK_ROW
    rows = max(1, -(-len(tiles) // per_row))
    title_h = 60
    tray_pad = 16
    tray_h = rows * RACK_H + (rows - 1) * RACK_GAP + 2 * tray_pad
    height = pad + title_h + tray_h + 48 + pad
    image = new_canvas(theme.width, height, theme)
    draw = ImageDraw.Draw(image)
    heading = fit_text(f"{name} · your tiles", size=28, max_width=theme.width * 0.6, bold=True)
    text(
        draw,
        (pad + 4, pad + title_h / 2 - 6),
        heading,
        size=28,
        fill=theme.text,
        bold=True,
        anchor="lm",
    )
    over = view.get("outcome") is not None
    mine = not over and view.get("to_move") == seat
    turn = "game over" if over else ("your turn" if mine else "not your turn")
    if mine and view.get("draft"):
        turn = "your turn · drafting"
    text(
        draw,
        (theme.width - pad - 4, pad + title_h / 2 - 6),
        turn,
        size=22,
        fill=theme.accent if mine else theme.text_muted,
        bold=True,
        anchor="rm",
    )
    tray_top = pad + title_h
    rounded_box(
        image,
        (pad, tray_top, theme.width - pad, tray_top + tray_h),
        radius=theme.panel_radius,
        fill=theme.panel,
    )
    row_width = min(len(tiles), per_row) * (RACK_W + RACK_GAP) - RACK_GAP
    left = (theme.width - max(row_width, 0)) // 2
    for k, tile in enumerate(tiles):
        row, col = divmod(k, per_row)
        x = left + col * (RACK_W + RACK_GAP)
        y = tray_top + tray_pad + row * (RACK_H + RACK_GAP)
        sprite = number_tile(tile, RACK_W, RACK_H, inks=inks)
        image.paste(sprite, (x, y), sprite)
    if not tiles:
        text(
            draw,
            (theme.width / 2, tray_top + tray_h / 2),
            "(empty)",
            size=20,
            fill=theme.text_muted,
        )
    footer = fit_text(
        " · ".join(_rack_facts(view, seat, tiles)), size=18, max_width=theme.width - 2 * pad
    )
    text(draw, (theme.width / 2, height - pad - 18), footer, size=18, fill=theme.text_muted)
    return to_png(image)


def _rack_facts(view: Mapping[str, Any], seat: int, tiles: Sequence[str]) -> list[str]:
    """Return the rack's footer facts: its tiles and value, the initial meld, the pool.

    The opening advice ("initial meld: 30 from your rack") only while the game goes on.
    """
    facts = [
        plural(len(tiles), "tile"),
        f"worth {rack_value(tiles)}" + (" (a joker counts 30)" if JOKER in tiles else ""),
    ]
    if view.get("outcome") is None:
        opened = bool(view["opened"][seat])
        facts.append("initial meld done" if opened else "initial meld: 30 from your rack")
    facts.append(f"{plural(int(view['pool']), 'tile')} in the pool")
    return facts


def colour_legend() -> str:
    """Return the colour marks in words (K square … R diamond), for captions and docs."""
    shapes = {"K": "square", "B": "circle", "Y": "triangle", "R": "diamond"}
    return ", ".join(f"{c} {COLOUR_NAMES[c]} {shapes[c]}" for c in shapes)
