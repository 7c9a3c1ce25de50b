CREATE TABLE "mcp_servers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mcp_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret_kind" text DEFAULT 'none' NOT NULL,
	"secret_header_name" text DEFAULT '' NOT NULL,
	"secret" text DEFAULT '' NOT NULL,
	"last_connected_at" timestamp with time zone,
	"last_error_code" text,
	"last_error_message" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_tool_group_permissions" (
	"tenant_id" integer NOT NULL,
	"mcp_tool_id" integer NOT NULL,
	"member_group_id" integer NOT NULL,
	CONSTRAINT "mcp_tool_group_permissions_mcp_tool_id_member_group_id_pk" PRIMARY KEY("mcp_tool_id","member_group_id")
);
--> statement-breakpoint
CREATE TABLE "mcp_tools" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mcp_tools_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"mcp_server_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"input_schema" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_enabled" boolean DEFAULT false NOT NULL,
	"is_sensitive" boolean DEFAULT false NOT NULL,
	"is_gone" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tool_group_permissions" ADD CONSTRAINT "mcp_tool_group_permissions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tool_group_permissions" ADD CONSTRAINT "mcp_tool_group_permissions_mcp_tool_id_mcp_tools_id_fk" FOREIGN KEY ("mcp_tool_id") REFERENCES "public"."mcp_tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tool_group_permissions" ADD CONSTRAINT "mcp_tool_group_permissions_member_group_id_member_groups_id_fk" FOREIGN KEY ("member_group_id") REFERENCES "public"."member_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tools" ADD CONSTRAINT "mcp_tools_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tools" ADD CONSTRAINT "mcp_tools_mcp_server_id_mcp_servers_id_fk" FOREIGN KEY ("mcp_server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_servers_name_idx" ON "mcp_servers" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "mcp_tool_group_permissions_group_idx" ON "mcp_tool_group_permissions" USING btree ("member_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_tools_server_name_idx" ON "mcp_tools" USING btree ("mcp_server_id","name");--> statement-breakpoint
CREATE INDEX "mcp_tools_tenant_idx" ON "mcp_tools" USING btree ("tenant_id");