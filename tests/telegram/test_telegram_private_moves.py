"""L1: moves of group games sent from the private chat, hidden group swaps, tile-safe refusals."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(30)


def in_group(calls: list[Any], group: dict[str, Any]) -> list[Any]:
    return [c for c in calls if c.chat_id == group["id"]]


async def deleting_group(tg: Any, people: Any, new: str, players: tuple[Any, ...] = ()) -> Any:
    """Make the bot a group admin that may delete, open each player's private chat, send `new`.

    `players`: alice and bob unless given. Returns the group.
    """
    group = people.group
    tg.api.bot_admin(group["id"], can_delete_messages=True)
    for person in players or (people.alice, people.bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(people.alice, new)
    return group


async def numfeud_game(tg: Any, people: Any, *, dms: bool = True) -> tuple[Any, Any, str]:
    """Start Numfeud alice vs bob in the group; return the player to move, the state, a tile."""
    for person in (people.alice, people.bob):
        if dms:
            await tg.say(person, "/start", chat=tg.api.private(person))
        else:
            await tg.say(person, "/help")
    await tg.say(people.alice, "/new numfeud @bob seed=4")
    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    counts = Counter(state.rack(state.to_move))
    tile = next(t for t, n in sorted(counts.items()) if n == 1 and t != "J")
    return mover, state, tile


async def test_a_swap_sent_privately_is_played_in_the_group_game(tg, people) -> None:
    """/swap in the private chat acts on the group's game: the news there, the tiles only here."""
    group = people.group
    mover, state, tile = await numfeud_game(tg, people)
    private = tg.api.private(mover)
    calls = await tg.say(mover, f"/swap {tile} game=1", chat=private)
    assert "There is no game" not in " ".join(c.text for c in calls)
    after = load_state(await tg.db.games.get_game(1))
    assert after.turn == state.turn + 1
    assert len(after.rack(state.to_move)) == len(state.rack(state.to_move)) + 1
    news = [c for c in in_group(calls, group) if c.method == "editMessageMedia"]
    assert len(news) == 1
    assert "swapped 1 tile" in news[0].text
    assert "Tip:" not in news[0].text  # sent privately already: no advice needed
    assert any("Your rack" in c.text for c in calls if c.chat_id == private["id"])
    assert not [c for c in in_group(calls, group) if tile in c.text]
    # Without game=: the player's one running game elsewhere. The other one passes so.
    other = people.bob if mover is people.alice else people.alice
    calls = await tg.say(other, "/pass", chat=tg.api.private(other))
    assert load_state(await tg.db.games.get_game(1)).turn == state.turn + 2
    assert [c.method for c in in_group(calls, group)] == ["editMessageMedia"]
    # /board asked privately answers privately, with no new board message in the group.
    board = tg.front.boards.known[1]
    calls = await tg.say(mover, "/board", chat=private)
    assert [(c.method, c.chat_id) for c in calls] == [("sendPhoto", private["id"])]
    assert tg.front.boards.known[1] == board
    assert tg.errors == []


async def test_private_commands_keep_their_own_rules(tg, people) -> None:
    """Several group games: asked which; a game in the private chat itself keeps bare commands."""
    group, other_group = people.group, tg.api.group(-100777, "Other club")
    for person in (people.alice, people.bob, people.carol):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(people.alice, "/new webfeud @bob seed=4")
    await tg.say(people.alice, "/new webfeud @bob seed=5", chat=other_group)
    private = tg.api.private(people.alice)
    before = [(await tg.db.games.get_game(i)).version for i in (1, 2)]
    calls = await tg.say(people.alice, "/swap AB", chat=private)
    assert [c.chat_id for c in calls] == [private["id"]]
    assert "several games in groups (#1, #2)" in calls[0].text
    assert "e.g. /swap AB game=1" in calls[0].text
    assert [(await tg.db.games.get_game(i)).version for i in (1, 2)] == before
    # Someone not seated in a game cannot reach it from the private chat.
    calls = await tg.say(people.carol, "/pass game=1", chat=tg.api.private(people.carol))
    assert "There is no game #1 in this chat" in calls[-1].text
    assert not in_group(calls, group)
    # With a game running in the private chat, a bare command means that one, as before.
    await tg.say(people.alice, "/new webfeud bot=easy seed=3", chat=private)
    turn = (await tg.db.games.get_game(3)).turn
    calls = await tg.say(people.alice, "/pass", chat=private)
    assert {c.chat_id for c in calls} == {private["id"]}
    assert (await tg.db.games.get_game(3)).turn > turn
    assert [(await tg.db.games.get_game(i)).version for i in (1, 2)] == before
    assert not in_group(calls, other_group)
    assert tg.errors == []


