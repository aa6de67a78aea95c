-- A deadline being fired is 'claimed' (with the moment, `claimed_at`) until its handler has
-- run, and only then 'done'. A claim whose process stopped or died in between is put back in
-- the queue after a lease (`DeadlineRepository.reclaim_stale`), so every deadline fires at
-- least once; handlers are idempotent (they compare the game's turn). SQLite cannot change a
-- CHECK constraint in place: the table is rebuilt with its rows, ids and indexes.
CREATE TABLE deadlines_new (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    due_at     INTEGER NOT NULL,
    -- The game turn the deadline belongs to: a handler acts only if the turn still matches.
    turn       INTEGER NOT NULL,
    state      TEXT    NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'claimed', 'done', 'cancelled')),
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at INTEGER NOT NULL,
    claimed_at INTEGER CHECK (state <> 'claimed' OR claimed_at IS NOT NULL)
) STRICT;

INSERT INTO deadlines_new (id, game_id, kind, due_at, turn, state, payload, created_at)
    SELECT id, game_id, kind, due_at, turn, state, payload, created_at FROM deadlines;

DROP TABLE deadlines;

ALTER TABLE deadlines_new RENAME TO deadlines;

-- The dispatcher's query: pending rows by due time (rowid breaks ties, in index order); the
-- same index finds the claims whose lease ran out.
CREATE INDEX deadlines_state_due ON deadlines (state, due_at);
CREATE INDEX deadlines_game_state ON deadlines (game_id, state);
