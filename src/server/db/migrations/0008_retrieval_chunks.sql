-- Trigram word similarity (word_similarity) re-ranks passages whose words carry particles or endings (Korean) or other forms.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "document_chunks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "document_chunks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"page" integer,
	"section" text,
	"text" text NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(section, '') || ' ' || text)) STORED,
	"embedding" real[],
	"embedding_model" text
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "has_files" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "has_files" = true WHERE EXISTS (SELECT 1 FROM "session_message_files" f JOIN "session_messages" m ON m."id" = f."message_id" WHERE m."session_id" = "sessions"."id");--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_chunks_file_idx" ON "document_chunks" USING btree ("file_id","ordinal");