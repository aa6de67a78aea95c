"""Rummikub through Discord's slash commands: a turn in steps, /done, /undo, /reset, /draw."""

from __future__ import annotations

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_turn_built_in_steps_with_slash_commands(harness) -> None:
    """Each step posts the draft image; /done refuses privately; the rack never goes public."""
    names = set(harness.fake.command_names())
    assert {"done", "undo", "reset", "draw", "hint"} <= names
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    await harness.slash(harness.alice, "start")

    inter = await harness.slash(harness.alice, "play", move="K1 Y1")
    msgs = harness.replies(inter)
    draft = next(m for m in msgs if m.public)
    assert "(draft)" in draft.text
    assert "has only 2 tiles" in draft.text
    assert any(a.filename.endswith("-board.png") for a in draft.attachments)
    assert any(not m.public and "Your rack" in m.text for m in msgs)
    labels = [item.get("label") for row in draft.components for item in row.get("components", [])]
    assert labels == ["My rack", "Board", "Draw"]  # /pass is drawing a tile in Rummikub

    inter = await harness.slash(harness.alice, "done")
    refusal = harness.replies(inter)
    assert [m.public for m in refusal] == [False]
    assert "Meld 1 (K1 Y1)" in refusal[0].text

    await harness.slash(harness.alice, "undo")
    await harness.slash(harness.alice, "reset")
    row = await harness.db.games.get_game(1)
    assert load_state(row).view(None)["melds"] == []

    for step in ("K1 Y1 R1", "K13 Y13 R13"):
        await harness.slash(harness.alice, "play", move=step)
    inter = await harness.slash(harness.alice, "done")
    assert any(m.public and "bob to move" in m.text for m in harness.replies(inter))
    inter = await harness.slash(harness.bob, "draw")
    assert any(m.public and "drew a tile" in m.text for m in harness.replies(inter))
    row = await harness.db.games.get_game(1)
    assert row.turn == 2
    harness.assert_racks_private()


def live_boards(fake, game_id: int) -> list:
    """The public messages whose My rack button of the game still acts."""
    return [m for m in fake.public_messages() if f"fb:rack:{game_id}:" in " ".join(m.custom_ids())]


async def test_the_steps_of_a_turn_update_one_draft_message(harness) -> None:
    """Draft steps edit one message (text, picture, buttons); the asker is told privately.

    The first step posts the draft and takes the buttons off the start; /play, /undo and
    /reset then post nothing new in the channel; /done posts the move, and the draft message
    keeps no buttons of the turn that is over, nor a draft that no longer stands.
    """
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    inter = await harness.slash(harness.alice, "start")
    [start] = [m for m in harness.replies(inter) if m.public and "has started" in m.text]

    inter = await harness.slash(harness.alice, "play", move="K1 Y1")
    [draft] = [m for m in harness.replies(inter) if m.public]
    assert "(draft): K1 Y1" in draft.text
    assert start.custom_ids() == []  # the start's buttons were of this turn, now the draft's
    assert live_boards(fake, 1) == [draft]
    public = len(fake.public_messages())
    picture = draft.attachments[0].data

    for step, shown in (("undo", "(draft): undo"), ("play", "(draft): K1 Y1 R1"), ("reset", "")):
        if step == "play":
            inter = await harness.slash(harness.alice, "play", move="K1 Y1 R1")
        else:
            inter = await harness.slash(harness.alice, step)
        msgs = harness.replies(inter)
        assert [m for m in msgs if m.public] == []  # nothing new in the channel
        note = next(m for m in msgs if m.ephemeral and "draft message" in m.text)
        assert str(draft.id) in note.text  # a link to the draft message
        assert shown in draft.text, draft.text
        assert len(fake.public_messages()) == public
        [board] = draft.attachments  # the step's picture replaced the one before
        assert board.filename.endswith("-board.png")
        if step == "play":
            assert board.data != picture  # R1 joined the meld on the table
    assert "(draft): reset" in draft.text
    assert draft.edits == 4  # the step's answer, then three edits in place
    assert draft.custom_ids() == ["fb:rack:1:0", "fb:board:1:0", "fb:pass:1:0"]

    await harness.slash(harness.alice, "play", move="K1 Y1 R1")
    await harness.slash(harness.alice, "play", move="K13 Y13 R13")
    assert len(fake.public_messages()) == public
    inter = await harness.slash(harness.alice, "done")
    [move] = [m for m in harness.replies(inter) if m.public and "bob to move" in m.text]
    assert draft.custom_ids() == []
    assert draft.text == "This draft of game #1 ended with the move below."
    assert draft.attachments == []
    assert live_boards(fake, 1) == [move]

    # bob's first step is a draft of a new turn: a message of its own, not alice's edited.
    rack = load_state(await harness.db.games.get_game(1)).rack(1)
    inter = await harness.slash(harness.bob, "play", move=" ".join(rack[:2]))
    bobs = [m for m in harness.replies(inter) if m.public]
    assert bobs
    assert bobs[0] is not draft
    assert "(draft): K1 Y1 R1" not in bobs[0].text
    assert live_boards(fake, 1) == [bobs[-1]]
    assert fake.errors == []


