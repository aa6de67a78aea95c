import asyncio
from datetime import timedelta

from storage import Deadline, NewDeadline


async def game_with(make, deadlines):
    chat = await make.chat()
    alice = await make.user("Alice")
    return await make.active(chat, [alice], deadlines=deadlines)


async def test_add_deadline_round_trips(db, make, t0):
    """A deadline comes back pending with its kind, due time, turn and payload."""
    game = await game_with(make, [])
    added = await db.deadlines.add_deadline(
        game.id, NewDeadline("reminder", t0, 3, {"seat": 1, "text": "your turn"})
    )
    assert added == Deadline(
        added.id, game.id, "reminder", t0, 3, "pending", {"seat": 1, "text": "your turn"}
    )
    assert await db.deadlines.get_deadline(added.id) == added
    assert await db.deadlines.get_deadline(999) is None


async def test_due_deadlines_earliest_first(db, make, t0):
    """Only pending deadlines due by `now` come back, earliest first, ties by insertion."""
    game = await game_with(make, [])
    add = db.deadlines.add_deadline
    late = await add(game.id, NewDeadline("timeout", t0 - timedelta(minutes=1), 0))
    early = await add(game.id, NewDeadline("reminder", t0 - timedelta(hours=1), 0))
    tie = await add(game.id, NewDeadline("timeout", t0 - timedelta(hours=1), 0))
    exactly_now = await add(game.id, NewDeadline("reminder", t0, 0))
    await add(game.id, NewDeadline("timeout", t0 + timedelta(seconds=1), 0))
    claimed = await add(game.id, NewDeadline("timeout", t0 - timedelta(days=1), 0))
    cancelled = await add(game.id, NewDeadline("timeout", t0 - timedelta(days=1), 0))
    assert await db.deadlines.claim_deadline(claimed.id)
    assert await db.deadlines.cancel_deadline(cancelled.id)
    due = await db.deadlines.due_deadlines(t0, 100)
    assert [d.id for d in due] == [early.id, tie.id, late.id, exactly_now.id]
    assert [d.id for d in await db.deadlines.due_deadlines(t0, 2)] == [early.id, tie.id]


async def test_due_at_is_rounded_up_never_early(db, make, t0):
    """A deadline with a fraction of a second is stored rounded up, so it never fires early."""
    game = await game_with(make, [])
    added = await db.deadlines.add_deadline(
        game.id, NewDeadline("timeout", t0 + timedelta(milliseconds=200), 0)
    )
    assert added.due_at == t0 + timedelta(seconds=1)
    assert await db.deadlines.due_deadlines(t0 + timedelta(milliseconds=900)) == []
    assert [d.id for d in await db.deadlines.due_deadlines(t0 + timedelta(seconds=1))] == [added.id]


async def test_next_due_at(db, make, t0):
    """The earliest pending due time is reported, and None once nothing is pending."""
    assert await db.deadlines.next_due_at() is None
    game = await game_with(
        make,
        [NewDeadline("timeout", t0 + timedelta(hours=2), 0), NewDeadline("reminder", t0, 0)],
    )
    assert await db.deadlines.next_due_at() == t0
    [first, second] = await db.deadlines.pending_deadlines(game.id)
    assert await db.deadlines.claim_deadline(first.id)
    assert await db.deadlines.next_due_at() == t0 + timedelta(hours=2)
    assert await db.deadlines.claim_deadline(second.id)
    assert await db.deadlines.next_due_at() is None


async def test_claim_deadline_twice_only_first_wins(db, make, t0):
    """Claiming flips pending to claimed once; a second claim (or a cancel) gets False.

    Finishing turns the claim into done, once.
    """
    game = await game_with(make, [NewDeadline("timeout", t0, 0)])
    [deadline] = await db.deadlines.pending_deadlines(game.id)
    assert await db.deadlines.claim_deadline(deadline.id, t0) is True
    assert await db.deadlines.claim_deadline(deadline.id, t0) is False
    assert await db.deadlines.cancel_deadline(deadline.id) is False
    assert (await db.deadlines.get_deadline(deadline.id)).state == "claimed"
    assert await db.deadlines.due_deadlines(t0) == []
    assert await db.deadlines.finish_deadline(deadline.id) is True
    assert await db.deadlines.finish_deadline(deadline.id) is False
    assert (await db.deadlines.get_deadline(deadline.id)).state == "done"


async def test_a_claim_goes_back_when_released_or_when_its_lease_ran_out(db, make, t0):
    """A claim cut short is released uncounted; one whose process died goes back after a lease.

    A finished deadline never goes back.
    """
    game = await game_with(make, [NewDeadline("timeout", t0, 0), NewDeadline("reminder", t0, 0)])
    first, second = await db.deadlines.pending_deadlines(game.id)
    heard = []
    db.add_deadline_listener(heard.append)
    assert await db.deadlines.claim_deadline(first.id, t0)
    assert await db.deadlines.release_deadline(first.id)
    again = await db.deadlines.get_deadline(first.id)
    assert (again.state, again.payload) == ("pending", {})  # no attempt counted
    assert heard == [t0]
    assert await db.deadlines.claim_deadline(first.id, t0)
    assert await db.deadlines.claim_deadline(second.id, t0 + timedelta(minutes=5))
    lease = timedelta(minutes=10)
    assert await db.deadlines.reclaim_stale(t0 + timedelta(minutes=9), lease) == 0
    assert await db.deadlines.reclaim_stale(t0 + timedelta(minutes=10), lease) == 1
    assert [d.id for d in await db.deadlines.due_deadlines(t0)] == [first.id]
    assert await db.deadlines.finish_deadline(second.id)
    assert await db.deadlines.reclaim_stale(t0 + timedelta(days=1), lease) == 0
    assert await db.deadlines.release_deadline(second.id) is False


