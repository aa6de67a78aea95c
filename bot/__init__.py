"""feudbot: turn-based tile games for group chats (Discord, Telegram and the console)."""
