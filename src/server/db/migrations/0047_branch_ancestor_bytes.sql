ALTER TABLE "session_messages" ADD COLUMN "ancestor_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every existing message's value, walked down each session's tree from its first messages (one
-- index step per message on session_messages (session_id, parent_id, id)).
WITH RECURSIVE walk(id, session_id, through) AS (
  SELECT id, session_id, octet_length(text) FROM session_messages WHERE parent_id IS NULL
  UNION ALL
  SELECT m.id, m.session_id, w.through + octet_length(m.text)
  FROM session_messages m JOIN walk w ON m.session_id = w.session_id AND m.parent_id = w.id
)
UPDATE session_messages s SET ancestor_bytes = walk.through - octet_length(s.text) FROM walk WHERE s.id = walk.id;
