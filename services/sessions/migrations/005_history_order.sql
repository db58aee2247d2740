-- A session's history is newest first by the time of each item, then by the order the items were written (seq):
-- two writers of one session may read the clock before one of them takes the session's lock, so the order of
-- writing alone is not the order of time, and items of the same instant need an order that never changes.
DROP INDEX session_history_by_session;
CREATE INDEX session_history_by_session ON session_history (client_id, session_id, created_at DESC, seq DESC);
