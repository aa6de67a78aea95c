"""Text in the images: undrawable, wide and right-to-left names, lines that must show whole.

Footers, captions and move text must show whole, and lists of problems must stay short.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

import renderers
import renderers.cards
import renderers.toolkit
import renderers.wordgame
from bot.core.game import MoveRecord, Outcome, best_moves
from bot.games.rummikub import RUMMIKUB
from bot.games.smartfeud import SMARTFEUD
from bot.lexicon import Lexicon
from renderers import board_png, game_over_png, rack_png
from renderers.cards import _ending
from renderers.numtiles import PROBLEM_LINES, _problem_lines, last_laid, render_table
from renderers.toolkit import (
    DEFAULT,
    NAME_CHARS,
    PlayerBadge,
    draw_header,
    fit_text,
    font,
    has_rtl,
    header_height,
    new_canvas,
    player_name,
    player_names,
    raqm_available,
    text,
    text_width,
)
from renderers.wordgame import BLANK_MARK, _status, move_text, public_board
from tests.renderers.conftest import game_over_out, midgame
from tests.renderers.test_renderers_nmbr9 import played

CJK = ["山田太郎", "田中花子"]


def shown(content: str, room: float = 10_000, size: int = 20, bold: bool = False) -> str:
    """Return what a line is drawn as (names marked by `player_name` are fitted)."""
    return fit_text(content, size=size, max_width=room, bold=bold)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Collect every string the renderers draw with the toolkit's `text`."""
    lines: list[str] = []
    real = renderers.toolkit.text

    def spy(draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, **kw: object) -> None:
        lines.append(renderers.toolkit._unmark(content))
        real(draw, xy, content, **kw)  # type: ignore[arg-type]

    for module in ("toolkit", "cards", "wordgame", "nmbr9", "numtiles", "numfeud"):
        monkeypatch.setattr(f"renderers.{module}.text", spy)
    return lines


# --- 1. names the font cannot draw -------------------------------------------------------------


def test_a_name_with_nothing_drawable_becomes_its_seat() -> None:
    """CJK or full-width names become "player 2", never tofu, "?" or nothing; seats differ."""
    assert [shown(name) for name in player_names(CJK)] == ["player 1", "player 2"]
    # Cut to 20 characters only after filtering: the full-width name is not just "…".
    assert shown(renderers._short(["Ｗ" * 25, "bob"])[0]) == "player 1"
    assert shown(player_name("山田 Bob 🎉", 1)) == "Bob"  # the drawable part is kept
    assert shown(player_name("🙂", None, fallback="player #4")) == "player #4"
    assert player_name(player_name("Zoë", 0), 0) == player_name("Zoë", 0)  # idempotent
    said = shown(_ending(Outcome((0, 0), (0,), "resign"), 1, player_names(["alice", CJK[0]])))
    assert said == "player 2 resigned."


def test_names_that_only_undrawable_characters_told_apart_stay_apart(drawn: list[str]) -> None:
    """Names the font draws alike ("bob🎲", "bob🎉": "bob") are told apart: "bob-2", once."""
    assert [shown(n) for n in player_names(["bob🎲", "bob🎉", "山田 Ken", "田中 Ken"])] == [
        "bob",
        "bob-2",
        "Ken",
        "Ken-2",
    ]
    assert player_names(player_names(["bob🎲", "Bob🎉"])) == player_names(["bob🎲", "Bob🎉"])
    # A number never takes another's name: the real "bob-2" keeps his, the second bob is "bob-3".
    assert [shown(n) for n in player_names(["bob🎲", "bob🎉", "bob-2"])] == [
        "bob",
        "bob-3",
        "bob-2",
    ]
    long = [("W" * NAME_CHARS) + "🎲", ("W" * NAME_CHARS) + "🎉"]
    assert [len(shown(n)) for n in player_names(long)] == [NAME_CHARS, NAME_CHARS]
    rows = [
        renderers.cards.LeaderRow(1, "bob🎲", 2, 2, 4),
        renderers.cards.LeaderRow(2, "bob🎉", 2, 0, 0),
    ]
    renderers.cards.render_leaderboard(rows, title="Webfeud leaderboard")
    assert "bob-2" in drawn
    board_png(midgame(), names=["bob🎲", "bob🎉"])
    assert any("bob-2" in line for line in drawn)


