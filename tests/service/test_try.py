"""/try: a move checked and scored privately, with nothing played; where it does not apply."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.ai import choose_move
from bot.replies import UserTarget
from bot.service import load_state


@pytest.mark.parametrize(("key", "seed"), [("webfeud", 2), ("smartfeud", 4), ("numfeud", 3)])
async def test_try_scores_a_move_as_play_then_does(say, db, table_rows, key, seed) -> None:
    """The preview's points are the points the same move then makes; nothing is stored."""
    await say("alice", f"/new {key} @bob seed={seed}")
    if key == "smartfeud":
        await say("alice", "/start")
    names = ("alice", "bob")
    for _ in range(4):
        state = load_state(await db.games.get_game(1))
        seat = state.waiting_for()[0]
        move = str(choose_move(state, seat, "hard", 3))
        if move.startswith(("pass", "swap")):
            break
        before = table_rows()
        [preview] = await say(names[seat], f"/try {move}")
        assert isinstance(preview.to, UserTarget)
        assert (preview.kind, preview.to.name) == ("preview", names[seat])
        assert preview.text.endswith(f"; nothing was played. Play it with /play {move}.")
        assert table_rows() == before
        [other] = await say(names[1 - seat], f"/try {move}")  # off turn: checked all the same
        assert "not yours" not in other.text
        assert table_rows() == before
        played = await say(names[seat], f"/play {move}")
        news = next(r for r in played if r.kind == "move_played")
        assert news.event["score"] == preview.event["score"]
        if key == "numfeud":  # scores come at the end: /try says the move is legal
            assert news.event["score"] == 0
            assert f"{move} is legal in game #1 (Numfeud scores at the end)" in preview.text
        else:
            assert f"would score {preview.event['score']} in game #1" in preview.text
    assert load_state(await db.games.get_game(1)).turn >= 2


@pytest.mark.parametrize(("key", "seed"), [("webfeud", 2), ("smartfeud", 4), ("numfeud", 3)])
async def test_try_off_turn_checks_the_move_on_the_board_as_it_stands(
    say, db, table_rows, key, seed
) -> None:
    """While bob is to move, alice tries her next move, as the word apps preview one.

    Before, /try answered "It is bob's turn in game #1, not yours; /try checks a move on your
    own turn.", so a player could plan nothing while waiting.
    """
    await say("alice", f"/new {key} @bob seed={seed}")
    if key == "smartfeud":
        await say("alice", "/start")
    state = load_state(await db.games.get_game(1))
    await say("alice", f"/play {choose_move(state, 0, 'hard', 3)}")
    state = load_state(await db.games.get_game(1))
    assert state.waiting_for() == (1,)
    mine = str(choose_move(replace(state, to_move=0), 0, "hard", 3))
    assert not mine.startswith(("pass", "swap"))
    before = table_rows()
    [preview] = await say("alice", f"/try {mine}")
    assert preview.kind == "preview"
    assert preview.text.endswith(
        " on the board as it stands (it may change before your turn); nothing was played. "
        f"Play it on your turn with /play {mine}."
    )
    assert table_rows() == before
    assert load_state(await db.games.get_game(1)).waiting_for() == (1,)


async def test_try_refuses_what_is_not_a_move_that_lays_tiles(say, table_rows) -> None:
    """Bad words get /play's answer; pass, swap and resign need no check; other games."""
    await say("alice", "/new webfeud @bob seed=2")  # alice: U ? T A O ? T
    before = table_rows()
    answers = {
        "/try 8H XU": "You have no X on your rack; a blank can be the X: write it in lower case",
        "/try 8A TAUT": "Your first word must cover the centre square H8.",
        "/try pass": "/try checks a move that lays tiles; pass needs no check: /play pass.",
        "/try resign": "/try checks a move that lays tiles; resign needs no check: /play resign.",
        "/try": "Say what to play, e.g. 8H QUIZ (across from 8H) or H8 QUIZ (down from H8); also",
    }
    for line, shown in answers.items():
        [reply] = await say("alice", line)
        assert (reply.kind, reply.text[: len(shown)]) == ("error", shown), line
    [multi] = await say("alice", "/try 8H TAUT")
    assert multi.text == (
        "8H TAUT would score 5 in game #1; nothing was played. Play it with /play 8H TAUT."
    )
    # Typed in lower case by habit, holding two blanks: both would go, for letters she holds.
    [habit] = await say("alice", "/try 8h at")
    assert habit.text == (
        "8H at would score 0 in game #1; it lays blanks for A and T, which you hold: type them in"
        " capitals to keep your blanks; nothing was played. Play it with /play 8H at."
    )
    [one] = await say("alice", "/try 8H tAUT")  # one blank, as T, which she holds too
    assert "it lays a blank for T, which you hold: type it in capitals" in one.text
    assert table_rows() == before
    await say("alice", "/new rummikub @bob seed=1")
    await say("alice", "/start game=2")
    [other] = await say("alice", "/try R1 R2 R3 game=2")
    assert other.text == (
        "/try belongs to Webfeud, Numfeud and SmartFeud; in Rummikub see /rules rummikub."
    )


async def test_try_in_pro_mode_names_the_word_play_would_lose_the_turn_on(say, table_rows) -> None:
    """Pro mode turns a word not in the dictionary into a lost turn: /try warns instead."""
    await say("alice", "/new smartfeud @bob mode=pro seed=5")
    await say("alice", "/start")
    before = table_rows()
    [reply] = await say("alice", "/try 8H FLAIT")
    assert (reply.kind, reply.text) == (
        "error",
        "FLAIT is not in the dictionary. In pro mode, playing it loses your turn.",
    )
    assert table_rows() == before
    played = await say("alice", "/play 8H FLAIT")  # what the warning said
    assert "lost the turn (a word not in the dictionary)" in played[0].text
    assert "FLAIT" not in played[0].text  # the news to all: the word shows rack letters
    # The player alone learns which word it was (the news cannot say).
    [why] = [r for r in played if r.kind == "preview"]
    assert (why.to.name, why.text) == (  # type: ignore[union-attr]
        "alice",
        "Your move in game #1, 8H FLAIT, lost the turn: FLAIT is not in the dictionary. In pro "
        "mode, playing it loses your turn.",
    )


async def test_a_joker_not_held_is_told_as_any_tile_not_held(say, table_rows) -> None:
    """/try and /play with a joker the player lacks say "no joker", not the joker's notation."""
    await say("alice", "/new numfeud @bob seed=1")  # alice: R3 R5 …, no joker
    before = table_rows()
    for line in ("/try 8G R3 J R5", "/play 8G R3 J R5", "/try 8G R3 J=R4 R5"):
        [reply] = await say("alice", line)
        assert (reply.kind, reply.text) == (
            "error",
            "You have no joker on your rack. See your tiles with /rack.",
        ), line
    assert table_rows() == before
    await say("alice", "/new rummikub @bob seed=4")  # alice: K12 K13 …, no joker
    await say("alice", "/start game=2")
    before = table_rows()
    for line in ("/play K12 J K13 game=2", "/play K12 J=K11 K13 game=2"):
        [reply] = await say("alice", line)
        assert (reply.kind, reply.text) == (
            "error",
            "You have no joker on your rack; see your tiles with /rack.",
        ), line
    assert table_rows() == before
