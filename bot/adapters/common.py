"""Presentation every adapter shares: text boards, reply headers, JSON lines, image files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.core.grid import COLUMNS
from bot.replies import ChatTarget, Image, Reply

APOLOGY = "Sorry, something went wrong on my side; please try again in a moment."
# Premium codes of the word-game layouts and how an empty premium cell is drawn.
_PREMIUM_MARKS = {"d": "'", "t": '"', "D": "-", "T": "=", "*": "*"}
_MARK_NAMES = (("d", "L2"), ("t", "L3"), ("D", "W2"), ("T", "W3"), ("*", "start"))


def ascii_board(view: Mapping[str, Any]) -> str | None:
    """Draw a grid game's public view as text (None when the view has no square board).

    Letter tiles are upper case, blanks lower case; empty premium squares show ' (L2), " (L3),
    - (W2), = (W3) and * (start), explained by a key line under the board.
    """
    board = view.get("board")
    size = view.get("size")
    if not isinstance(board, str) or not isinstance(size, int) or len(board) != size * size:
        return None
    layout = view.get("layout")
    layout = layout if isinstance(layout, str) and len(layout) == len(board) else "." * len(board)
    lines = ["    " + " ".join(COLUMNS[:size])]
    for row in range(size):
        cells = []
        for col in range(size):
            i = row * size + col
            ch = board[i]
            cells.append(ch if ch != "." else _PREMIUM_MARKS.get(layout[i], "."))
        lines.append(f"{row + 1:>3} " + " ".join(cells))
    shown = {layout[i] for i, ch in enumerate(board) if ch == "."}
    key = [f"{_PREMIUM_MARKS[code]} {name}" for code, name in _MARK_NAMES if code in shown]
    if key:
        lines.append("    key: " + "  ".join(key))
    return "\n".join(lines)


def ascii_melds(view: Mapping[str, Any]) -> str | None:
    """Draw a number-tile game's table as text, one numbered meld a line (None: no melds).

    Invalid melds of a draft end with ``<- invalid: <problem>``; an empty table says so.
    """
    melds = view.get("melds")
    if not isinstance(melds, list):
        return None
    if not melds:
        return "  (the table is empty)"
    lines = []
    for meld in melds:
        tiles = " ".join(meld.get("tiles", [])) or "(empty)"
        line = f"{meld.get('number', '?'):>3}: {tiles}"
        if not meld.get("valid", True):
            line += f"   <- invalid: {meld.get('problem', '')}"
        lines.append(line)
    return "\n".join(lines)


def image_bytes(image: bytes | Image) -> bytes:
    """Return the PNG bytes of an attachment."""
    return image.data if isinstance(image, Image) else image


def image_name(image: bytes | Image, fallback: str) -> str:
    """Return the file name of an attachment."""
    return image.name if isinstance(image, Image) else fallback


def save_images(reply: Reply, folder: Path, counter: int) -> list[Path]:
    """Write a reply's images as numbered PNG files in `folder`; return their paths."""
    paths: list[Path] = []
    if not reply.images:
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    for n, image in enumerate(reply.images):
        name = image_name(image, f"image-{n}.png")
        path = folder / f"{counter:05d}-{n}-{name}"
        path.write_bytes(image_bytes(image))
        paths.append(path)
    return paths


def reply_json(reply: Reply, images: list[Path]) -> str:
    """Return one reply as the console's JSON line: to, text, images, event."""
    to = "chat" if isinstance(reply.to, ChatTarget) else reply.to.name
    return json.dumps(
        {"to": to, "text": reply.text, "images": [str(p) for p in images], "event": reply.event},
        ensure_ascii=False,
        sort_keys=False,
    )
