-- One outbox for every owed message, and what replicas share (see the SQLite migration of the
-- same number, which rebuilds the table; here it is changed in place).

ALTER TABLE effects
    DROP CONSTRAINT effects_kind_check,
    -- The kind's own fields, as a JSON object (NULL: none).
    ADD COLUMN payload TEXT,
    -- Fan-out traffic (daily pushes): interactive messages overtake it.
    ADD COLUMN bulk INTEGER NOT NULL DEFAULT 0 CHECK (bulk IN (0, 1)),
    -- At most one effect ever has a given key.
    ADD COLUMN dedupe_key TEXT;

DROP INDEX effects_pending_due;
CREATE INDEX effects_pending_due ON effects (bulk, not_before, chat_id) WHERE status = 'pending';
CREATE UNIQUE INDEX effects_dedupe ON effects (dedupe_key);
-- What ended, for forgetting it after a week.
CREATE INDEX effects_settled ON effects (done_at) WHERE status <> 'pending';

INSERT INTO effects (chat_id, kind, status, not_before, created_at, payload, bulk, dedupe_key)
SELECT chat_id, 'daily', 'pending', created_at, created_at,
       '{"day": "' || local_day || '"}', 1, 'daily:' || chat_id || ':' || local_day
FROM daily_pushes
WHERE status = 'pending'
ORDER BY slot_at, chat_id;

CREATE TABLE handled_updates (
    update_id   BIGINT PRIMARY KEY,
    handled_at  BIGINT NOT NULL
);

CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);

CREATE TABLE command_allowance (
    chat_id       BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    window_start  BIGINT  NOT NULL,
    used          INTEGER NOT NULL CHECK (used >= 1),
    PRIMARY KEY (chat_id, user_id)
);