async def test_due_deadlines_of_some_platforms_only(db, make, t0):
    """A process serving some platforms sees only the deadlines of games in their chats."""
    here = await game_with(make, [NewDeadline("timeout", t0, 0)])
    other_chat = await make.chat(platform="discord", chat_id="elsewhere")
    bob = await make.user("Bob")
    there = await make.active(other_chat, [bob], deadlines=[NewDeadline("timeout", t0, 0)])
    mine = await db.deadlines.due_deadlines(t0, platforms=["discord"])
    assert [d.game_id for d in mine] == [there.id]
    assert {d.game_id for d in await db.deadlines.due_deadlines(t0)} == {here.id, there.id}
    assert await db.deadlines.due_deadlines(t0, platforms=["nowhere"]) == []
    assert await db.deadlines.due_deadlines(t0, platforms=[]) == []
    assert await db.deadlines.next_due_at(platforms=[]) is None
    assert await db.deadlines.next_due_at(platforms=["discord"]) == t0
    assert await db.deadlines.next_due_at(platforms=["nowhere"]) is None


async def test_concurrent_claims_fire_exactly_once(db, make, t0):
    """Many dispatchers claiming the same deadline at once: exactly one gets True."""
    game = await game_with(make, [NewDeadline("timeout", t0, 0)])
    [deadline] = await db.deadlines.pending_deadlines(game.id)
    outcomes = await asyncio.gather(*(db.deadlines.claim_deadline(deadline.id) for _ in range(8)))
    assert outcomes.count(True) == 1


async def test_claim_unknown_deadline_is_false(db):
    """Claiming an id that does not exist reports False."""
    assert await db.deadlines.claim_deadline(12345) is False


async def test_pending_deadlines_per_game(db, make, t0):
    """A game's pending deadlines come back earliest first, other games' excluded."""
    chat = await make.chat()
    alice = await make.user("Alice")
    mine = await make.active(
        chat,
        [alice],
        deadlines=[NewDeadline("timeout", t0 + timedelta(1), 0), NewDeadline("reminder", t0, 0)],
    )
    await make.active(chat, [alice], deadlines=[NewDeadline("timeout", t0, 0)])
    assert [d.kind for d in await db.deadlines.pending_deadlines(mine.id)] == [
        "reminder",
        "timeout",
    ]


async def test_due_query_uses_the_state_due_index(db):
    """The dispatcher's query is an index range scan with no sort step."""
    async with db.read() as conn:
        plan = " | ".join(
            row["detail"]
            for row in await conn.execute_fetchall(
                "EXPLAIN QUERY PLAN SELECT id FROM deadlines"
                " WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?",
                (0, 100),
            )
        )
    assert "deadlines_state_due" in plan
    assert "TEMP B-TREE" not in plan


async def test_listener_hears_of_new_deadlines_after_commit(db, make, t0):
    """Listeners get the earliest new due time after a commit, never for a stale move."""
    heard = []
    db.add_deadline_listener(heard.append)
    game = await game_with(
        make,
        [NewDeadline("timeout", t0 + timedelta(hours=1), 0), NewDeadline("reminder", t0, 0)],
    )
    assert heard == [t0]
    stale = await db.games.commit_move(
        game.id, game.version + 5, 0, "x", {}, "{}", 1, "active", [NewDeadline("t", t0, 1)]
    )
    assert not stale
    assert heard == [t0]
    await db.deadlines.add_deadline(game.id, NewDeadline("reminder", t0 - timedelta(1), 0))
    assert heard == [t0, t0 - timedelta(1)]
    db.remove_deadline_listener(heard.append)
    await db.deadlines.add_deadline(game.id, NewDeadline("reminder", t0, 0))
    assert len(heard) == 2


async def test_failing_listener_does_not_undo_the_commit(db, make, t0):
    """A listener that raises is logged; the deadline stays written."""

    def broken(_due):
        raise RuntimeError("boom")

    db.add_deadline_listener(broken)
    game = await game_with(make, [NewDeadline("timeout", t0, 0)])
    assert len(await db.deadlines.pending_deadlines(game.id)) == 1


