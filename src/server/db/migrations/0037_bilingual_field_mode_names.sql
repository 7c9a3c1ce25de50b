ALTER TABLE "custom_fields" ADD COLUMN "ko_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD COLUMN "en_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "task_modes" ADD COLUMN "ko_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "task_modes" ADD COLUMN "en_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The one name moves to the language it is written in: Hangul is Korean, anything else English.
UPDATE "custom_fields" SET "ko_name" = CASE WHEN "field_name" ~ '[가-힣]' THEN btrim("field_name") ELSE '' END, "en_name" = CASE WHEN "field_name" ~ '[가-힣]' THEN '' ELSE btrim("field_name") END;--> statement-breakpoint
-- Task modes were named "한국어 (English)" (the demo seed's convention): such a name gives both.
UPDATE "task_modes" SET "ko_name" = CASE WHEN "mode_name" ~ '[가-힣].* \([^()가-힣]+\)$' THEN btrim(regexp_replace("mode_name", '^(.*) \(([^()]+)\)$', '\1')) WHEN "mode_name" ~ '[가-힣]' THEN btrim("mode_name") ELSE '' END, "en_name" = CASE WHEN "mode_name" ~ '[가-힣].* \([^()가-힣]+\)$' THEN btrim(regexp_replace("mode_name", '^(.*) \(([^()]+)\)$', '\2')) WHEN "mode_name" ~ '[가-힣]' THEN '' ELSE btrim("mode_name") END;
