-- Mock exams (`/exam`, private chats): the exam with its deadline and the page it shows, and its
-- questions with the option order shown, the learner's current choice and flag. Exams never
-- write `answers` (they do not count on leaderboards); at submission each answer goes to the
-- learner's memory (`learning_log`, `cards`). And the outbox gets an 'exam_result' kind naming
-- its exam.

CREATE TABLE exams (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL,
    chat_id       INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    deck_id       TEXT    NOT NULL,
    size          INTEGER NOT NULL CHECK (size >= 1),
    -- The practice pass mark, in percent (the real one is not published).
    pass_percent  INTEGER NOT NULL CHECK (pass_percent BETWEEN 1 AND 100),
    started_at    INTEGER NOT NULL,
    -- UTC ms at which the exam is submitted if the learner has not finished it.
    deadline      INTEGER NOT NULL CHECK (deadline > started_at),
    -- The message that shows the exam now (a resume posts a new one); NULL until posted.
    message_id    INTEGER,
    -- The page shown: a question's seq, or `size` for the overview page.
    current       INTEGER NOT NULL DEFAULT 0 CHECK (current BETWEEN 0 AND size),
    submitted_at  INTEGER,
    submitted_by  TEXT    CHECK (submitted_by IN ('user', 'deadline')),
    CHECK ((submitted_at IS NULL) = (submitted_by IS NULL))
);

-- One open exam per learner, enforced by the database.
CREATE UNIQUE INDEX exams_one_open_per_user ON exams (user_id) WHERE submitted_at IS NULL;
-- The exams the ticker must submit, earliest deadline first.
CREATE INDEX exams_open_by_deadline ON exams (deadline) WHERE submitted_at IS NULL;

CREATE TABLE exam_questions (
    exam_id       INTEGER NOT NULL REFERENCES exams (id),
    -- The question's place in the exam, from 0.
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    question_id   TEXT    NOT NULL,
    -- The topic when drawn: the result's per-topic breakdown does not change with the deck.
    topic         TEXT    NOT NULL,
    -- Comma-separated option indexes in the order shown (option 0 is the right answer).
    option_order  TEXT    NOT NULL,
    question_hash TEXT,
    -- The position chosen last (an answer can be changed until the exam is submitted).
    chosen        INTEGER CHECK (chosen BETWEEN 0 AND 7),
    answered_at   INTEGER,
    flagged       INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    CHECK ((chosen IS NULL) = (answered_at IS NULL)),
    PRIMARY KEY (exam_id, seq)
) WITHOUT ROWID;

-- The outbox, rebuilt: SQLite cannot widen a CHECK constraint in place. Every row is kept.
CREATE TABLE effects_new (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id    INTEGER,
    kind         TEXT    NOT NULL CHECK (kind IN ('question', 'reveal', 'answered', 'explanation',
                                                  'summary', 'notice', 'unbutton', 'report',
                                                  'exam_result')),
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
    report_id    INTEGER REFERENCES reports (id),
    -- EXAM_RESULT: the submitted exam.
    exam_id      INTEGER REFERENCES exams (id)
);

INSERT INTO effects_new (id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked,
                         message_id, text, status, attempts, not_before, last_error, created_at,
                         done_at, report_id)
SELECT id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked, message_id, text,
       status, attempts, not_before, last_error, created_at, done_at, report_id
FROM effects;

DROP TABLE effects;
ALTER TABLE effects_new RENAME TO effects;

-- A chat's queue, oldest first.
CREATE INDEX effects_pending_by_chat ON effects (chat_id, id) WHERE status = 'pending';
-- The chats with something due.
CREATE INDEX effects_pending_due ON effects (not_before, chat_id) WHERE status = 'pending';
-- A report's pending message, moved forward when its comment phase ends.
CREATE INDEX effects_pending_report ON effects (report_id) WHERE status = 'pending';
