/** Member groups (spec §3, §5). */
export const GROUP_NAME_MAX = 100;
