-- The card vault's key ring: every sealed value names the master key that wraps its data key (src/vault/crypto.ts).
-- The id is read out of the value itself, so it can never disagree with it: format 2 carries it after the version
-- byte (length, then ASCII); format 1, from before key ids, is the key k0. Anything else is not a vault value (NULL).
-- Nested CASEs, so no byte is read past the end of a short value.
CREATE FUNCTION vault_key_id(sealed BYTEA) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN length(sealed) < 2 THEN NULL
    WHEN get_byte(sealed, 0) = 1 THEN 'k0'
    WHEN get_byte(sealed, 0) <> 2 THEN NULL
    ELSE CASE
      WHEN get_byte(sealed, 1) = 0 OR length(sealed) < 2 + get_byte(sealed, 1) THEN NULL
      ELSE encode(substring(sealed FROM 3 FOR get_byte(sealed, 1)), 'escape')
    END
  END
$$;

-- One stored, indexed key id beside each sealed column: how many values a key still wraps is one index lookup,
-- and the re-wrap job finds the values on older keys without reading the others. Adding the columns rewrites the
-- tables once, filling the ids of the rows already there.
ALTER TABLE cards ADD COLUMN pan_key_id TEXT GENERATED ALWAYS AS (vault_key_id(pan_encrypted)) STORED;
ALTER TABLE card_tokens ADD COLUMN pan_key_id TEXT GENERATED ALWAYS AS (vault_key_id(pan_encrypted)) STORED;
ALTER TABLE card_tokens ADD COLUMN cvv_key_id TEXT GENERATED ALWAYS AS (vault_key_id(cvv_encrypted)) STORED;
ALTER TABLE providers ADD COLUMN credentials_key_id TEXT GENERATED ALWAYS AS (vault_key_id(credentials_encrypted)) STORED;

CREATE INDEX cards_pan_key ON cards (pan_key_id);
CREATE INDEX card_tokens_pan_key ON card_tokens (pan_key_id);
CREATE INDEX card_tokens_cvv_key ON card_tokens (cvv_key_id);
CREATE INDEX providers_credentials_key ON providers (credentials_key_id);

-- Values still in format 1 (sealed again in format 2 by the re-wrap job): these indexes empty out after it.
CREATE INDEX cards_pan_format1 ON cards (id) WHERE substr(pan_encrypted, 1, 1) = '\x01'::bytea;
CREATE INDEX card_tokens_pan_format1 ON card_tokens (id) WHERE substr(pan_encrypted, 1, 1) = '\x01'::bytea;
CREATE INDEX card_tokens_cvv_format1 ON card_tokens (id) WHERE substr(cvv_encrypted, 1, 1) = '\x01'::bytea;
CREATE INDEX providers_credentials_format1 ON providers (id) WHERE substr(credentials_encrypted, 1, 1) = '\x01'::bytea;
