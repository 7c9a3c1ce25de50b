ALTER TABLE "tenants" ADD COLUMN "logo_file_id" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "manual_url" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_logo_file_id_files_id_fk" FOREIGN KEY ("logo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;