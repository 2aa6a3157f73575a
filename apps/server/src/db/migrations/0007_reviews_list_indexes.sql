ALTER TABLE "reviews" ADD COLUMN "category_id" integer;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_event_id_idx" ON "reviews" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "reviews_category_id_idx" ON "reviews" USING btree ("category_id","id");