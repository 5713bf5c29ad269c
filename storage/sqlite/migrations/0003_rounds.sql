-- Rounds: `/quiz N` asks N questions in a row and ends with a summary.

CREATE TABLE rounds (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id    INTEGER,
    started_by   INTEGER NOT NULL,
    size         INTEGER NOT NULL CHECK (size BETWEEN 1 AND 20),
    started_at   INTEGER NOT NULL,
    ended_at     INTEGER,
    -- 'finished' after its last question, 'stopped' by /stop.
    end_reason   TEXT CHECK (end_reason IN ('finished', 'stopped'))
);

-- One running round per chat, enforced by the database rather than by the handlers.
CREATE UNIQUE INDEX rounds_one_running_per_chat ON rounds (chat_id) WHERE ended_at IS NULL;

ALTER TABLE asks ADD COLUMN round_id INTEGER REFERENCES rounds (id);
CREATE INDEX asks_by_round ON asks (round_id) WHERE round_id IS NOT NULL;
