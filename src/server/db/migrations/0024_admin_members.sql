CREATE INDEX "member_group_links_group_idx" ON "member_group_links" USING btree ("member_group_id");--> statement-breakpoint
CREATE INDEX "member_group_queues_member_idx" ON "member_group_queues" USING btree ("member_id","request_type");--> statement-breakpoint
CREATE INDEX "members_tenant_created_idx" ON "members" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "members_tenant_status_idx" ON "members" USING btree ("tenant_id","status");