-- Item calibration: each question's item response parameters per deck, fitted from the
-- learners' first answers (bot/core/calibration/). A fit replaces its deck's rows; `fitted_at`
-- is when it was made. `guessing` 0: no guessing floor (the data did not support one);
-- `prior_only` 1: too few answers to fit, the parameters are the priors'. Not per learner:
-- /forgetme leaves these rows, which hold no one's answers.
CREATE TABLE item_parameters (
    deck_id         TEXT    NOT NULL,
    question_id     TEXT    NOT NULL,
    difficulty      REAL    NOT NULL,
    discrimination  REAL    NOT NULL CHECK (discrimination > 0),
    guessing        REAL    NOT NULL CHECK (guessing >= 0 AND guessing < 1),
    answers         INTEGER NOT NULL CHECK (answers >= 0),
    prior_only      INTEGER NOT NULL CHECK (prior_only IN (0, 1)),
    fitted_at       INTEGER NOT NULL,
    PRIMARY KEY (deck_id, question_id)
) WITHOUT ROWID;
