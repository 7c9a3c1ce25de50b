ALTER TABLE "sso_platforms" ALTER COLUMN "config" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "sso_whitelist_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "members_sso_identity_idx" ON "members" USING btree ("tenant_id","sso_platform_id","sso_id") WHERE "members"."sso_id" IS NOT NULL;