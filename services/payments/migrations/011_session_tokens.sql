-- The session whose public key made a token (null: made with a client key). Such a token pays that session only,
-- and a session is paid only with a token made for it.
ALTER TABLE card_tokens ADD COLUMN session_id UUID;
