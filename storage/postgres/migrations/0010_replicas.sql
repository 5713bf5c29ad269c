-- Several processes on one database. Each replica says it is alive in `replicas` every
-- second; a chat's owed messages are sent by one replica at a time (`chat_claims`, with a
-- lease); daily pushes are claimed with a lease (SKIP LOCKED) by the replica sending them, so
-- a dead claimer's rows are retaken.
-- Mirrors storage/sqlite/migrations/0010_replicas.sql.

CREATE TABLE replicas (
    id          TEXT   PRIMARY KEY,
    started_at  BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL
);

CREATE TABLE chat_claims (
    chat_id  BIGINT PRIMARY KEY,
    owner    TEXT   NOT NULL,
    until    BIGINT NOT NULL
);

ALTER TABLE daily_pushes ADD COLUMN claimed_by TEXT;
ALTER TABLE daily_pushes ADD COLUMN claim_until BIGINT;
