-- Chats, users, asks (one question sent to one chat) and answers (one per user per ask).
-- All times are INTEGER milliseconds since the Unix epoch, UTC.

CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('private', 'group', 'supergroup', 'channel')),
    title       TEXT,
    timezone    TEXT,
    deck_id     TEXT,
    active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at  INTEGER NOT NULL
);

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    first_name  TEXT    NOT NULL,
    last_name   TEXT,
    username    TEXT,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE asks (
    id            INTEGER PRIMARY KEY,
    chat_id       INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    thread_id     INTEGER,
    message_id    INTEGER,
    deck_id       TEXT    NOT NULL,
    question_id   TEXT    NOT NULL,
    pass_no       INTEGER NOT NULL CHECK (pass_no >= 1),
    -- Comma-separated option indexes in display order; option 0 is the right answer.
    option_order  TEXT    NOT NULL,
    asked_at      INTEGER NOT NULL,
    closes_at     INTEGER,
    closed_at     INTEGER
);

CREATE INDEX asks_by_chat_pass ON asks (chat_id, deck_id, pass_no);
CREATE INDEX asks_by_message ON asks (chat_id, message_id);
CREATE INDEX asks_open_by_deadline ON asks (closes_at) WHERE closed_at IS NULL;

CREATE TABLE answers (
    id           INTEGER PRIMARY KEY,
    ask_id       INTEGER NOT NULL REFERENCES asks (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id),
    -- Copied from the ask so that per-chat scores need no join.
    chat_id      INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    answered_at  INTEGER NOT NULL,
    UNIQUE (ask_id, user_id)
);

CREATE INDEX answers_by_chat_time ON answers (chat_id, answered_at, user_id, correct);
CREATE INDEX answers_by_chat_user ON answers (chat_id, user_id, answered_at, correct);
