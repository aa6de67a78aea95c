"""The game-over card and the leaderboard card."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.core.game import ENDINGS, MoveRecord, Outcome, best_moves
from bot.games.nmbr9 import NMBR9, parse_nmbr9_move
from bot.games.rummikub import RUMMIKUB
from bot.games.webfeud import WEBFEUD
from renderers import (
    NAME_CHARS,
    LeaderRow,
    board_png,
    cards,
    game_over_png,
    rack_png,
    render_game_over,
    render_leaderboard,
)
from renderers.cards import LINE, _ending, _headline, finishing_order
from renderers.toolkit import DEFAULT, signed, text_width

Drawn = list[tuple[tuple[float, float], str, int, str]]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Record every text the cards draw, as drawn: (xy, content, size, anchor)."""
    calls: Drawn = []
    real = cards.text

    def spy(draw, xy, content, *, size, bold=False, anchor="mm", **kw) -> None:
        calls.append(((xy[0], xy[1]), content, size, anchor))
        real(draw, xy, content, size=size, bold=bold, anchor=anchor, **kw)

    monkeypatch.setattr(cards, "text", spy)
    return calls


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def rows(count: int) -> list[LeaderRow]:
    return [LeaderRow(k, f"Player {k}", 30 - k, 20 - k, 1000 - 10 * k) for k in range(1, count + 1)]


# --- best move ---------------------------------------------------------------------------------


def test_best_moves_are_the_top_score_earliest_first_each_once() -> None:
    """best_moves: every move of the top score, earliest first; the same move by several seats
    once (NMBR 9's shared tiles); a tile a deadline placed counts not.
    """
    history = [
        MoveRecord(0, "8H QUIZ", 23, (1, 2), ("QUIZ",)),
        MoveRecord(1, "swapped 3 tiles", 0),
        MoveRecord(0, "I6 HOUSE", 40, (3,), ("HOUSE",)),
        MoveRecord(1, "J2 ZAX", 40, (4,), ("ZAX",)),
        MoveRecord(0, "L12 0", 45, (), ("deadline",), "9 at L12 0 on level 5"),
    ]
    assert [(r.text, seats) for r, seats in best_moves(history)] == [
        ("I6 HOUSE", (0,)),
        ("J2 ZAX", (1,)),
    ]
    shared = [
        MoveRecord(1, "L12 0", 9, label="9 at L12 0"),
        MoveRecord(0, "L12 0", 9, label="9 at L12 0"),
    ]
    assert [(r.shown, seats) for r, seats in best_moves(shared)] == [("9 at L12 0", (1, 0))]


def test_no_best_move_when_nothing_scored() -> None:
    """A game of passes and a resignation has no best move."""
    assert best_moves([MoveRecord(0, "pass", 0), MoveRecord(1, "resigned", 0)]) == []
    assert best_moves([]) == []


# --- game over ---------------------------------------------------------------------------------


def test_the_game_over_card_renders_every_ending(finished, middle, names) -> None:
    """Going out, passes, resigning and timing out each give a full-width card."""
    resigned = middle.apply(1, WEBFEUD.parse_move("resign"))
    timed_out = WEBFEUD.on_timeout(middle, 1)
    passed = middle
    for _ in range(3):
        passed = passed.apply(passed.to_move, WEBFEUD.parse_move("pass"))
    assert passed.outcome is not None
    assert passed.outcome.reason == "passes"
    for state in (finished, resigned, timed_out, passed):
        assert size(render_game_over(state, names=names))[0] == 900


