-- The chat a chat belongs to: a Discord thread's channel, NULL for any other chat. The thread
-- keeps its games (they are played and shown there), and its results count on the leaderboards
-- of its channel, as a Telegram forum topic's count on its group's.
ALTER TABLE chats ADD COLUMN parent_id INTEGER REFERENCES chats (id);
CREATE INDEX chats_by_parent ON chats (parent_id) WHERE parent_id IS NOT NULL;