def test_a_name_that_draws_nothing_becomes_its_seat(drawn: list[str]) -> None:
    """A name of blanks ("⠀⠀", Braille blanks: Telegram allows them) is "player 1", not nothing.

    Such a name left an empty panel, an empty leaderboard row and "last:  played L3 SEND".
    """
    for blank in ("\u2800\u2800", "\u200b", "\u2800 \u200d\u2060"):
        assert shown(player_name(blank, 0)) == "player 1"
    assert shown(player_name("\u2800ann\u2800lee", 0)) == "ann lee"  # a blank is a space
    board_png(midgame(), names=["\u2800\u2800", "bob"])
    assert "player 1" in drawn
    assert any("last: player 1 played L3 SEND" in line for line in drawn), drawn
    drawn.clear()
    renderers.cards.render_leaderboard(
        [renderers.cards.LeaderRow(1, "\u2800", 2, 2, 4)], title="Webfeud"
    )
    assert "player #1" in drawn


def test_what_is_left_of_an_emoji_does_not_tell_two_names_apart(drawn: list[str]) -> None:
    """Two "Ana"s with different emoji (one a ZWJ sequence) are drawn "Ana" and "Ana-2".

    Before, the emoji's zero-width joiner (or a variation selector, a word joiner) stayed
    after "Ana ": invisible, yet enough for the two names not to be told apart.
    """
    pairs = [
        ("Ana 👩🏽\u200d💻", "Ana 🎲", "Ana"),
        ("Ana\ufe0f", "Ana", "Ana"),
        ("bob\u2060", "bob", "bob"),
    ]
    for one, two, told in pairs:
        assert [shown(n) for n in player_names([one, two])] == [told, f"{told}-2"]
    persian = "فاطمه\u200cسادات"  # the non-joiner between two letters shapes them: kept
    assert renderers.toolkit._unmark(player_name(persian)) == persian
    board_png(midgame(), names=["Ana 👩🏽\u200d💻", "Ana 🎲"])
    assert "Ana-2" in drawn


def test_a_right_to_left_override_cannot_turn_a_line_around() -> None:
    """A title (or name) with "\u202e" is drawn as without it: " — all games" is not reversed."""
    assert shown(player_name("\u202ebob", 0)) == "bob"
    if not raqm_available():
        pytest.skip("Pillow has no libraqm here: every line is laid out left to right")
    rows = [renderers.cards.LeaderRow(1, "דוד", 2, 2, 4)]
    plain = renderers.cards.render_leaderboard(rows, title="Leaderboard of חברים — all games")
    rlo = renderers.cards.render_leaderboard(rows, title="Leaderboard of \u202eחברים — all games")
    assert rlo == plain


def test_the_leaderboard_draws_how_many_more_share_the_places_after_the_rows(
    drawn: list[str],
) -> None:
    """The cut crowd's line comes after the rows and before the asker's own row below."""
    tied = [renderers.cards.LeaderRow(1, f"p{i}", 1, 1, 0) for i in range(3)]
    me = renderers.cards.LeaderRow(31, "me", 30, 0, 0, mine=True)
    more = "… and 5 more sharing those places"
    renderers.cards.render_leaderboard(tied, title="T", viewer_row=me, more=more)
    assert drawn.index("p2") < drawn.index(more) < drawn.index("me")


def test_the_leaderboard_draws_the_solo_records_apart(drawn: list[str]) -> None:
    """Solo records get a table of their own below the ranking: names, games, best scores."""
    solo = [renderers.cards.SoloRow(1, "zoe", 3, 112), renderers.cards.SoloRow(2, "yan", 1, 95)]
    ranked = [renderers.cards.LeaderRow(1, "bob", 2, 2, 40)]
    renderers.cards.render_leaderboard(ranked, title="NMBR 9", solo=solo)
    assert drawn[drawn.index("SOLO RECORDS") :] == [
        *("SOLO RECORDS", "GAMES", "BEST"),
        *("1", "zoe", "3", "112"),
        *("2", "yan", "1", "95"),
    ]
    drawn.clear()
    renderers.cards.render_leaderboard([], title="NMBR 9", solo=solo[:1])
    assert "No games against others yet." in drawn
    assert "No finished games yet." not in drawn
    drawn.clear()
    renderers.cards.render_leaderboard([], title="Webfeud")
    assert "No finished games yet." in drawn
    assert "SOLO RECORDS" not in drawn


