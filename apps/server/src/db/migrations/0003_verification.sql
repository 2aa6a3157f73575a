ALTER TABLE "catalyst_ids" ADD COLUMN "rbac_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "due_diligence_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "due_diligence_url" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "due_diligence_ref" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "verification_ref" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_due_diligence_ref_unique" UNIQUE("due_diligence_ref");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_verification_ref_unique" UNIQUE("verification_ref");