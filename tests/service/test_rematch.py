"""/rematch: a finished game dealt again with the same seats and options, once, by its players."""

from __future__ import annotations

from typing import Any

from bot.replies import Reply, UserTarget
from bot.service import CONSOLE, ChatRef, Service, UserRef, game_options, game_seed


def refusal(replies: list[Reply]) -> tuple[str, str]:
    assert len(replies) == 1, replies
    assert isinstance(replies[0].to, UserTarget)
    return replies[0].event["reason"], replies[0].text


def started(replies: list[Reply]) -> dict[str, Any]:
    [event] = [r.event for r in replies if r.kind == "game_started"]
    return event


async def test_a_rematch_deals_the_same_seats_and_options_anew_the_next_player_first(
    say, db
) -> None:
    """Players, bots and options stay; the seed is new; the seats turn so bob starts."""
    created = await say("alice", "/new rummikub @bob bot=easy assist=on time=60s seed=7")
    old_id = created[0].event["game_id"]
    await say("alice", "/start")
    await say("carol", "/board")  # carol is in the chat, not in the game
    resigned = await say("bob", "/resign")  # of three, alice and the bot play on
    assert not [r for r in resigned if r.kind == "game_over"]
    [game_over] = [r for r in await say("alice", "/resign") if r.kind == "game_over"]
    assert game_over.event["winners"] == ["bot-easy"]
    assert game_over.text.endswith(f"Play again with /rematch game={old_id}.")
    assert [b.action_id for b in game_over.buttons] == [f"rematch:{old_id}"]

    replies = await say("bob", "/rematch")
    event = started(replies)
    new_id = event["game_id"]
    assert event["rematch_of"] == old_id
    assert event["players"] == ["bob", "bot-easy", "alice"]
    assert replies[0].text.startswith(
        f"bob asked for a rematch of game #{old_id}. Game #{new_id} (Rummikub) has started: "
        "bob vs bot-easy vs alice. bob to move."
    )
    old, new = await db.games.get_game(old_id), await db.games.get_game(new_id)
    assert old is not None
    assert new is not None
    assert (new.status, new.game_key, new.chat_id) == ("active", "rummikub", old.chat_id)
    assert game_options(new) == game_options(old) == {"assist": "on", "time": "60s"}
    assert game_seed(new) != game_seed(old)
    assert new.creator_user_id != old.creator_user_id  # bob asked: bob hosts it
    # Racks went to the people of the new game, privately.
    assert sorted(r.to.name for r in replies if r.kind == "rack") == ["alice", "bob"]


async def test_only_a_finished_game_by_its_players_and_only_once(say, db, table_rows) -> None:
    """Before the end, from an onlooker, twice, for a cancelled game: refused, nothing stored."""
    assert refusal(await say("alice", "/rematch")) == (
        "NO_GAME",
        "You have no finished game in this chat to play again; start one with /new <game>.",
    )
    await say("alice", "/new webfeud @bob seed=3")
    before = table_rows()
    assert refusal(await say("alice", "/rematch game=1")) == (
        "NOT_OVER",
        "Game #1 is still being played; a rematch comes once it is over.",
    )
    assert refusal(await say("alice", "/rematch game=7")) == (
        "NO_SUCH_GAME",
        "There is no game #7 in this chat; /games lists its games.",
    )
    assert table_rows() == before
    await say("bob", "/resign")
    assert refusal(await say("carol", "/rematch game=1")) == (
        "NOT_A_PLAYER",
        "Only the players of game #1 can ask for its rematch; start a game with /new <game>.",
    )
    assert refusal(await say("bob", "/rematch game=1", chat="elsewhere")) == (
        "NO_SUCH_GAME",
        "There is no game #1 in this chat; /games lists its games.",
    )
    assert started(await say("alice", "/rematch"))["game_id"] == 2
    once = table_rows()
    for who in ("alice", "bob"):
        assert refusal(await say(who, "/rematch game=1")) == (
            "ALREADY_REMATCHED",
            "Game #2 is already the rematch of game #1; /board game=2 shows it.",
        )
    assert table_rows() == once
    # A cancelled game is not played again; a cancelled rematch may be asked for anew.
    await say("alice", "/cancel game=2", admin=True)  # started with bob: an admin's cancel
    assert refusal(await say("alice", "/rematch game=2"))[0] == "GAME_OVER"
    assert started(await say("bob", "/rematch game=1"))["game_id"] == 3


async def test_the_rematch_button_and_a_solo_nmbr9_game(service: Service, say, db) -> None:
    """The game-over Rematch button runs /rematch; a solo game is simply dealt again."""
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await say("alice", "/new nmbr9 deadline=1h seed=5")
    await say("alice", "/start")
    await say("alice", "/resign")
    replies = await service.action(room, alice, "rematch:1")
    event = started(replies)
    assert (event["game"], event["players"], event["rematch_of"]) == ("nmbr9", ["alice"], 1)
    row = await db.games.get_game(event["game_id"])
    assert row is not None
    assert game_options(row) == {"deadline": "1h"}
    assert refusal(await service.action(room, alice, "rematch:1"))[0] == "ALREADY_REMATCHED"


async def test_bots_are_named_by_level_and_keep_their_names_in_the_rematch(say) -> None:
    """Two hard bots are bot-hard and bot-hard-2, whatever their seats, also after the turn."""
    created = await say("alice", "/new smartfeud bot=hard bot=easy bot=hard seed=3")
    assert started(created)["players"] == ["alice", "bot-hard", "bot-easy", "bot-hard-2"]
    await say("alice", "/resign")  # the bots resign too: the best of them wins at once
    event = started(await say("alice", "/rematch"))
    assert event["players"] == ["bot-hard", "bot-easy", "bot-hard-2", "alice"]
    await say("alice", "/resign")  # and once more: each bot keeps its name
    event = started(await say("alice", "/rematch"))
    assert event["players"] == ["bot-easy", "bot-hard-2", "alice", "bot-hard"]
