CREATE TABLE "appeal_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"appeal_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeal_decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"appeal_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"decision" smallint NOT NULL,
	"rationale" text NOT NULL,
	"predefined_reason" text,
	"custom_rationale" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeals" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"rationale" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"ranking_before" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "moderation_top_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"allocation_id" integer NOT NULL,
	"run_audit_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"moderation_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"version" integer NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" integer,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"review_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"version" integer NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" integer,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appeal_allocations" ADD CONSTRAINT "appeal_allocations_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeal_allocations" ADD CONSTRAINT "appeal_allocations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeal_decisions" ADD CONSTRAINT "appeal_decisions_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeal_decisions" ADD CONSTRAINT "appeal_decisions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_top_ups" ADD CONSTRAINT "moderation_top_ups_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_versions" ADD CONSTRAINT "moderation_versions_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_versions" ADD CONSTRAINT "review_versions_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeal_allocations_appeal_subscription_key" ON "appeal_allocations" USING btree ("appeal_id","subscription_id");--> statement-breakpoint
CREATE INDEX "appeal_allocations_subscription_idx" ON "appeal_allocations" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "appeal_decisions_appeal_subscription_key" ON "appeal_decisions" USING btree ("appeal_id","subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_review_key" ON "appeals" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "appeals_event_status_idx" ON "appeals" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "moderation_top_ups_event_idx" ON "moderation_top_ups" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_top_ups_allocation_key" ON "moderation_top_ups" USING btree ("allocation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_versions_moderation_version_key" ON "moderation_versions" USING btree ("moderation_id","version");--> statement-breakpoint
CREATE INDEX "moderation_versions_review_idx" ON "moderation_versions" USING btree ("review_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "review_versions_review_version_key" ON "review_versions" USING btree ("review_id","version");--> statement-breakpoint
INSERT INTO "review_versions" ("review_id", "event_id", "proposal_id", "subscription_id", "version", "action", "actor_user_id", "content", "created_at")
SELECT r."id", r."event_id", r."proposal_id", r."subscription_id", 1, 'create', s."user_id",
  jsonb_build_object(
    'impact_alignment_rating_given', r."impact_alignment_rating_given", 'impact_alignment_note', r."impact_alignment_note",
    'feasibility_rating_given', r."feasibility_rating_given", 'feasibility_note', r."feasibility_note",
    'auditability_rating_given', r."auditability_rating_given", 'auditability_note', r."auditability_note"),
  r."updated_at"
FROM "reviews" r JOIN "subscriptions" s ON s."id" = r."subscription_id";--> statement-breakpoint
INSERT INTO "moderation_versions" ("moderation_id", "review_id", "event_id", "subscription_id", "version", "action", "actor_user_id", "content", "created_at")
SELECT m."id", m."review_id", m."event_id", m."subscription_id", 1, 'create', s."user_id",
  jsonb_build_object('classification', m."classification", 'rationale', m."rationale",
    'predefined_reason', m."predefined_reason", 'custom_rationale', m."custom_rationale"),
  m."updated_at"
FROM "moderations" m JOIN "subscriptions" s ON s."id" = m."subscription_id";
