-- Learner memory. `learning_log`: every first press a user makes on a question, in any chat and
-- mode (quiz, round, daily, review, exam), with how long it took: mastery per topic is read
-- from it and it is what an FSRS optimizer would be tuned on. `cards`: the FSRS state of a
-- question for a user, created by their first miss (a question never missed has no card).
-- Mirrors storage/sqlite/migrations/0007_memory.sql.

-- A review session is a private round over the learner's due cards.
ALTER TABLE rounds ADD COLUMN kind TEXT NOT NULL DEFAULT 'quiz' CHECK (kind IN ('quiz', 'review'));

-- Keyed by learner and time (a learner's history is one range). Two first presses of one
-- question by one learner in the same millisecond keep one row (ON CONFLICT DO NOTHING): the
-- answers themselves are all kept in `answers`.
CREATE TABLE learning_log (
    user_id      BIGINT  NOT NULL,
    deck_id      TEXT    NOT NULL,
    at           BIGINT  NOT NULL,
    question_id  TEXT    NOT NULL,
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    duration_ms  BIGINT  CHECK (duration_ms >= 0),
    source       TEXT    NOT NULL CHECK (source IN ('quiz', 'review', 'exam')),
    PRIMARY KEY (user_id, deck_id, at, question_id)
);

CREATE TABLE cards (
    user_id      BIGINT           NOT NULL,
    deck_id      TEXT             NOT NULL,
    question_id  TEXT             NOT NULL,
    due          BIGINT           NOT NULL,
    stability    DOUBLE PRECISION NOT NULL,
    difficulty   DOUBLE PRECISION NOT NULL,
    state        INTEGER          NOT NULL,
    last_review  BIGINT,
    reviews      INTEGER          NOT NULL DEFAULT 0,
    lapses       INTEGER          NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, deck_id, question_id)
);
-- A learner's next due card: an index seek, whatever the number of learners.
CREATE INDEX cards_due ON cards (user_id, deck_id, due);

-- Every answer is logged by the statement that stores it: no extra round trip on the answer
-- path. Its time runs from when the question was asked; a review round's answers are 'review'.
-- SQLite's INSERT OR IGNORE is ON CONFLICT DO NOTHING: the key is the only constraint the row
-- can break (every other column is NOT NULL at its source or checked there already).
CREATE FUNCTION answers_learning_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning_log
        (user_id, deck_id, question_id, correct, at, duration_ms, source)
    SELECT NEW.user_id, asks.deck_id, asks.question_id, NEW.correct, NEW.answered_at,
           GREATEST(0, NEW.answered_at - asks.asked_at),
           CASE WHEN rounds.kind = 'review' THEN 'review' ELSE 'quiz' END
    FROM asks LEFT JOIN rounds ON rounds.id = asks.round_id
    WHERE asks.id = NEW.ask_id
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE TRIGGER answers_learning_log AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION answers_learning_log();
