CREATE TABLE "file_sections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_sections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"page" integer,
	"heading" text,
	"text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "reasoning" text;--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "reasoning_ms" integer;--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "file_sections" ADD CONSTRAINT "file_sections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_sections" ADD CONSTRAINT "file_sections_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_sections_file_idx" ON "file_sections" USING btree ("file_id","ordinal");