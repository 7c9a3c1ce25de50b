/** Member groups (spec §3, §5). */
export const GROUP_NAME_MAX = 100;

/** `order_by` of `GET /member-groups/` (spec §7): by the shown name or by age; without it the default group comes first, then by name. */
export const MEMBER_GROUP_ORDERS = ['name.asc', 'name.desc', 'created_at.asc', 'created_at.desc'] as const;
