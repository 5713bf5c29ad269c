-- "Choose N" questions: how many options an ask takes (the right ones are the option indexes
-- below that number), the options a member submitted (a bitmask of positions), and the picks
-- a member has made but not yet submitted. The same for a practice exam's questions, and a
-- report keeps what the learner had submitted.

ALTER TABLE asks ADD COLUMN picks INTEGER NOT NULL DEFAULT 1 CHECK (picks BETWEEN 1 AND 7);
ALTER TABLE answers ADD COLUMN picked INTEGER CHECK (picked BETWEEN 1 AND 255);
ALTER TABLE exam_questions ADD COLUMN picks INTEGER NOT NULL DEFAULT 1
    CHECK (picks BETWEEN 1 AND 7);
ALTER TABLE exam_questions ADD COLUMN picked INTEGER CHECK (picked BETWEEN 0 AND 255);
ALTER TABLE reports ADD COLUMN picked INTEGER CHECK (picked BETWEEN 1 AND 255);

CREATE TABLE selections (
    ask_id      BIGINT  NOT NULL REFERENCES asks (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    picked      INTEGER NOT NULL CHECK (picked BETWEEN 0 AND 255),
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (ask_id, user_id)
);
CREATE INDEX selections_by_user ON selections (user_id);
