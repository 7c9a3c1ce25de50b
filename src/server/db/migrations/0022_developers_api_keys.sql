CREATE TABLE "api_key_chatbots" (
	"tenant_id" integer NOT NULL,
	"api_key_id" integer NOT NULL,
	"chatbot_id" integer NOT NULL,
	CONSTRAINT "api_key_chatbots_api_key_id_chatbot_id_pk" PRIMARY KEY("api_key_id","chatbot_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "is_api" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "api_key_chatbots" ADD CONSTRAINT "api_key_chatbots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_chatbots" ADD CONSTRAINT "api_key_chatbots_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_chatbots" ADD CONSTRAINT "api_key_chatbots_chatbot_id_chatbots_id_fk" FOREIGN KEY ("chatbot_id") REFERENCES "public"."chatbots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_member_idx" ON "api_keys" USING btree ("tenant_id","member_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_records_api_key_idx" ON "usage_records" USING btree ("api_key_id","created_at");