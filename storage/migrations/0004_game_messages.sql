-- The chat message that shows a game and carries its buttons (a Telegram board, a Discord
-- game message or Rummikub draft), so that after a restart the bot still edits it in place and
-- takes the buttons off it when a newer one takes over, as it does while running. One row per
-- game and slot (the adapter's name for the message's role); `data` holds what the adapter
-- needs besides the ids (a photo or not, buttons shown, the turn it belongs to).
CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    slot       TEXT    NOT NULL CHECK (slot <> ''),
    chat_id    TEXT    NOT NULL,
    message_id TEXT    NOT NULL,
    data       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    PRIMARY KEY (game_id, slot)
) STRICT;
