ALTER TABLE "appeals" ADD COLUMN "decisions_needed" smallint DEFAULT 3 NOT NULL;--> statement-breakpoint
-- An appeal allocated before this column kept its allocated count as N; an open one takes its event's setting.
UPDATE "appeals" AS a SET "decisions_needed" = coalesce(
  nullif((SELECT count(*) FROM "appeal_allocations" aa WHERE aa."appeal_id" = a."id"), 0),
  (SELECT (c."value" ->> 'decisions_needed')::int FROM "configs" c WHERE c."kind" = 'appeals' AND c."event_id" = a."event_id"),
  3);
