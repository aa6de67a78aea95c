"""/bag: the tiles a player has not seen, privately, for every game; what it refuses."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.ai import choose_move
from bot.core.game import GameState
from bot.games import GAMES, numfeud, numtiles, rummikub, wordgame
from bot.games.nmbr9 import Nmbr9State
from bot.replies import Reply, UserTarget
from bot.service import load_state


def on_the_table(state: GameState) -> Counter[str]:
    """Every tile all players can see, by the game's own codes (a laid blank counts as ?)."""
    if isinstance(state, wordgame.WordState):
        return Counter(
            wordgame.BLANK if ch.islower() else ch for ch in state.board if ch != wordgame.EMPTY
        )
    if isinstance(state, rummikub.RummikubState):
        return Counter(tile for meld in state.table for tile in meld)
    assert isinstance(state, numfeud.NumfeudState)
    return Counter(numfeud.physical(code) for code in state.board if code)


def the_whole_set(state: GameState) -> Counter[str]:
    if isinstance(state, wordgame.WordState):
        whole = Counter({code: count for code, (count, _) in state.variant.tiles.items()})
        if state.bonus in ("held", "played"):  # the starter's extra blank
            whole[wordgame.BLANK] += 1
        return whole
    if isinstance(state, rummikub.RummikubState):
        return Counter(rummikub.TILE_COUNTS)
    return Counter(numfeud.TILE_COUNTS)


def display_order(state: GameState, tiles: list[str]) -> tuple[str, ...]:
    """The order a rack is shown in: A–Z then blanks; by colour, then number, jokers last."""
    if isinstance(state, wordgame.WordState):
        return tuple(sorted(tiles, key=lambda tile: (tile == wordgame.BLANK, tile)))
    if isinstance(state, rummikub.RummikubState):
        return numtiles.sort_tiles(tiles)
    return numfeud.sort_tiles(tiles)


def unseen_of(replies: list[Reply], name: str) -> Reply:
    [reply] = replies
    assert reply.kind == "unseen", reply.text
    assert isinstance(reply.to, UserTarget)
    assert reply.to.name == name  # only ever to the player who asked
    return reply


@pytest.mark.parametrize(
    ("key", "start", "pile"),
    [
        ("webfeud", "", "bag"),
        ("smartfeud", "/start", "bag"),
        ("rummikub", "/start", "pool"),
        ("numfeud", "", "bag"),
    ],
)
async def test_bag_is_the_whole_set_less_the_table_and_your_rack(
    say, db, key: str, start: str, pile: str
) -> None:
    """After every move, each player's unseen tiles are the set less the table and their rack."""
    await say("alice", f"/new {key} @bob seed=11")
    if start:
        await say("alice", start)
    names = ("alice", "bob")
    for _ in range(6):
        row = await db.games.get_game(1)
        state = load_state(row)
        for seat, name in enumerate(names):
            reply = unseen_of(await say(name, "/bag"), name)
            rack = Counter(state.rack(seat))
            expected = the_whole_set(state) - on_the_table(state) - rack
            tiles = reply.event["tiles"]
            assert Counter(tiles) == expected
            # Never the drawing order: the list is sorted the way a rack is shown.
            assert tuple(tiles) == display_order(state, tiles)
            assert reply.event["pile"] == len(tiles) - sum(
                len(state.rack(s)) for s in range(2) if s != seat
            )
            assert reply.text.startswith(
                f"Game #1 ({GAMES[key].title}): the {len(tiles)} tiles you have not seen — "
                f"{reply.event['pile']} in the {pile}, {len(tiles) - reply.event['pile']} on "
                f"{names[1 - seat]}'s rack: "
            )
        seat = state.waiting_for()[0]
        move = choose_move(state, seat, "easy", 5)
        await say(names[seat], f"/play {move}")
        if key == "rummikub" and "done" not in str(move) and str(move) != "draw":
            await say(names[seat], "/done")
        assert load_state(await db.games.get_game(1)).turn == state.turn + 1


async def test_bag_in_nmbr9_lists_the_cards_to_come_in_no_order(say, db) -> None:
    """NMBR 9: the cards still to come, smallest first; none once the game is over."""
    await say("alice", "/new nmbr9 seed=4")
    await say("alice", "/start")
    state = load_state(await db.games.get_game(1))
    assert isinstance(state, Nmbr9State)
    reply = unseen_of(await say("alice", "/bag"), "alice")
    rest = sorted(state.deck[1:])
    assert reply.event["tiles"] == [str(n) for n in rest]
    assert reply.text.startswith(
        "Game #1 (NMBR 9): the 19 cards still to come, in an order nobody knows: "
    )
    assert "×2" in reply.text


async def test_bag_is_refused_to_onlookers_and_after_the_end(say, table_rows) -> None:
    """Someone not seated, a game of another chat or a finished game: a clear refusal."""
    await say("alice", "/new webfeud @bob seed=3")
    before = table_rows()
    for who, line, shown in (
        (
            "carol",
            "/bag game=1",
            "You are not playing in game #1; /board game=1 shows it, /new starts your own.",
        ),
        ("carol", "/bag", "You are not playing here: the games going on (#1) are others'"),
        ("alice", "/bag game=1 ", None),
        ("bob", "/bag game=1", None),
    ):
        [reply] = await say(who, line, chat="room")
        if shown is None:
            assert reply.kind == "unseen"
        else:
            assert (reply.kind, reply.text[: len(shown)]) == ("error", shown)
    [elsewhere] = await say("alice", "/bag game=1", chat="other")
    assert elsewhere.text == "There is no game #1 in this chat; /games lists its games."
    assert table_rows() == before
    await say("alice", "/resign")
    [over] = await say("alice", "/bag game=1")
    assert (over.kind, over.text) == ("error", "Game #1 is over; start one with /new.")


async def test_a_rummikub_draft_is_seen_not_unseen(say, db) -> None:
    """Tiles alice drafts onto the table are public: bob's /bag no longer counts them hers."""
    await say("alice", "/new rummikub @bob seed=11")
    await say("alice", "/start")
    state = load_state(await db.games.get_game(1))
    tile = state.rack(0)[0]
    drafted = await say("alice", f"/play {tile}")
    assert [r.kind for r in drafted if r.kind == "draft"] == ["draft"]
    before = Counter(unseen_of(await say("bob", "/bag"), "bob").event["tiles"])
    expected = Counter(rummikub.TILE_COUNTS) - Counter(state.rack(1)) - Counter([tile])
    assert before == expected
