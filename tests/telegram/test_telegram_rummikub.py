"""Rummikub through Telegram: draft steps edit the one board message, racks stay private."""

from __future__ import annotations

import pytest

from bot.adapters.telegram_bot import ALERT_LIMIT
from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_turn_built_in_steps_in_a_group(tg, people) -> None:
    """Steps edit the board image, /done names the invalid meld, Draw is the Pass button."""
    api, group = tg.api, people.group
    assert {"done", "undo", "reset", "draw", "hint"} <= {c["command"] for c in api.commands}
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new rummikub @bob seed=4")
    calls = await tg.press(people.alice, tg.board(1), "Start")
    board = next(c for c in calls if c.method == "sendPhoto" and c.chat_id == group["id"])
    assert "Draw" in [b["text"] for b in board.buttons]
    board_id = board.result["message_id"]
    rack = " ".join(load_state(await tg.db.games.get_game(1)).rack(0))

    calls = await tg.say(people.alice, "/play K1 Y1")
    edit = next(c for c in calls if c.method == "editMessageMedia")
    assert edit.params["message_id"] == board_id
    assert "(draft)" in edit.text
    assert "meld 1 (K1 Y1) has only 2 tiles" in edit.text
    assert tg.board(1)["message_id"] == board_id  # still one board message

    calls = await tg.say(people.alice, "/done")
    refusal = next(c for c in calls if c.chat_id == group["id"])
    assert "Meld 1 (K1 Y1)" in refusal.text
    assert "reply_parameters" in refusal.params  # answers the command it refuses

    await tg.say(people.alice, "/reset")
    calls = await tg.say(people.alice, "/play K1 Y1 R1; K13 Y13 R13; done")
    assert any("K1 Y1 R1; K13 Y13 R13; done" in c.text for c in calls)
    row = await tg.db.games.get_game(1)
    assert row.turn == 1

    calls = await tg.press(people.bob, tg.board(1), "Draw")
    row = await tg.db.games.get_game(1)
    assert row.turn == 2
    assert len(load_state(row).rack(1)) == 15

    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text or rack in c.text]
    assert tg.errors == []


async def test_news_longer_than_a_caption_is_kept_whole(tg, people) -> None:
    """A move and three bots' answers make news over 1024 characters: none of it is lost.

    The edited board keeps the newest lines that fit (whose turn it is); the whole news goes as
    a message of its own, as for a new board photo (the fake refuses longer captions).
    """
    from bot.ai import choose_move

    api, group = tg.api, people.group
    # A long name: the bots' rearrangements show two lines each, the scores name everyone.
    player = api.user(
        1009,
        "Alexandra Konstantinopoulou-Papadimitriou of the Feud club",
        "alexandra_konstantinopoulou",
    )
    await tg.say(player, "/start", chat=api.private(player))
    await tg.say(player, "/new rummikub bot=hard bot=hard bot=hard seed=21")
    for i in range(40):
        row = await tg.db.games.get_game(1)
        if row.status != "active":
            pytest.fail("the game ended with no news sent whole")
        state = load_state(row)
        move = str(choose_move(state, 0, "hard", i))
        calls = await tg.say(player, f"/play {move}" if move != "draw" else "/draw")
        [edit] = [c for c in calls if c.method == "editMessageMedia"]
        news = [c for c in calls if c.method == "sendMessage" and c.chat_id == group["id"]]
        if news:
            break
    else:
        pytest.fail("no news longer than a caption in 40 turns")
    [whole] = news
    assert len(whole.text) > 1024
    assert whole.text.endswith("alexandra_konstantinopoulou to move.")
    caption = edit.text
    assert len(caption) <= 1024
    assert whole.text.endswith(caption)  # the newest whole lines
    assert whole.text.removesuffix(caption).endswith("\n")
    assert caption.endswith("alexandra_konstantinopoulou to move.")
    assert tg.board(1)["caption"] == caption
    assert calls.index(edit) < calls.index(whole)
    assert tg.errors == []


async def test_the_fake_refuses_captions_over_1024_characters(tg, people) -> None:
    """As the Bot API does ("Bad Request: message caption is too long"), for photos and edits."""
    import io

    from PIL import Image
    from telegram import InputMediaPhoto
    from telegram.error import BadRequest

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30)).save(buffer, "PNG")
    png, group = buffer.getvalue(), people.group["id"]
    bot = tg.front.bot
    message = await bot.send_photo(group, png, caption="x" * 1024)
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_photo(group, png, caption="x" * 1025)
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.edit_message_media(
            InputMediaPhoto(png, caption="y" * 1025), group, message.message_id
        )
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.edit_message_caption(group, message.message_id, caption="y" * 1025)


async def test_a_rack_too_long_for_an_alert_shows_its_first_tiles(tg, people) -> None:
    """Drawn up to 50 tiles, a player without a private chat presses Draw: the alert shows them.

    The rack line and its "(new: …)" do not fit 200 characters with the link: the alert keeps
    the tiles that fit, whole, and says where the rest waits (it said only "too long" before).
    """
    api, carol = tg.api, people.carol
    await tg.say(people.alice, "/start", chat=api.private(people.alice))
    await tg.say(carol, "/help")
    await tg.say(people.alice, "/new rummikub @Carol seed=4")
    await tg.say(people.alice, "/start")
    who = {0: people.alice, 1: carol}
    for _ in range(100):
        state = load_state(await tg.db.games.get_game(1))
        if state.to_move == 1 and len(" ".join(state.rack(1))) >= 168:  # 50 tiles
            break
        await tg.say(who[state.to_move], "/draw")
    calls = await tg.press(carol, tg.board(1), "Draw")
    rack = " ".join(load_state(await tg.db.games.get_game(1)).rack(1))
    [alert] = [c for c in calls if c.method == "answerCallbackQuery"]
    assert alert.params["show_alert"] is True
    assert len(alert.text) <= ALERT_LIMIT
    shown, pointer = alert.text.split("\n")
    assert shown.endswith(" …")
    assert f"Your rack in game #1: {rack}".startswith(shown.removesuffix(" …") + " ")
    assert len(shown.split()) > 20  # tiles, not just "Your rack in game #1:"
    assert "start me in private" in pointer
    assert pointer.endswith("t.me/feudbot_test_bot?start=g1)")
    assert tg.errors == []
