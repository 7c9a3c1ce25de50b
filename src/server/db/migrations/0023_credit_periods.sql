ALTER TABLE "credit_ledger" ADD COLUMN "plan_period" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "expires_grant_id" integer;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_expires_grant_id_credit_ledger_id_fk" FOREIGN KEY ("expires_grant_id") REFERENCES "public"."credit_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_plan_period_idx" ON "credit_ledger" USING btree ("tenant_id","plan_period");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_one_expiry_idx" ON "credit_ledger" USING btree ("expires_grant_id");