DROP INDEX "reviews_proposal_idx";--> statement-breakpoint
DROP INDEX "reviews_category_id_idx";--> statement-breakpoint
CREATE INDEX "reviews_proposal_idx" ON "reviews" USING btree ("proposal_id","id","event_id","subscription_id");--> statement-breakpoint
CREATE INDEX "reviews_category_id_idx" ON "reviews" USING btree ("category_id","id","event_id","subscription_id");