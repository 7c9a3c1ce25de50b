/**
 * The admin writes the audit log records (issue 11), and members' tool calls (issue 24). Each is `<target>.<verb>`; the admin page
 * translates them (`audit` namespace, key `action.<target>.<verb>`) and filters by them. A new admin
 * write adds its action here, in the same change as the service that records it.
 */
export const AUDIT_ACTIONS = [
  'announcement.create',
  'announcement.update',
  'announcement.delete',
  'chatbot.publish_decision',
  'model_permission.update',
  'restricted_word.create',
  'restricted_word.delete',
  'pii_settings.update',
  'signup_settings.update',
  'tenant_settings.update',
  'custom_field.create',
  'custom_field.update',
  'custom_field.delete',
  'policy.create',
  'policy.update',
  'policy.delete',
  'task_mode.create',
  'task_mode.update',
  'task_mode.delete',
  'sso_platform.create',
  'sso_platform.update',
  'sso_platform.delete',
  'invitation.create',
  'invitation.delete',
  'member.update',
  'member.delete',
  'member.credit_quota',
  'member.admin_rights',
  /** Deactivated or reactivated by an admin (`member_status` from, to). */
  'member.status',
  'member.request_decision',
  'member.bulk_upload',
  'member_group.create',
  'member_group.update',
  'member_group.delete',
  'member_group.remove_member',
  'sso_whitelist.upsert',
  'sso_whitelist.delete',
  'credit.allocation',
  'membership.update',
  'api_key.revoke',
  'prompt.create',
  'prompt.update',
  'prompt.delete',
  'mcp_server.create',
  'mcp_server.update',
  'mcp_server.delete',
  /** The tools were listed again (`added`, `gone`, `returned`: tool names). */
  'mcp_server.refresh',
  /** A tool's switches or groups (`is_enabled`, `is_sensitive`, `member_groups` from, to). */
  'mcp_tool.update',
  /**
   * A member's chat called a tool (issue 24; the actor is the member, not an admin): `name`,
   * `server`, `chatbot`, `status`, `duration_ms`, and `arguments` unless the tool is sensitive.
   */
  'mcp_tool.call',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

type TargetOf<Action> = Action extends `${infer Target}.${string}` ? Target : never;
/** The kind of record an action is about: its name before the dot (`member_group`). */
export type AuditTarget = TargetOf<AuditAction>;
/** Whether a recorded `target_type` is one the actions name (the admin page translates those). */
export const isAuditTarget = (value: string): value is AuditTarget => AUDIT_ACTIONS.some((action) => action.startsWith(`${value}.`));

/** What an audit row says changed: a field's old and new value, or a whole created/deleted value. */
export type AuditChanges = Record<string, unknown>;

/** `{ field: { from, to } }` for the fields whose value differs; unchanged fields are left out. */
export function diffFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [key, to] of Object.entries(after)) {
    const from = before[key];
    if (to !== undefined && JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}
