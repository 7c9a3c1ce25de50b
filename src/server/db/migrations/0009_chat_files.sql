ALTER TABLE "files" ADD COLUMN "parse_status" text DEFAULT 'parsing' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "file_limits" jsonb;