def test_cjk_names_draw_exactly_as_their_placeholders(drawn: list[str]) -> None:
    """Every image of CJK players is the image of players named "player 1" and "player 2"."""
    placeholders = ["player 1", "player 2"]
    over = game_over_out()
    assert game_over_png(over, names=CJK) == game_over_png(over, names=placeholders)
    assert board_png(midgame(), names=CJK) == board_png(midgame(), names=placeholders)
    nine = played(2, 20)
    assert board_png(nine, names=CJK) == board_png(nine, names=placeholders)
    assert rack_png(midgame(3), 1, name=CJK[1]) == rack_png(midgame(3), 1, name="player 2")
    assert not any("□" in line or line.strip() == "?" for line in drawn)


# --- 2. names wider than their room ------------------------------------------------------------


@pytest.mark.parametrize("letter", ["M", "W"])
def test_a_wide_name_is_shortened_not_the_words_after_it(letter: str) -> None:
    """What follows a name ("wins!", the best move, a display's score) always shows, once cut."""
    name = player_name(letter * NAME_CHARS, 0)
    title = shown(f"{name} wins!", room=740, size=44, bold=True)
    assert title.endswith("… wins!")
    assert title.count("…") == 1
    assert text_width(title, size=44, bold=True) <= 740
    best = shown(f"{name} · B7 TAXI", room=500, size=28, bold=True)
    assert best.endswith("… · B7 TAXI")
    assert shown(f"{name} — 46", room=260, size=18, bold=True).endswith("… — 46")
    # A name cut to NAME_CHARS already ends with an ellipsis: fitting does not add another.
    cut = shown(player_name(letter * 40, 0) + " played", room=300, size=19)
    assert cut.count("…") == 1
    assert cut.endswith("… played")


def test_two_wide_names_share_the_room() -> None:
    """Both names of a tie are shortened, neither vanishes."""
    one, two = player_names(["M" * 20, "W" * 20])
    tie = shown(f"A tie: {one} and {two}", room=740, size=44, bold=True)
    assert tie.startswith("A tie: M")
    assert " and W" in tie
    assert tie.count("…") == 2


def test_the_game_over_card_keeps_wins_and_the_best_move(drawn: list[str]) -> None:
    """With 20 M's the card still says "wins!" and what the best move was."""
    game_over_png(game_over_out(), names=["M" * 20, "W" * 20])
    assert any(line.endswith("… wins!") for line in drawn)
    assert any(line.endswith("· 8H QUIZ") for line in drawn)
    assert not any("……" in line for line in drawn)


def test_the_game_over_card_names_every_best_move_that_ties(drawn: list[str]) -> None:
    """As the chat's "Best moves (+31): bob, 13B OXY; alice, 6F QI." (the card showed one)."""
    from dataclasses import replace

    state = game_over_out()
    top = max(record.score for record in state.history)
    tied = tuple(replace(record, score=top) for record in state.history[:2])
    game_over_png(replace(state, history=(*tied, *state.history[2:])), names=["ann", "bob"])
    assert "BEST MOVES" in drawn
    assert "ann · 8H QUIZ; bob · I6 HOUSE" in drawn


# --- 3. right-to-left names --------------------------------------------------------------------


def test_latin_text_keeps_the_basic_layout() -> None:
    """Text without right-to-left letters is laid out by BASIC, so its bytes never change."""
    assert not has_rtl("Zoë Ωμέγα Привет · 8H QUIZ")
    assert font(20).layout_engine == ImageFont.Layout.BASIC
    assert renderers.toolkit._font_for("alice wins!", 20, False).layout_engine == (
        ImageFont.Layout.BASIC
    )
    assert text_width("alice", size=20) == font(20).getlength("alice")


def pixels(content: str, *, layout: ImageFont.Layout) -> Image.Image:
    canvas = Image.new("L", (240, 60), 0)
    face = renderers.toolkit.font(30, rtl=layout == ImageFont.Layout.RAQM)
    ImageDraw.Draw(canvas).text((120, 30), content, font=face, fill=255, anchor="mm")
    return canvas


def test_hebrew_reads_right_to_left_when_raqm_is_there() -> None:
    """With libraqm, "אב" is drawn as BASIC would draw "בא": the first letter on the right."""
    assert has_rtl("דוד")
    assert has_rtl("محمد")
    if not raqm_available():
        pytest.skip("Pillow has no libraqm here: right-to-left text falls back to BASIC")
    canvas = Image.new("L", (240, 60), 0)
    text(ImageDraw.Draw(canvas), (120, 30), "אב", size=30, fill="#ffffff")
    reversed_basic = pixels("בא", layout=ImageFont.Layout.BASIC)
    as_typed_basic = pixels("אב", layout=ImageFont.Layout.BASIC)
    diff = ImageStat.Stat(ImageChops.difference(canvas.convert("L"), reversed_basic)).mean[0]
    wrong = ImageStat.Stat(ImageChops.difference(canvas.convert("L"), as_typed_basic)).mean[0]
    assert diff < wrong / 4
    # Arabic letters join: the shaped word is narrower than its isolated letters side by side.
    assert text_width("محمد", size=30) < font(30).getlength("محمد")


