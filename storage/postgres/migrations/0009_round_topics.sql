-- `/quiz N TOPIC`: a round that asks from one topic of the chat's deck remembers it, so its
-- next question (after `Next ▶`, a group question's close, or a restart) comes from it too.
-- NULL: the whole deck.
-- Mirrors storage/sqlite/migrations/0009_round_topics.sql.

ALTER TABLE rounds ADD COLUMN topic TEXT;
