-- A session's public key tokenizes a card for that session's payment (POST /v1/tokens names no session): the
-- session is found by the SHA-256 of its key, within its client.
CREATE INDEX sessions_public_key_hash ON sessions (client_id, public_key_hash);
