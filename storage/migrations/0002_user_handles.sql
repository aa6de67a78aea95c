-- A user's handle: the name that is theirs alone on the platform, by which others name them
-- (a Telegram @username, in lower case). NULL where the platform names people otherwise
-- (Discord passes member ids) or the person has none. "@name" finds the person whose handle it
-- is before anyone who merely shows that name.
ALTER TABLE users ADD COLUMN handle TEXT;

CREATE INDEX users_platform_handle ON users (platform, handle);
