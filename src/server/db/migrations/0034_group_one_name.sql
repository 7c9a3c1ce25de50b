DROP INDEX "member_groups_ko_name_idx";--> statement-breakpoint
DROP INDEX "member_groups_en_name_idx";--> statement-breakpoint
ALTER TABLE "member_groups" ALTER COLUMN "ko_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "member_groups" ALTER COLUMN "en_name" SET DEFAULT '';--> statement-breakpoint
CREATE UNIQUE INDEX "member_groups_ko_name_idx" ON "member_groups" USING btree ("tenant_id","ko_name") WHERE "member_groups"."ko_name" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "member_groups_en_name_idx" ON "member_groups" USING btree ("tenant_id","en_name") WHERE "member_groups"."en_name" <> '';