# --- 4. the SmartFeud rack footer --------------------------------------------------------------


def test_the_smartfeud_rack_footer_wraps_instead_of_running_off(drawn: list[str]) -> None:
    """Bag, blank and slot notes all show, each line within the image."""
    lex = Lexicon.from_words(["SECTION"])
    state = SMARTFEUD.new_game(2, seed=1, options={}, lexicon=lex, bag="SECTION" + "NEE?EEE" + "AB")
    png = rack_png(state.apply(0, SMARTFEUD.parse_move("8G SECTION")), 1, name="Bob")
    footer = [line for line in drawn if "bag" in line or "slot" in line or "blank" in line]
    assert " · ".join(footer).endswith(
        "plays as any letter · last slot: a tile taken from the board"
    )
    width = Image.open(io.BytesIO(png)).width
    assert all(text_width(line, size=19) <= width - 2 * DEFAULT.padding for line in footer)


# --- 5. the NMBR 9 best move -------------------------------------------------------------------


def test_the_nmbr9_best_move_says_the_tile_and_level(drawn: list[str]) -> None:
    """The card reads as the chat does: "8 at L10 0 on level 3", not only "L10 0"."""
    state = played(2, 20)
    game_over_png(state, names=["alice", "bob"])
    [(best, _)] = best_moves(state.history)
    assert best.label
    assert any(line.endswith(f"· {best.label}") and " at " in line for line in drawn)


# --- 6. Rummikub: the last turn's tiles --------------------------------------------------------


def test_the_tiles_the_last_turn_laid_are_marked() -> None:
    """A run laid from the rack is marked, even where a twin of one tile lies in another meld."""
    state = RUMMIKUB.rigged(
        [["R6", "R7", "R8", "K1"], ["K2"]], [["K7", "B7", "R7"]], opened=[True, True]
    )
    state = state.apply(0, RUMMIKUB.parse_move("R6 R7 R8; done"))
    view = state.view(None)
    assert last_laid(view) == {1: frozenset({0, 1, 2})}  # meld 2; the R7 of meld 1 is not
    assert render_table(state, names=["a", "b"]) != render_table(
        state, names=["a", "b"], last_move=False
    )
    added = state.apply(1, RUMMIKUB.parse_move("draw"))
    assert last_laid(added.view(None)) == {}  # the last turn drew: nothing laid


# --- 7. a caption too wide for its panel -------------------------------------------------------


def test_a_long_caption_shows_whole(drawn: list[str]) -> None:
    """A caption like "you · drafting · 10 tiles · not opened" is smaller or on two lines."""
    image = new_canvas(900, header_height(DEFAULT, 2), DEFAULT)
    caption = "you · drafting · 10 tiles · not opened"
    badges = [PlayerBadge("alice", -145, caption, active=True), PlayerBadge("bob", 3, "")]
    draw_header(image, badges, "status", DEFAULT)
    assert not any("…" in line for line in drawn)
    assert "NOT OPENED" in " ".join(drawn)
    assert " · ".join(line for line in drawn if line.isupper()) == caption.upper()


def test_a_long_status_line_shows_whole_in_smaller_type(drawn: list[str]) -> None:
    """A timeout's "… drew 3 tiles; the draft went back" lost its end ("the draft w…")."""
    image = new_canvas(900, header_height(DEFAULT, 2), DEFAULT)
    badges = [PlayerBadge("alice", 0, ""), PlayerBadge("bot-medium", 0, "", active=True)]
    name = player_name("bot-medium", 1)
    status = (
        f"Rummikub · 22 tiles in the pool · last: {name} ran out of time and drew 3 tiles; "
        "the draft went back"
    )
    draw_header(image, badges, status, DEFAULT)
    assert drawn[-1] == status.replace(name, "bot-medium")


# --- 8. blanks in the move text ----------------------------------------------------------------