def test_the_card_says_why_every_game_ended_and_gives_a_solo_score() -> None:
    """Each reason of every game reads as words; a game played alone names a score, no winner."""
    for reason, words in ENDINGS.items():
        said = _ending(Outcome((5, 3), (0,), reason), 1, ["ann", "bob"])
        assert "(" not in said, said
        assert said.startswith(("ann ", "bob ", "The game ended")), said
        if reason not in ("out", "passes", "resign", "timeout"):
            assert said == f"The game ended: {words}.", said
    assert _headline(Outcome((52,), (0,), "complete"), ["ann"]) == "ann scored 52"
    assert _headline(Outcome((7,), (), "resign"), ["ann"]) == "ann scored 7"
    assert _headline(Outcome((5, 3), (0,), "complete"), ["ann", "bob"]) == "ann wins!"
    assert _headline(Outcome((5, 5), (0, 1), "complete"), ["ann", "bob"]) == "A tie: ann and bob"
    three = _headline(Outcome((5, 5, 5), (0, 1, 2), "complete"), ["ann", "bob", "cy"])
    assert three == "A tie: 3 players share the win"  # long names would be cut to "W…, W…"
    assert _headline(Outcome((5, 5), (), "blocked"), ["ann", "bob"]) == "Nobody wins"
    assert (signed(-8), signed(12)) == ("−8", "12")  # the minus the notes use ("includes −8")


def test_a_tie_renders_and_differs_from_a_win(finished, names) -> None:
    """A shared win draws a different card from a single winner's."""
    tie = replace(finished, outcome=Outcome((30, 30), (0, 1), "passes"))
    assert render_game_over(tie, names=names) != render_game_over(finished, names=names)


def test_a_game_without_a_scoring_move_renders(fresh, names) -> None:
    """A game resigned before any word was played still has a card."""
    resigned = fresh.apply(0, WEBFEUD.parse_move("resign"))
    assert size(render_game_over(resigned, names=names))[0] == 900


def test_a_running_game_has_no_game_over_card(middle, names) -> None:
    """render_game_over refuses a game that is not over."""
    with pytest.raises(ValueError, match="not over"):
        render_game_over(middle, names=names)


def test_game_over_png_is_the_card(finished, names) -> None:
    """The dispatch helper returns the same bytes as render_game_over, twice."""
    png = game_over_png(finished, names=names)
    assert png == render_game_over(finished, names=names) == game_over_png(finished, names=names)


# --- leaderboard -------------------------------------------------------------------------------


def test_the_leaderboard_shows_at_most_ten_rows() -> None:
    """Fifteen rows draw the same card as their first ten."""
    title = "Leaderboard"
    assert render_leaderboard(rows(15), title=title) == render_leaderboard(rows(10), title=title)


def test_everyone_sharing_a_top_place_is_drawn() -> None:
    """Eleven players tied at #1 are eleven rows: a place is never cut in two."""
    tied = [LeaderRow(1, f"p{i}", 1, 1, 0) for i in range(11)]
    assert (
        size(render_leaderboard(tied, title="T"))[1]
        > size(render_leaderboard(tied[:10], title="T"))[1]
    )


def test_the_asker_outside_the_top_ten_gets_a_row_below() -> None:
    """A viewer ranked 17th adds a separated row; one in the top ten adds nothing: marked there."""
    base = size(render_leaderboard(rows(12), title="T"))
    outside = size(render_leaderboard(rows(12), title="T", viewer_row=LeaderRow(17, "Me", 2, 1, 9)))
    inside_png = render_leaderboard([replace(r, mine=r.rank == 4) for r in rows(12)], title="T")
    assert outside[1] > base[1]
    assert size(inside_png) == base
    assert inside_png != render_leaderboard(rows(12), title="T")  # the asker's row is marked


def test_only_the_row_marked_mine_is_the_askers(monkeypatch) -> None:
    """Two rows alike in name, place and record: only the one that is the asker's is marked."""
    import renderers.cards as cards

    marked: list[bool] = []
    line = cards._leader_line

    def spy(image, row, shown, y, **kw):
        marked.append(kw["mine"])
        line(image, row, shown, y, **kw)

    monkeypatch.setattr(cards, "_leader_line", spy)
    twins = [LeaderRow(1, "Sam", 2, 1, 10), LeaderRow(1, "Sam", 2, 1, 10, mine=True)]
    render_leaderboard(twins, title="T")
    assert marked == [False, True]


