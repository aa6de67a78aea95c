-- Why the bot is out of a chat (`away_since` set): 1 when it is still a member but may not write
-- there (a Telegram group that muted it), 0 when it was removed. A message from a muted chat
-- does not bring the bot back (it still gets them); only being allowed to write again does.
ALTER TABLE chats ADD COLUMN away_muted INTEGER NOT NULL DEFAULT 0;
