"""Who a command names, and who can play where: @names by handle, private chats alone."""

from __future__ import annotations

from datetime import timedelta

from bot.service import ChatRef, Service, UserRef

GROUP = ChatRef("telegram", "-100")
ALICE = UserRef("telegram", "1001", "alice", handle="alice")
BOB = UserRef("telegram", "1002", "bob", handle="bob")
NOT_BOB = UserRef("telegram", "1011", "bob")  # first name "bob", no username


async def seated(service: Service, game_id: int) -> list[str]:
    """The platform ids of a game's people, seat by seat."""
    ids = []
    for seat in await service.db.games.seats(game_id):
        user = await service.db.users.get_user(seat.user_id)
        assert user is not None
        ids.append(user.platform_user_id)
    return ids


async def test_at_name_is_the_person_whose_username_it_is(service, clock) -> None:
    """A person who shows "bob" without being @bob never takes @bob's seat or record."""
    await service.handle(GROUP, BOB, "/games")
    clock.advance(timedelta(minutes=5))
    await service.handle(GROUP, NOT_BOB, "/games")  # seen last
    created = await service.handle(GROUP, ALICE, "/new webfeud @bob")
    assert created[0].event["type"] == "game_created"
    assert await seated(service, 1) == ["1001", "1002"]
    racks = [r.to.platform_user_id for r in created if r.event.get("type") == "rack"]
    assert sorted(racks) == ["1001", "1002"]  # the real bob's tiles, nobody else's
    await service.handle(GROUP, BOB, "/resign")
    [stats] = await service.handle(GROUP, ALICE, "/stats @bob")
    assert stats.event["player"] == "bob"
    assert stats.event["games"]["webfeud"]["games"] == 1


async def test_a_private_chat_has_room_for_bots_only(service) -> None:
    """In a private chat nobody else can be invited or wait to join: bots and solo NMBR 9 only.

    An invited person could never play there; nobody can join, so a game starts at once.
    """
    private = ChatRef("telegram", "1001", private=True)
    await service.handle(GROUP, BOB, "/games")
    for line in ("/new webfeud @bob", "/new webfeud", "/new rummikub bot=easy @bob"):
        [refused] = await service.handle(private, ALICE, line)
        assert refused.kind == "error", line
        assert refused.event["reason"] == "PRIVATE_CHAT"
        assert "e.g. /new" in refused.text
    assert await service.db.games.list_games(statuses=("lobby", "active")) == []
    solo = await service.handle(private, ALICE, "/new nmbr9")
    assert solo[0].text == "Game #1 (NMBR 9) created with alice."
    assert solo[0].buttons == ()
    assert "game_started" in [r.kind for r in solo]
    replies = await service.handle(private, ALICE, "/new rummikub bot=easy")
    assert "has started" in replies[1].text
    assert replies[0].text.endswith(
        "alice also plays #1 here: a bare move goes to the game waiting for its player; "
        "add game=<id> when several are."
    )
    # In a group nothing changes: people are invited and others may join.
    [group] = await service.handle(GROUP, ALICE, "/new nmbr9")
    assert "Others can /join" in group.text


async def test_a_person_whose_name_is_a_bots_is_never_shown_as_one(service) -> None:
    """A Telegram first name "bot-hard" playing the hard bot: "bot-hard-person vs bot-hard"."""
    named = UserRef("telegram", "1012", "bot-hard")
    replies = await service.handle(GROUP, named, "/new webfeud bot=hard")
    started = next(r for r in replies if r.kind == "game_started")
    assert started.text.startswith("Game #1 (Webfeud) has started: bot-hard-person vs bot-hard.")


async def test_a_lobby_does_not_make_a_bare_move_ambiguous(say) -> None:
    """A running game and a lobby: /try and /play mean the same game, the running one."""
    await say("alice", "/new webfeud @bob seed=1")
    await say("alice", "/new nmbr9 @carol")  # a lobby, waiting for /start
    tried = await say("alice", "/try 8H HEX")
    assert "would score" in tried[0].text, tried[0].text
    played = await say("alice", "/play 8H HEX")
    assert played[0].kind == "move_played", played[0].text
    assert played[0].event["game_id"] == 1
    # With no game running, the lobby is found and refused as not started.
    lonely = await say("dora", "/new rummikub @erin")
    assert lonely[0].kind == "game_created"
    refused = await say("dora", "/pass")
    assert refused[0].event["reason"] == "NOT_STARTED", refused[0].text


async def test_bots_never_make_an_nmbr9_round_wait(say) -> None:
    """NMBR 9 bots place the moment a round opens: "to move" names the people only."""
    await say("alice", "/new nmbr9 @bob bot=hard seed=4")
    replies = await say("alice", "/start")
    started = next(r for r in replies if r.kind == "game_started")
    assert started.text.splitlines()[0].endswith("alice and bob to place.")
    [games] = await say("alice", "/games")
    assert "bot-hard" not in games.text.split("—")[-1]


