-- The topic of a forum chat (a Telegram supergroup with topics) where a game was created, NULL
-- for a chat without topics: every group message about the game goes to that topic. The game
-- is still one of the chat (leaderboards stay per chat).
ALTER TABLE games ADD COLUMN thread_id INTEGER;
