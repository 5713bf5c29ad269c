-- One outbox for every owed message, and what replicas share.
--
-- 1. The outbox is rebuilt once more, for the last time: its kind becomes free text (each kind
--    is defined by the use case that owes it, so a new kind needs no migration), and it gains
--    `payload` (JSON, a kind's own fields), `bulk` (fan-out traffic: daily pushes) and
--    `dedupe_key` (at most one effect per key: one push per chat and day, one pointer per open
--    question). Every row is kept; daily pushes still pending in the ledger become owed pushes.
-- 2. `handled_updates`: the update ids acted on, kept for 24 hours, so that a redelivered
--    update changes nothing.
-- 3. `command_allowance`: each group member's commands in the running minute, counted where
--    every replica sees them.

CREATE TABLE effects_new (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id    INTEGER,
    kind         TEXT    NOT NULL,
    ask_id       INTEGER REFERENCES asks (id),
    round_id     INTEGER REFERENCES rounds (id),
    user_id      INTEGER,
    -- An explanation in a round: the `Next ▶` button's count of questions asked so far.
    next_asked   INTEGER,
    -- The message an edit targets or a reply answers.
    message_id   INTEGER,
    text         TEXT,
    status       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    -- UTC ms before which the effect is not tried (the time it was enqueued, or of a retry).
    not_before   INTEGER NOT NULL,
    last_error   TEXT,
    created_at   INTEGER NOT NULL,
    done_at      INTEGER,
    -- A report to post in the reports chat.
    report_id    INTEGER REFERENCES reports (id),
    -- A submitted exam.
    exam_id      INTEGER REFERENCES exams (id),
    -- The kind's own fields, as a JSON object (NULL: none).
    payload      TEXT,
    -- Fan-out traffic (daily pushes): interactive messages overtake it.
    bulk         INTEGER NOT NULL DEFAULT 0 CHECK (bulk IN (0, 1)),
    -- At most one effect ever has a given key.
    dedupe_key   TEXT
);

INSERT INTO effects_new (id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked,
                         message_id, text, status, attempts, not_before, last_error, created_at,
                         done_at, report_id, exam_id)
SELECT id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked, message_id, text,
       status, attempts, not_before, last_error, created_at, done_at, report_id, exam_id
FROM effects;

DROP TABLE effects;
ALTER TABLE effects_new RENAME TO effects;

-- A chat's queue, oldest first.
CREATE INDEX effects_pending_by_chat ON effects (chat_id, id) WHERE status = 'pending';
-- The chats with something due: interactive (bulk = 0) or fan-out (bulk = 1).
CREATE INDEX effects_pending_due ON effects (bulk, not_before, chat_id) WHERE status = 'pending';
-- A report's pending message, moved forward when its comment phase ends.
CREATE INDEX effects_pending_report ON effects (report_id) WHERE status = 'pending';
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
    update_id   INTEGER PRIMARY KEY,
    handled_at  INTEGER NOT NULL
);

CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);

CREATE TABLE command_allowance (
    chat_id       INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    -- UTC ms the member's running window began; `used`: their commands since.
    window_start  INTEGER NOT NULL,
    used          INTEGER NOT NULL CHECK (used >= 1),
    PRIMARY KEY (chat_id, user_id)
) WITHOUT ROWID;
