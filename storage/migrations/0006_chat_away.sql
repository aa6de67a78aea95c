-- When the bot was removed from a chat (a Telegram group that kicked it), NULL while it is there.
-- Deadlines of that chat's games are held meanwhile (the due queries skip them) and shifted by
-- the time away when the bot is added back, so nobody times out unseen.
ALTER TABLE chats ADD COLUMN away_since INTEGER;
