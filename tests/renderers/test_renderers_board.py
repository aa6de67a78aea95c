"""The word-game board and rack images: public facts only, stable bytes, phone-sized."""

from __future__ import annotations

import io
import struct
from dataclasses import fields, replace

import pytest
from PIL import Image

import renderers
from bot.games.webfeud import TILES, VARIANT, WEBFEUD
from bot.games.wordgame import EMPTY, START, Variant, WordState
from renderers import NoRenderer, board_png, rack_png, register, render_board, render_rack
from renderers.toolkit import DEFAULT, header_height, text_width
from renderers.wordgame import TITLE_GAP, PublicBoard, _grid, public_board

MAX_PNG = 250 * 1024


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def chunk_types(png: bytes) -> list[bytes]:
    """Return the chunk types of a PNG file in order."""
    types, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        types.append(png[pos + 4 : pos + 8])
        pos += 12 + length
    return types


def cell_face(png: bytes, state: WordState, cell: int) -> tuple[int, int, int]:
    """Return the colour a little inside the top-left corner of a board cell."""
    grid = _grid(state.size, DEFAULT, top=header_height(DEFAULT))
    left, top, _, _ = grid.box(*divmod(cell, state.size), inset=DEFAULT.cell_gap)
    pixel = image(png).getpixel((left + 8, top + 8))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


# --- determinism and size ----------------------------------------------------------------------


def test_the_same_state_gives_the_same_bytes(middle, names) -> None:
    """Rendering one state twice gives identical PNG bytes (board and rack)."""
    assert render_board(middle, names=names) == render_board(middle, names=names)
    assert render_rack(middle, 0, name="Alice") == render_rack(middle, 0, name="Alice")


def test_a_rebuilt_state_gives_the_same_bytes(middle, names) -> None:
    """A state saved to JSON and loaded back renders to the same bytes."""
    again = WEBFEUD.from_json(middle.to_json(), lexicon=middle.lexicon)
    assert render_board(again, names=names) == render_board(middle, names=names)


def test_the_png_has_no_metadata(middle, names) -> None:
    """The PNG holds only image chunks: no time stamp or text that could vary."""
    assert set(chunk_types(render_board(middle, names=names))) <= {
        b"IHDR",
        b"PLTE",
        b"IDAT",
        b"IEND",
    }


def test_every_simulated_state_renders_phone_sized(simulated) -> None:
    """Every state of three simulated games renders 800-1000 px wide and at most 250 KB."""
    count = 0
    for game in simulated:
        for state in game:
            for png in (
                render_board(state, names=("Ann", "Bob")),
                render_rack(state, state.to_move, name="Ann"),
            ):
                assert 800 <= image(png).width <= 1000
                assert len(png) <= MAX_PNG
            count += 1
        assert game[-1].outcome is not None, "each simulated game plays to its end"
        over = renderers.game_over_png(game[-1], names=("Ann", "Bob"))
        assert 800 <= image(over).width <= 1000
    assert count > 30


# --- what the board shows ----------------------------------------------------------------------


def test_the_board_never_depends_on_the_racks(middle, names) -> None:
    """Two states that differ only in racks and bag order draw the same board, byte for byte."""
    other = replace(
        middle,
        racks=tuple("".join(sorted(rack, reverse=True)) + "" for rack in middle.racks[::-1]),
        bag=middle.bag[::-1],
    )
    assert other.racks != middle.racks
    assert render_board(other, names=names) == render_board(middle, names=names)


def test_the_public_board_holds_no_rack(middle) -> None:
    """The board renderer's input has no rack field and only the bag's size."""
    names = {f.name for f in fields(PublicBoard)}
    assert not any("rack" in name for name in names)
    pub = public_board(middle)
    assert pub.bag == len(middle.bag)
    assert all(rack not in repr(pub) for rack in middle.racks)


def test_the_header_receives_no_rack(middle, names, monkeypatch: pytest.MonkeyPatch) -> None:
    """The header's panels and status line carry names and scores, never a rack's tiles."""
    seen: list[str] = []
    original = renderers.wordgame.draw_header

    def spy(image, players, status, theme, **kw):
        seen.append(repr(players) + status)
        return original(image, players, status, theme, **kw)

    monkeypatch.setattr(renderers.wordgame, "draw_header", spy)
    render_board(middle, names=names)
    (header,) = seen
    assert "Alice" in header
    assert str(middle.scores[0]) in header
    assert all(rack not in header for rack in middle.racks)


