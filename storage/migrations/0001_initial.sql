-- 0001: the initial schema. Applied files are never edited; add 0002_*.sql instead.
--
-- Conventions: every time is INTEGER unix seconds, UTC (deadlines.due_at is rounded up so a
-- deadline never fires early); every JSON column is TEXT checked with json_valid(); booleans
-- are INTEGER 0/1. Games are never deleted (they end 'finished' or 'cancelled').

CREATE TABLE users (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    platform_user_id TEXT    NOT NULL,
    display_name     TEXT    NOT NULL,
    dm_allowed       INTEGER NOT NULL DEFAULT 0 CHECK (dm_allowed IN (0, 1)),
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    UNIQUE (platform, platform_user_id)
) STRICT;

CREATE INDEX users_platform_name ON users (platform, display_name COLLATE NOCASE);

CREATE TABLE chats (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    platform_chat_id TEXT    NOT NULL,
    title            TEXT,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    UNIQUE (platform, platform_chat_id)
) STRICT;

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    chat_id         INTEGER NOT NULL REFERENCES chats (id),
    game_key        TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    status          TEXT    NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    -- The game's own to_json() text; NULL only while the game is in the lobby.
    snapshot        TEXT    CHECK (snapshot IS NULL OR json_valid(snapshot)),
    -- Bumped by every change; writers pass the version they loaded (optimistic concurrency).
    version         INTEGER NOT NULL DEFAULT 0,
    turn            INTEGER NOT NULL DEFAULT 0,
    creator_user_id INTEGER REFERENCES users (id),
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    finished_at     INTEGER,
    CHECK (status = 'lobby' OR snapshot IS NOT NULL OR status = 'cancelled')
) STRICT;

CREATE INDEX games_chat_status ON games (chat_id, status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat_no   INTEGER NOT NULL CHECK (seat_no >= 0),
    user_id   INTEGER REFERENCES users (id),
    bot_level TEXT    CHECK (bot_level IN ('easy', 'medium', 'hard')),
    -- A seat is a person or a bot, never both and never neither.
    CHECK ((user_id IS NULL) <> (bot_level IS NULL)),
    PRIMARY KEY (game_id, seat_no),
    UNIQUE (game_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX seats_user ON seats (user_id, game_id);

-- The append-only move log: replaying it reproduces the snapshot.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat_no    INTEGER NOT NULL,
    notation   TEXT    NOT NULL,
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seat_no) REFERENCES seats (game_id, seat_no)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves is append-only: a move cannot be updated');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves is append-only: a move cannot be deleted');
END;

CREATE TABLE deadlines (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    due_at     INTEGER NOT NULL,
    -- The game turn the deadline belongs to: a handler acts only if the turn still matches.
    turn       INTEGER NOT NULL,
    state      TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'cancelled')),
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at INTEGER NOT NULL
) STRICT;

-- The dispatcher's query: pending rows by due time (rowid breaks ties, in index order).
CREATE INDEX deadlines_state_due ON deadlines (state, due_at);
CREATE INDEX deadlines_game_state ON deadlines (game_id, state);

-- One row per seat of a finished game; game_key, chat_id and finished_at are copied from the
-- game so that leaderboards aggregate one table.
CREATE TABLE results (
    game_id     INTEGER NOT NULL,
    seat_no     INTEGER NOT NULL,
    user_id     INTEGER REFERENCES users (id),
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    game_key    TEXT    NOT NULL,
    chat_id     INTEGER NOT NULL REFERENCES chats (id),
    -- Number of seats in the game (1 = a solo game, for personal records).
    players     INTEGER NOT NULL CHECK (players >= 1),
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat_no),
    FOREIGN KEY (game_id, seat_no) REFERENCES seats (game_id, seat_no)
) STRICT, WITHOUT ROWID;

CREATE INDEX results_user_game ON results (user_id, game_key);
CREATE INDEX results_chat_game ON results (chat_id, game_key);
CREATE INDEX results_game_finished ON results (game_key, finished_at);
