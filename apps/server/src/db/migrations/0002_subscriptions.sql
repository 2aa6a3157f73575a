CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"role" smallint NOT NULL,
	"status" smallint NOT NULL,
	"anonymous_id" text NOT NULL,
	"preferred_categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reward_address" text,
	"public_contact" text,
	"telegram_handle_private" text,
	"verification_link" text,
	"subscribed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_event_role_key" ON "subscriptions" USING btree ("user_id","event_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_anonymous_id_key" ON "subscriptions" USING btree ("anonymous_id");--> statement-breakpoint
CREATE INDEX "subscriptions_event_idx" ON "subscriptions" USING btree ("event_id","role","status");