-- What someone was told once in a game and must not be told again, restart or not: a tip about
-- sending moves privately, how to see one's tiles, a nudge for a turn, a move refused as late.
-- `who` and `what` are the teller's own words ("user 3", "nudge 12"); one row each.
CREATE TABLE game_notices (
    game_id INTEGER NOT NULL REFERENCES games (id),
    who     TEXT    NOT NULL CHECK (who <> ''),
    what    TEXT    NOT NULL CHECK (what <> ''),
    PRIMARY KEY (game_id, who, what)
) STRICT, WITHOUT ROWID;
