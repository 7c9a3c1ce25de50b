ALTER TABLE "llm_models" ADD COLUMN "supports_reasoning" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "image_count" integer DEFAULT 0 NOT NULL;