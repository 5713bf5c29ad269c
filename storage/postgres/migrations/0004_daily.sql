-- Daily questions: one schedule per chat and a delivery ledger with one row per chat and local
-- day. A ledger row is written before its question is sent and marked with the message id once
-- it is, so a restart (even after kill -9) knows exactly what is still owed.
-- Mirrors storage/sqlite/migrations/0004_daily.sql.

CREATE TABLE daily_schedules (
    chat_id       BIGINT  PRIMARY KEY REFERENCES chats (id) ON UPDATE CASCADE,
    -- Local wall-clock time 'HH:MM'; the zone is the chat's (chats.timezone).
    local_time    TEXT    NOT NULL,
    enabled       INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    -- The next slot, UTC ms, and the local day it belongs to ('YYYY-MM-DD').
    next_slot_at  BIGINT  NOT NULL,
    next_day      TEXT    NOT NULL,
    updated_at    BIGINT  NOT NULL
);

CREATE INDEX daily_schedules_due ON daily_schedules (next_slot_at) WHERE enabled = 1;

CREATE TABLE daily_pushes (
    chat_id     BIGINT  NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    local_day   TEXT    NOT NULL,
    slot_at     BIGINT  NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    ask_id      BIGINT  REFERENCES asks (id),
    message_id  BIGINT,
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_at  BIGINT  NOT NULL,
    done_at     BIGINT,
    PRIMARY KEY (chat_id, local_day)
);

CREATE INDEX daily_pushes_pending ON daily_pushes (slot_at) WHERE status = 'pending';
