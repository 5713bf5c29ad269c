-- Several processes on one database (PostgreSQL replicas; SQLite keeps one process, but the
-- schemas stay the same). Each replica says it is alive in `replicas` every second; a chat's
-- owed messages are sent by one replica at a time (`chat_claims`, with a lease); daily pushes
-- are claimed with a lease by the replica sending them, so a dead claimer's rows are retaken.

CREATE TABLE replicas (
    id          TEXT    NOT NULL PRIMARY KEY,
    started_at  INTEGER NOT NULL,
    seen_at     INTEGER NOT NULL
);

CREATE TABLE chat_claims (
    chat_id  INTEGER PRIMARY KEY,
    owner    TEXT    NOT NULL,
    until    INTEGER NOT NULL
);

ALTER TABLE daily_pushes ADD COLUMN claimed_by TEXT;
ALTER TABLE daily_pushes ADD COLUMN claim_until INTEGER;
