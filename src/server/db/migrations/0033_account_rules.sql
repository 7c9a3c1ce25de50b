ALTER TABLE "rate_limits" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "password_min_length" integer DEFAULT 8 NOT NULL;