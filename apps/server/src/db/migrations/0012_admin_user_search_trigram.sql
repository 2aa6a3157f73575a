CREATE INDEX "catalyst_ids_catalyst_id_trgm_idx" ON "catalyst_ids" USING gin ("catalyst_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "catalyst_ids_username_trgm_idx" ON "catalyst_ids" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "catalyst_ids_email_trgm_idx" ON "catalyst_ids" USING gin ("email" gin_trgm_ops);