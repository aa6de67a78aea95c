"""Golden images: each renderer's output stays what a person looked at and approved.

Set FEUDBOT_REGEN_GOLDEN=1 to rewrite the PNGs in tests/renderers/golden/ after a deliberate
change, then look at them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from renderers import LeaderRow, render_board, render_game_over, render_leaderboard, render_rack

GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 1.0  # mean absolute difference per channel, 0-255: font hinting may differ a little

LEADERS = [
    LeaderRow(rank, name, games, wins, points)
    for rank, (name, games, wins, points) in enumerate(
        [
            ("Alice", 42, 30, 15210),
            ("Bob", 40, 25, 14877),
            ("Carol", 38, 21, 13002),
            ("Dmitri", 35, 18, 11950),
            ("Eve", 30, 16, 10400),
            ("Farida", 28, 13, 9120),
            ("Grace", 25, 12, 8432),
            ("Heidi", 21, 9, 7011),
            ("Ivan", 20, 8, 6650),
            ("Judy with a very long display name indeed", 18, 6, 5874),
            ("Mallory", 12, 3, 3999),
            ("Niaj", 9, 2, 2460),
        ],
        start=1,
    )
]
ZOE = LeaderRow(17, "Zoë from the pub", 4, 1, 1195)


def render(case: str, request: pytest.FixtureRequest) -> bytes:
    """Render one golden case from the fixtures."""
    names = request.getfixturevalue("names")
    if case == "board_empty":
        return render_board(request.getfixturevalue("fresh"), names=names)
    if case == "board_midgame":
        return render_board(request.getfixturevalue("middle"), names=names)
    if case == "rack":
        return render_rack(request.getfixturevalue("before_blank"), 1, name=names[1])
    if case == "game_over":
        return render_game_over(request.getfixturevalue("finished"), names=names)
    assert case == "leaderboard"
    return render_leaderboard(LEADERS, title="Webfeud leaderboard · #general", viewer_row=ZOE)


CASES = ("board_empty", "board_midgame", "rack", "game_over", "leaderboard")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Return the mean absolute difference of two same-sized RGB images, over all channels."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("case", CASES)
def test_matches_golden_image(case: str, request: pytest.FixtureRequest) -> None:
    """The image equals its golden PNG within the tolerance, with the same dimensions."""
    png = render(case, request)
    path = GOLDEN / f"{case}.png"
    if os.environ.get("FEUDBOT_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert path.exists(), f"no golden {path.name}: run with FEUDBOT_REGEN_GOLDEN=1"
    got, want = Image.open(io.BytesIO(png)), Image.open(path)
    assert got.size == want.size
    assert mean_difference(got, want) <= TOLERANCE


def test_the_comparison_sees_a_real_change(fresh, middle, names) -> None:
    """A different position is far outside the tolerance (the golden test can fail)."""
    a = Image.open(io.BytesIO(render_board(fresh, names=names)))
    b = Image.open(io.BytesIO(render_board(middle, names=names)))
    assert mean_difference(a, b) > TOLERANCE
