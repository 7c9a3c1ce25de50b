CREATE TYPE "public"."signup_approval" AS ENUM('admin', 'auto', 'individual');--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "signup_approval" "signup_approval" DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "signup_open" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "sso_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "verification_methods" jsonb DEFAULT '["email"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_codes_email_idx" ON "verification_codes" USING btree ("tenant_id","email","created_at");