def test_a_blank_and_the_last_move_look_different(blank_last, middle, names) -> None:
    """A blank's tile, a last-move tile and an older letter tile have three different faces."""
    png = render_board(blank_last, names=names)
    blank_cell = blank_last.board.index("a")
    letter_cell = blank_last.history[0].cells[0]  # the Q of QUIZ, played long ago
    last_letter = blank_last.history[-1].cells[-1]  # the D of HaND
    faces = {cell_face(png, blank_last, c) for c in (blank_cell, letter_cell, last_letter)}
    assert len(faces) == 3
    # One move later the blank is no longer highlighted, and SEND is.
    later = render_board(middle, names=names)
    assert cell_face(later, middle, blank_cell) != cell_face(png, blank_last, blank_cell)
    send = middle.history[-1].cells[0]
    assert cell_face(later, middle, send) == cell_face(png, blank_last, last_letter)


def test_last_move_false_highlights_nothing(middle, names) -> None:
    """With last_move=False the newest tiles look like every other letter tile."""
    png = render_board(middle, names=names, last_move=False)
    send = middle.history[-1].cells[0]
    quiz = middle.history[0].cells[0]
    assert cell_face(png, middle, send) == cell_face(png, middle, quiz)


def test_a_tile_hides_the_premium_under_it(middle, names) -> None:
    """A premium cell shows its colour while empty and the tile's face once covered."""
    empty_png = render_board(
        WEBFEUD.new_game(2, seed=1, options={}, lexicon=middle.lexicon), names=names
    )
    png = render_board(middle, names=names, last_move=False)
    covered = next(
        i
        for i, ch in enumerate(middle.board)
        if ch.isupper() and middle.layout[i] != "." and middle.layout[i] != START
    )
    plain = next(i for i, ch in enumerate(middle.board) if ch.isupper() and middle.layout[i] == ".")
    assert cell_face(empty_png, middle, covered) != cell_face(png, middle, covered)
    assert cell_face(png, middle, covered) == cell_face(png, middle, plain)


def test_the_viewer_is_labelled(middle, names) -> None:
    """Passing viewer changes the header (that panel says "you") and nothing else breaks."""
    assert render_board(middle, names=names, viewer=0) != render_board(middle, names=names)


def test_wrong_number_of_names_is_refused(middle) -> None:
    """The board needs exactly one name per seat."""
    with pytest.raises(ValueError, match="names"):
        render_board(middle, names=["Alice"])


def test_a_finished_and_a_resigned_game_render(finished, middle, names) -> None:
    """Boards of games ended by going out and by resigning render at full width."""
    resigned = middle.apply(1, WEBFEUD.parse_move("resign"))
    for state in (finished, resigned):
        assert image(render_board(state, names=names)).width == DEFAULT.width


def test_long_and_unusual_names_fit(middle) -> None:
    """Very long names are shortened to fit, and accents or emoji do not break rendering."""
    names = ("Ångström " * 12, "🙂 Zoë\nnewline")
    assert image(render_board(middle, names=names)).width == DEFAULT.width


def test_a_bigger_board_with_four_start_squares_renders(middle, names) -> None:
    """A 16×16 variant with four start squares (SmartFeud-like) fits the same width."""
    size = 16
    layout = ["."] * (size * size)
    for row, col in ((7, 7), (7, 8), (8, 7), (8, 8)):
        layout[row * size + col] = START
    for i in range(0, size * size, 7):
        if layout[i] == ".":
            layout[i] = "dtDT"[i % 4]
    variant = Variant(
        key="smartfeud-test",
        title="SmartFeud",
        size=size,
        layout="".join(layout),
        tiles=TILES,
        lexicon=VARIANT.lexicon,
        max_players=4,
    )
    state = WordState(
        variant=variant,
        layout=variant.layout,
        board=EMPTY * size * size,
        racks=("ABCDEFG", "HIJKLMN", "OPQRSTU", "VWXYZ??"),
        bag="EEEE",
        scores=(0, 0, 0, 0),
        to_move=2,
        turn=0,
        passes=0,
        seed=1,
        lexicon=middle.lexicon,
    )
    state = replace(state, board="A" + state.board[1:])
    png = render_board(state, names=("Ann", "Bob", "Cy", "Di"))
    assert 800 <= image(png).width <= 1000
    assert len(png) <= MAX_PNG