async def test_a_board_asked_mid_draft_leaves_no_contradicting_draft(harness) -> None:
    """/board takes the buttons; the next step posts the draft anew and the old one points to it."""
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    await harness.slash(harness.alice, "start")
    inter = await harness.slash(harness.alice, "play", move="K1 Y1")
    [first] = [m for m in harness.replies(inter) if m.public]
    await harness.slash(harness.bob, "board")
    inter = await harness.slash(harness.alice, "play", move="1+R1")
    [second] = [m for m in harness.replies(inter) if m.public]
    assert second is not first
    assert "(draft): 1+R1" in second.text
    assert first.text == "This draft of game #1 goes on in a newer message below."
    assert (first.attachments, first.custom_ids()) == ([], [])
    assert live_boards(fake, 1) == [second]
    assert fake.errors == []


async def test_a_draft_taken_back_by_a_draw_no_longer_reads_as_one(harness) -> None:
    """/draw mid-draft: the melds go back to the rack, so the draft message says it ended."""
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    await harness.slash(harness.alice, "start")
    inter = await harness.slash(harness.alice, "play", move="K13 Y13 R13")
    [draft] = [m for m in harness.replies(inter) if m.public]
    assert "every meld is valid. /done ends your turn." in draft.text
    inter = await harness.slash(harness.alice, "draw")
    [move] = [m for m in harness.replies(inter) if m.public and "bob to move" in m.text]
    assert "drew a tile" in move.text
    assert draft.text == "This draft of game #1 ended with the move below."
    assert (draft.attachments, draft.custom_ids()) == ([], [])
    assert harness.fake.errors == []


async def test_a_draft_stands_while_another_player_resigns(harness) -> None:
    """Bob resigns out of turn: alice's draft is still hers to finish; /done then ends it."""
    alice, bob, carol = harness.alice, harness.bob, harness.carol
    await harness.slash(alice, "new", game="rummikub", player=str(bob), player2=str(carol), seed=4)
    await harness.slash(alice, "start")
    inter = await harness.slash(alice, "play", move="K13 Y13 R13")
    [draft] = [m for m in harness.replies(inter) if m.public]
    shown = draft.text
    await harness.slash(bob, "resign")
    assert draft.text == shown  # still the draft of the turn being played (its buttons are
    # under bob's news now, the game's newest message)
    # A next step posts a new draft message: the first one points to it (it kept the old
    # draft for good: the out-of-turn resignation had moved the turn number on).
    inter = await harness.slash(alice, "play", move="K1 Y1 R1")
    [second] = [m for m in harness.replies(inter) if m.public]
    assert draft.text == "This draft of game #1 goes on in a newer message below."
    await harness.slash(alice, "done")
    assert second.text == "This draft of game #1 ended with the move below."
    assert harness.fake.errors == []


async def test_a_restart_mid_draft_goes_on_in_the_same_draft_message(harness) -> None:
    """Which message holds the draft is kept in storage: after a restart the turn's next step
    edits it in place, and /done then says it ended, as without the restart.
    """
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    await harness.slash(harness.alice, "start")
    inter = await harness.slash(harness.alice, "play", move="K1 Y1")
    [draft] = [m for m in harness.replies(inter) if m.public]
    public = len(fake.public_messages())
    await harness.restart()
    inter = await harness.slash(harness.alice, "play", move="1+R1")
    assert [m for m in harness.replies(inter) if m.public] == []  # nothing new in the channel
    assert "(draft): 1+R1" in draft.text, draft.text
    assert len(fake.public_messages()) == public
    await harness.slash(harness.alice, "play", move="K13 Y13 R13")
    await harness.restart()
    inter = await harness.slash(harness.alice, "done")
    [move] = [m for m in harness.replies(inter) if m.public and "bob to move" in m.text]
    assert draft.text == "This draft of game #1 ended with the move below."
    assert draft.custom_ids() == []
    assert live_boards(fake, 1) == [move]
    assert fake.errors == []
