-- A reply to a game's message names the game (`MessageRepository.game_of_message`): found by
-- the chat message's ids, not by going through every game of the platform's chats.
CREATE INDEX game_messages_by_message ON game_messages (chat_id, message_id);
