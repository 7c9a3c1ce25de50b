ALTER TABLE "payments" ADD COLUMN "owner_key" text;--> statement-breakpoint
-- Payments written before this column name their payer through their membership.
UPDATE "payments" SET "owner_key" = CASE WHEN "memberships"."member_id" IS NULL THEN 'tenant:' || "payments"."tenant_id" ELSE 'member:' || "memberships"."member_id" END FROM "memberships" WHERE "memberships"."id" = "payments"."membership_id";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "owner_key" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_pending_per_owner_idx" ON "payments" USING btree ("owner_key") WHERE status = 'pending';
