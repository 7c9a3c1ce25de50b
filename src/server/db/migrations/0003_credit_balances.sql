CREATE TYPE "public"."credit_scope" AS ENUM('tenant', 'group', 'member');--> statement-breakpoint
CREATE TABLE "credit_balances" (
	"tenant_id" integer NOT NULL,
	"scope_kind" "credit_scope" NOT NULL,
	"scope_id" integer NOT NULL,
	"period" text NOT NULL,
	"usage_sum" numeric(20, 6) DEFAULT 0 NOT NULL,
	"grant_sum" numeric(20, 6) DEFAULT 0 NOT NULL,
	"grant_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_balances_tenant_id_scope_kind_scope_id_period_pk" PRIMARY KEY("tenant_id","scope_kind","scope_id","period")
);
--> statement-breakpoint
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill from the existing ledger: the same sums services/credits.ts keeps up to date from now on.
INSERT INTO "credit_balances" ("tenant_id", "scope_kind", "scope_id", "period", "usage_sum", "grant_sum", "grant_count")
SELECT "tenant_id", 'tenant', "tenant_id", 'all',
	coalesce(sum("amount") FILTER (WHERE "kind" <> 'grant'), 0),
	coalesce(sum("amount") FILTER (WHERE "kind" = 'grant' AND "member_group_id" IS NULL AND "member_id" IS NULL), 0),
	count(*) FILTER (WHERE "kind" = 'grant' AND "member_group_id" IS NULL AND "member_id" IS NULL)
FROM "credit_ledger" GROUP BY "tenant_id";--> statement-breakpoint
INSERT INTO "credit_balances" ("tenant_id", "scope_kind", "scope_id", "period", "usage_sum")
SELECT "tenant_id", 'group', "member_group_id", to_char("created_at", 'YYYY-MM'), sum("amount")
FROM "credit_ledger" WHERE "kind" <> 'grant' AND "member_group_id" IS NOT NULL
GROUP BY "tenant_id", "member_group_id", to_char("created_at", 'YYYY-MM');--> statement-breakpoint
INSERT INTO "credit_balances" ("tenant_id", "scope_kind", "scope_id", "period", "usage_sum")
SELECT "tenant_id", 'member', "member_id", to_char("created_at", 'YYYY-MM'), sum("amount")
FROM "credit_ledger" WHERE "kind" <> 'grant' AND "member_id" IS NOT NULL
GROUP BY "tenant_id", "member_id", to_char("created_at", 'YYYY-MM');
