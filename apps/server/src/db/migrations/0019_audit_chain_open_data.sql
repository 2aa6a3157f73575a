CREATE TABLE "audit_heads" (
	"chain" integer PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "data_sha256" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "event_prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "redacted_at" timestamp with time zone;