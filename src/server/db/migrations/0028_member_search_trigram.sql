-- Trigram indexes for the admin member search (`ILIKE '%term%'`); pg_trgm comes from 0008, and PGlite loads it in db/client.ts.
CREATE INDEX "member_custom_field_values_value_trgm_idx" ON "member_custom_field_values" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "members_name_trgm_idx" ON "members" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "members_email_trgm_idx" ON "members" USING gin ("email" gin_trgm_ops);