async def test_joining_a_game_that_filled_up_says_it_started(say) -> None:
    """/join after the last seat was taken: the game has started, not "no game to join"."""
    await say("alice", "/new webfeud @bob seed=1")  # two seats: full, started at once
    [late] = await say("carol", "/join")
    assert late.event["reason"] == "ALREADY_STARTED"
    assert late.text == "Game #1 has already started, so it takes nobody new; /new starts another."
    [empty] = await say("carol", "/join", chat="elsewhere")
    assert empty.text == "There is no game to join here; start one with /new."


async def test_a_group_games_command_typed_privately_points_to_the_group(service) -> None:
    """/rematch game=1 in the private chat: game #1 is the group's; go there (not "no game #1")."""
    group = ChatRef("telegram", "-100", "Feud club")
    private = ChatRef("telegram", "1001", private=True)
    await service.handle(group, BOB, "/games")
    await service.handle(group, ALICE, "/new webfeud @bob")
    await service.handle(group, BOB, "/resign")
    [refused] = await service.handle(private, ALICE, "/rematch game=1")
    assert refused.text == (
        "Game #1 is played in Feud club, not in this private chat: send /rematch game=1 there."
    )
    stranger = UserRef("telegram", "1003", "carol", handle="carol")  # not a player: no hint
    [other] = await service.handle(
        ChatRef("telegram", "1003", private=True), stranger, "/rematch game=1"
    )
    assert other.text == "There is no game #1 in this chat; /games lists its games."
    assert await service.db.games.list_games(statuses=("lobby", "active")) == []


async def test_names_that_look_alike_never_seat_more_than_the_game_takes(service) -> None:
    """Carol (no username) names @carol, who is someone else: with a bot, three seats in a game
    for two are refused, not made into a lobby that can never start.
    """
    carol = UserRef("telegram", "1013", "carol")  # first name "carol", no username
    other = UserRef("telegram", "1014", "Carol B", handle="carol")  # @carol
    await service.handle(GROUP, other, "/games")
    [refused] = await service.handle(GROUP, carol, "/new webfeud @carol bot=easy")
    assert refused.event["reason"] == "BAD_PLAYER_COUNT"
    assert refused.text.startswith(
        "Webfeud is played by 2 players, not 3: invite fewer, e.g. /new webfeud @bob."
    )
    assert await service.db.games.list_games() == []


SAM_HERE = UserRef("telegram", "2001", "Sam")  # no username: known by the name shown
SAM_THERE = UserRef("telegram", "2002", "Sam")
OTHER_GROUP = ChatRef("telegram", "-200")


async def test_a_typed_at_name_means_this_chats_person_before_another_chats(service, clock) -> None:
    """/stats @Sam and /new … @Sam mean the Sam who plays here, though another chat's Sam is
    seen later; in that other chat @Sam means theirs.
    """
    await service.handle(GROUP, SAM_HERE, "/new webfeud bot=easy")
    await service.handle(GROUP, SAM_HERE, "/resign")
    clock.advance(timedelta(minutes=5))
    for _ in range(2):
        await service.handle(OTHER_GROUP, SAM_THERE, "/new webfeud bot=easy")
        await service.handle(OTHER_GROUP, SAM_THERE, "/resign")
    [here] = await service.handle(GROUP, ALICE, "/stats @Sam")
    assert here.event["games"]["webfeud"]["games"] == 1, here.text
    [there] = await service.handle(OTHER_GROUP, ALICE, "/stats @sam")
    assert there.event["games"]["webfeud"]["games"] == 2, there.text
    created = await service.handle(GROUP, ALICE, "/new webfeud @Sam")
    assert created[0].kind == "game_created", created[0].text
    assert await seated(service, 4) == ["1001", "2001"]


async def test_two_people_here_sharing_a_name_are_asked_about_not_guessed(service, clock) -> None:
    """Two Sams who both play here: @Sam typed is answered with how to pick one, and changes
    nothing; picked from the platform's list (a mention tied to the person), it is that Sam.
    """
    for sam in (SAM_HERE, SAM_THERE):
        await service.handle(GROUP, sam, "/new webfeud bot=easy")
        await service.handle(GROUP, sam, "/resign")
        clock.advance(timedelta(minutes=5))
    games = await service.db.games.list_games()
    for line in ("/stats @Sam", "/new webfeud @Sam"):
        [asked] = await service.handle(GROUP, ALICE, line)
        assert asked.kind == "error", line
        assert asked.event["reason"] == "AMBIGUOUS_PLAYER"
        assert asked.text == (
            "2 people here go by Sam: type @ and pick the one you mean from the list of "
            "members, so I can tell them apart."
        )
    assert await service.db.games.list_games() == games
    [picked] = await service.handle(GROUP, ALICE, "/stats @Sam", mentioned={"Sam": "2001"})
    assert picked.event["player"] == "Sam"
    assert picked.event["games"]["webfeud"]["games"] == 1
    # Nobody here goes by the name but two elsewhere do: asked about too, never guessed.
    [elsewhere] = await service.handle(OTHER_GROUP, ALICE, "/stats @Sam")
    assert elsewhere.event["reason"] == "AMBIGUOUS_PLAYER"
    assert elsewhere.text.startswith("Nobody here goes by Sam, and 2 people elsewhere do:")