async def test_a_claim_taken_back_is_no_longer_its_firers(db, make, t0):
    """A claim put back after its lease and claimed again belongs to the new claim only.

    The first firer's finish (or retry, or release) changes nothing; stale claims of other
    platforms' games are left to their own process.
    """
    game = await game_with(make, [NewDeadline("timeout", t0, 0)])
    [deadline] = await db.deadlines.pending_deadlines(game.id)
    lease = timedelta(minutes=10)
    later = t0 + lease
    assert await db.deadlines.claim_deadline(deadline.id, t0)
    assert await db.deadlines.reclaim_stale(later, lease, platforms=["discord"]) == 0
    assert await db.deadlines.reclaim_stale(later, lease, platforms=["console"]) == 1
    assert await db.deadlines.claim_deadline(deadline.id, later)
    assert await db.deadlines.finish_deadline(deadline.id, t0) is False
    assert await db.deadlines.retry_deadline(deadline.id, later, t0) is False
    assert await db.deadlines.release_deadline(deadline.id, t0) is False
    assert await db.deadlines.finish_deadline(deadline.id, later) is True
    assert (await db.deadlines.get_deadline(deadline.id)).state == "done"


async def test_a_chat_the_bot_left_holds_its_deadlines_until_it_is_back(db, make, t0):
    """Away, a chat's deadlines are skipped; back, each keeps the time it had left.

    A deadline set while away (a move sent privately) counts from when it was set.
    """
    hour = timedelta(hours=1)
    chat = await make.chat()
    other = await make.chat(chat_id="elsewhere")
    alice = await make.user("Alice")
    game = await make.active(chat, [alice], deadlines=[])
    there = await make.active(other, [alice], deadlines=[])
    add = db.deadlines.add_deadline
    before = await add(game.id, NewDeadline("timeout", t0 + 2 * hour, 0), now=t0 - hour)
    elsewhere = await add(there.id, NewDeadline("timeout", t0 + hour, 0), now=t0)
    assert (await db.chats.set_away(chat.id, True, now=t0)).away_since == t0
    assert [c.id for c in await db.chats.away_chats(chat.platform)] == [chat.id]
    assert await db.chats.away_chats("discord") == []
    meanwhile = await add(
        game.id, NewDeadline("timeout", t0 + 90 * timedelta(minutes=1), 1), now=t0 + hour / 2
    )
    later = t0 + 10 * hour
    assert [d.id for d in await db.deadlines.due_deadlines(later)] == [elsewhere.id]
    assert [d.id for d in await db.deadlines.due_deadlines(later, platforms=["console"])] == [
        elsewhere.id
    ]
    assert await db.deadlines.cancel_deadline(elsewhere.id)
    assert await db.deadlines.next_due_at() is None
    assert (await db.chats.get_chat(chat.id)).away_since == t0
    back = await db.chats.set_away(chat.id, False, now=later)
    assert back is not None
    assert back.away_since is None
    assert await db.chats.away_chats(chat.platform) == []
    due = {d.id: d.due_at for d in await db.deadlines.pending_deadlines(game.id)}
    assert due == {before.id: later + 2 * hour, meanwhile.id: later + hour}
    assert await db.deadlines.next_due_at() == later + hour
    again = await db.chats.set_away(chat.id, False, now=later + hour)  # said twice: no change
    assert again == back
    assert {d.id: d.due_at for d in await db.deadlines.pending_deadlines(game.id)} == due
    assert await db.chats.set_away(999, True) is None


async def test_a_deadline_found_due_is_not_claimed_once_its_chat_is_held(db, make, t0):
    """The bot removed between the due query and the claim: no claim, the deadline waits.

    Back, it is claimed as any other (its due time put off by the time held).
    """
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.active(chat, [alice], deadlines=[])
    deadline = await db.deadlines.add_deadline(game.id, NewDeadline("timeout", t0, 0), now=t0)
    assert [d.id for d in await db.deadlines.due_deadlines(t0)] == [deadline.id]
    await db.chats.set_away(chat.id, True, now=t0)
    assert not await db.deadlines.claim_deadline(deadline.id, t0)
    assert (await db.deadlines.get_deadline(deadline.id)).state == "pending"
    await db.chats.set_away(chat.id, False, now=t0 + timedelta(hours=1))
    assert await db.deadlines.claim_deadline(deadline.id, t0 + timedelta(hours=1))


async def test_a_held_group_merged_into_its_supergroup_goes_on_from_the_merge(db, make, t0):
    """A held basic group joins the supergroup it became, a chat of its own already.

    Its games' deadlines go on from the merge, put off by the time held, not fired at once.
    """
    hour = timedelta(hours=1)
    old = await make.chat("telegram", "-4001")
    await make.chat("telegram", "-1004001")  # someone wrote there before the move was seen
    alice = await make.user("Alice")
    game = await make.active(old, [alice], deadlines=[])
    due = await db.deadlines.add_deadline(
        game.id, NewDeadline("timeout", t0 + 2 * hour, 0), now=t0 - hour
    )
    await db.chats.set_away(old.id, True, now=t0)
    merged = await db.chats.move_chat("telegram", "-4001", "-1004001", now=t0 + 72 * hour)
    assert merged is not None
    assert merged.away_since is None
    assert (await db.deadlines.get_deadline(due.id)).due_at == t0 + 74 * hour
    assert await db.deadlines.due_deadlines(t0 + 73 * hour) == []