def test_the_rows_cut_from_a_crowded_place_are_counted_under_the_rows() -> None:
    """The text's "… and 5 more sharing those places" is a line of the picture too."""
    tied = [LeaderRow(1, f"p{i}", 1, 1, 0) for i in range(25)]
    more = "… and 5 more sharing those places"
    plain = render_leaderboard(tied, title="T")
    assert size(render_leaderboard(tied, title="T", more=more))[1] == size(plain)[1] + LINE
    me = LeaderRow(31, "me", 30, 0, 0, mine=True)
    below = render_leaderboard(tied, title="T", viewer_row=me)
    counted = render_leaderboard(tied, title="T", viewer_row=me, more=more)
    assert size(counted)[1] == size(below)[1] + LINE


def test_an_empty_leaderboard_renders() -> None:
    """No rows yet gives a small card saying so."""
    assert size(render_leaderboard([], title="Nobody yet"))[0] == 900


def test_leaderboard_bytes_are_stable() -> None:
    """The same rows give the same bytes."""
    me = LeaderRow(40, "Zoë 🙂", 1, 0, 12)
    assert render_leaderboard(rows(12), title="T", viewer_row=me) == render_leaderboard(
        rows(12), title="T", viewer_row=me
    )


def test_a_five_digit_rank_fits_its_column_and_negative_points_have_a_true_minus(
    drawn: Drawn,
) -> None:
    """Rank 12345 stays clear of the accent bar and the name; -50 points read "−50"."""
    calls = drawn
    for rank in (12345, 99999, 9999):
        calls.clear()
        me = LeaderRow(rank, "Me", 3, 1, -50)
        render_leaderboard(rows(10), title="T", viewer_row=me)
        [((x, _), _, size, _)] = [c for c in calls if c[1] == str(rank)]
        half = text_width(str(rank), size=size, bold=True) / 2
        [name_x] = [c[0][0] for c in calls if c[1] == "Me" and c[3] == "lm"]
        assert x - half > DEFAULT.padding + 7, rank  # right of the "mine" accent bar (7 px)
        assert x + half < name_x - 4, rank  # left of the name, with a gap
    drawn = [c[1] for c in calls]
    assert "−50" in drawn
    assert "-50" not in drawn
    calls.clear()
    render_leaderboard(rows(10), title="T")
    ranks = [c[2] for c in calls if c[1] == "10" and c[3] == "mm"]
    assert ranks == [21]  # a short rank keeps its size


def test_a_resigner_is_listed_below_those_who_played_on() -> None:
    """Rummikub of three: bob resigned, carol played on and lost; both -43, carol comes first."""
    state = RUMMIKUB.rigged([["R8"], ["K2"], ["B13", "J"]], [["R5", "R6", "R7"]])
    state = state.apply(1, RUMMIKUB.parse_move("resign"))
    state = state.apply(0, RUMMIKUB.parse_move("1+R8; done"))
    assert state.scores == (45, -43, -43)
    assert finishing_order(state) == [0, 2, 1]
    assert size(render_game_over(state, names=["ann", "bob", "cy"]))[0] == 900


def test_a_long_name_is_cut_before_it_reaches_an_image(finished) -> None:
    """Names are cut to NAME_CHARS characters in every image, then fitted to the pixels."""
    long = "Wilhelmina_Von_Longname_The_Third" * 2
    short = long[: NAME_CHARS - 1] + "…"
    assert game_over_png(finished, names=[long, "bob"]) == render_game_over(
        finished, names=[short, "bob"]
    )
    assert board_png(finished, names=[long, "bob"]) == board_png(finished, names=[short, "bob"])
    assert rack_png(finished, 0, name=long) == rack_png(finished, 0, name=short)


