CREATE TABLE "chatbot_tools" (
	"tenant_id" integer NOT NULL,
	"chatbot_id" integer NOT NULL,
	"mcp_tool_id" integer NOT NULL,
	CONSTRAINT "chatbot_tools_chatbot_id_mcp_tool_id_pk" PRIMARY KEY("chatbot_id","mcp_tool_id")
);
--> statement-breakpoint
ALTER TABLE "chatbots" ADD COLUMN "tool_step_limit" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbot_tools" ADD CONSTRAINT "chatbot_tools_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_tools" ADD CONSTRAINT "chatbot_tools_chatbot_id_chatbots_id_fk" FOREIGN KEY ("chatbot_id") REFERENCES "public"."chatbots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_tools" ADD CONSTRAINT "chatbot_tools_mcp_tool_id_mcp_tools_id_fk" FOREIGN KEY ("mcp_tool_id") REFERENCES "public"."mcp_tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbot_tools_tool_idx" ON "chatbot_tools" USING btree ("mcp_tool_id");