CREATE TABLE "member_uploads" (
	"task_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"invited" integer DEFAULT 0 NOT NULL,
	"failed_rows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unmailed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "background_tasks" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "background_tasks" ADD COLUMN "processed" integer;--> statement-breakpoint
ALTER TABLE "background_tasks" ADD COLUMN "total" integer;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "custom_field_values" jsonb;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "sso_id" text;--> statement-breakpoint
ALTER TABLE "member_uploads" ADD CONSTRAINT "member_uploads_task_id_background_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."background_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_uploads" ADD CONSTRAINT "member_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;