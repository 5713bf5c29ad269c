-- Learner reports: a learner flags a question they were shown (wrong key, unclear, a typo…),
-- optionally with a comment; the reports chat's admins mark each one fixed or dismissed.
-- Also: each ask keeps the content hash of the question version it showed, and the outbox gets
-- a 'report' kind (the report's message to the reports chat) that names its report.

CREATE TABLE reports (
    id                 INTEGER PRIMARY KEY,
    user_id            INTEGER NOT NULL,
    -- The ask the learner saw the question in (its chat, option order and answers).
    ask_id             INTEGER NOT NULL REFERENCES asks (id),
    deck_id            TEXT    NOT NULL,
    question_id        TEXT    NOT NULL,
    -- content/models.py Question.content_hash of the version shown (the ask's, else current).
    question_hash      TEXT    NOT NULL,
    -- Comma-separated option indexes in the order shown (option 0 is the right answer).
    option_order       TEXT    NOT NULL,
    -- The position the learner chose in that ask; NULL when they had not answered it.
    chosen             INTEGER CHECK (chosen >= 0),
    reason             TEXT    NOT NULL CHECK (reason IN ('wrong_key', 'several_right', 'unclear',
                                                          'typo', 'outdated', 'explanation',
                                                          'other')),
    comment            TEXT,
    -- UTC ms until which the learner's next plain text is taken as the comment; NULL once the
    -- comment phase has ended (comment sent, skipped, or a later report started).
    comment_until      INTEGER,
    -- The private message that asked for the comment (its button is removed once answered).
    prompt_message_id  INTEGER,
    status             TEXT    NOT NULL DEFAULT 'open'
                               CHECK (status IN ('open', 'fixed', 'dismissed')),
    created_at         INTEGER NOT NULL,
    resolved_at        INTEGER,
    resolved_by        INTEGER,
    CHECK ((status = 'open') = (resolved_at IS NULL))
);

-- One open report per learner and question, enforced by the database.
CREATE UNIQUE INDEX reports_one_open_per_user_question
    ON reports (user_id, deck_id, question_id) WHERE status = 'open';
-- At most one report per learner waits for a comment.
CREATE UNIQUE INDEX reports_one_awaiting_comment_per_user
    ON reports (user_id) WHERE comment_until IS NOT NULL;
-- A learner's reports of the day (the daily limit).
CREATE INDEX reports_by_user_time ON reports (user_id, created_at);
-- Open reports per question (the item report) and listings by deck.
CREATE INDEX reports_by_question ON reports (deck_id, question_id, status);

ALTER TABLE asks ADD COLUMN question_hash TEXT;

-- The outbox, rebuilt: SQLite cannot widen a CHECK constraint in place. Every row is kept.
CREATE TABLE effects_new (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id    INTEGER,
    kind         TEXT    NOT NULL CHECK (kind IN ('question', 'reveal', 'answered', 'explanation',
                                                  'summary', 'notice', 'unbutton', 'report')),
    ask_id       INTEGER REFERENCES asks (id),
    round_id     INTEGER REFERENCES rounds (id),
    user_id      INTEGER,
    -- EXPLANATION in a round: the `Next ▶` button's count of questions asked so far.
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
    -- REPORT: the report to post in the reports chat.
    report_id    INTEGER REFERENCES reports (id)
);

INSERT INTO effects_new (id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked,
                         message_id, text, status, attempts, not_before, last_error, created_at,
                         done_at)
SELECT id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked, message_id, text,
       status, attempts, not_before, last_error, created_at, done_at
FROM effects;

DROP TABLE effects;
ALTER TABLE effects_new RENAME TO effects;

-- A chat's queue, oldest first.
CREATE INDEX effects_pending_by_chat ON effects (chat_id, id) WHERE status = 'pending';
-- The chats with something due.
CREATE INDEX effects_pending_due ON effects (not_before, chat_id) WHERE status = 'pending';
-- A report's pending message, moved forward when its comment phase ends.
CREATE INDEX effects_pending_report ON effects (report_id) WHERE status = 'pending';
