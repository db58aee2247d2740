-- An attempt whose call to payments got no answer (cut, or payments unavailable): its charge may exist, so it keeps
-- its place, but only until that charge's outcome arrives by its event (or the sweep). Attempts still waiting for
-- their answer (in flight) are the ones a buyer who finds the session full waits for.
ALTER TABLE session_attempts ADD COLUMN answer_lost BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX session_attempts_holding_by_session ON session_attempts (client_id, session_id, created_at) WHERE holds_place;
