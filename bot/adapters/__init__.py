"""Chat front ends: each turns platform input into service calls and `Reply` values into sends.

`console` (the terminal) and `common` (presentation shared by every adapter) import no chat
library; `discord_bot` and `telegram_bot` (later issues) import only their own.
"""
