-- The outbox: every message the bot owes a chat is written in the same transaction as the state
-- change that owes it, and a worker sends it after the commit, so a crash loses none. And the
-- origin of each ask, so that `/quiz` finds its own open question among a round's and a daily's.

CREATE TABLE effects (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id    INTEGER,
    kind         TEXT    NOT NULL CHECK (kind IN ('question', 'reveal', 'answered', 'explanation',
                                                  'summary', 'notice', 'unbutton')),
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
    done_at      INTEGER
);

-- A chat's queue, oldest first.
CREATE INDEX effects_pending_by_chat ON effects (chat_id, id) WHERE status = 'pending';
-- The chats with something due.
CREATE INDEX effects_pending_due ON effects (not_before, chat_id) WHERE status = 'pending';

ALTER TABLE asks ADD COLUMN origin TEXT NOT NULL DEFAULT 'quiz'
    CHECK (origin IN ('quiz', 'round', 'daily'));

UPDATE asks SET origin = 'round' WHERE round_id IS NOT NULL;
UPDATE asks SET origin = 'daily'
WHERE id IN (SELECT ask_id FROM daily_pushes WHERE ask_id IS NOT NULL);

-- The open `/quiz` question of a chat's thread, newest first.
CREATE INDEX asks_open_quiz ON asks (chat_id, thread_id, id)
    WHERE closed_at IS NULL AND origin = 'quiz';
