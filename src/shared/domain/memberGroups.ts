/** Member groups (spec §3, §5). */
export const GROUP_NAME_MAX = 100;

/** A group has a Korean or an English name, or both (spec §5 asks each to be unique, not both present). */
export const hasGroupName = (names: { ko_name: string; en_name: string }): boolean => names.ko_name.trim() !== '' || names.en_name.trim() !== '';
