-- Leaderboards: every answer carries the start of the week and of the month it falls in (UTC ms
-- of local Monday 00:00 / 1st 00:00 in the chat's zone, computed when it is recorded), and a
-- trigger keeps one score row per chat, period and user up to date, so that a leaderboard reads
-- a few index pages instead of aggregating answers and the answer path stays one INSERT.
-- Mirrors storage/sqlite/migrations/0002_leaderboards.sql.

ALTER TABLE answers ADD COLUMN week_start BIGINT NOT NULL DEFAULT 0;
ALTER TABLE answers ADD COLUMN month_start BIGINT NOT NULL DEFAULT 0;

CREATE TABLE period_scores (
    chat_id       BIGINT  NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    period        TEXT    NOT NULL CHECK (period IN ('week', 'month', 'all')),
    -- 0 for 'all'.
    period_start  BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    correct       INTEGER NOT NULL,
    answered      INTEGER NOT NULL,
    -- When the user reached their correct count: their last correct answer; NULL if none.
    reached_at    BIGINT,
    -- Consecutive correct answers in answer order, kept on the 'all' row only.
    streak        INTEGER NOT NULL DEFAULT 0,
    best_streak   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, period, period_start, user_id)
);

-- Serves the top of a board in order of correct answers and, covering answered and reached_at,
-- counting who is ahead of a user without visiting the table.
CREATE INDEX period_scores_ranking
    ON period_scores (chat_id, period, period_start, correct DESC, answered, reached_at);

-- The SQLite trigger's body, statement for statement. SQLite's bare column names in DO UPDATE
-- are the existing row's: here they are `s.`, and its scalar max() is GREATEST (no argument
-- can be NULL where it is used, so NULL handling does not differ).
CREATE FUNCTION answers_score_periods() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO period_scores AS s (chat_id, period, period_start, user_id, correct, answered,
                                    reached_at)
    VALUES (NEW.chat_id, 'week', NEW.week_start, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END)
    ON CONFLICT (chat_id, period, period_start, user_id) DO UPDATE SET
        correct = s.correct + excluded.correct,
        answered = s.answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN GREATEST(coalesce(s.reached_at, 0), excluded.reached_at)
                          ELSE s.reached_at END;

    INSERT INTO period_scores AS s (chat_id, period, period_start, user_id, correct, answered,
                                    reached_at)
    VALUES (NEW.chat_id, 'month', NEW.month_start, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END)
    ON CONFLICT (chat_id, period, period_start, user_id) DO UPDATE SET
        correct = s.correct + excluded.correct,
        answered = s.answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN GREATEST(coalesce(s.reached_at, 0), excluded.reached_at)
                          ELSE s.reached_at END;

    INSERT INTO period_scores AS s (chat_id, period, period_start, user_id, correct, answered,
                                    reached_at, streak, best_streak)
    VALUES (NEW.chat_id, 'all', 0, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END, NEW.correct, NEW.correct)
    ON CONFLICT (chat_id, period, period_start, user_id) DO UPDATE SET
        correct = s.correct + excluded.correct,
        answered = s.answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN GREATEST(coalesce(s.reached_at, 0), excluded.reached_at)
                          ELSE s.reached_at END,
        -- Every expression here sees the row as it was before this update.
        streak = CASE WHEN excluded.correct = 1 THEN s.streak + 1 ELSE 0 END,
        best_streak = CASE WHEN excluded.correct = 1
                           THEN GREATEST(s.best_streak, s.streak + 1)
                           ELSE s.best_streak END;
    RETURN NULL;
END;
$$;

CREATE TRIGGER answers_score_periods AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION answers_score_periods();

-- Existing answers: databases before this migration kept no zones, so their periods are UTC
-- (ISO weeks start on Monday, as SQLite's '-6 days', 'weekday 1' does).
UPDATE answers SET
    week_start = 1000 * CAST(extract(epoch FROM date_trunc(
        'week', to_timestamp(answered_at / 1000) AT TIME ZONE 'UTC')) AS BIGINT),
    month_start = 1000 * CAST(extract(epoch FROM date_trunc(
        'month', to_timestamp(answered_at / 1000) AT TIME ZONE 'UTC')) AS BIGINT);

INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered, reached_at)
SELECT chat_id, 'week', week_start, user_id, sum(correct), count(*),
       max(CASE WHEN correct = 1 THEN answered_at END)
FROM answers GROUP BY chat_id, week_start, user_id;

INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered, reached_at)
SELECT chat_id, 'month', month_start, user_id, sum(correct), count(*),
       max(CASE WHEN correct = 1 THEN answered_at END)
FROM answers GROUP BY chat_id, month_start, user_id;

-- Streaks: each wrong answer starts a new run; a run's length is its number of correct answers,
-- the current streak is the last run's.
WITH ordered AS (
    SELECT chat_id, user_id, correct, answered_at,
           sum(1 - correct) OVER (PARTITION BY chat_id, user_id
                                  ORDER BY answered_at, id) AS run
    FROM answers
), runs AS (
    SELECT chat_id, user_id, run, sum(correct) AS length, count(*) AS answered,
           max(CASE WHEN correct = 1 THEN answered_at END) AS reached_at,
           max(run) OVER (PARTITION BY chat_id, user_id) AS last_run
    FROM ordered GROUP BY chat_id, user_id, run
)
INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered, reached_at,
                           streak, best_streak)
SELECT chat_id, 'all', 0, user_id, sum(length), sum(answered), max(reached_at),
       sum(CASE WHEN run = last_run THEN length ELSE 0 END), max(length)
FROM runs GROUP BY chat_id, user_id;
