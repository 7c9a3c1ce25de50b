/** Member groups (spec §3, §5). */
export const GROUP_NAME_MAX = 100;

/** A group has a Korean or an English name, or both (spec §5 asks each to be unique, not both present). */
export const hasGroupName = (names: { ko_name: string; en_name: string }): boolean => names.ko_name.trim() !== '' || names.en_name.trim() !== '';

/** `order_by` of `GET /member-groups/` (spec §7): by the shown name or by age; without it the default group comes first, then by name. */
export const MEMBER_GROUP_ORDERS = ['name.asc', 'name.desc', 'created_at.asc', 'created_at.desc'] as const;
