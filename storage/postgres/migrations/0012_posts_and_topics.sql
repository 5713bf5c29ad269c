-- When each question was posted, on the question itself (the outbox forgets settled messages
-- after a week; the item report times answers from the post), and the forum topic a daily
-- question goes to (the one /daily was sent in).

ALTER TABLE asks ADD COLUMN posted_at BIGINT;

UPDATE asks SET posted_at = (
    SELECT min(at) FROM (
        SELECT e.done_at AS at FROM effects AS e
        WHERE e.ask_id = asks.id AND e.kind = 'question' AND e.status = 'done'
              AND e.done_at IS NOT NULL
        UNION ALL
        SELECT d.done_at FROM daily_pushes AS d
        WHERE d.ask_id = asks.id AND d.status = 'sent' AND d.done_at IS NOT NULL
    ) AS posted
)
WHERE message_id IS NOT NULL;

ALTER TABLE daily_schedules ADD COLUMN thread_id BIGINT;
