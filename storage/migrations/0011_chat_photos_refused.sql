-- Since when a chat has refused the bot's pictures (a Telegram group that forbids photos), NULL
-- while it takes them: its boards go as text at once, a restart or not, until a picture is
-- tried again and taken (a day later, or when the bot's rights there change).
ALTER TABLE chats ADD COLUMN photos_refused_at INTEGER;
