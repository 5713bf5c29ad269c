-- Leaderboards: every answer carries the start of the week and of the month it falls in (UTC ms
-- of local Monday 00:00 / 1st 00:00 in the chat's zone, computed when it is recorded), and a
-- trigger keeps one score row per chat, period and user up to date, so that a leaderboard reads
-- a few index pages instead of aggregating answers and the answer path stays one INSERT.

ALTER TABLE answers ADD COLUMN week_start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE answers ADD COLUMN month_start INTEGER NOT NULL DEFAULT 0;

CREATE TABLE period_scores (
    chat_id       INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    period        TEXT    NOT NULL CHECK (period IN ('week', 'month', 'all')),
    -- 0 for 'all'.
    period_start  INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    correct       INTEGER NOT NULL,
    answered      INTEGER NOT NULL,
    -- When the user reached their correct count: their last correct answer; NULL if none.
    reached_at    INTEGER,
    -- Consecutive correct answers in answer order, kept on the 'all' row only.
    streak        INTEGER NOT NULL DEFAULT 0,
    best_streak   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, period, period_start, user_id)
) WITHOUT ROWID;

-- Serves the top of a board in order of correct answers and, covering answered and reached_at,
-- counting who is ahead of a user without visiting the table.
CREATE INDEX period_scores_ranking
    ON period_scores (chat_id, period, period_start, correct DESC, answered, reached_at);

CREATE TRIGGER answers_score_periods AFTER INSERT ON answers
BEGIN
    INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered,
                               reached_at)
    VALUES (NEW.chat_id, 'week', NEW.week_start, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END)
    ON CONFLICT DO UPDATE SET
        correct = correct + excluded.correct,
        answered = answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN max(coalesce(reached_at, 0), excluded.reached_at)
                          ELSE reached_at END;

    INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered,
                               reached_at)
    VALUES (NEW.chat_id, 'month', NEW.month_start, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END)
    ON CONFLICT DO UPDATE SET
        correct = correct + excluded.correct,
        answered = answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN max(coalesce(reached_at, 0), excluded.reached_at)
                          ELSE reached_at END;

    INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, answered,
                               reached_at, streak, best_streak)
    VALUES (NEW.chat_id, 'all', 0, NEW.user_id, NEW.correct, 1,
            CASE WHEN NEW.correct = 1 THEN NEW.answered_at END, NEW.correct, NEW.correct)
    ON CONFLICT DO UPDATE SET
        correct = correct + excluded.correct,
        answered = answered + 1,
        reached_at = CASE WHEN excluded.correct = 1
                          THEN max(coalesce(reached_at, 0), excluded.reached_at)
                          ELSE reached_at END,
        -- Every expression here sees the row as it was before this update.
        streak = CASE WHEN excluded.correct = 1 THEN streak + 1 ELSE 0 END,
        best_streak = CASE WHEN excluded.correct = 1
                           THEN max(best_streak, streak + 1)
                           ELSE best_streak END;
END;

-- Existing answers: databases before this migration kept no zones, so their periods are UTC.
UPDATE answers SET
    week_start = 1000 * CAST(strftime('%s', answered_at / 1000, 'unixepoch',
                                      '-6 days', 'weekday 1', 'start of day') AS INTEGER),
    month_start = 1000 * CAST(strftime('%s', answered_at / 1000, 'unixepoch',
                                       'start of month') AS INTEGER);

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
