CREATE TABLE "proposal_scores" (
	"proposal_id" integer PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"overall" double precision,
	"impact" double precision,
	"feasibility" double precision,
	"value_for_money" double precision,
	"nr_reviews" integer NOT NULL,
	"nr_allocated_reviews" integer NOT NULL,
	"nr_included_reviews" integer NOT NULL,
	"nr_excluded_reviews" integer NOT NULL,
	"nr_excluded_by_moderation_reviews" integer NOT NULL,
	"nr_excluded_by_threshold_reviews" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposal_scores" ADD CONSTRAINT "proposal_scores_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_scores" ADD CONSTRAINT "proposal_scores_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proposal_scores_event_idx" ON "proposal_scores" USING btree ("event_id","proposal_id");