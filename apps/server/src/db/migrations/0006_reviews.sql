CREATE TABLE "reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"impact_alignment_rating_given" smallint NOT NULL,
	"impact_alignment_note" text NOT NULL,
	"feasibility_rating_given" smallint NOT NULL,
	"feasibility_note" text NOT NULL,
	"auditability_rating_given" smallint NOT NULL,
	"auditability_note" text NOT NULL,
	"ranking" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_subscription_proposal_key" ON "reviews" USING btree ("subscription_id","proposal_id");--> statement-breakpoint
CREATE INDEX "reviews_proposal_idx" ON "reviews" USING btree ("proposal_id","id");--> statement-breakpoint
CREATE INDEX "reviews_event_ranking_idx" ON "reviews" USING btree ("event_id","ranking","id");