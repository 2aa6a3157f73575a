CREATE TABLE "moderation_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"subscription_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"classification" smallint NOT NULL,
	"rationale" text NOT NULL,
	"predefined_reason" text,
	"custom_rationale" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"flag_type" smallint NOT NULL,
	"score" double precision NOT NULL,
	"related_reviews" integer[] DEFAULT '{}' NOT NULL,
	"related_criteria" text[],
	"source" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_allocations" ADD CONSTRAINT "moderation_allocations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_allocations" ADD CONSTRAINT "moderation_allocations_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_allocations" ADD CONSTRAINT "moderation_allocations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderations" ADD CONSTRAINT "moderations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderations" ADD CONSTRAINT "moderations_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderations" ADD CONSTRAINT "moderations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_flags" ADD CONSTRAINT "review_flags_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_flags" ADD CONSTRAINT "review_flags_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_allocations_subscription_review_key" ON "moderation_allocations" USING btree ("subscription_id","review_id");--> statement-breakpoint
CREATE INDEX "moderation_allocations_review_idx" ON "moderation_allocations" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "moderation_allocations_event_idx" ON "moderation_allocations" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderations_subscription_review_key" ON "moderations" USING btree ("subscription_id","review_id");--> statement-breakpoint
CREATE INDEX "moderations_review_idx" ON "moderations" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "moderations_event_idx" ON "moderations" USING btree ("event_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_flags_review_type_key" ON "review_flags" USING btree ("review_id","flag_type");--> statement-breakpoint
CREATE INDEX "review_flags_event_type_idx" ON "review_flags" USING btree ("event_id","flag_type");