# --- the rack ----------------------------------------------------------------------------------


def test_the_rack_shows_that_players_tiles(before_blank) -> None:
    """Two seats' racks are different images; a rack with a blank renders."""
    assert "?" in before_blank.racks[1]
    one = render_rack(before_blank, 0, name="Alice")
    two = render_rack(before_blank, 1, name="Alice")
    assert one != two
    assert image(two).width == DEFAULT.width


def test_a_long_name_in_the_rack_title_stops_short_of_the_score(middle) -> None:
    """The title is shortened to the room the score line leaves, with a clear gap between."""
    state = replace(middle, scores=(492, 7), to_move=1)
    png = render_rack(state, 0, name="Maximiliano_Alejandro_Rodriguez")
    picture = image(png)
    pad = DEFAULT.padding
    info_left = round(
        DEFAULT.width - pad - 4 - text_width("492 points · not your turn", size=22, bold=True)
    )
    background = picture.getpixel((1, 1))
    inked = {
        x
        for x in range(picture.width)
        for y in range(pad, pad + 52)
        if picture.getpixel((x, y)) != background
    }
    title_right = max(x for x in inked if x < info_left - 4)
    # A clear gap before the score line, and the title still uses most of the room it has.
    assert info_left - TITLE_GAP - 40 <= title_right < info_left - TITLE_GAP
    assert not {x for x in inked if title_right < x < info_left - 2}


def test_an_empty_rack_renders(finished) -> None:
    """The rack of a player who went out renders as empty slots."""
    assert finished.racks[0] == ""
    assert image(render_rack(finished, 0, name="Alice")).width == DEFAULT.width


def test_a_seat_outside_the_game_is_refused(middle) -> None:
    """render_rack refuses a seat the game does not have."""
    with pytest.raises(ValueError, match="seat"):
        render_rack(middle, 2, name="Nobody")


# --- dispatch ----------------------------------------------------------------------------------


def test_dispatch_picks_the_renderer_by_game_key(middle, names) -> None:
    """board_png and rack_png route a Webfeud state to the word-game renderers."""
    assert board_png(middle, names=names) == render_board(middle, names=names)
    assert rack_png(middle, 1, name="Zoë") == render_rack(middle, 1, name="Zoë")


def test_an_unknown_game_has_no_renderer(middle) -> None:
    """A game without a registered renderer raises NoRenderer (a LookupError)."""
    stranger = replace(middle, variant=replace(VARIANT, key="no-such-game"))
    with pytest.raises(NoRenderer):
        board_png(stranger, names=("A", "B"))
    with pytest.raises(LookupError):
        rack_png(stranger, 0, name="A")


def test_a_game_can_register_its_renderers(middle, monkeypatch: pytest.MonkeyPatch) -> None:
    """`register` adds a game's board and rack renderers to the registry."""
    monkeypatch.setattr(renderers, "BOARDS", dict(renderers.BOARDS))
    monkeypatch.setattr(renderers, "RACKS", dict(renderers.RACKS))
    register("no-such-game", board=lambda state, **kw: b"board", rack=lambda s, seat, **kw: b"r")
    stranger = replace(middle, variant=replace(VARIANT, key="no-such-game"))
    assert board_png(stranger) == b"board"
    assert rack_png(stranger, 0) == b"r"


def test_a_custom_theme_changes_the_colours(middle, names) -> None:
    """A Theme variant recolours the board; the default stays as it was."""
    light = replace(DEFAULT, background="#f4f1ea", cell="#e4ded2", coordinate="#6b6455")
    default_png = render_board(middle, names=names)
    light_png = render_board(middle, names=names, theme=light)
    assert light_png != default_png
    # The 256-colour palette may move a colour by a step.
    background = image(light_png).getpixel((2, 2))
    assert all(abs(a - b) <= 1 for a, b in zip(background, (0xF4, 0xF1, 0xEA), strict=True))
    assert render_board(middle, names=names) == default_png
