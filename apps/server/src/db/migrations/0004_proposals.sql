CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "proposal_allocations" (
	"event_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	CONSTRAINT "proposal_allocations_subscription_id_proposal_id_pk" PRIMARY KEY("subscription_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "proposal_authors" (
	"proposal_id" integer NOT NULL,
	"catalyst_key" text NOT NULL,
	CONSTRAINT "proposal_authors_proposal_id_catalyst_key_pk" PRIMARY KEY("proposal_id","catalyst_key")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"pr_id" text NOT NULL,
	"version" text,
	"template_id" text,
	"title" text NOT NULL,
	"summary" text,
	"solution" text,
	"proposer_name" text,
	"funds" bigint,
	"currency" text DEFAULT 'ADA' NOT NULL,
	"url" text,
	"category_id" integer,
	"extra" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposal_allocations" ADD CONSTRAINT "proposal_allocations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_allocations" ADD CONSTRAINT "proposal_allocations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_allocations" ADD CONSTRAINT "proposal_allocations_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_authors" ADD CONSTRAINT "proposal_authors_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proposal_allocations_proposal_idx" ON "proposal_allocations" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "proposal_allocations_event_idx" ON "proposal_allocations" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "proposal_authors_key_idx" ON "proposal_authors" USING btree ("catalyst_key");--> statement-breakpoint
CREATE UNIQUE INDEX "proposals_event_pr_id_key" ON "proposals" USING btree ("event_id","pr_id");--> statement-breakpoint
CREATE INDEX "proposals_event_category_idx" ON "proposals" USING btree ("event_id","category_id","id");--> statement-breakpoint
CREATE INDEX "proposals_title_trgm_idx" ON "proposals" USING gin (lower("title") gin_trgm_ops);