def test_a_game_that_scores_at_the_end_has_no_best_move_box(finished, names) -> None:
    """Rummikub's moves score nothing as played: its card is shorter, with no "BEST MOVE"."""
    state = RUMMIKUB.rigged([["R8"], ["K2"]], [["R5", "R6", "R7"]])
    over = state.apply(0, RUMMIKUB.parse_move("1+R8; done"))
    rummikub = Image.open(io.BytesIO(render_game_over(over, names=["ann", "bob"])))
    webfeud = Image.open(io.BytesIO(render_game_over(finished, names=names)))
    assert webfeud.height - rummikub.height == 20 + 116


def test_the_solo_records_come_below_the_askers_own_row(monkeypatch) -> None:
    """With the asker ranked outside the top ten, the solo table starts under their row.

    (It once began at the asker's row: the rule and header crossed it.)
    """
    import renderers.cards as cards
    from renderers import SoloRow

    rows_at: list[tuple[int, int]] = []  # (rank, top y) of each drawn row
    heads_at: list[tuple[str, float]] = []
    line, heads = cards._leader_line, cards._column_heads

    def spy_line(image, row, shown, y, **kw):
        rows_at.append((row.rank, y))
        line(image, row, shown, y, **kw)

    def spy_heads(draw, y, first, columns, theme):
        heads_at.append((first, y))
        heads(draw, y, first, columns, theme)

    monkeypatch.setattr(cards, "_leader_line", spy_line)
    monkeypatch.setattr(cards, "_column_heads", spy_heads)
    me = LeaderRow(14, "me", 1, 0, 3)
    render_leaderboard(rows(3), title="T", viewer_row=me, solo=[SoloRow(1, "al", 3, 88)])
    [asker_y] = [y for rank, y in rows_at if rank == 14]
    [solo_head] = [y for first, y in heads_at if first == "SOLO RECORDS"]
    assert solo_head > asker_y + cards.LINE


def test_huge_numbers_are_drawn_smaller_clear_of_the_column_to_their_left(drawn: Drawn) -> None:
    """8 digits of points beside 999 wins, 4 digits of games beside a long name: no overlap."""
    name = "Alexandra Konstantinopoulou-Papadimitriou"
    render_leaderboard([LeaderRow(1, name, 12_345, 999, 12_345_678)], title="T")
    numbers = {c[1]: c for c in drawn if c[3] == "rm" and c[1] in ("12345", "999", "12345678")}
    [name_call] = [c for c in drawn if c[3] == "lm" and c[1].startswith("Alexandra")]
    left_edge = name_call[0][0] + text_width(name_call[1], size=name_call[2], bold=True)
    for shown in ("12345", "999", "12345678"):
        (x, _), _, size, _ = numbers[shown]
        bold = shown == "12345678"  # the last column, points, is bold
        left = x - text_width(shown, size=size, bold=bold)
        assert left > left_edge + 8, (shown, left, left_edge)
        left_edge = x
    assert numbers["999"][2] == 24  # a number that fits keeps its size


def test_the_best_moves_line_keeps_the_players_names_readable(drawn: Drawn) -> None:
    """Tied best moves cut the moves' ends before the names: "alice · 8 at M13 90 …", not "a…"."""
    deck = (9, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 0, 0, 1, 1)
    moves = (
        "M13 0", "O13 180", "M13 90", "J13 0", "M10 90", "M17 0", "R13 0", "Q13 0", "G13 0",
        "M7 90", "P13 0", "O17 0", "N16 180", "J9 0", "J17 0", "M20 0", "Q10 90", "U13 0",
        "N14 0", "O15 270",
    )  # fmt: skip
    state = NMBR9.new_game(1, seed=3, options={}, deck=deck)
    for move in moves:
        state = state.apply(0, parse_nmbr9_move(move))
    assert len(best_moves(state.history)) > 1  # two placements share the top score
    render_game_over(state, names=["alice"])
    [line] = [c[1] for c in drawn if " at M13 90" in c[1]]
    assert line.startswith("alice · 8 at M13 90 on level 1; alice · "), line
