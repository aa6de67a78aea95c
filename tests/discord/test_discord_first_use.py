"""What a first-time Discord user reads: slash forms, where games are, names as the choices say."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(60)


def private(harness, inter):
    [msg] = [m for m in harness.replies(inter) if not m.public]
    assert msg.ephemeral
    return msg


async def test_start_alone_refusal_names_bot_levels_in_slash_form(harness):
    """Start pressed alone in a SmartFeud lobby: the advice is in slash form, bot:easy (no bot=)."""
    inter = await harness.slash(harness.alice, "new", game="smartfeud")
    lobby = harness.replies(inter)[0]
    inter = await harness.click(harness.alice, lobby, lobby.button("fb:start:"))
    msg = private(harness, inter)
    assert "/new game:SmartFeud bot:easy" in msg.text
    assert "bot=" not in msg.text, msg.text


async def test_other_games_note_is_not_told_to_the_whole_channel(harness):
    """alice, playing #1 with carol, starts #2 with bob: the public news names her, not "You"."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.carol))
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    public = [m.text for m in harness.replies(inter) if m.public]
    assert not any("You have other games" in text for text in public), public


async def game_in_other_channel(harness) -> None:
    """Start game #1, Webfeud of alice and bob, in a channel #other beside #games."""
    other = harness.fake.add_channel("other")
    await harness.slash(
        harness.alice, "new", in_channel=other, game="webfeud", player=str(harness.bob)
    )


async def test_a_move_in_the_wrong_channel_points_to_the_games_channel(harness):
    """Bob's only game is in #other: /play in #games says where it is, not "Start one"."""
    await game_in_other_channel(harness)
    inter = await harness.slash(harness.bob, "play", move="8H QUIZ")
    assert private(harness, inter).text == (
        "You have no game in this chat: your game #1 (Webfeud) is played in #other; send "
        "/play there."
    )


async def test_games_names_the_channel_of_games_elsewhere(harness):
    """/games names the channel of each of your games elsewhere ("#1 Webfeud in #other: …")."""
    await game_in_other_channel(harness)
    inter = await harness.slash(harness.bob, "games")
    text = private(harness, inter).text
    assert "Your games in other chats:\n#1 Webfeud in #other: alice 0, bob 0" in text, text


async def test_game_autocomplete_shows_no_raw_status_names(harness):
    """game: suggestions say a game's stage in words, as /games does ("waiting to start")."""
    await harness.slash(harness.alice, "new", game="smartfeud")
    inter = await harness.slash(harness.alice, "games")
    listed = harness.replies(inter)[0].text
    assert "(waiting to start)" in listed
    choices = await harness.autocomplete(harness.bob, "join", "game", game="")
    names = [c["name"] for c in choices]
    assert names
    assert all(n.endswith("(waiting to start)") for n in names), names


async def test_move_options_describe_every_games_notation(harness):
    """The /play move: and /swap tiles: descriptions give Rummikub's and Numfeud's notation too."""
    fake = harness.fake
    options = {
        (c["name"], o["name"]): o["description"]
        for c in fake.commands[fake.guild_id]
        for o in c.get("options", [])
    }
    play, swap = options[("play", "move")], options[("swap", "tiles")]
    assert all(example in play for example in ("8H QUIZ", "R5 R6 R7", "8H R5 R6 R7")), play
    assert all(example in swap for example in ("AEQ?", "R5 B7 J")), swap


async def test_help_names_games_as_the_game_option_does(harness):
    """/help (and the server welcome) names the games as the game: choices do ("NMBR 9")."""
    fake = harness.fake
    new = next(c for c in fake.commands[fake.guild_id] if c["name"] == "new")
    titles = [c["name"] for o in new["options"] if o["name"] == "game" for c in o["choices"]]
    inter = await harness.slash(harness.alice, "help")
    text = harness.replies(inter)[0].text
    listed = [line.split(" — ")[0] for line in text.splitlines() if " — " in line]
    assert sorted(listed) == sorted(titles), (listed, titles)


async def test_numfeud_refusal_calls_the_rack_what_rack_calls_it(harness):
    """Numfeud calls your tiles a rack everywhere: /rack and a refusal ("on your rack")."""
    await harness.slash(harness.alice, "new", game="numfeud", player=str(harness.bob), seed=3)
    inter = await harness.slash(harness.alice, "rack")
    assert private(harness, inter).text.startswith("Your rack in game #1:")
    inter = await harness.slash(harness.alice, "play", move="8H R5 R6 R7")
    refusal = private(harness, inter).text
    assert refusal.startswith("You have no R5, R6, R7"), refusal
    assert "inventory" not in refusal, refusal