def test_a_blank_in_the_status_line_is_marked_as_on_the_board() -> None:
    """A blank shows as on the board, its upper-case letter and 0: 6I HaND is "6I HA₀ND"."""
    state = midgame(4)
    assert "last: Bob played 6I HA₀ND for" in _status(public_board(state), ["Alice", "Bob"])
    # A word typed in lower case from one's own tiles has no blank: the board says so.
    record = MoveRecord(0, "8H quiz", 23, cells=(112, 113, 114, 115))
    assert move_text(record, state.board, state.size) == "8H QUIZ"
    blank_l = MoveRecord(0, "H4 PINNUlAE", 45, cells=(1,))
    empty = "." * 225
    assert move_text(blank_l, empty, 15) == f"H4 PINNUL{BLANK_MARK}AE"


# --- 9. a draft with many invalid melds --------------------------------------------------------


def test_the_invalid_meld_notes_are_capped() -> None:
    """50 invalid melds give at most PROBLEM_LINES lines, the last counting the rest."""
    melds = [
        {"number": k, "tiles": ["R1", "R2"], "valid": False, "problem": "has only 2 tiles"}
        for k in range(1, 51)
    ]
    lines = _problem_lines(melds)
    assert len(lines) == PROBLEM_LINES
    assert lines[-1] == f"… and {50 - PROBLEM_LINES + 1} more invalid melds"
    assert len(_problem_lines(melds[:3])) == 3


def test_a_status_line_keeps_who_moved_and_cuts_the_move_instead() -> None:
    """A status line's names keep NAME_MIN letters ("bot-medium" whole): the notation is cut."""
    from renderers.toolkit import NAME_MIN, fit_text

    name = player_name("bot-medium", 1)
    line = (
        f"Rummikub · the pool is empty · last: {name} played 1:B10 1:B11 B12>new; 1:J Y11 Y13>new"
    )
    status = fit_text(line, size=19, max_width=560, name_min=NAME_MIN)
    assert "last: bot-medium played" in status
    assert status.endswith("…")
    long = player_name("Bartholomew_Maximilian_Featherstonehaugh", 0)
    status = fit_text(f"last: {long} played 8H QUIZ", size=19, max_width=300, name_min=NAME_MIN)
    assert status.startswith("last: Bartholome")


def test_a_finished_rummikub_turn_is_told_by_the_tiles_it_laid() -> None:
    """A turn's steps name melds as numbered before `done` closed the gaps: "laid K6 R6"."""
    from renderers.numtiles import _status

    view = {
        "pool": 20,
        "melds": [],
        "history": [{"seat": 1, "text": "10+K6 R6; done", "words": ["K6", "R6"], "score": 0}],
    }
    assert _status(view, ["alice", "zoë"], "Rummikub").endswith("last: zoë laid K6 R6")
    view["history"] = [{"seat": 0, "text": "drew a tile", "words": [], "score": 0}]
    assert _status(view, ["alice", "zoë"], "Rummikub").endswith("last: alice drew a tile")


def test_every_games_final_panels_say_winner_or_shared_win(drawn: list[str]) -> None:
    """Numfeud's winner panel says "winner" as the others do; a tie says "shared win".

    And a panel's negative score is "−49", with the game-over card's true minus.
    """
    from dataclasses import replace

    from bot.core.game import Resign
    from bot.games.numfeud import NUMFEUD

    over = NUMFEUD.new_game(2, seed=1, options={}).apply(0, Resign())
    board_png(over, names=["alice", "bob"])
    assert "WINNER · 16 TILES" in drawn, drawn  # (captions are drawn in capitals)
    drawn.clear()
    rummikub = RUMMIKUB.new_game(2, seed=1, options={})
    board_png(replace(rummikub, outcome=Outcome((0, 0), (0, 1), "pool")), names=["ann", "bo"])
    assert sum("SHARED WIN" in line for line in drawn) == 2, drawn
    assert not any("WINNER" in line for line in drawn)
    drawn.clear()  # NMBR 9's tie too (it said "winner" on every panel)
    tie = played(2, 20, alike=True)  # both seats play the same tiles alike: a tie
    assert tie.outcome is not None
    assert tie.outcome.winners == (0, 1)
    board_png(tie, names=["ann", "bo"])
    assert sum("SHARED WIN" in line for line in drawn) == 2, drawn
    drawn.clear()  # a tie of three long names: the status counts them and keeps "won"
    board_png(played(3, 20, alike=True), names=["W" * 40, "M" * 40, "🎲🎲🎲"])
    assert any(line.endswith("game over after 20 rounds — 3 players won") for line in drawn)
    drawn.clear()  # a panel's negative score has the true minus the game-over card uses
    board_png(replace(over, scores=(-49, 0)), names=["alice", "bob"])
    assert "−49" in drawn, drawn
