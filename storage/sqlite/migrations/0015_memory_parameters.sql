-- Each learner's own FSRS parameters per deck (bot/core/memory/fit/), fitted by the leader in
-- the background once they have pressed enough of the deck's questions. One row per learner and
-- deck: their last fit. `parameters` is a JSON array of the FSRS weights, NULL when the
-- defaults predicted the learner's held-out presses as well or better (the row still says when
-- and on how many presses that was judged, so the fit is not tried again before more come).
-- /forgetme deletes a learner's rows.
CREATE TABLE memory_parameters (
    user_id       INTEGER NOT NULL,
    deck_id       TEXT NOT NULL,
    parameters    TEXT,
    reviews       INTEGER NOT NULL CHECK (reviews >= 0),
    default_loss  REAL NOT NULL,
    fitted_loss   REAL NOT NULL,
    fitted_at     INTEGER NOT NULL,
    PRIMARY KEY (user_id, deck_id)
) WITHOUT ROWID;