async def test_a_private_move_means_the_one_group_game_waiting_for_you(tg, people) -> None:
    """Of several group games, a bare move sent privately plays the one that waits for you.

    As in a group: /resign and /board, which do not play your move, still ask which game.
    """
    alice, bob = people.alice, people.bob
    other_group = tg.api.group(-100778, "Other club")
    for person in (alice, bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(alice, "/new webfeud @bob seed=4")
    await tg.say(alice, "/new webfeud @bob seed=5", chat=other_group)
    private = tg.api.private(alice)

    async def waits_for_alice() -> list[int]:
        return [i for i in (1, 2) if load_state(await tg.db.games.get_game(i)).to_move == 0]

    if await waits_for_alice() == [1, 2]:  # make exactly one game wait for alice
        await tg.say(alice, "/pass game=1", chat=private)
    elif not await waits_for_alice():
        await tg.say(bob, "/pass game=1", chat=tg.api.private(bob))
    [waiting] = await waits_for_alice()
    before = [(await tg.db.games.get_game(i)).version for i in (1, 2)]
    for asked in ("/resign", "/board"):
        calls = await tg.say(alice, asked, chat=private)
        assert "several games in groups (#1, #2)" in calls[-1].text
    assert [(await tg.db.games.get_game(i)).version for i in (1, 2)] == before
    calls = await tg.say(alice, "/pass", chat=private)
    assert "several games" not in " ".join(c.text for c in calls)
    after = [(await tg.db.games.get_game(i)).version for i in (1, 2)]
    assert [a != b for a, b in zip(after, before, strict=True)] == [i == waiting for i in (1, 2)]
    assert tg.errors == []


async def test_an_accepted_group_swap_is_deleted_and_tips_once(tg, people) -> None:
    """A /swap typed in the group is deleted once played (admin rights); the tip comes once."""
    group = await deleting_group(tg, people, "/new webfeud @bob seed=4")
    players = (people.alice, people.bob)

    async def swap_in_group(command: str = "/swap") -> tuple[list[Any], int]:
        state = load_state(await tg.db.games.get_game(1))
        mover = players[state.to_move]
        tiles = "".join(state.rack(state.to_move)[:2])
        calls = await tg.say(mover, f"{command} {tiles}")
        return calls, max(mid for chat, mid in tg.api.messages if chat == group["id"])

    # A refused swap is not deleted (its author still sees what was refused).
    mover = players[load_state(await tg.db.games.get_game(1)).to_move]
    calls = await tg.say(mover, "/swap")
    assert not [c for c in calls if c.method == "deleteMessage"]
    calls, _ = await swap_in_group()
    [deleted] = [c for c in calls if c.method == "deleteMessage"]
    assert deleted.ok
    assert (group["id"], deleted.params["message_id"]) in tg.api.deleted
    [news] = [c for c in calls if c.method == "editMessageMedia"]
    assert "swapped 2 tiles" in news.text
    assert "Tip: send /swap to me in private (t.me/feudbot_test_bot)" in news.text
    calls, _ = await swap_in_group()  # the other player: told once too
    assert "Tip:" in next(c for c in calls if c.method == "editMessageMedia").text
    calls, _ = await swap_in_group("/play swap")  # the first again, as a move: no second tip
    assert [c.ok for c in calls if c.method == "deleteMessage"] == [True]
    assert "Tip:" not in next(c for c in calls if c.method == "editMessageMedia").text
    # Without the right to delete, Telegram refuses; the swap is played all the same.
    tg.api.bot_admin(group["id"], can_delete_messages=False)
    calls, _ = await swap_in_group()
    assert [c.status for c in calls if c.method == "deleteMessage"] == [400]
    assert any(c.method == "editMessageMedia" for c in calls)
    assert tg.errors == []


async def test_a_placement_typed_in_the_group_is_hidden_until_the_round_ends(tg, people) -> None:
    """NMBR 9: a /place typed in the group says where the tile went while others still place.

    It is deleted (admin rights) with a one-time tip; the placement that ends the round, which
    the round's news shows to all anyway, is left.
    """
    from bot.ai import choose_move

    players = (people.alice, people.bob, people.carol)
    group = await deleting_group(tg, people, "/new nmbr9 @bob @carol seed=3", players)
    await tg.say(people.alice, "/start")

    async def place(seat: int) -> list[Any]:
        state = load_state(await tg.db.games.get_game(1))
        return await tg.say(players[seat], f"/place {choose_move(state, seat, 'easy', 1)}")

    calls = await place(0)
    [deleted] = [c for c in calls if c.method == "deleteMessage"]
    assert (group["id"], deleted.params["message_id"]) in tg.api.deleted
    [news] = [c for c in in_group(calls, group) if "has placed this round's tile" in c.text]
    assert "Tip: send /place to me in private (t.me/feudbot_test_bot)" in news.text
    assert "until the round ends" in news.text
    calls = await place(1)
    assert [c.ok for c in calls if c.method == "deleteMessage"] == [True]
    assert "Tip:" in " ".join(c.text for c in in_group(calls, group))  # bob's first: told too
    calls = await place(2)  # the round ends: every placement is shown now
    assert not [c for c in calls if c.method == "deleteMessage"]
    calls = await place(0)  # round 2: deleted again, the tip not repeated
    assert [c.ok for c in calls if c.method == "deleteMessage"] == [True]
    assert "Tip:" not in " ".join(c.text for c in in_group(calls, group))
    assert tg.errors == []


async def test_a_word_that_loses_the_turn_in_the_group_is_hidden(tg, people) -> None:
    """SmartFeud pro mode: a /play that lost the turn shows tiles still on the rack: deleted."""
    group = await deleting_group(tg, people, "/new smartfeud @bob mode=pro seed=4")
    await tg.say(people.alice, "/start")
    from itertools import permutations

    from bot.ai import choose_move

    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    anchor, word = str(choose_move(state, state.to_move, "easy", 1)).split()
    rack = [t for t in state.rack(state.to_move) if t != "?"]
    nonsense = next(
        "".join(p) for p in permutations(rack, len(word)) if "".join(p) not in state.lexicon
    )
    calls = await tg.say(mover, f"/play {anchor} {nonsense}")
    assert any("lost the turn" in c.text for c in in_group(calls, group)), calls
    assert [c.ok for c in calls if c.method == "deleteMessage"] == [True]
    assert any("Tip: send /play to me in private" in c.text for c in in_group(calls, group))
    # Which word it was goes to the player's private chat, never to the group.
    said = [c.text for c in calls if c.chat_id == mover["id"]]
    assert any(f"lost the turn: {nonsense} is not in the dictionary" in t for t in said), said
    assert not any(nonsense in c.text for c in in_group(calls, group))
    assert tg.errors == []


async def test_a_move_word_in_the_group_is_answered_only_to_a_player(tg, people) -> None:
    """/quit and /skip in a group: a player there is told the move; others' are not ours."""
    group = people.group
    calls = await tg.say(people.carol, "/skip")  # nobody plays here: another bot's /skip
    assert calls == []
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new smartfeud @bob seed=4")
    await tg.say(people.alice, "/start")
    calls = await tg.say(people.alice, "/quit")
    assert "It is a move: /play quit" in in_group(calls, group)[-1].text
    assert await tg.say(people.carol, "/quit") == []  # an onlooker
    assert tg.errors == []


async def test_a_notation_mistake_in_a_move_answers_in_the_group(tg, people) -> None:
    """Refusals before the rack check tell nothing of the tiles: answered in the group.

    After the rack check (a Numfeud step after one that laid tiles) the notice comes instead,
    with the game's deep link and the advice to send the move in the private chat.
    """
    group = people.group
    mover, state, tile = await numfeud_game(tg, people, dms=False)
    for line in ("/play 15O R1 R2 R3", "/play 8H R1 X9"):  # off the board; no such tile
        calls = await tg.say(mover, line)
        assert [c.chat_id for c in calls] == [group["id"]], line
        assert "would tell about your tiles" not in calls[0].text
        assert "tg://user?id=" in calls[0].text  # the refusal itself, to its author
    calls = await tg.say(mover, f"/play 8H {tile}; 15O R1 R2 R3")
    assert [c.chat_id for c in calls] == [group["id"]]
    notice = calls[0]
    assert "my answer to /play would tell about your tiles" in notice.text
    assert "send /play there: it is played in this game just the same" in notice.text
    assert notice.buttons[0]["url"] == "https://t.me/feudbot_test_bot?start=g1"
    assert "is not on the board" not in notice.text
    assert load_state(await tg.db.games.get_game(1)).to_json() == state.to_json()
    assert tg.errors == []


async def test_a_word_game_notation_mistake_is_no_secret(tg, people) -> None:
    """Webfeud: a one-letter word or a word off the board is refused in the group, as typed."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=5")
    for line, said in (("/play 8H Q", "at least two letters"), ("/play 8N QUIZ", "runs off")):
        calls = await tg.say(people.alice, line)
        assert [c.chat_id for c in calls] == [people.group["id"]], line
        assert said in calls[0].text
    assert tg.errors == []


async def test_a_rummikub_refusal_after_the_rack_check_stays_private(tg, people) -> None:
    """A missing meld is found only after the step's rack tile was: the refusal tells the tile."""
    group = people.group
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new rummikub @bob seed=3")
    await tg.say(people.alice, "/start")
    tile = load_state(await tg.db.games.get_game(1)).rack(0)[0]
    calls = await tg.say(people.alice, f"/play {tile} 9:R5")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "my answer to /play would tell about your tiles" in calls[0].text
    assert not [c for c in in_group(tg.api.calls, group) if "no meld 9" in c.text]
    assert tg.errors == []


async def test_a_move_sent_privately_is_confirmed_there(tg, people) -> None:
    """A pass typed in the private chat and played in the group is confirmed where it was typed.

    So is a nudge, whose only answer is the group's news.
    """
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    private = tg.api.private(people.alice)
    calls = await tg.say(people.alice, "/pass", chat=private)
    mine = [c.text for c in calls if c.chat_id == private["id"]]
    assert mine == ["Played in the group: #1 alice: pass — alice 0, bob 0. bob to move."]
    assert load_state(await tg.db.games.get_game(1)).turn == 1
    calls = await tg.say(people.alice, "/nudge", chat=private)  # news in the group only
    mine = [c.text for c in calls if c.chat_id == private["id"]]
    [sent] = mine  # (the real clock: a second may tick meanwhile; minutes are rounded down)
    assert sent.startswith("Sent to the group: alice nudged bob in game #1; ")
    assert sent.endswith((" 72 hours left.", " 71 hours 59 minutes left."))
    assert tg.errors == []


async def test_moves_asked_in_the_group_without_a_private_chat_is_answered(tg, people) -> None:
    """NMBR 9 /moves is a private answer: asked again and again, each time the way to it."""
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob seed=3")
    await tg.say(people.alice, "/start")  # bob, with no private chat, is told once unasked
    for _ in range(2):
        calls = await tg.say(people.bob, "/moves")
        [notice] = in_group(calls, people.group)
        assert "my answer to /moves shows moves for your tiles" in notice.text
        assert "send /moves there" in notice.text
        assert "L12" not in notice.text
    assert tg.errors == []


async def test_a_look_back_asked_privately_after_the_end_names_the_game(tg, people) -> None:
    """/history in the private chat once the group game is over: the game to name, which works."""
    for person in (people.alice, people.bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(people.alice, "/new webfeud @bob seed=4")
    await tg.say(people.bob, "/resign")
    private = tg.api.private(people.alice)
    [answer] = await tg.say(people.alice, "/history", chat=private)
    assert answer.text == (
        "No game of yours is going on; your last one was #1: add game=1, e.g. /history game=1."
    )
    calls = await tg.say(people.alice, "/history game=1", chat=private)
    assert [c.chat_id for c in calls] == [private["id"]]
    assert "bob" in calls[0].text
    assert "resign" in calls[0].text
    # A move sent there now: the game is over (a private chat starts games with bots only).
    [answer] = await tg.say(people.alice, "/pass", chat=private)
    assert answer.text == (
        "Your game #1 is over (/board game=1 shows how it ended); start another with /new "
        "<game> bot=easy."
    )
    assert tg.errors == []


async def test_after_the_end_the_rack_notice_offers_no_button(tg, people) -> None:
    """The finished game's board has no "My rack" left: the notice offers the private chat."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=4")
    calls = await tg.say(people.bob, "/rack")
    assert "Tap “My rack” under the board, or start a private chat" in calls[-1].text
    await tg.say(people.alice, "/resign")
    calls = await tg.say(people.bob, "/rack")
    [notice] = in_group(calls, people.group)
    assert "I cannot send you your tiles privately yet. Start a private chat with me" in notice.text
    assert "My rack" not in notice.text
    assert tg.errors == []


@pytest.mark.parametrize(
    ("game", "command", "what"),
    [
        ("numfeud @alice seed=4", "/try 8G R8 B8 Y8", "would tell about your tiles"),
        ("rummikub @alice seed=4 assist=on", "/hint", "shows moves for your tiles"),
    ],
)
async def test_try_and_hint_asked_in_the_group_say_their_answer_is_private(
    tg, people, game, command, what
) -> None:
    """/try or /hint without a private chat: the notice is about that answer, not the rack.

    "My rack" under the board answers neither, so the notice says that the answer to the
    command waits in the private chat, and to send the command there.
    """
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    await tg.say(people.bob, "/help")
    await tg.say(people.bob, f"/new {game}")
    if "rummikub" in game:
        await tg.say(people.bob, "/start")
    assert load_state(await tg.db.games.get_game(1)).to_move == 0  # bob's turn
    name = command.split()[0]
    calls = await tg.say(people.bob, command)
    [notice] = in_group(calls, people.group)
    assert f"my answer to {name} {what}, so it goes only to our private chat" in notice.text
    assert f"send {name} there." in notice.text
    assert "My rack" not in notice.text
    assert "I cannot send you your tiles" not in notice.text
    assert notice.buttons[0]["url"].endswith("?start=g1")
    rack = load_state(await tg.db.games.get_game(1)).rack(0)
    assert not [t for t in rack if f" {t} " in f" {notice.text} "]
    assert tg.errors == []


async def test_a_private_command_means_the_group_game_that_takes_it(tg, people) -> None:
    """Beside a word game in another group, a private /moves means the NMBR 9 game, as there."""
    alice, bob = people.alice, people.bob
    other_group = tg.api.group(-100779, "Other club")
    for person in (alice, bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(alice, "/new nmbr9 @bob seed=6")
    await tg.press(alice, tg.board(1), "Start")
    await tg.say(alice, "/new webfeud @bob seed=5", chat=other_group)
    calls = await tg.say(alice, "/moves", chat=tg.api.private(alice))
    said = " ".join(c.text for c in calls)
    assert "several games" not in said
    assert "Some placements in game #1" in said
    assert tg.errors == []


async def test_a_restart_tells_no_one_again_what_they_were_told_once(api, people, db_path) -> None:
    """The tip about sending moves privately, and the word on how to see one's tiles (bob has
    no private chat with the bot), come once a game: a restart does not repeat them.
    """
    from tests.telegram.conftest import running

    group = people.group
    api.bot_admin(group["id"], can_delete_messages=True)
    async with running(api, db_path) as tg:
        await tg.say(people.alice, "/start", chat=api.private(people.alice))
        await tg.say(people.bob, "/help")
        calls = await tg.say(people.alice, "/new webfeud @bob seed=4")
        [how] = [c for c in in_group(calls, group) if "cannot send you your tiles" in c.text]
        assert "bob</a>:" in how.text
        state = load_state(await tg.db.games.get_game(1))
        if state.to_move == 1:  # bob passes: alice is to swap
            await tg.say(people.bob, "/pass")
        calls = await tg.say(
            people.alice, f"/swap {load_state(await tg.db.games.get_game(1)).rack(0)[0]}"
        )
        assert "Tip: send /swap to me in private" in " ".join(c.text for c in calls)
    async with running(api, db_path) as tg:  # a restart
        bob_tile = load_state(await tg.db.games.get_game(1)).rack(1)[0]
        calls = await tg.say(people.bob, f"/swap {bob_tile}")  # new tiles, not to be shown here
        assert "swapped 1 tile" in " ".join(c.text for c in calls)
        assert not [c for c in calls if "cannot send you your tiles" in c.text]
        calls = await tg.say(
            people.alice, f"/swap {load_state(await tg.db.games.get_game(1)).rack(0)[0]}"
        )
        assert [c.ok for c in calls if c.method == "deleteMessage"] == [True]
        assert "Tip:" not in " ".join(c.text for c in calls)
        assert tg.errors == []
