CREATE UNIQUE INDEX "custom_fields_ko_name_idx" ON "custom_fields" USING btree ("tenant_id","ko_name") WHERE "custom_fields"."ko_name" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "custom_fields_en_name_idx" ON "custom_fields" USING btree ("tenant_id","en_name") WHERE "custom_fields"."en_name" <> '';--> statement-breakpoint
ALTER TABLE "custom_fields" DROP COLUMN "field_name";--> statement-breakpoint
ALTER TABLE "task_modes" DROP COLUMN "mode_name";